import type { Catalogue } from './catalogue.ts';

/** Live-data (WebSocket) messages. */
export const market: Catalogue = {
  en: { 'market.badSubscription': 'Unknown live-data subscription: {key}' },
  cn: { 'market.badSubscription': '无效的行情订阅：{key}' },
  tw: { 'market.badSubscription': '無效的行情訂閱：{key}' },
  jp: { 'market.badSubscription': '不明なリアルタイム購読です：{key}' },
  ko: { 'market.badSubscription': '알 수 없는 실시간 데이터 구독입니다: {key}' },
  tr: { 'market.badSubscription': 'Bilinmeyen canlı veri aboneliği: {key}' },
  vi: { 'market.badSubscription': 'Đăng ký dữ liệu trực tiếp không hợp lệ: {key}' },
  id: { 'market.badSubscription': 'Langganan data langsung tidak dikenal: {key}' },
  ru: { 'market.badSubscription': 'Неизвестная подписка на рыночные данные: {key}' },
};
