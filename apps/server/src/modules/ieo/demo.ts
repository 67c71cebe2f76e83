import type { IeoProjectInput, IeoTexts } from '@halyard/protocol';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../store/database.ts';
import type { IeoService } from './service.ts';
import { ieoStore } from './store.ts';

const MINUTE = 60_000;
const DAY = 86_400_000;
/** Demo windows last minutes and start again when over, so a newcomer always finds an open sale. */
const DEMO_WINDOW_MS = 15 * MINUTE;

/** "{name}: what it is" in the nine languages, as the intro of a demo project. */
function intro(name: string, what: Record<string, string>): IeoTexts {
  return Object.fromEntries(
    Object.entries(what).map(([locale, text]) => [locale, `<p><strong>${name}</strong>: ${text}</p>`]),
  );
}

const ANNOUNCEMENT: IeoTexts = {
  en: '<p>Demo project with play money: nothing here has value.</p>',
  cn: '<p>演示项目，使用模拟资金：这里的一切均无实际价值。</p>',
  tw: '<p>演示項目，使用模擬資金：這裡的一切均無實際價值。</p>',
  jp: '<p>デモ用のプロジェクトです（練習用の資金）。ここにあるものに価値はありません。</p>',
  ko: '<p>모의 자금을 사용하는 데모 프로젝트입니다. 실제 가치는 없습니다.</p>',
  tr: '<p>Oyun parasıyla demo proje: buradaki hiçbir şeyin değeri yoktur.</p>',
  vi: '<p>Dự án demo dùng tiền thử: không có gì ở đây có giá trị thật.</p>',
  id: '<p>Proyek demo dengan uang mainan: tidak ada yang bernilai di sini.</p>',
  ru: '<p>Демо-проект на игровых деньгах: здесь ничто не имеет ценности.</p>',
};

interface DemoProject {
  key: string;
  /** Starts again when its window is over. */
  recurring: boolean;
  terms(now: number): IeoProjectInput;
}

const DEMO_PROJECTS: DemoProject[] = [
  {
    key: 'demo-fcfs',
    recurring: true,
    terms: (now) => ({
      coin: 'NOVA',
      name: 'Nova Network',
      mode: 'fcfs',
      startTime: now,
      endTime: now + DEMO_WINDOW_MS,
      total: '1000000',
      tokenDecimals: 2,
      payCoins: [
        { paycoin: 'USDT', price: '0.05' },
        { paycoin: 'ETH', price: '0.00002' },
      ],
      minNumber: '100',
      maxNumber: '100000',
      vesting: { kind: 'tranches', cliffDays: 2 / 1440, tranches: 1, intervalDays: 0 },
      gift: '0.05',
      rebate: '0.1',
      kycLevel: 'none',
      refusedAreaCodes: [],
      intro: intro('Nova Network', {
        en: 'first come, first served until sold out; a 5 % gift on every subscription, unlocked 2 minutes after the sale.',
        cn: '先到先得，售完即止；每笔申购赠送 5%，售卖结束 2 分钟后解锁。',
        tw: '先到先得，售完即止；每筆申購贈送 5%，售賣結束 2 分鐘後解鎖。',
        jp: '先着順で売り切れまで。申し込みごとに 5% を贈呈、販売終了 2 分後にロック解除。',
        ko: '선착순, 매진 시까지. 청약마다 5% 증정, 판매 종료 2분 후 잠금 해제.',
        tr: 'ilk gelen alır, tükenene kadar; her katılıma %5 hediye, satıştan 2 dakika sonra kilit açılır.',
        vi: 'ai đến trước mua trước cho đến khi hết; tặng 5% mỗi lần đăng ký, mở khóa 2 phút sau đợt bán.',
        id: 'siapa cepat dia dapat sampai habis; hadiah 5% tiap langganan, terbuka 2 menit setelah penjualan.',
        ru: 'в порядке очереди до распродажи; 5 % в подарок к каждой подписке, разблокировка через 2 минуты после продажи.',
      }),
      announcement: ANNOUNCEMENT,
    }),
  },
  {
    key: 'demo-commit',
    recurring: true,
    terms: (now) => ({
      coin: 'ORBT',
      name: 'Orbit Protocol',
      mode: 'commit',
      startTime: now,
      endTime: now + DEMO_WINDOW_MS,
      total: '200000',
      tokenDecimals: 4,
      payCoins: [{ paycoin: 'USDT', price: '0.1' }],
      minNumber: '10',
      maxNumber: '20000',
      vesting: { kind: 'tranches', cliffDays: 1 / 1440, tranches: 3, intervalDays: 2 / 1440 },
      gift: '0',
      rebate: '0.05',
      kycLevel: 'none',
      refusedAreaCodes: [],
      intro: intro('Orbit Protocol', {
        en: 'commit during the window; at the end every commitment gets its pro-rata share (cap 20,000 per user) and the rest is refunded. Released in 3 tranches.',
        cn: '在窗口期内承诺；结束时按比例分配（每人上限 20,000），其余退还。分 3 期释放。',
        tw: '在窗口期內承諾；結束時按比例分配（每人上限 20,000），其餘退還。分 3 期釋放。',
        jp: '期間中にコミットし、終了時に比例配分（1人上限 20,000）、残りは返金。3回に分けて解放。',
        ko: '기간 중 커밋하면 종료 시 비례 배정(1인 상한 20,000), 나머지는 환불. 3회에 걸쳐 해제.',
        tr: 'pencere boyunca taahhüt edin; sonunda orantılı dağıtım (kişi başı en çok 20.000), kalan iade. 3 dilimde serbest.',
        vi: 'cam kết trong thời gian mở; cuối đợt phân bổ theo tỷ lệ (tối đa 20.000 mỗi người), phần còn lại hoàn trả. Mở khóa 3 đợt.',
        id: 'berkomitmen selama jendela; di akhir dialokasikan pro rata (maks 20.000 per orang), sisanya dikembalikan. Dilepas dalam 3 tahap.',
        ru: 'вносите обязательства в течение окна; в конце пропорциональное распределение (не более 20 000 на человека), остаток возвращается. Выдача в 3 этапа.',
      }),
      announcement: ANNOUNCEMENT,
    }),
  },
  {
    key: 'demo-ended',
    recurring: false,
    terms: (now) => ({
      coin: 'LUMA',
      name: 'Luma Chain',
      mode: 'fcfs',
      startTime: now - 12 * DAY,
      endTime: now - 10 * DAY,
      total: '500000',
      tokenDecimals: 2,
      payCoins: [{ paycoin: 'USDT', price: '0.02' }],
      minNumber: '500',
      maxNumber: '50000',
      vesting: { kind: 'linear', cliffDays: 7, durationDays: 180 },
      gift: '0',
      rebate: '0',
      kycLevel: 'none',
      refusedAreaCodes: [],
      intro: intro('Luma Chain', {
        en: 'sale ended; after a 7-day cliff, tokens are released continuously over 180 days.',
        cn: '售卖已结束；7 天锁定期后在 180 天内持续线性释放。',
        tw: '售賣已結束；7 天鎖定期後在 180 天內持續線性釋放。',
        jp: '販売終了。7日間のクリフ後、180日かけて継続的に解放。',
        ko: '판매 종료. 7일 클리프 후 180일에 걸쳐 연속 해제.',
        tr: 'satış bitti; 7 günlük bekleme sonrası 180 gün boyunca sürekli serbest.',
        vi: 'đợt bán đã kết thúc; sau 7 ngày khóa, mở khóa liên tục trong 180 ngày.',
        id: 'penjualan berakhir; setelah cliff 7 hari dilepas terus-menerus selama 180 hari.',
        ru: 'продажа завершена; после 7 дней блокировки непрерывная выдача в течение 180 дней.',
      }),
      announcement: ANNOUNCEMENT,
    }),
  },
];

/**
 * Demo data (AMENDMENTS A5): an open FCFS sale and an open commit-mode sale,
 * each started again once its window is over, and an ended sale whose vesting
 * runs. Idempotent: a project is created only when its kind has none live.
 */
export async function seedIeoDemo(service: IeoService, options: { db: Db; clock: Clock }): Promise<void> {
  const now = options.clock.now();
  for (const demo of DEMO_PROJECTS) {
    const latest = await ieoStore.latestDemoProject(options.db, demo.key);
    if (latest && (!demo.recurring || Number(latest.end_at) > now)) continue;
    await service.createProject(demo.terms(now), `${demo.key}:${now}`);
  }
}
