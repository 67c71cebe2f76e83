import { Dec } from '@halyard/money';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IEO_DISTRIBUTE_BATCH } from '../../core/state/ieo-rules.ts';
import { systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { expectLedgerEquivalent, ProjectedState } from '../../projection/equivalence-support.ts';
import { openTestStore } from '../../store/connect.ts';
import { type Harness, startHarness } from '../identity/test-support.ts';
import { referralProjection } from '../referral/projection.ts';
import {
  advanceSale,
  answerOf,
  copyProject,
  ieoRows,
  saleCommand,
  stateAnswer,
  stubIdentity,
} from './equivalence-support.ts';
import { ieoProjection } from './projection.ts';
import { IeoService } from './service.ts';

/**
 * A commit-mode sale with more commitments than one distribution batch
 * (`IEO_DISTRIBUTE_BATCH`, 500): the module distributes it a ledger
 * transaction per batch within one `advance`; the state a batch per
 * `ieoAdvance`, the clock at the edge sending it again while the result says
 * `ieoDistributing`. Every answer, row, transfer and account total must be
 * equal, and the state must take one command to allocate and one per batch.
 * The seeded stream of small sales is state-equivalence.test.ts.
 */

const TIME_ZERO = Date.UTC(2026, 10, 27);
const MINUTE = 60_000;
/** A full batch and one commitment more (kept small: each commitment is a transaction of the module's). */
const USERS = Array.from({ length: IEO_DISTRIBUTE_BATCH + 1 }, (_, index) => 1_001 + index);
/** One user in four invited by the user before: rebates paid in every batch. */
const INVITERS = new Map(USERS.filter((_, index) => index % 4 === 3).map((userId) => [userId, userId - 1]));

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

describe('a commit sale of several distribution batches in the money state', () => {
  it(`is distributed a batch per ieoAdvance, writing what the module writes (${USERS.length} commitments)`, async () => {
    const service = new IeoService({
      db: h.store.db,
      ledger: h.app.ledger,
      clock: h.clock,
      identity: stubIdentity(INVITERS),
    });
    h.clock.set(TIME_ZERO);
    const funding: TransferInput[] = USERS.map((userId) => ({
      id: `distribution:fund:${userId}`,
      debit: systemAccount('treasury'),
      credit: userAccount(userId, 'spot'),
      asset: 'USDT',
      amount: Dec.parse('100'),
      code: 'test_funding',
    }));
    // In batches a transfer command takes.
    for (let start = 0; start < funding.length; start += 100) {
      const batch = funding.slice(start, start + 100);
      await h.app.ledger.execute(batch);
      expect(stateSide.apply({ kind: 'transfer', at: TIME_ZERO, batch })).toMatchObject({ ok: true });
    }
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

    const project = await service.createProject({
      coin: 'BATCH',
      name: 'Distribution token',
      mode: 'commit',
      startTime: TIME_ZERO,
      endTime: TIME_ZERO + 5 * MINUTE,
      // Oversubscribed: shares floored to the token's hundredth.
      total: '20000',
      tokenDecimals: 2,
      payCoins: [{ paycoin: 'USDT', price: '0.37' }],
      minNumber: '1',
      maxNumber: '200',
      vesting: { kind: 'tranches', cliffDays: 0, tranches: 2, intervalDays: 1 },
      gift: '0.05',
      rebate: '0.1',
      kycLevel: 'none',
      refusedAreaCodes: [],
      intro: { en: '<p>Distribution</p>' },
      announcement: {},
    });
    await copyProject(h.store.db, stateSide, project.id);
    const created = await saleCommand(h.store.db, stateSide, project.id, TIME_ZERO, {
      fundWhy: 'create',
      defundWhy: '',
    });
    expect(created.ok).toBe(true);

    const at = TIME_ZERO + MINUTE;
    h.clock.set(at);
    for (const [index, userId] of USERS.entries()) {
      const amount = String(20 + (index % 37));
      let fromModule: ReturnType<typeof stateAnswer>;
      try {
        fromModule = {
          ok: true,
          orderId: (await service.subscribe(userId, { projectId: project.id, paycoin: 'USDT', amount })).id,
        };
      } catch (error) {
        fromModule = answerOf(error);
      }
      const fromState = stateAnswer(
        stateSide.apply({ kind: 'ieoSubscribe', at, userId, projectId: project.id, paycoin: 'USDT', amount }),
      );
      expect(fromState).toEqual(fromModule);
      expect(fromModule.ok).toBe(true);
    }

    const end = TIME_ZERO + 5 * MINUTE;
    h.clock.set(end);
    await service.advance(project.id);
    await service.payOwedRebates();
    const advanced = advanceSale(stateSide, end, project.id);
    expect(advanced.result.ok).toBe(true);
    // One command allocates, then one per batch of the module's: 500 and 1.
    expect(advanced.commands).toBe(3);
    expect(stateSide.apply({ kind: 'ieoPayRebates', at: end }).ok).toBe(true);
    await stateSide.write();

    const module = await ieoRows(h.store.db);
    expect(module.projects[0]!.state).toBe('ended');
    expect(module.orders.every((order) => order.state === 'allocated')).toBe(true);
    expect(JSON.parse(module.allocations[0]!.summary)).toMatchObject({ oversubscribed: true });
    expect(module.rebates.filter((row) => row.state === 'paid').length).toBe(INVITERS.size);
    expect(await ieoRows(stateSide.store.db)).toEqual(module);
    await expectLedgerEquivalent(h.store.db, stateSide.store.db, stateSide.state, { accountTimes: false });
    await expectHealthyLedger(h.store.db);
    await expectHealthyLedger(stateSide.store.db);
  }, 180_000);
});
