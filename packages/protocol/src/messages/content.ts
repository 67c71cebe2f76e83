import type { Catalogue } from './catalogue.ts';

/** Home and help-centre content: notices, banners, tips, about-us (operator answers included). */
export const content: Catalogue = {
  en: {
    'content.noticeNotFound': 'This notice does not exist or has been removed',
    'content.bannerNotFound': 'This banner does not exist or has been removed',
    'content.saved': 'Saved',
    'content.deleted': 'Deleted',
  },
  cn: {
    'content.noticeNotFound': '该公告不存在或已被删除',
    'content.bannerNotFound': '该横幅不存在或已被删除',
    'content.saved': '已保存',
    'content.deleted': '已删除',
  },
  tw: {
    'content.noticeNotFound': '該公告不存在或已被刪除',
    'content.bannerNotFound': '該橫幅不存在或已被刪除',
    'content.saved': '已儲存',
    'content.deleted': '已刪除',
  },
  jp: {
    'content.noticeNotFound': 'このお知らせは存在しないか、削除されました',
    'content.bannerNotFound': 'このバナーは存在しないか、削除されました',
    'content.saved': '保存しました',
    'content.deleted': '削除しました',
  },
  ko: {
    'content.noticeNotFound': '이 공지는 존재하지 않거나 삭제되었습니다',
    'content.bannerNotFound': '이 배너는 존재하지 않거나 삭제되었습니다',
    'content.saved': '저장되었습니다',
    'content.deleted': '삭제되었습니다',
  },
  tr: {
    'content.noticeNotFound': 'Bu duyuru mevcut değil veya kaldırıldı',
    'content.bannerNotFound': 'Bu afiş mevcut değil veya kaldırıldı',
    'content.saved': 'Kaydedildi',
    'content.deleted': 'Silindi',
  },
  vi: {
    'content.noticeNotFound': 'Thông báo này không tồn tại hoặc đã bị xóa',
    'content.bannerNotFound': 'Biểu ngữ này không tồn tại hoặc đã bị xóa',
    'content.saved': 'Đã lưu',
    'content.deleted': 'Đã xóa',
  },
  id: {
    'content.noticeNotFound': 'Pengumuman ini tidak ada atau telah dihapus',
    'content.bannerNotFound': 'Banner ini tidak ada atau telah dihapus',
    'content.saved': 'Tersimpan',
    'content.deleted': 'Terhapus',
  },
  ru: {
    'content.noticeNotFound': 'Это объявление не существует или было удалено',
    'content.bannerNotFound': 'Этот баннер не существует или был удалён',
    'content.saved': 'Сохранено',
    'content.deleted': 'Удалено',
  },
};
