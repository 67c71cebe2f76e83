import { LOCALES, type Locale } from '@halyard/protocol';
import type { Insertable } from 'kysely';
import type { SpotPairsTable } from './store.ts';

/** What a coin is for, in a few words per locale: the introduction's second sentence. */
type Category = 'money' | 'platform' | 'exchange' | 'payments' | 'meme' | 'house';

const CATEGORY_TEXT: Record<Category, Record<Locale, string>> = {
  money: {
    en: 'It is a decentralised digital currency with a fixed supply, used as a store of value and for payments.',
    cn: '它是一种总量固定的去中心化数字货币，用于价值储存和支付。',
    tw: '它是一種總量固定的去中心化數位貨幣，用於價值儲存和支付。',
    jp: '発行上限が固定された分散型デジタル通貨で、価値の保存と決済に使われます。',
    ko: '발행량이 고정된 탈중앙화 디지털 화폐로, 가치 저장과 결제에 쓰입니다.',
    tr: 'Arzı sabit, merkeziyetsiz bir dijital para birimidir; değer saklama ve ödemeler için kullanılır.',
    vi: 'Đây là tiền kỹ thuật số phi tập trung với nguồn cung cố định, dùng để lưu trữ giá trị và thanh toán.',
    id: 'Ini adalah mata uang digital terdesentralisasi dengan pasokan tetap, dipakai untuk menyimpan nilai dan pembayaran.',
    ru: 'Это децентрализованная цифровая валюта с фиксированной эмиссией, используемая для сбережений и платежей.',
  },
  platform: {
    en: 'It runs a blockchain for smart contracts and decentralised applications, and pays for their fees.',
    cn: '它运行一条支持智能合约和去中心化应用的区块链，并用于支付其手续费。',
    tw: '它運行一條支援智能合約和去中心化應用的區塊鏈，並用於支付其手續費。',
    jp: 'スマートコントラクトと分散型アプリのためのブロックチェーンを動かし、その手数料の支払いに使われます。',
    ko: '스마트 계약과 탈중앙화 애플리케이션을 위한 블록체인을 운영하며, 그 수수료를 지불하는 데 쓰입니다.',
    tr: 'Akıllı sözleşmeler ve merkeziyetsiz uygulamalar için bir blokzincir işletir ve bunların ücretlerini öder.',
    vi: 'Nó vận hành một blockchain cho hợp đồng thông minh và ứng dụng phi tập trung, đồng thời dùng để trả phí.',
    id: 'Ini menjalankan blockchain untuk kontrak pintar dan aplikasi terdesentralisasi, serta membayar biayanya.',
    ru: 'Он обслуживает блокчейн для смарт-контрактов и децентрализованных приложений и оплачивает их комиссии.',
  },
  exchange: {
    en: 'It is the native coin of an exchange ecosystem and its chain, used for fees and on-chain applications.',
    cn: '它是一个交易所生态及其公链的原生币，用于支付手续费和链上应用。',
    tw: '它是一個交易所生態及其公鏈的原生幣，用於支付手續費和鏈上應用。',
    jp: '取引所エコシステムとそのチェーンのネイティブコインで、手数料やオンチェーンアプリに使われます。',
    ko: '거래소 생태계와 그 체인의 기본 코인으로, 수수료와 온체인 애플리케이션에 쓰입니다.',
    tr: 'Bir borsa ekosisteminin ve zincirinin yerel coinidir; ücretler ve zincir üstü uygulamalar için kullanılır.',
    vi: 'Đây là đồng tiền gốc của một hệ sinh thái sàn giao dịch và chuỗi của nó, dùng để trả phí và cho ứng dụng trên chuỗi.',
    id: 'Ini adalah koin asli sebuah ekosistem bursa dan rantainya, dipakai untuk biaya dan aplikasi on-chain.',
    ru: 'Это собственная монета экосистемы биржи и её блокчейна, используемая для комиссий и ончейн-приложений.',
  },
  payments: {
    en: 'It is built for fast, low-cost transfers and settlement between people and institutions.',
    cn: '它专为个人和机构之间快速、低成本的转账与结算而设计。',
    tw: '它專為個人和機構之間快速、低成本的轉帳與結算而設計。',
    jp: '個人や機関の間での高速かつ低コストな送金と決済のために作られました。',
    ko: '개인과 기관 사이의 빠르고 저렴한 송금과 결제를 위해 만들어졌습니다.',
    tr: 'Kişiler ve kurumlar arasında hızlı ve düşük maliyetli transfer ve takas için tasarlanmıştır.',
    vi: 'Nó được xây dựng cho chuyển tiền và thanh toán nhanh, chi phí thấp giữa cá nhân và tổ chức.',
    id: 'Ini dibuat untuk transfer dan penyelesaian yang cepat dan murah antara orang dan lembaga.',
    ru: 'Она создана для быстрых и дешёвых переводов и расчётов между людьми и организациями.',
  },
  meme: {
    en: 'It began as a joke and grew into a widely used community coin for tips and small payments.',
    cn: '它起初只是一个玩笑，后来发展成广泛使用的社区币，用于打赏和小额支付。',
    tw: '它起初只是一個玩笑，後來發展成廣泛使用的社群幣，用於打賞和小額支付。',
    jp: '冗談から始まり、投げ銭や少額決済に広く使われるコミュニティコインに成長しました。',
    ko: '농담으로 시작해 후원과 소액 결제에 널리 쓰이는 커뮤니티 코인으로 성장했습니다.',
    tr: 'Bir şaka olarak başladı ve bahşiş ile küçük ödemeler için yaygın kullanılan bir topluluk coinine dönüştü.',
    vi: 'Nó khởi đầu như một trò đùa và trở thành đồng tiền cộng đồng được dùng rộng rãi để tặng thưởng và thanh toán nhỏ.',
    id: 'Awalnya hanya lelucon, lalu tumbuh menjadi koin komunitas yang banyak dipakai untuk tip dan pembayaran kecil.',
    ru: 'Она появилась как шутка и выросла в популярную монету сообщества для чаевых и небольших платежей.',
  },
  house: {
    en: 'It is the Halyard platform token; holdings of it set the invite rebate rate. In demo mode it is play money.',
    cn: '它是 Halyard 平台币，持有量决定邀请返佣比例。演示模式下它是模拟资金。',
    tw: '它是 Halyard 平台幣，持有量決定邀請返佣比例。演示模式下它是模擬資金。',
    jp: 'Halyard のプラットフォームトークンで、保有量が招待リベート率を決めます。デモモードでは模擬資金です。',
    ko: 'Halyard 플랫폼 토큰으로, 보유량에 따라 초대 리베이트 비율이 정해집니다. 데모 모드에서는 모의 자금입니다.',
    tr: 'Halyard platform tokenidir; elde tutulan miktar davet iadesi oranını belirler. Demo modunda oyun parasıdır.',
    vi: 'Đây là token nền tảng Halyard; số lượng nắm giữ quyết định tỷ lệ hoàn phí mời bạn. Ở chế độ demo đây là tiền ảo.',
    id: 'Ini adalah token platform Halyard; jumlah yang dipegang menentukan tarif rabat undangan. Di mode demo ini uang mainan.',
    ru: 'Это токен платформы Halyard; от его количества зависит ставка реферального вознаграждения. В демо-режиме это игровые деньги.',
  },
};

/** "{name} ({coin}) launched in {year}." per locale. */
const FIRST_SENTENCE: Record<Locale, string> = {
  en: '{name} ({coin}) launched in {year}.',
  cn: '{name}（{coin}）于 {year} 年推出。',
  tw: '{name}（{coin}）於 {year} 年推出。',
  jp: '{name}（{coin}）は {year} 年に誕生しました。',
  ko: '{name}({coin})은(는) {year}년에 출시되었습니다.',
  tr: '{name} ({coin}) {year} yılında piyasaya çıktı.',
  vi: '{name} ({coin}) ra mắt năm {year}.',
  id: '{name} ({coin}) diluncurkan pada tahun {year}.',
  ru: '{name} ({coin}) запущен в {year} году.',
};

/** Chinese and Japanese run sentences together; the other scripts put a space between them. */
const SENTENCE_GAP: Record<Locale, string> = {
  en: ' ',
  cn: '',
  tw: '',
  jp: '',
  ko: ' ',
  tr: ' ',
  vi: ' ',
  id: ' ',
  ru: ' ',
};

interface DemoPair {
  coin: string;
  name: string;
  year: number;
  category: Category;
  priceAccuracy: number;
  amountAccuracy: number;
  minNumber: string;
  maxNumber: string;
  /** 1 main board, 2 innovation zone. */
  plate: number;
}

/** The demo pairs against USDT; price accuracies match the index simulator's. */
const DEMO_PAIRS: readonly DemoPair[] = [
  {
    coin: 'BTC',
    name: 'Bitcoin',
    year: 2009,
    category: 'money',
    priceAccuracy: 2,
    amountAccuracy: 5,
    minNumber: '0.0001',
    maxNumber: '100',
    plate: 1,
  },
  {
    coin: 'ETH',
    name: 'Ethereum',
    year: 2015,
    category: 'platform',
    priceAccuracy: 2,
    amountAccuracy: 4,
    minNumber: '0.001',
    maxNumber: '1000',
    plate: 1,
  },
  {
    coin: 'SOL',
    name: 'Solana',
    year: 2020,
    category: 'platform',
    priceAccuracy: 3,
    amountAccuracy: 3,
    minNumber: '0.01',
    maxNumber: '20000',
    plate: 1,
  },
  {
    coin: 'BNB',
    name: 'BNB',
    year: 2017,
    category: 'exchange',
    priceAccuracy: 2,
    amountAccuracy: 3,
    minNumber: '0.01',
    maxNumber: '5000',
    plate: 1,
  },
  {
    coin: 'XRP',
    name: 'XRP',
    year: 2012,
    category: 'payments',
    priceAccuracy: 4,
    amountAccuracy: 1,
    minNumber: '1',
    maxNumber: '1000000',
    plate: 1,
  },
  {
    coin: 'DOGE',
    name: 'Dogecoin',
    year: 2013,
    category: 'meme',
    priceAccuracy: 5,
    amountAccuracy: 0,
    minNumber: '10',
    maxNumber: '10000000',
    plate: 1,
  },
  {
    coin: 'TRX',
    name: 'TRON',
    year: 2017,
    category: 'platform',
    priceAccuracy: 5,
    amountAccuracy: 0,
    minNumber: '10',
    maxNumber: '10000000',
    plate: 1,
  },
  {
    coin: 'LTC',
    name: 'Litecoin',
    year: 2011,
    category: 'money',
    priceAccuracy: 2,
    amountAccuracy: 3,
    minNumber: '0.01',
    maxNumber: '10000',
    plate: 1,
  },
  {
    coin: 'HAL',
    name: 'Halyard Token',
    year: 2026,
    category: 'house',
    priceAccuracy: 4,
    amountAccuracy: 2,
    minNumber: '1',
    maxNumber: '1000000',
    plate: 2,
  },
];

/** 0.1 % for maker and taker alike, deducted from what each side receives. */
const FEE_RATE = '0.001';

function introduction(pair: DemoPair): Record<Locale, string> {
  const texts = {} as Record<Locale, string>;
  for (const locale of LOCALES) {
    const first = FIRST_SENTENCE[locale]
      .replace('{name}', pair.name)
      .replace('{coin}', pair.coin)
      .replace('{year}', String(pair.year));
    texts[locale] = `${first}${SENTENCE_GAP[locale]}${CATEGORY_TEXT[pair.category][locale]}`;
  }
  return texts;
}

/** The rows the demo seed lists. */
export function demoPairRows(): Insertable<SpotPairsTable>[] {
  return DEMO_PAIRS.map((pair, index) => ({
    tradcoin: pair.coin,
    maincoin: 'USDT',
    price_accuracy: pair.priceAccuracy,
    amount_accuracy: pair.amountAccuracy,
    minnumber: pair.minNumber,
    maxnumber: pair.maxNumber,
    state: 1,
    plate: pair.plate,
    unit: '1',
    maker_fee: FEE_RATE,
    taker_fee: FEE_RATE,
    introduction: JSON.stringify(introduction(pair)),
    sort: index + 1,
  }));
}
