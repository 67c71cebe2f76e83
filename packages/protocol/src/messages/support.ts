import type { Catalogue } from './catalogue.ts';

/** Help tickets (spec §3 Ticket, §4 waiting → responded → closed). */
export const support: Catalogue = {
  en: {
    'support.submitted': 'Your ticket has been submitted. We will reply as soon as possible',
    'support.ticketNotFound': 'This ticket does not exist',
    'support.ticketClosed': 'This ticket is closed',
    'support.replied': 'Reply sent',
    'support.closed': 'Ticket closed',
  },
  cn: {
    'support.submitted': '工单已提交，我们会尽快回复',
    'support.ticketNotFound': '该工单不存在',
    'support.ticketClosed': '该工单已关闭',
    'support.replied': '回复已发送',
    'support.closed': '工单已关闭',
  },
  tw: {
    'support.submitted': '工單已提交，我們會盡快回覆',
    'support.ticketNotFound': '該工單不存在',
    'support.ticketClosed': '該工單已關閉',
    'support.replied': '回覆已發送',
    'support.closed': '工單已關閉',
  },
  jp: {
    'support.submitted': 'チケットを送信しました。できるだけ早く返信いたします',
    'support.ticketNotFound': 'このチケットは存在しません',
    'support.ticketClosed': 'このチケットはクローズされています',
    'support.replied': '返信を送信しました',
    'support.closed': 'チケットをクローズしました',
  },
  ko: {
    'support.submitted': '티켓이 접수되었습니다. 최대한 빨리 답변드리겠습니다',
    'support.ticketNotFound': '이 티켓은 존재하지 않습니다',
    'support.ticketClosed': '이 티켓은 종료되었습니다',
    'support.replied': '답변을 보냈습니다',
    'support.closed': '티켓이 종료되었습니다',
  },
  tr: {
    'support.submitted': 'Talebiniz gönderildi. En kısa sürede yanıt vereceğiz',
    'support.ticketNotFound': 'Bu talep mevcut değil',
    'support.ticketClosed': 'Bu talep kapatılmış',
    'support.replied': 'Yanıt gönderildi',
    'support.closed': 'Talep kapatıldı',
  },
  vi: {
    'support.submitted': 'Phiếu hỗ trợ đã được gửi. Chúng tôi sẽ trả lời sớm nhất có thể',
    'support.ticketNotFound': 'Phiếu hỗ trợ này không tồn tại',
    'support.ticketClosed': 'Phiếu hỗ trợ này đã đóng',
    'support.replied': 'Đã gửi phản hồi',
    'support.closed': 'Đã đóng phiếu hỗ trợ',
  },
  id: {
    'support.submitted': 'Tiket Anda telah dikirim. Kami akan membalas secepatnya',
    'support.ticketNotFound': 'Tiket ini tidak ada',
    'support.ticketClosed': 'Tiket ini sudah ditutup',
    'support.replied': 'Balasan terkirim',
    'support.closed': 'Tiket ditutup',
  },
  ru: {
    'support.submitted': 'Обращение отправлено. Мы ответим как можно скорее',
    'support.ticketNotFound': 'Такого обращения не существует',
    'support.ticketClosed': 'Это обращение закрыто',
    'support.replied': 'Ответ отправлен',
    'support.closed': 'Обращение закрыто',
  },
};
