import { Dec } from '@halyard/money';
import type { IeoProjectInput } from '@halyard/protocol';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prng } from '../../core/state/command-stream.ts';
import { encodeIeo } from '../../core/state/ieo.ts';
import { type MoneyCommand, moneyMachine } from '../../core/state/index.ts';
import { systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { expectLedgerEquivalent, ProjectedState } from '../../projection/equivalence-support.ts';
import { openTestStore } from '../../store/connect.ts';
import { type Harness, startHarness } from '../identity/test-support.ts';
import { referralProjection } from '../referral/projection.ts';
import {
  type Answer,
  advanceSale,
  answerOf,
  canonical,
  copyProject,
  ieoRows,
  saleCommand,
  stateAnswer,
  stubIdentity,
} from './equivalence-support.ts';
import { ieoProjection } from './projection.ts';
import { IeoService, ieoSaleTermsOf } from './service.ts';
import { loadIeoState } from './state-from-sql.ts';
import { ieoStore as sql } from './store.ts';

/**
 * The proof that the money state's IEO commands (`ieoSale`, `ieoSubscribe`,
 * `ieoAdvance`, `ieoCancelSale`) can replace IeoService's money paths: one
 * seeded stream of sales created and edited, subscriptions, clock ticks and
 * cancels is run
 *
 *   (a) through IeoService on a test app's database and ledger, the clock
 *       set to each step's time (a tick: `advance` then `payOwedRebates`);
 *   (b) through the money state, its events written to a fresh database by
 *       the ledger's, the IEO and the referral writers.
 *
 * The project rows (terms, texts, salt) are the edge's: the test copies the
 * module's row after a creation or an edit, as one database would hold it,
 * and the edge's funding ids are the ones the module drew. Inviters come
 * from a stub identity on the module's side and from `referralUser` on the
 * state's. Sales are FCFS or commit-mode, with gifts, rebates, one to three
 * tranches or linear vesting, few token decimals (allocation rounding) and
 * supplies small enough to sell out and be oversubscribed. Subscriptions
 * are fair, below the minimum, above the maximum, beyond the balance, junk,
 * in a coin not accepted, before the start, after the end, to a cancelled
 * or unknown sale; steps are repeated now and then. Every answer, the
 * orders, tranches, commit totals, rebates, allocations, projects,
 * commission rows, transfers and account totals must be equal. A sale
 * large enough for several distribution batches is state-distribution.test.ts.
 */

const SEED = Number(process.env.IEO_EQUIVALENCE_SEED ?? 15_2026);
const COMMANDS = Number(process.env.IEO_EQUIVALENCE_COMMANDS ?? 400);
const TIME_ZERO = Date.UTC(2026, 10, 26);
const MINUTE = 60_000;
const USERS = [101, 102, 103, 104, 105, 106];
/** The invited users and their inviters. */
const INVITERS = new Map<number, number>([
  [103, 101],
  [104, 101],
  [106, 102],
]);

type Step =
  | { kind: 'fund'; at: number; batch: TransferInput[] }
  | { kind: 'create'; at: number; input: IeoProjectInput }
  | { kind: 'edit'; at: number; pick: number; input: IeoProjectInput }
  | { kind: 'subscribe'; at: number; userId: number; pick: number; paycoin: string; amount: AmountPick }
  | { kind: 'tick'; at: number; pick: number }
  | { kind: 'cancel'; at: number; pick: number };

type AmountPick = 'fair' | 'small' | 'belowMin' | 'aboveMax' | 'beyondBalance' | 'junk' | 'precise';

function* stream(seed: number, count: number): Generator<Step> {
  const random = prng(seed);
  const pick = <T>(from: readonly T[]): T => from[random(from.length)]!;
  let at = TIME_ZERO;
  for (const userId of USERS) yield fundingOf(userId, at++, { USDT: '5000', BTC: '0.5' });
  let previous: Step | null = null;
  for (let index = 0; index < count; index++) {
    at += 1_000 + random(20_000);
    const roll = random(100);
    let next: Step;
    // A repeat: the same request again, a moment later.
    if (previous !== null && random(100) < 6) next = { ...(previous as Step), at };
    else if (roll < 3) next = fundingOf(pick(USERS), at, { USDT: '1500' });
    else if (roll < 8) next = { kind: 'create', at, input: termsOf(random, at) };
    else if (roll < 14) next = { kind: 'edit', at, pick: random(1_000), input: termsOf(random, at) };
    else if (roll < 28) next = { kind: 'tick', at, pick: random(1_000) };
    else if (roll < 29) next = { kind: 'cancel', at, pick: random(1_000) };
    else {
      const amount = random(100);
      next = {
        kind: 'subscribe',
        at,
        userId: pick(USERS),
        pick: random(1_000),
        paycoin: random(100) < 92 ? 'USDT' : pick(['BTC', 'ETH']),
        amount:
          amount < 55
            ? 'fair'
            : amount < 65
              ? 'small'
              : amount < 72
                ? 'belowMin'
                : amount < 80
                  ? 'aboveMax'
                  : amount < 88
                    ? 'beyondBalance'
                    : amount < 94
                      ? 'junk'
                      : 'precise',
      };
    }
    previous = next;
    yield next;
  }
}

/** A sale's terms: opening within two minutes, open two to six. */
function termsOf(random: (below: number) => number, at: number): IeoProjectInput {
  const mode = random(2) === 0 ? 'fcfs' : 'commit';
  const tokenDecimals = [0, 1, 2, 3][random(4)]!;
  // Now and then open at once; mostly within two minutes, so an edit may still replace the terms.
  const startTime = at + (random(4) === 0 ? 0 : MINUTE + random(3 * MINUTE));
  const vesting =
    random(4) === 0
      ? { kind: 'linear' as const, cliffDays: random(2), durationDays: 1 + random(30) }
      : {
          kind: 'tranches' as const,
          cliffDays: random(3),
          tranches: 1 + random(3),
          intervalDays: 1 + random(10),
        };
  return {
    coin: `T${random(1_000)}`,
    name: 'Equivalence token',
    mode,
    startTime,
    endTime: startTime + (3 + random(8)) * MINUTE,
    total: String(100 + random(400)),
    tokenDecimals,
    payCoins:
      mode === 'fcfs' && random(3) === 0
        ? [
            { paycoin: 'USDT', price: ['0.5', '0.37', '3'][random(3)]! },
            { paycoin: 'BTC', price: '0.00001' },
          ]
        : [{ paycoin: 'USDT', price: ['0.5', '0.37', '3', '1.13'][random(4)]! }],
    minNumber: ['1', '2', '0.5'][random(3)]!,
    maxNumber: String(50 + random(500)),
    vesting,
    gift: ['0', '0', '0.05', '0.125'][random(4)]!,
    rebate: ['0', '0.1', '0.03'][random(3)]!,
    kycLevel: 'none',
    refusedAreaCodes: [],
    intro: { en: '<p>Equivalence</p>' },
    announcement: {},
  };
}

function fundingOf(userId: number, at: number, amounts: Record<string, string>): Step {
  return {
    kind: 'fund',
    at,
    batch: Object.entries(amounts).map(([asset, amount]) => ({
      id: `equivalence:fund:${userId}:${asset}:${at}`,
      debit: systemAccount('treasury'),
      credit: userAccount(userId, 'spot'),
      asset,
      amount: Dec.parse(amount),
      code: 'test_funding',
    })),
  };
}

/** The amount a pick offers, from the sale's price and bounds. */
function amountOf(pick: AmountPick, sale: { price: Dec; min: Dec; max: Dec }, draw: number): string {
  const { price, min, max } = sale;
  switch (pick) {
    case 'fair':
      return min
        .mul(Dec.fromInt(2))
        .add(Dec.fromInt(draw % 400))
        .mul(price)
        .toString();
    case 'small':
      return min
        .mul(price)
        .mul(Dec.fromInt(1 + (draw % 3)))
        .add(Dec.parse('0.0137'))
        .toString();
    case 'belowMin':
      return min.mul(price).div(Dec.fromInt(3)).floorTo(8).toString();
    case 'aboveMax':
      return max
        .add(Dec.fromInt(1 + (draw % 50)))
        .mul(price)
        .toString();
    case 'beyondBalance':
      return Dec.fromInt(50_000 + draw).toString();
    case 'junk':
      return draw % 2 === 0 ? 'many' : '-5';
    case 'precise':
      return '1.000000001';
  }
}

// ── the test ──────────────────────────────────────────────────────────────

let h: Harness;
let stateSide: ProjectedState;

beforeEach(async () => {
  h = await startHarness({ demo: false });
  stateSide = new ProjectedState(await openTestStore(), [
    ledgerProjection,
    ieoProjection,
    referralProjection,
  ]);
});

afterEach(async () => {
  await h.close();
  await stateSide.store.close();
});

describe('the money state in place of the IEO module', () => {
  it(`writes the orders, tranches, rebates, allocations, transfers and balances the module writes (${COMMANDS} steps, seed ${SEED})`, async () => {
    const service = new IeoService({
      db: h.store.db,
      ledger: h.app.ledger,
      clock: h.clock,
      identity: stubIdentity(INVITERS),
    });
    const projects: number[] = [];
    /** The sales not cancelled, oldest first. */
    let live: number[] = [];
    const windows = new Map<number, { start: number; end: number }>();
    const draw = prng(SEED + 7);
    const writeEvery = prng(SEED + 1);
    const tally = new Map<string, number>();
    const count = (key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
    const apply = (command: MoneyCommand) => stateAnswer(stateSide.apply(command));

    for (const [userId, parentId] of INVITERS)
      stateSide.apply({
        kind: 'referralUser',
        at: TIME_ZERO,
        userId,
        parentId,
        feeDeduction: false,
        kickbackRate: '0',
        idNumbers: [],
      });

    /** The funding ids the module drew for the project's latest funding (and defunding). */
    async function fundingIds(id: number): Promise<{ fundWhy: string; defundWhy: string }> {
      const rows = await h.store.db
        .selectFrom('ledger_transfers')
        .select('id')
        .where('reference', '=', `ieo:${id}`)
        .orderBy('seq', 'desc')
        .limit(2)
        .execute();
      const whyOf = (kind: string) =>
        rows.find((row) => row.id.startsWith(`ieo:${id}:${kind}:`))?.id.slice(`ieo:${id}:${kind}:`.length) ??
        '';
      return { fundWhy: whyOf('fund'), defundWhy: whyOf('defund') };
    }

    /** One step on both sides; the answers. */
    async function run(next: Step): Promise<[Answer, Answer]> {
      h.clock.set(next.at);
      // Mostly one of the two newest sales not cancelled, now and then an older or unknown one.
      // Mostly a sale whose window is open now, now and then any other, or an unknown one.
      const openNow = live.filter((id) => {
        const window = windows.get(id)!;
        return window.start <= next.at && next.at < window.end;
      });
      const anyProject = (pick: number) => projects[pick % (projects.length + 1)] ?? 999;
      const projectId = (pick: number) =>
        pick % 10 < 8 && openNow.length > 0 ? openNow[pick % openNow.length]! : anyProject(pick);
      // Mostly a sale not open yet: the one an operator would still be editing.
      const notYet = live.filter((id) => next.at < windows.get(id)!.start);
      switch (next.kind) {
        case 'fund':
          await h.app.ledger.execute(next.batch);
          return [{ ok: true }, apply({ kind: 'transfer', at: next.at, batch: next.batch })];
        case 'create': {
          const project = await service.createProject(next.input);
          projects.push(project.id);
          windows.set(project.id, { start: next.input.startTime, end: next.input.endTime });
          live.push(project.id);
          await copyProject(h.store.db, stateSide, project.id);
          return [
            { ok: true },
            stateAnswer(
              await saleCommand(h.store.db, stateSide, project.id, next.at, {
                fundWhy: 'create',
                defundWhy: '',
              }),
            ),
          ];
        }
        case 'edit': {
          const id = next.pick % 10 < 6 && notYet.length > 0 ? notYet.at(-1)! : anyProject(next.pick);
          let fromModule: Answer;
          try {
            const { cancelled } = await service.editProject(id, next.input);
            fromModule = cancelled ? { ok: true, cancelled } : { ok: true };
            if (cancelled) live = live.filter((other) => other !== id);
          } catch (error) {
            fromModule = answerOf(error);
          }
          count(
            fromModule.ok ? (fromModule.cancelled ? 'edit:cancelled' : 'edit:replaced') : fromModule.error,
          );
          // The edge advances the sale before an edit, as the module does.
          const advanced = stateAnswer(advanceSale(stateSide, next.at, id).result);
          if (!advanced.ok) return [fromModule, advanced];
          if (fromModule.ok && !fromModule.cancelled) {
            windows.set(id, { start: next.input.startTime, end: next.input.endTime });
            await copyProject(h.store.db, stateSide, id);
          }
          return [
            fromModule,
            stateAnswer(await saleCommand(h.store.db, stateSide, id, next.at, await fundingIds(id))),
          ];
        }
        case 'subscribe': {
          const id = projectId(next.pick);
          const row = await sql.project(h.store.db, id);
          const pay = row ? ieoSaleTermsOf(row).payCoins[0]! : { paycoin: 'USDT', price: '1' };
          const amount = amountOf(
            next.amount,
            {
              price: Dec.parse(pay.price),
              min: Dec.parse(row?.min_number ?? '1'),
              max: Dec.parse(row?.max_number ?? '100'),
            },
            draw(1_000),
          );
          let fromModule: Answer;
          try {
            const order = await service.subscribe(next.userId, {
              projectId: id,
              paycoin: next.paycoin,
              amount,
            });
            fromModule = { ok: true, orderId: order.id };
          } catch (error) {
            fromModule = answerOf(error);
          }
          count(fromModule.ok ? `subscribed:${row?.mode}` : fromModule.error);
          const fromState = apply({
            kind: 'ieoSubscribe',
            at: next.at,
            userId: next.userId,
            projectId: id,
            paycoin: next.paycoin,
            amount,
          });
          return [fromModule, fromState];
        }
        case 'tick': {
          const id = projectId(next.pick);
          let fromModule: Answer = { ok: true };
          try {
            await service.advance(id);
            await service.payOwedRebates();
            count(`released:${await service.releaseDue()}`);
          } catch (error) {
            fromModule = answerOf(error);
          }
          const advanced = stateAnswer(advanceSale(stateSide, next.at, id).result);
          if (!advanced.ok) return [fromModule, advanced];
          const paid = apply({ kind: 'ieoPayRebates', at: next.at });
          if (!paid.ok) return [fromModule, paid];
          return [fromModule, apply({ kind: 'ieoRelease', at: next.at })];
        }
        case 'cancel': {
          const id = anyProject(next.pick);
          let fromModule: Answer = { ok: true };
          try {
            await service.cancelProject(id);
            count('cancelled');
            live = live.filter((other) => other !== id);
          } catch (error) {
            fromModule = answerOf(error);
          }
          return [fromModule, apply({ kind: 'ieoCancelSale', at: next.at, projectId: id })];
        }
      }
    }

    const [a, b] = [h.store.db, stateSide.store.db];
    for (const next of stream(SEED, COMMANDS)) {
      const [fromModule, fromState] = await run(next);
      expect(fromState, JSON.stringify(next)).toEqual(fromModule);
      if (writeEvery(4) === 0) await stateSide.write();
    }
    // The clock passes every sale's end: each one allocated, distributed or its rebates paid.
    // Snapshot 0 from SQL: the IEO part built from the projected rows is the state that wrote them.
    await stateSide.write();
    const loaded = moneyMachine().initialState();
    await loadIeoState(b, loaded);
    expect(canonical(encodeIeo(loaded.ieo))).toEqual(canonical(encodeIeo(stateSide.state.ieo)));
    expect(stateSide.state.ieo.tranches.size + stateSide.state.ieo.owed.size).toBeGreaterThan(0);
    // Then days later, a tick at a time: whole tranches and linear ones in part, and at last everything released.
    const DAY = 24 * 60 * MINUTE;
    for (const days of [1, 2, 5, 9, 17, 400]) {
      const end = TIME_ZERO + days * DAY + 7 * MINUTE;
      h.clock.set(end);
      for (const id of projects) {
        await service.advance(id);
        await service.payOwedRebates();
        expect(advanceSale(stateSide, end, id).result).toEqual({
          ok: true,
          transfers: expect.any(Array),
        });
        expect(stateSide.apply({ kind: 'ieoPayRebates', at: end }).ok).toBe(true);
      }
      count(`releasedAtEnd:${(await service.releaseDue()) > 0}`);
      expect(stateSide.apply({ kind: 'ieoRelease', at: end }).ok).toBe(true);
      await stateSide.write();
    }
    await stateSide.write();

    const module = await ieoRows(a);
    expect(await ieoRows(b)).toEqual(module);
    await expectLedgerEquivalent(a, b, stateSide.state, { accountTimes: false });
    await expectHealthyLedger(a);
    await expectHealthyLedger(b);

    // Allocation rounding creates and loses nothing: spent + refund = committed, within the supply.
    for (const project of module.projects.filter((row) => row.mode === 'commit' && row.state === 'ended')) {
      const orders = module.orders.filter((order) => Number(order.project_id) === Number(project.id));
      let tokens = Dec.ZERO;
      for (const order of orders) {
        expect(Dec.parse(order.spent).add(Dec.parse(order.refund)).eq(Dec.parse(order.amount))).toBe(true);
        tokens = tokens.add(Dec.parse(order.tokens));
      }
      expect(tokens.lte(Dec.parse(project.total))).toBe(true);
    }
    for (const allocation of module.allocations)
      count(
        (JSON.parse(allocation.summary) as { oversubscribed: boolean }).oversubscribed
          ? 'commit:oversubscribed'
          : 'commit:undersubscribed',
      );
    // The stream must exercise what it claims to.
    for (const key of [
      'subscribed:fcfs',
      'subscribed:commit',
      'ieo.belowMinimum',
      'ieo.aboveMaximum',
      'rules.insufficientBalance',
      'ieo.ended',
      'ieo.notOpen',
      'ieo.payCoinNotAccepted',
      'commit:oversubscribed',
      'commit:undersubscribed',
      'edit:replaced',
      'edit:cancelled',
      'ieo.remainingInsufficient',
      'ieo.projectCancelled',
      'ieo.termsFrozen',
      'releasedAtEnd:true',
    ])
      expect(tally.get(key) ?? 0, `${key} in ${JSON.stringify([...tally])}`).toBeGreaterThan(0);
    expect(module.rebates.filter((row) => row.state === 'paid').length).toBeGreaterThan(0);
    expect(module.allocations.length).toBeGreaterThan(0);
    // Every tranche released in full at last, some of them in linear steps before.
    expect(module.tranches.every((tranche) => tranche.released_at !== null)).toBe(true);
    expect(stateSide.state.ieo.tranches.size).toBe(0);
    const releases = await a
      .selectFrom('ledger_transfers')
      .select((eb) => eb.fn.countAll<string>().as('count'))
      .where('code', '=', 'ieo_release')
      .executeTakeFirstOrThrow();
    expect(Number(releases.count)).toBeGreaterThan(module.tranches.length);
    // PostgreSQL on a loaded machine takes most of the default 30 s.
  }, 120_000);
});
