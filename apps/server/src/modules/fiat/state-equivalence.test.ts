import { Dec } from '@halyard/money';
import type { FiatAdInput, FiatPayee } from '@halyard/protocol';
import { EMPTY_FIAT_PAYEE } from '@halyard/rules';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prng } from '../../core/state/command-stream.ts';
import { encodeFiat, type FiatSnapshot } from '../../core/state/fiat-escrow.ts';
import { type FiatAudit, type MoneyCommand, type MoneyResult, moneyMachine } from '../../core/state/index.ts';
import type { AuditActor } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { expectLedgerEquivalent, ProjectedState } from '../../projection/equivalence-support.ts';
import { openTestStore } from '../../store/connect.ts';
import type { Executor } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import { type Harness, startHarness } from '../identity/test-support.ts';
import { fiatProjection } from './projection.ts';
import { FiatService, payWindowMinutes } from './service.ts';
import { loadFiatState } from './state-from-sql.ts';
import { type OrderRow, fiatStore as sql } from './store.ts';

/**
 * The proof that the money state's fiat escrow commands (`fiatAd`,
 * `fiatOpen`, `fiatPaid`, `fiatAppeal`, `fiatRelease`, `fiatRefund`) can
 * replace FiatService's money paths: one seeded stream of ads published and
 * set, buy and sell orders, payments, releases, cancels, appeals, operator
 * rulings and expiries is run
 *
 *   (a) through FiatService on a test app's database and ledger, the clock
 *       set to each step's time;
 *   (b) through the money state, its events written to a fresh database by
 *       the ledger's and the fiat writers.
 *
 * The merchants' and ads' rows (names, terms, methods) are the edge's: the
 * test copies the module's after they are written. The edge's part of each
 * request (who may act on the order, the matching of ads) is the module's own
 * code (openCandidates, checkSeller) or its SQL row. Steps are repeated now
 * and then: a second release, a release after a refund, a cancel after a
 * release. Every answer, the orders, events, ads, merchants' counters, bans,
 * audit entries, transfers and account totals must be equal.
 *
 * Over 500 lines because the stream, both sides of each step and what is
 * compared are one proof, read top to bottom.
 */

const SEED = Number(process.env.FIAT_EQUIVALENCE_SEED ?? 16_2026);
const COMMANDS = Number(process.env.FIAT_EQUIVALENCE_COMMANDS ?? 500);
const TIME_ZERO = Date.UTC(2026, 10, 26);
const MINUTE = 60_000;
const USERS = [101, 102, 103, 104];
const MERCHANTS = [201, 202];
/** Applicants in review: the first has the deposit in its fiat wallet, the second not. */
const APPLICANTS = [203, 204];
const OPERATOR: AuditActor = { name: 'op', id: 9 };

type Act = 'paid' | 'release' | 'cancel' | 'appeal' | 'rule' | 'sellerPaid';

type Step =
  | { kind: 'ad'; at: number; merchant: number; side: 'buy' | 'sell'; price: string; available: string }
  | { kind: 'setAd'; at: number; merchant: number; pick: number; online: boolean; available?: string }
  | { kind: 'order'; at: number; userId: number; side: 'buy' | 'sell'; amount: string }
  | { kind: 'act'; at: number; act: Act; pick: number; decision: 'release' | 'refund' }
  | { kind: 'tick'; at: number }
  | { kind: 'decide'; at: number; applicant: number; approve: boolean };

type Answer = { ok: true; orderId?: number } | { ok: false; error: string; params?: unknown };

function* stream(seed: number, count: number): Generator<Step> {
  const random = prng(seed);
  const pick = <T>(from: readonly T[]): T => from[random(from.length)]!;
  let at = TIME_ZERO;
  for (const merchant of MERCHANTS) {
    yield { kind: 'ad', at: at++, merchant, side: 'buy', price: pick(['7.25', '7.3']), available: '800' };
    yield { kind: 'ad', at: at++, merchant, side: 'sell', price: pick(['7.1', '7.05']), available: '1000' };
  }
  let previous: Step | null = null;
  for (let index = 0; index < count; index++) {
    // Now and then past a payment window (10 minutes).
    at += random(100) < 4 ? 11 * MINUTE : 2_000 + random(15_000);
    const roll = random(100);
    let next: Step;
    if (previous !== null && random(100) < 8) next = { ...(previous as Step), at };
    else if (roll < 4)
      next = {
        kind: 'setAd',
        at,
        merchant: pick(MERCHANTS),
        pick: random(10),
        online: random(4) !== 0,
        ...(random(2) === 0 ? { available: `${random(1500)}` } : {}),
      };
    else if (roll < 34)
      next = {
        kind: 'order',
        at,
        userId: pick(USERS),
        side: random(3) === 0 ? 'sell' : 'buy',
        amount: pick(['100', '725', '1450', '300', '725', '999.99', '20000', '7.33']),
      };
    else if (roll < 36) next = { kind: 'tick', at };
    else if (roll < 38) next = { kind: 'decide', at, applicant: pick(APPLICANTS), approve: random(3) !== 0 };
    else
      next = {
        kind: 'act',
        at,
        act: pick([
          'paid',
          'paid',
          'release',
          'release',
          'cancel',
          'appeal',
          'appeal',
          'rule',
          'rule',
          'sellerPaid',
        ] as const),
        pick: random(1_000),
        decision: random(2) === 0 ? 'release' : 'refund',
      };
    previous = next;
    yield next;
  }
}

function fundingOf(): TransferInput[] {
  const batch: TransferInput[] = [];
  for (const userId of [...USERS, ...MERCHANTS, ...APPLICANTS])
    batch.push({
      id: `equivalence:fund:${userId}`,
      debit: systemAccount('treasury'),
      credit: userAccount(userId, 'fiat'),
      asset: 'USDT',
      amount: Dec.parse(USERS.includes(userId) ? '300' : userId === 204 ? '100' : '2500'),
      code: 'test_funding',
    });
  return batch;
}

const nameOf = (userId: number) => `Name ${userId}`;
const payeeOf = (userId: number): FiatPayee => ({
  ...EMPTY_FIAT_PAYEE,
  payeeName: nameOf(userId),
  cardNumber: `62220200000${userId}`,
  bank: 'ICBC',
});

function adInput(merchant: number, side: 'buy' | 'sell', price: string, available: string): FiatAdInput {
  return {
    side,
    coin: 'USDT',
    fiat: 'CNY',
    priceType: 'fixed',
    price,
    premium: '',
    min: '50',
    max: '10000',
    available,
    methods: [{ payType: 'bank', payee: payeeOf(merchant) }],
    payWindowMinutes: 10,
    terms: `Terms of ${merchant}`,
  };
}

/** What FiatService reads of identity: every user verified under `Name <id>`, nobody frozen or locked. */
function stubIdentity(): IdentityService {
  const stub = {
    assertNotFrozen: async () => {},
    assertNotLocked: async () => {},
    assertKycDone: async () => {},
    verifiedName: async (userId: number) => nameOf(userId),
    uploadBelongsTo: async () => true,
    getUser: async () => ({ lockedUntil: null }),
  };
  // Only these are called on the paths the stream takes.
  return stub as unknown as IdentityService;
}

function answerOf(error: unknown): Answer {
  if (!(error instanceof AppError)) throw error;
  return Object.keys(error.params).length === 0
    ? { ok: false, error: error.key }
    : { ok: false, error: error.key, params: error.params };
}

function stateAnswer(result: MoneyResult): Answer {
  if (!result.ok) return result.params === undefined ? result : { ...result };
  return result.fiatOrderId === undefined ? { ok: true } : { ok: true, orderId: result.fiatOrderId };
}

/** The fiat state's snapshot in a fixed order (maps may list their entries in another order after a load). */
function canonical(snapshot: FiatSnapshot): FiatSnapshot {
  return {
    nextOrderId: snapshot.nextOrderId,
    ads: [...snapshot.ads].sort((x, y) => x.adId - y.adId),
    orders: [...snapshot.orders].sort((x, y) => x.id - y.id),
    decided: [...snapshot.decided].sort((x, y) => x - y),
  };
}

async function fiatRows(db: Executor) {
  return {
    orders: await db.selectFrom('fiat_orders').selectAll().orderBy('id').execute(),
    events: await db.selectFrom('fiat_order_events').selectAll().orderBy('id').execute(),
    ads: await db.selectFrom('fiat_ads').selectAll().orderBy('id').execute(),
    merchants: await db.selectFrom('fiat_merchants').selectAll().orderBy('id').execute(),
    bans: await db.selectFrom('fiat_bans').selectAll().orderBy('id').execute(),
    audit: await db
      .selectFrom('operator_audit_log')
      .select(['at', 'operator', 'operator_id', 'action', 'user_id', 'details'])
      .where('action', 'like', 'fiat.%')
      .orderBy('id')
      .execute(),
  };
}

let h: Harness;
let stateSide: ProjectedState;

beforeEach(async () => {
  h = await startHarness({ demo: false });
  stateSide = new ProjectedState(await openTestStore(), [ledgerProjection, fiatProjection]);
});

afterEach(async () => {
  await h.close();
  await stateSide.store.close();
});

describe('the money state in place of the fiat escrow', () => {
  it(`writes the orders, events, ads, bans, transfers and balances the module writes (${COMMANDS} steps, seed ${SEED})`, async () => {
    const service = new FiatService({
      db: h.store.db,
      ledger: h.app.ledger,
      clock: h.clock,
      identity: stubIdentity(),
      demo: false,
      indexPrice: () => null,
    });
    const a = h.store.db;
    const b = stateSide.store.db;
    const tally = new Map<string, number>();
    const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
    const apply = (command: MoneyCommand) => stateAnswer(stateSide.apply(command));

    h.clock.set(TIME_ZERO);
    const funding = fundingOf();
    await h.app.ledger.execute(funding);
    stateSide.apply({ kind: 'transfer', at: TIME_ZERO, batch: funding });
    // The merchants' rows are the edge's: the same rows on both sides.
    for (const userId of MERCHANTS) {
      const row = {
        user_id: userId,
        name: nameOf(userId),
        demo_key: null,
        completed: 0,
        orders: 0,
        release_ms_total: 0,
        created_at: TIME_ZERO,
        state: 'approved' as const,
        deposit_hold: null,
      };
      await sql.insertMerchant(a, row);
      await sql.insertMerchant(b, row);
    }
    for (const userId of APPLICANTS) {
      const row = {
        user_id: userId,
        name: nameOf(userId),
        demo_key: null,
        completed: 0,
        orders: 0,
        release_ms_total: 0,
        created_at: TIME_ZERO,
        state: 'review' as const,
        deposit_hold: null,
      };
      await sql.insertMerchant(a, row);
      await sql.insertMerchant(b, row);
    }
    const merchantIdOf = new Map<number, number>();
    for (const userId of MERCHANTS) {
      const merchantId = Number((await sql.merchantOfUser(a, userId))!.id);
      merchantIdOf.set(userId, merchantId);
      // Approved before the stream (as before a cut-over): snapshot 0 from SQL tells the state so.
      stateSide.state.fiat.decided.add(merchantId);
    }

    /** The ad's row as the edge writes it (the module's, copied), then its amount and liveness to the state. */
    async function adCommand(adId: number, at: number): Promise<Answer> {
      await stateSide.write();
      const row = (await sql.ad(a, adId))!;
      const { id, ...columns } = row;
      if (await sql.ad(b, adId)) await b.updateTable('fiat_ads').set(columns).where('id', '=', id).execute();
      else await b.insertInto('fiat_ads').values(row).execute();
      const merchant = (await sql.merchant(a, Number(row.merchant_id)))!;
      return apply({
        kind: 'fiatAd',
        at,
        adId,
        side: row.side,
        coin: row.coin,
        merchantUserId: merchant.user_id === null ? null : Number(merchant.user_id),
        available: Dec.parse(row.available).toString(),
        online: Number(row.online) === 1,
      });
    }

    const orders: number[] = [];
    const audit = (order: OrderRow, decision: string, reason: string): FiatAudit => ({
      operator: OPERATOR.name,
      operatorId: OPERATOR.id,
      action: `fiat.${decision}`,
      userId: Number(order.user_id),
      details: JSON.stringify({ orderId: Number(order.id), reason }),
    });

    /** The user of a party of an order (null: the house). */
    async function partyOf(order: OrderRow, party: 'buyer' | 'seller'): Promise<number | null> {
      const merchant = (await sql.merchant(a, Number(order.merchant_id)))!;
      const userParty = order.side === 'buy' ? 'buyer' : 'seller';
      if (party === userParty) return Number(order.user_id);
      return merchant.user_id === null ? null : Number(merchant.user_id);
    }

    async function attempt(run: () => Promise<unknown>): Promise<Answer> {
      try {
        await run();
        return { ok: true };
      } catch (error) {
        return answerOf(error);
      }
    }

    async function run(next: Step): Promise<[Answer, Answer]> {
      h.clock.set(next.at);
      switch (next.kind) {
        case 'ad': {
          const before = (await sql.adsOfMerchant(a, merchantIdOf.get(next.merchant)!)).length;
          const fromModule = await attempt(() =>
            service.publishAd(next.merchant, adInput(next.merchant, next.side, next.price, next.available)),
          );
          if (!fromModule.ok) return [fromModule, fromModule];
          const ads = await sql.adsOfMerchant(a, merchantIdOf.get(next.merchant)!);
          expect(ads.length).toBe(before + 1);
          const adId = Math.max(...ads.map((ad) => Number(ad.id)));
          return [fromModule, await adCommand(adId, next.at)];
        }
        case 'setAd': {
          const ads = await sql.adsOfMerchant(a, merchantIdOf.get(next.merchant)!);
          const ad = ads[next.pick % ads.length]!;
          const fromModule = await attempt(() =>
            service.setAdOnline(next.merchant, Number(ad.id), next.online, next.available),
          );
          if (!fromModule.ok) {
            count(`ad:${fromModule.error}`);
            // The module's refusal came from the ledger: the state refuses the same amount.
            const fromState = apply({
              kind: 'fiatAd',
              at: next.at,
              adId: Number(ad.id),
              side: ad.side,
              coin: ad.coin,
              merchantUserId: next.merchant,
              available: next.available ?? Dec.parse(ad.available).toString(),
              online: next.online,
            });
            return [fromModule, fromState];
          }
          return [fromModule, await adCommand(Number(ad.id), next.at)];
        }
        case 'order': {
          const input = {
            side: next.side,
            coin: 'USDT',
            fiat: 'CNY',
            amount: next.amount,
            payType: 'bank' as const,
            payee: next.side === 'sell' ? payeeOf(next.userId) : null,
          };
          // The edge's part: the seller's checks, the matching.
          let candidates: Awaited<ReturnType<FiatService['openCandidates']>> = [];
          let edge: Answer | null = null;
          try {
            if (input.payee) await service.checkSeller(next.userId, { ...input, payee: input.payee });
            candidates = await service.openCandidates(next.userId, input, 'en');
          } catch (error) {
            edge = answerOf(error);
          }
          let fromModule: Answer;
          try {
            const order =
              next.side === 'buy'
                ? await service.buy(next.userId, input, 'en')
                : await service.sell(next.userId, { ...input, payee: input.payee! }, 'en');
            fromModule = { ok: true, orderId: order.id };
            orders.push(order.id);
          } catch (error) {
            fromModule = answerOf(error);
          }
          count(fromModule.ok ? `opened:${next.side}` : fromModule.error);
          if (edge) return [fromModule, edge];
          const fromState = apply({
            kind: 'fiatOpen',
            at: next.at,
            userId: next.userId,
            side: next.side,
            coin: input.coin,
            fiat: input.fiat,
            amount: Dec.parse(input.amount).toString(),
            payType: input.payType,
            candidates,
          });
          return [fromModule, fromState];
        }
        case 'tick': {
          const due = await sql.dueForExpiry(a, next.at, 200);
          const fromModule = await attempt(() => service.tick());
          for (const order of due) {
            const payer = await partyOf(order, 'buyer');
            count('expired');
            const answer = apply({
              kind: 'fiatRefund',
              at: next.at,
              orderId: Number(order.id),
              from: 'to_pay',
              by: 'system',
              reason: 'payment window expired',
              audit: null,
              ban:
                payer === null
                  ? null
                  : { rule: 'unpaid', userId: payer, windowMinutes: payWindowMinutes(order) },
            });
            if (!answer.ok) return [fromModule, answer];
          }
          return [fromModule, { ok: true }];
        }
        case 'decide': {
          const merchant = (await sql.merchantOfUser(a, next.applicant))!;
          const reason = next.approve ? 'documents fine' : 'documents missing';
          const fromModule = await attempt(() =>
            service.decideMerchant({ userId: next.applicant, approve: next.approve, reason }, OPERATOR),
          );
          count(`decide:${fromModule.ok ? 'ok' : fromModule.error}`);
          // The edge refuses a decision on an application no longer in review, from its row.
          if (merchant.state !== 'review') return [fromModule, { ok: false, error: 'fiat.wrongState' }];
          const merchantId = Number(merchant.id);
          return [
            fromModule,
            apply({
              kind: 'fiatMerchantDecided',
              at: next.at,
              merchantId,
              userId: next.applicant,
              approve: next.approve,
              audit: {
                operator: OPERATOR.name,
                operatorId: OPERATOR.id,
                action: next.approve ? 'fiat.merchant.approve' : 'fiat.merchant.reject',
                userId: next.applicant,
                details: JSON.stringify({ merchantId, reason }),
              },
            }),
          ];
        }
        case 'act': {
          // Mostly the newest order, now and then one of the three before it.
          const back = next.pick % 10 < 7 ? 0 : next.pick % Math.min(4, orders.length || 1);
          const id = orders.length === 0 ? 999 : orders[orders.length - 1 - back]!;
          const order = await sql.order(a, id);
          if (!order) return [{ ok: true }, { ok: true }];
          const result = await act(next, order);
          count(`${next.act}:${result[0].ok ? 'ok' : result[0].error}`);
          return result;
        }
      }
    }

    async function act(next: Extract<Step, { kind: 'act' }>, order: OrderRow): Promise<[Answer, Answer]> {
      const id = Number(order.id);
      const buyer = await partyOf(order, 'buyer');
      const seller = await partyOf(order, 'seller');
      const base = { at: next.at, orderId: id };
      switch (next.act) {
        case 'paid':
        case 'sellerPaid': {
          // A seller marking paid is refused by the edge (fiat.wrongParty), as the module refuses it.
          const who = next.act === 'paid' ? buyer : seller;
          if (who === null) return [{ ok: true }, { ok: true }];
          const fromModule = await attempt(() => service.markPaid(who, { id, img: '/img/x.png' }));
          if (next.act === 'sellerPaid') return [fromModule, { ok: false, error: 'fiat.wrongParty' }];
          return [
            fromModule,
            apply({
              kind: 'fiatPaid',
              ...base,
              expiresAt: Number(order.expires_at),
              windowMinutes: payWindowMinutes(order),
              by: 'buyer',
              reason: 'payment sent',
              img: '/img/x.png',
            }),
          ];
        }
        case 'release': {
          if (seller === null) return [{ ok: true }, { ok: true }];
          const fromModule = await attempt(() => service.release(seller, id));
          return [
            fromModule,
            apply({
              kind: 'fiatRelease',
              ...base,
              from: 'paid',
              by: 'seller',
              reason: 'payment received',
              audit: null,
            }),
          ];
        }
        case 'cancel': {
          if (buyer === null) return [{ ok: true }, { ok: true }];
          const fromModule = await attempt(() => service.cancel(buyer, id));
          return [
            fromModule,
            apply({
              kind: 'fiatRefund',
              ...base,
              from: 'to_pay',
              by: 'buyer',
              reason: 'cancelled by the buyer',
              audit: null,
              ban: { rule: 'cancels', userId: buyer },
            }),
          ];
        }
        case 'appeal': {
          const role = next.pick % 2 === 0 ? 'buyer' : 'seller';
          const who = role === 'buyer' ? buyer : seller;
          if (who === null) return [{ ok: true }, { ok: true }];
          const kind = role === 'buyer' ? 'paidNotReleased' : 'notReceived';
          const reason = 'the other party went quiet';
          const fromModule = await attempt(() => service.appeal(who, { id, kind, reason }));
          if (!fromModule.ok && fromModule.error !== 'fiat.wrongState') return [fromModule, fromModule];
          return [fromModule, apply({ kind: 'fiatAppeal', ...base, role, appealKind: kind, reason })];
        }
        case 'rule': {
          const reason = `ruled ${next.decision}`;
          const fromModule = await attempt(() =>
            service.resolve({ id, decision: next.decision, reason }, OPERATOR),
          );
          // The edge refuses a ruling on an order not under appeal from its row, as the module does.
          if (order.state !== 'appeal') return [fromModule, { ok: false, error: 'fiat.wrongState' }];
          const by = `operator:${OPERATOR.name}`;
          return [
            fromModule,
            next.decision === 'release'
              ? apply({
                  kind: 'fiatRelease',
                  ...base,
                  from: 'appeal',
                  by,
                  reason,
                  audit: audit(order, 'release', reason),
                })
              : apply({
                  kind: 'fiatRefund',
                  ...base,
                  from: 'appeal',
                  by,
                  reason,
                  audit: audit(order, 'refund', reason),
                  ban: null,
                }),
          ];
        }
      }
    }

    for (const next of stream(SEED, COMMANDS)) {
      const [fromModule, fromState] = await run(next);
      expect(fromState, JSON.stringify(next)).toEqual(fromModule);
      if (next.at % 3 === 0) await stateSide.write();
    }
    await stateSide.write();

    // Snapshot 0 from SQL: the fiat part built from the projected rows is the state that wrote them.
    const loaded = moneyMachine().initialState();
    await loadFiatState(b, loaded);
    expect(canonical(encodeFiat(loaded.fiat))).toEqual(canonical(encodeFiat(stateSide.state.fiat)));
    const module = await fiatRows(a);
    expect(await fiatRows(b)).toEqual(module);
    await expectLedgerEquivalent(a, b, stateSide.state, { accountTimes: false });
    await expectHealthyLedger(a);
    await expectHealthyLedger(b);
    for (const key of [
      'opened:buy',
      'opened:sell',
      'release:ok',
      'release:fiat.wrongState',
      'cancel:ok',
      'cancel:fiat.wrongState',
      'paid:ok',
      'paid:fiat.expired',
      'appeal:ok',
      'rule:ok',
      'expired',
      'fiat.openOrderExists',
      'fiat.banned',
      'decide:ok',
      'decide:fiat.wrongState',
    ])
      expect(tally.get(key) ?? 0, `${key} in ${JSON.stringify([...tally])}`).toBeGreaterThan(0);
    if (process.env.FIAT_DEBUG) console.log(JSON.stringify([...tally]));
  });
});
