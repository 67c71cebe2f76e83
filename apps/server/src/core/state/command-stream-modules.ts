import { Dec } from '@halyard/money';
import { custodyWallet, systemAccount, userAccount } from '../../ledger/accounts.ts';
import type { TransferInput } from '../../ledger/index.ts';
import type { ContractRow } from '../../modules/futures/store.ts';
import type { MoneyCommand } from './commands.ts';

/**
 * The commands of the seeded stream (command-stream.ts) that belong to one
 * module each: referral, cycle, IEO, deposits and withdrawals, futures and
 * fiat. Each takes the stream's random source and answers a command of its
 * kind, now and then a malformed or refused one.
 */

/** The coins the stream moves. */
export const STREAM_ASSETS = ['USDT', 'BTC', 'ETH', 'SOL', 'HAL'];

/** A profile (most often), index prices, or the operator's settings; now and then a malformed one, refused. */
export function referralCommand(
  random: (below: number) => number,
  users: number,
  base: { at: number; id?: string },
): MoneyCommand {
  const roll = random(20);
  if (roll < 12) {
    const userId = 1 + random(users);
    return {
      ...base,
      kind: 'referralUser',
      userId,
      parentId: random(4) === 0 ? null : 1 + random(users),
      feeDeduction: random(3) !== 0,
      kickbackRate: roll === 0 ? '-1' : `0.0${random(10)}`,
      idNumbers: random(5) === 0 ? ['same-person'] : [`id-${userId}`],
    };
  }
  if (roll < 19) {
    const price = () => `${1 + random(200)}.${String(random(100)).padStart(2, '0')}`;
    return {
      ...base,
      kind: 'indexPrices',
      prices: {
        HAL: roll === 13 ? '0' : `0.${1 + random(9)}`,
        BTC: price(),
        ETH: price(),
        SOL: random(4) === 0 ? null : price(),
      },
    };
  }
  return {
    ...base,
    kind: 'referralSettings',
    halDiscount: `0.${random(5)}`,
    marketMakers: [1 + random(users)],
  };
}

const CYCLE_COINS = ['BTC', 'ETH'];

/** An index tick of one of the cycle coins at `at`; its price on a coarse grid, so draws happen. */
export function cycleTick(random: (below: number) => number, at: number) {
  return {
    coin: CYCLE_COINS[random(CYCLE_COINS.length)]!,
    price: `${99 + random(3)}`,
    ts: at,
    source: 'stream',
    toleranceMs: 2000,
  };
}

/** An up or down contract of 1–3 s; now and then no email or a stake out of bounds (refused). */
export function cycleOpenCommand(
  random: (below: number) => number,
  userId: number,
  base: { at: number; id?: string },
  at: number,
): MoneyCommand {
  const coin = random(2);
  return {
    ...base,
    kind: 'cycleOpen',
    userId,
    email: random(30) === 0 ? null : `u${userId}@example.com`,
    pairId: 1 + coin,
    tradcoin: CYCLE_COINS[coin]!,
    maincoin: 'USDT',
    paycoin: 'USDT',
    side: random(2) === 0 ? 'buy' : 'sell',
    number: random(20) === 0 ? '0.5' : `${1 + random(30)}.${random(100)}`,
    seconds: 1 + random(3),
    minnumber: '1',
    maxnumber: '500',
    profitGas: '0.85',
    lossGas: '0.9',
    gas: '0.02',
    openPrice: `${99 + random(3)}`,
    openTs: at,
    openSource: 'stream',
  };
}

/**
 * A token launch command: a sale created (its id the next) or edited, with a
 * window of seconds (the stream's clock moves by cycle ticks) and small supplies, so sales sell out, end and
 * are oversubscribed within the stream; a subscription of a fair, too small,
 * too large or malformed amount; the clock on a sale; its rebates; a cancel.
 */
export function ieoCommand(
  random: (below: number) => number,
  userId: number,
  base: { at: number; id?: string },
  sales: number[],
): MoneyCommand {
  const roll = random(100);
  const { at } = base;
  const sale = () => (sales.length === 0 ? 1 : sales[sales.length - 1 - random(Math.min(3, sales.length))]!);
  if (roll < 8 || sales.length === 0) {
    const edit = roll < 2 && sales.length > 0;
    const projectId = edit ? sale() : sales.length + 1;
    if (!edit) sales.push(projectId);
    const mode = random(2) === 0 ? ('fcfs' as const) : ('commit' as const);
    const startAt = at + random(3_000);
    return {
      ...base,
      kind: 'ieoSale',
      projectId,
      terms: {
        coin: `L${projectId}`,
        mode,
        total: `${50 + random(500)}`,
        tokenDecimals: random(3),
        payCoins: [{ paycoin: 'USDT', price: ['0.5', '0.37', '3'][random(3)]! }],
        minNumber: '1',
        maxNumber: `${20 + random(200)}`,
        gift: ['0', '0.05'][random(2)]!,
        rebate: ['0', '0.1'][random(2)]!,
        vesting:
          random(3) === 0
            ? { kind: 'linear', cliffDays: 0, durationDays: 1 + random(30) }
            : { kind: 'tranches', cliffDays: random(2), tranches: 1 + random(3), intervalDays: 1 },
        startAt,
        endAt: startAt + 5_000 + random(30_000),
      },
      salt: `salt-${projectId}`,
      fundWhy: edit ? `e${at}` : 'create',
      defundWhy: edit ? `d${at}` : '',
    };
  }
  if (roll < 70) {
    const malformed = ['0.1', '-1', 'lots'];
    const cost = roll < 62 ? `${1 + random(120)}.${random(100)}` : malformed[random(malformed.length)]!;
    return { ...base, kind: 'ieoSubscribe', userId, projectId: sale(), paycoin: 'USDT', amount: cost };
  }
  if (roll < 90) return { ...base, kind: 'ieoAdvance', projectId: sale() };
  if (roll < 93) return { ...base, kind: 'ieoPayRebates' };
  if (roll < 97) return { ...base, kind: 'ieoRelease' };
  return { ...base, kind: 'ieoCancelSale', projectId: sale() };
}

const WITHDRAWAL_TERMS = {
  min: '1',
  max: '2000',
  dailyMax: '3000',
  fee: '0.5',
  approvalThreshold: '500',
  decimals: 8,
};

/**
 * A deposit credited or reversed (a few deposit ids, so some credits repeat or conflict),
 * a withdrawal asked for (fair, too large, malformed, or stamped refused by
 * the edge), a review or a sender's outcome of a withdrawal id that may not
 * be in that step or not exist, or an operator's adjustment (now and then
 * the same request again).
 */
export function walletFlowCommand(
  random: (below: number) => number,
  userId: number,
  base: { at: number; id?: string },
  flows: { requested: number },
  n: number,
): MoneyCommand {
  const roll = random(100);
  const coin = STREAM_ASSETS[random(STREAM_ASSETS.length)]!;
  // About a third of the requests pass: ids beyond those are unknown.
  const withdrawalId = 1 + random(Math.ceil(flows.requested / 3) + 2);
  if (roll < 25)
    return {
      ...base,
      // Now and then a reorg's reversal of one of those credits (or of one never made).
      kind: random(5) === 0 ? 'depositReversed' : 'depositCredited',
      depositId: `56:0x${random(60).toString(16)}:0`,
      round: 1 + random(2),
      userId,
      custody: custodyWallet('bsc'),
      coin,
      amount: `${1 + random(900)}`,
    };
  if (roll < 55) {
    flows.requested += 1;
    const amounts = ['0', 'lots', '2500', '0.000000001', `${1 + random(800)}.${random(100)}`];
    return {
      ...base,
      kind: 'withdrawalRequested',
      userId,
      coin,
      // Chain 56's custody account, as modules/wallet names it.
      chainId: 56,
      custody: custodyWallet('bnb'),
      savedAddress: `0x${userId.toString(16).padStart(40, '0')}`,
      amount: amounts[random(5) === 0 ? random(4) : 4]!,
      address: 'saved',
      fundPasswordGiven: random(30) !== 0,
      kycVerified: random(30) !== 0,
      fundPasswordSet: true,
      terms: WITHDRAWAL_TERMS,
      edgeRefusal: random(15) === 0 ? { key: 'common.frozen', params: { reason: 'stream' } } : null,
    };
  }
  if (roll < 75) {
    const decisions = ['approve', 'approve', 'reject', 'hold', 'releaseHold'] as const;
    return {
      ...base,
      kind: 'withdrawalReviewed',
      withdrawalId,
      decision: decisions[random(decisions.length)]!,
      operator: 'stream',
      reason: random(8) === 0 ? ' ' : 'checked',
    };
  }
  if (roll < 95) {
    const outcomes = ['sent', 'sent', 'mined', 'mined', 'failed', 'flagged'] as const;
    const outcome = outcomes[random(outcomes.length)]!;
    // Mostly from the step the sender would have seen it in; now and then from one it cannot report from.
    const usual = {
      sent: 'approved',
      mined: 'broadcast',
      failed: 'broadcast',
      flagged: 'broadcast',
    } as const;
    const froms = ['approved', 'broadcast', 'flagged', 'review'] as const;
    return {
      ...base,
      kind: 'withdrawalOutcome',
      withdrawalId,
      from: random(6) === 0 ? froms[random(froms.length)]! : usual[outcome],
      outcome,
      tx: { hash: `0x${n.toString(16)}`, raw: `0x${n.toString(16)}00`, nonce: n, hotAddress: '0xhot' },
      reason: 'sendFailed',
    };
  }
  return {
    ...base,
    kind: 'adjust',
    requestId: random(4) === 0 ? 1 + random(20) : 100 + n,
    adjustment: {
      userId,
      wallet: 'spot',
      coin,
      direction: random(2) === 0 ? 'credit' : 'debit',
      amount: `${1 + random(300)}`,
      category: 'correction',
      reason: 'stream',
    },
  };
}

const FUNDING_INTERVAL_MS = 8 * 60 * 60 * 1000;

/** Two futures contracts (ids 1 and 2, as the stream lists them first), on the spot pairs' price grid. */
export const TEST_CONTRACTS: ContractRow[] = ['BTC', 'ETH'].map((coin, index) => ({
  autoid: index + 1,
  tradcoin: coin,
  maincoin: 'USDT',
  chinaname: `${coin} perpetual`,
  symbol: `${coin}/USDT`,
  unit: '0.01',
  minnumber: '1',
  maxnumber: '1000',
  max_lever: 50,
  levers: '[1,5,10,20,50]',
  gas: '0.0005',
  price_accuracy: 2,
  initial_margin_rate: '0.02',
  maintenance_margin_rate: '0.005',
  state: 1,
  plate: 0,
  sort: index,
}));

/** The house's and the insurance fund's money (neither may go below zero), from the treasury. */
export function futuresHouseFunding(prefix: string): TransferInput[] {
  return (['market_maker', 'insurance'] as const).map((account) => ({
    id: `${prefix}:futures-funding:${account}`,
    debit: systemAccount('treasury'),
    credit: systemAccount(account),
    asset: 'USDT',
    amount: Dec.parse('10000000'),
    code: 'demo_funding',
  }));
}

/**
 * One futures command: a deposit into a futures wallet, a mark, an opening
 * order (a user's, or the house's quote or crossing), a close or a cancel of
 * an id that may not be open. Positions and orders are picked by id from a
 * small range, so some are someone else's or gone.
 */
export function futuresCommand(
  random: (below: number) => number,
  base: { at: number; id?: string },
  transferId: string,
): MoneyCommand {
  // A few traders, so their wallets, orders and positions meet.
  const userId = 1 + random(6);
  const roll = random(100);
  const contractId = 1 + random(TEST_CONTRACTS.length);
  const price = `${95 + random(10)}.${String(random(100)).padStart(2, '0')}`;
  if (roll < 15) {
    const amount = Dec.parse(`${1000 + random(20000)}`);
    const credit = userAccount(userId, 'futures');
    const debit = systemAccount(custodyWallet('bsc'));
    return {
      ...base,
      kind: 'transfer',
      batch: [{ id: transferId, debit, credit, asset: 'USDT', amount, code: 'deposit' }],
    };
  }
  if (roll < 25) {
    // Funding rounds are 8 h apart: the first mark of each contract pays one (the contracts list at slot 0).
    const fundingSlot = Math.floor(base.at / FUNDING_INTERVAL_MS) * FUNDING_INTERVAL_MS;
    return {
      ...base,
      kind: 'futuresMark',
      coin: TEST_CONTRACTS[contractId - 1]!.tradcoin,
      price,
      fundingSlot,
    };
  }
  if (roll < 30) {
    const positionId = 1 + random(40);
    return random(3) === 0
      ? { ...base, kind: 'futuresCancelTrigger', userId, triggerId: 1 + random(20) }
      : { ...base, kind: 'futuresSetTrigger', userId, positionId, profitPrice: price, lossPrice: '50' };
  }
  if (roll < 40) return { ...base, kind: 'futuresCancel', owner: String(userId), orderId: 1 + random(400) };
  if (roll < 55) {
    const number = random(3) === 0 ? null : String(1 + random(5));
    return { ...base, kind: 'futuresClose', userId, positionId: 1 + random(40), number };
  }
  const house = roll < 70;
  const market = random(house ? 8 : 4) === 0;
  return {
    ...base,
    kind: 'futuresOpen',
    trader: house
      ? { owner: market ? 'house-taker' : 'house', userId: 0, account: systemAccount('market_maker') }
      : { owner: String(userId), userId, account: userAccount(userId, 'futures') },
    contractId,
    side: random(2) === 0 ? 'buy' : 'sell',
    style: market ? 'market' : 'limit',
    ...(market ? {} : { price }),
    number: String(1 + random(20)),
    lever: [1, 5, 10, 20, 50, 3][random(6)]!,
    tdMode: random(3) === 0 ? 'lsolate' : 'cross',
    ...(random(5) === 0 ? (random(2) === 0 ? { profitPrice: '200' } : { lossPrice: '200' }) : {}),
  };
}

/** The house's ads in the stream: 1 and 2 sell coin (held while live), 3 buys it. */
const FIAT_ADS = [
  { adId: 1, side: 'buy' as const, price: '7.2' },
  { adId: 2, side: 'buy' as const, price: '7.25' },
  { adId: 3, side: 'sell' as const, price: '7.1' },
];

/** USDT in the house's and every user's fiat wallet, so ads hold and sells escrow. */
export function fiatFunding(prefix: string, users: number): TransferInput[] {
  const accounts = [
    systemAccount('fiat_house'),
    ...Array.from({ length: users }, (_, i) => userAccount(i + 1, 'fiat')),
  ];
  return accounts.map((credit, index) => ({
    id: `${prefix}:fiat-funding:${index}`,
    debit: systemAccount(custodyWallet('bsc')),
    credit,
    asset: 'USDT',
    amount: Dec.parse(index === 0 ? '1000000' : '500'),
    code: 'deposit',
  }));
}

/**
 * A fiat escrow command: an ad's amount set, an order on the house's ads
 * (the edge's ranking stamped as candidates), or a step on one of the last
 * orders opened (paid, appealed, released, refunded), often out of turn.
 */
export function fiatCommand(
  random: (below: number) => number,
  userId: number,
  base: { at: number; id?: string },
  orders: { opened: number },
): MoneyCommand {
  const roll = random(100);
  if (roll < 10) {
    const ad = FIAT_ADS[random(FIAT_ADS.length)]!;
    return {
      ...base,
      kind: 'fiatAd',
      adId: ad.adId,
      side: ad.side,
      coin: 'USDT',
      merchantUserId: null,
      available: `${random(5) * 2_000}`,
      online: random(5) !== 0,
    };
  }
  if (roll < 45 || orders.opened === 0) {
    orders.opened += 1;
    const side = random(3) === 0 ? ('sell' as const) : ('buy' as const);
    return {
      ...base,
      kind: 'fiatOpen',
      userId,
      side,
      coin: 'USDT',
      fiat: 'CNY',
      amount: `${100 + random(3_000)}`,
      payType: 'bank',
      candidates: FIAT_ADS.filter((ad) => ad.side === side).map((ad) => ({
        adId: ad.adId,
        merchantId: 1,
        merchantUserId: null,
        price: ad.price,
        windowMs: 600_000,
        terms: '',
        payee: '{}',
      })),
    };
  }
  // The state numbers the orders from 1; a refused open takes no number, so some of these name none.
  // About half the opens succeed (the rest find no ad or an open order): the ids run about half as fast.
  const orderId = Math.max(1, Math.round(orders.opened / 2) - random(3));
  const at = base.at;
  if (roll < 60)
    return {
      ...base,
      kind: 'fiatPaid',
      orderId,
      expiresAt: at + 1,
      windowMinutes: 10,
      by: 'buyer',
      reason: 'paid',
      img: null,
    };
  if (roll < 68)
    return {
      ...base,
      kind: 'fiatAppeal',
      orderId,
      role: 'buyer',
      appealKind: 'paidNotReleased',
      reason: 'quiet',
    };
  if (roll < 85) {
    const from = random(3) === 0 ? ('appeal' as const) : ('paid' as const);
    return { ...base, kind: 'fiatRelease', orderId, from, by: 'seller', reason: 'received', audit: null };
  }
  const from = random(3) === 0 ? ('appeal' as const) : ('to_pay' as const);
  return {
    ...base,
    kind: 'fiatRefund',
    orderId,
    from,
    by: 'buyer',
    reason: 'cancelled',
    audit: null,
    ban: null,
  };
}
