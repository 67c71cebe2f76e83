import { HALYARD_VERSION, LOCALES, type Locale } from '@halyard/protocol';
import type { Clock } from '../../clock.ts';
import type { Db, Executor } from '../../store/database.ts';
import { DEMO_NOTICES } from './demo-notices.ts';
import { sanitizeHtml } from './sanitize.ts';
import { type AboutUsSettings, NO_CONTACT_LINKS, SETTING_KEYS, type VersionsSettings } from './service.ts';
import {
  type BannerValues,
  existingSlugs,
  insertBanners,
  insertNotice,
  insertSettingIfAbsent,
  type NoticeText,
  replaceTips,
  selectTips,
  type TipText,
} from './store.ts';

const APP_BANNERS: BannerValues[] = [
  {
    slug: 'markets',
    kind: 'app',
    locale: null,
    image: '/assets/banners/markets.svg',
    link: '/coinExchange',
    sort: 1,
  },
  { slug: 'demo', kind: 'app', locale: null, image: '/assets/banners/demo.svg', link: '/notice', sort: 2 },
  {
    slug: 'security',
    kind: 'app',
    locale: null,
    image: '/assets/banners/security.svg',
    link: '/securityCenter',
    sort: 3,
  },
];

/** Spec §1: the invite banner's image differs by locale. */
const INVITE_BANNERS: BannerValues[] = LOCALES.map((locale) => ({
  slug: `invite-${locale}`,
  kind: 'invite',
  locale,
  image: `/assets/banners/invite-${locale}.svg`,
  link: '/inviteFriends',
  sort: 1,
}));

const WELCOME_TIP: Record<Locale, TipText> = {
  en: {
    title: 'Welcome to Halyard',
    content:
      'This is a demo: prices are simulated and the funds are not real. Explore spot, futures and cycle trading freely. Questions? Send a ticket from Help and feedback.',
  },
  cn: {
    title: '欢迎来到 Halyard',
    content:
      '这是演示环境：价格为模拟价格，资金并非真实资金。您可以放心体验现货、合约和秒合约交易。有疑问？请在帮助与反馈中提交工单。',
  },
  tw: {
    title: '歡迎來到 Halyard',
    content:
      '這是演示環境：價格為模擬價格，資金並非真實資金。您可以放心體驗現貨、合約和秒合約交易。有疑問？請在幫助與反饋中提交工單。',
  },
  jp: {
    title: 'Halyard へようこそ',
    content:
      'こちらはデモ環境です。価格はシミュレーションで、資金は本物ではありません。現物・先物・サイクル取引を自由にお試しください。ご質問はヘルプとフィードバックからチケットでどうぞ。',
  },
  ko: {
    title: 'Halyard에 오신 것을 환영합니다',
    content:
      '데모 환경입니다. 가격은 시뮬레이션이며 자금은 실제가 아닙니다. 현물, 선물, 사이클 거래를 자유롭게 체험해 보세요. 궁금한 점은 도움말 및 피드백에서 티켓을 보내 주세요.',
  },
  tr: {
    title: "Halyard'a hoş geldiniz",
    content:
      'Bu bir demodur: fiyatlar simüle edilir ve bakiyeler gerçek değildir. Spot, vadeli ve döngü işlemlerini özgürce deneyin. Sorunuz mu var? Yardım ve geri bildirim bölümünden talep gönderin.',
  },
  vi: {
    title: 'Chào mừng đến với Halyard',
    content:
      'Đây là bản demo: giá được mô phỏng và số tiền không phải tiền thật. Hãy thoải mái trải nghiệm giao dịch giao ngay, hợp đồng tương lai và hợp đồng chu kỳ. Có câu hỏi? Gửi phiếu hỗ trợ trong Trợ giúp và phản hồi.',
  },
  id: {
    title: 'Selamat datang di Halyard',
    content:
      'Ini adalah demo: harga disimulasikan dan dana tidak nyata. Silakan coba trading spot, futures, dan siklus dengan bebas. Ada pertanyaan? Kirim tiket dari Bantuan dan masukan.',
  },
  ru: {
    title: 'Добро пожаловать в Halyard',
    content:
      'Это демо: цены смоделированы, а средства не настоящие. Свободно пробуйте спот, фьючерсы и циклические контракты. Есть вопросы? Отправьте обращение в разделе «Помощь и обратная связь».',
  },
};

/**
 * The demo's about-us text. Its contact details and links come from the
 * configuration like any deployment's (SUPPORT_*, SOCIAL_LINKS): placeholder
 * addresses here would be dead links on a real phone.
 */
const DEMO_ABOUT_US: AboutUsSettings = {
  ...NO_CONTACT_LINKS,
  intro: {
    en: 'Halyard is an open-source crypto-asset exchange: spot, futures, cycle contracts, IEO and fiat trading through merchants, in nine languages.',
    cn: 'Halyard 是一个开源的数字资产交易平台，提供现货、合约、秒合约、IEO 以及通过商家进行的法币交易，支持九种语言。',
    tw: 'Halyard 是一個開源的數位資產交易平台，提供現貨、合約、秒合約、IEO 以及透過商家進行的法幣交易，支援九種語言。',
    jp: 'Halyard はオープンソースの暗号資産取引所です。現物、先物、サイクル契約、IEO、加盟店を通じた法定通貨取引を 9 言語で提供します。',
    ko: 'Halyard는 오픈 소스 암호화폐 거래소로, 현물·선물·사이클 계약·IEO·가맹점을 통한 법정화폐 거래를 9개 언어로 제공합니다.',
    tr: 'Halyard açık kaynaklı bir kripto varlık borsasıdır: spot, vadeli, döngü sözleşmeleri, IEO ve satıcılar aracılığıyla itibari para işlemleri, dokuz dilde.',
    vi: 'Halyard là sàn giao dịch tài sản số mã nguồn mở: giao ngay, hợp đồng tương lai, hợp đồng chu kỳ, IEO và giao dịch tiền pháp định qua thương nhân, bằng chín ngôn ngữ.',
    id: 'Halyard adalah bursa aset kripto sumber terbuka: spot, futures, kontrak siklus, IEO, dan perdagangan fiat melalui merchant, dalam sembilan bahasa.',
    ru: 'Halyard — криптобиржа с открытым исходным кодом: спот, фьючерсы, циклические контракты, IEO и фиатные сделки через мерчантов на девяти языках.',
  },
};

const DEMO_VERSIONS: VersionsSettings = {
  code: HALYARD_VERSION,
  androidUrl: '',
  iosUrl: '',
  notes: {
    en: 'First release: spot, futures and cycle trading, wallet sign-in, help centre.',
    cn: '首个版本：现货、合约和秒合约交易，钱包登录，帮助中心。',
    tw: '首個版本：現貨、合約和秒合約交易，錢包登錄，幫助中心。',
    jp: '初回リリース：現物・先物・サイクル取引、ウォレットログイン、ヘルプセンター。',
    ko: '첫 릴리스: 현물·선물·사이클 거래, 지갑 로그인, 고객센터.',
    tr: 'İlk sürüm: spot, vadeli ve döngü işlemleri, cüzdanla giriş, yardım merkezi.',
    vi: 'Phiên bản đầu tiên: giao dịch giao ngay, hợp đồng tương lai và chu kỳ, đăng nhập bằng ví, trung tâm trợ giúp.',
    id: 'Rilis pertama: trading spot, futures dan siklus, masuk dengan dompet, pusat bantuan.',
    ru: 'Первый выпуск: спот, фьючерсы и циклические контракты, вход через кошелёк, центр помощи.',
  },
};

async function seedNotices(trx: Executor, now: number) {
  const existing = await existingSlugs(
    trx,
    'content_notices',
    DEMO_NOTICES.map((notice) => notice.slug),
  );
  for (const notice of DEMO_NOTICES) {
    if (existing.has(notice.slug)) continue;
    const texts = new Map<Locale, NoticeText>(
      Object.entries(notice.texts).map(([locale, text]) => [
        locale as Locale,
        { ...text, body: sanitizeHtml(text.body) },
      ]),
    );
    await insertNotice(trx, { slug: notice.slug, wdate: now - notice.ageMs }, texts);
  }
}

async function seedBanners(trx: Executor, now: number) {
  const banners = [...APP_BANNERS, ...INVITE_BANNERS];
  const existing = await existingSlugs(
    trx,
    'content_banners',
    banners.flatMap((banner) => (banner.slug ? [banner.slug] : [])),
  );
  await insertBanners(
    trx,
    banners.filter((banner) => !banner.slug || !existing.has(banner.slug)),
    now,
  );
}

/** The tip for everyone is seeded only while there is none: an operator's own tip is never overwritten. */
async function seedTips(trx: Executor, now: number) {
  if ((await selectTips(trx, null)).length > 0) return;
  await replaceTips(trx, null, new Map(Object.entries(WELCOME_TIP) as [Locale, TipText][]), now);
}

/**
 * The content a demo install starts with (AMENDMENTS A5): banners, five
 * notices, the welcome tip, about-us and versions. Idempotent: run on every
 * start, it adds only what is missing and never overwrites operator edits.
 */
export async function seedContentDemo(db: Db, clock: Clock): Promise<void> {
  const now = clock.now();
  await db.transaction().execute(async (trx) => {
    await seedNotices(trx, now);
    await seedBanners(trx, now);
    await seedTips(trx, now);
    await insertSettingIfAbsent(trx, SETTING_KEYS.aboutUs, JSON.stringify(DEMO_ABOUT_US), now);
    await insertSettingIfAbsent(trx, SETTING_KEYS.versions, JSON.stringify(DEMO_VERSIONS), now);
  });
}
