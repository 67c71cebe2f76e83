import { Dec } from '@halyard/money';
import type { FiatPayee } from '@halyard/protocol';
import { EMPTY_FIAT_PAYEE, FIAT_PAY_WINDOW_MS } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import { type Ledger, systemAccount } from '../../ledger/index.ts';
import type { Db } from '../../store/database.ts';
import { type AdMethod, type FiatService, HOUSE_KEY } from './service.ts';
import { fiatStore as sql } from './store.ts';

/** What the treasury gives the house merchant once per store, per coin (play money, AMENDMENTS A5). */
const HOUSE_FUNDING: Record<string, string> = { USDT: '2000000', BTC: '50' };

const HOUSE_NAME = 'Halyard DEMO merchant';

function payee(details: Partial<FiatPayee>): FiatPayee {
  return {
    ...EMPTY_FIAT_PAYEE,
    payeeName: 'Halyard Demo Ltd',
    remark: 'DEMO: no real money moves',
    ...details,
  };
}

/**
 * The demo ads (issue 16 item 8): the house buys and sells USDT for CNY and
 * USD and BTC for EUR, each by bank transfer with the spec's fields (an IBAN
 * for EUR, a SWIFT code for USD). USDT/CNY and BTC/EUR float with the index (their
 * premium in percent; `price` is where it starts before the first refresh);
 * the others are fixed play prices.
 */
const DEMO_ADS: Array<{
  key: string;
  side: 'buy' | 'sell';
  coin: string;
  fiat: string;
  price: string;
  premium?: string;
  min: string;
  max: string;
  available: string;
  methods: AdMethod[];
}> = [
  ...(['buy', 'sell'] as const).flatMap((side) => [
    {
      key: `${side}:USDT:CNY`,
      side,
      coin: 'USDT',
      fiat: 'CNY',
      price: side === 'buy' ? '7.25' : '7.15',
      // 7.2 CNY per USDT × (1 ± premium): 7.25 to buy, 7.15 to sell while the demo rate holds.
      premium: side === 'buy' ? '0.7' : '-0.6',
      min: '100',
      max: '50000',
      available: '500000',
      methods: [
        {
          payType: 'bank' as const,
          payee: payee({
            cardNumber: '6222020000000000123',
            bank: 'Demo Bank of China',
            branch: 'Shanghai Pudong',
          }),
        },
      ],
    },
    {
      key: `${side}:USDT:USD`,
      side,
      coin: 'USDT',
      fiat: 'USD',
      price: side === 'buy' ? '1.01' : '0.99',
      min: '10',
      max: '10000',
      available: '500000',
      methods: [
        {
          payType: 'bank' as const,
          payee: payee({
            cardNumber: '000123456789',
            bank: 'Demo National Bank',
            accountType: 'Checking',
            bankAddress: '1 Demo Street, New York',
            swift: 'DEMOUS33',
          }),
        },
      ],
    },
    {
      key: `${side}:BTC:EUR`,
      side,
      coin: 'BTC',
      fiat: 'EUR',
      // Floats too: the index × the demo EUR rate (about 88,900 EUR per BTC at the demo's start) ± 0.5 %.
      price: side === 'buy' ? '89300' : '88400',
      premium: side === 'buy' ? '0.5' : '-0.5',
      min: '50',
      max: '20000',
      available: '10',
      methods: [
        {
          payType: 'bank' as const,
          payee: payee({
            iban: 'DE89 3704 0044 0532 0130 00',
            bank: 'Demo Bank Frankfurt',
            swift: 'DEMODEFF',
          }),
        },
      ],
    },
  ]),
];

/**
 * Demo seed (idempotent, each start in demo mode): the house merchant, funded
 * once from the treasury, and its ads put back online with their amounts.
 */
export async function seedFiatDemo(
  options: { db: Db; ledger: Ledger; clock: Clock },
  fiat: FiatService,
): Promise<void> {
  const { db, ledger, clock } = options;
  const now = clock.now();
  const house =
    (await sql.merchantByDemoKey(db, HOUSE_KEY)) ??
    (await sql.insertMerchant(db, {
      user_id: null,
      name: HOUSE_NAME,
      demo_key: HOUSE_KEY,
      completed: 0,
      orders: 0,
      release_ms_total: 0,
      created_at: now,
    }));
  await ledger.execute(
    Object.entries(HOUSE_FUNDING).map(([asset, amount]) => ({
      id: `fiat:house-funding:${asset}`,
      code: 'demo_funding',
      debit: systemAccount('treasury'),
      credit: systemAccount('fiat_house'),
      asset,
      amount: Dec.parse(amount),
    })),
  );
  for (const ad of DEMO_ADS) {
    const values = {
      price: ad.price,
      price_type: ad.premium === undefined ? ('fixed' as const) : ('floating' as const),
      premium: ad.premium ?? null,
      min_amount: ad.min,
      max_amount: ad.max,
      methods: JSON.stringify(ad.methods),
    };
    const row =
      (await sql.adByDemoKey(db, ad.key)) ??
      (await sql.insertAd(db, {
        ...values,
        available: '0',
        online: 0,
        merchant_id: Number(house.id),
        side: ad.side,
        coin: ad.coin,
        fiat: ad.fiat,
        window_ms: FIAT_PAY_WINDOW_MS,
        demo_key: ad.key,
        created_at: now,
        hold_id: null,
      }));
    await sql.updateAd(db, Number(row.id), values);
    // Back online with its amount, held from the house's coin (what the house still has, if less).
    await fiat.restockAd(Number(row.id), Dec.parse(ad.available));
  }
  await fiat.refreshFloatingPrices();
}
