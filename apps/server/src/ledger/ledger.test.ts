import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../app.ts';
import { ManualClock } from '../clock.ts';
import { loadConfig } from '../config.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import { custodyWallet, systemAccount, userAccount } from './accounts.ts';
import { LEDGER_ERRORS, LedgerError } from './errors.ts';
import { createLedger, type Ledger } from './ledger.ts';
import { d, expectHealthyLedger, shown } from './test-support.ts';
import { BATCH_MAX, type TransferInput } from './transfers.ts';

const ALICE = 1;
const BOB = 2;
const aliceSpot = userAccount(ALICE, 'spot');
const bobSpot = userAccount(BOB, 'spot');
const custody = systemAccount(custodyWallet('bsc'));
const fees = systemAccount('fees');

let store: Store;
let clock: ManualClock;
let ledger: Ledger;

beforeEach(async () => {
  store = await openTestStore();
  clock = new ManualClock();
  ledger = createLedger(store, clock);
});

afterEach(async () => {
  await expectHealthyLedger(store.db);
  await store.close();
});

function deposit(id: string, owner: number, amount: string, asset = 'USDT'): TransferInput {
  return {
    id,
    debit: custody,
    credit: userAccount(owner, 'spot'),
    asset,
    amount: d(amount),
    code: 'deposit',
  };
}

async function balanceOf(owner: number, asset = 'USDT') {
  return shown(await ledger.balance({ ...userAccount(owner, 'spot'), asset }));
}

async function refusal(promise: Promise<unknown>): Promise<LedgerError> {
  const error = await promise.then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(LedgerError);
  return error as LedgerError;
}

async function transferCount(): Promise<number> {
  const rows = await store.db.selectFrom('ledger_transfers').select('id').execute();
  return rows.length;
}

describe('posted transfers', () => {
  it('credits a deposit and lets custody run below zero', async () => {
    const [transfer] = await ledger.execute([deposit('dep-1', ALICE, '100.5')]);
    expect(transfer).toMatchObject({
      id: 'dep-1',
      type: 'posted',
      code: 'deposit',
      asset: 'USDT',
      pendingId: null,
    });
    expect(transfer?.amount.toString()).toBe('100.5');
    expect(transfer?.timestamp).toBe(clock.now());
    expect(await balanceOf(ALICE)).toEqual({ available: '100.5', locked: '0', total: '100.5' });
    const custodyBalance = await ledger.balance({ ...custody, asset: 'USDT' });
    expect(custodyBalance.total.toString()).toBe('-100.5');
  });

  it('answers a retry with the first result and no second effect', async () => {
    const [first] = await ledger.execute([deposit('dep-1', ALICE, '10')]);
    clock.advance(60_000);
    const [again] = await ledger.execute([deposit('dep-1', ALICE, '10')]);
    expect(again).toEqual(first);
    expect(await balanceOf(ALICE)).toEqual({ available: '10', locked: '0', total: '10' });
    expect(await transferCount()).toBe(1);
  });

  it('refuses the same id with different fields and changes nothing', async () => {
    await ledger.execute([deposit('dep-1', ALICE, '10')]);
    const error = await refusal(ledger.execute([deposit('dep-1', ALICE, '11')]));
    expect(error.key).toBe(LEDGER_ERRORS.idConflict);
    expect(error.transferId).toBe('dep-1');
    expect(error.code).toBe(409);
    const otherCode = await refusal(ledger.execute([{ ...deposit('dep-1', ALICE, '10'), code: 'bonus' }]));
    expect(otherCode.key).toBe(LEDGER_ERRORS.idConflict);
    const otherOwner = await refusal(ledger.execute([deposit('dep-1', BOB, '10')]));
    expect(otherOwner.key).toBe(LEDGER_ERRORS.idConflict);
    expect(await balanceOf(ALICE)).toEqual({ available: '10', locked: '0', total: '10' });
    expect(await balanceOf(BOB)).toEqual({ available: '0', locked: '0', total: '0' });
    expect(await transferCount()).toBe(1);
  });

  it('refuses an overdraft and changes nothing, not even a new account', async () => {
    await ledger.execute([deposit('dep-1', ALICE, '10')]);
    const error = await refusal(
      ledger.execute([
        {
          id: 'pay-1',
          debit: aliceSpot,
          credit: bobSpot,
          asset: 'USDT',
          amount: d('10.000001'),
          code: 'transfer',
        },
      ]),
    );
    expect(error.key).toBe(LEDGER_ERRORS.insufficientBalance);
    expect(error.code).toBe(400);
    expect(error.transferId).toBe('pay-1');
    expect(await balanceOf(ALICE)).toEqual({ available: '10', locked: '0', total: '10' });
    expect(await ledger.balances(BOB)).toEqual([]);
    expect(await ledger.transfer('pay-1')).toBeNull();
  });

  it('spends exactly the whole balance', async () => {
    await ledger.execute([deposit('dep-1', ALICE, '10')]);
    await ledger.execute([
      { id: 'pay-1', debit: aliceSpot, credit: bobSpot, asset: 'USDT', amount: d('10'), code: 'transfer' },
    ]);
    expect(await balanceOf(ALICE)).toEqual({ available: '0', locked: '0', total: '0' });
    expect(await balanceOf(BOB)).toEqual({ available: '10', locked: '0', total: '10' });
  });

  it('keeps system accounts that hold value at or above zero, and lets the treasury mint', async () => {
    const payout = {
      id: 'rebate-1',
      debit: fees,
      credit: aliceSpot,
      asset: 'USDT',
      amount: d('1'),
      code: 'rebate',
    };
    expect((await refusal(ledger.execute([payout]))).key).toBe(LEDGER_ERRORS.insufficientBalance);
    await ledger.execute([
      {
        id: 'mint-1',
        debit: systemAccount('treasury'),
        credit: aliceSpot,
        asset: 'USDT',
        amount: d('5'),
        code: 'demo',
      },
    ]);
    expect(await balanceOf(ALICE)).toEqual({ available: '5', locked: '0', total: '5' });
  });
});

describe('linked batches', () => {
  it('commits a trade with all its legs', async () => {
    await ledger.execute([deposit('dep-a', ALICE, '100'), deposit('dep-b', BOB, '2', 'BTC')]);
    const legs = await ledger.execute([
      {
        id: 't1-quote',
        debit: aliceSpot,
        credit: bobSpot,
        asset: 'USDT',
        amount: d('60'),
        code: 'trade',
        reference: 't1',
      },
      {
        id: 't1-base',
        debit: bobSpot,
        credit: aliceSpot,
        asset: 'BTC',
        amount: d('1'),
        code: 'trade',
        reference: 't1',
      },
      {
        id: 't1-fee',
        debit: bobSpot,
        credit: fees,
        asset: 'USDT',
        amount: d('0.06'),
        code: 'fee',
        reference: 't1',
      },
    ]);
    expect(legs.map((leg) => leg.id)).toEqual(['t1-quote', 't1-base', 't1-fee']);
    expect(legs.every((leg) => leg.reference === 't1')).toBe(true);
    expect(await balanceOf(ALICE)).toEqual({ available: '40', locked: '0', total: '40' });
    expect(await balanceOf(ALICE, 'BTC')).toEqual({ available: '1', locked: '0', total: '1' });
    expect(await balanceOf(BOB)).toEqual({ available: '59.94', locked: '0', total: '59.94' });
  });

  it('applies no leg when one leg fails', async () => {
    await ledger.execute([deposit('dep-a', ALICE, '100'), deposit('dep-b', BOB, '1', 'BTC')]);
    const error = await refusal(
      ledger.execute([
        { id: 't1-quote', debit: aliceSpot, credit: bobSpot, asset: 'USDT', amount: d('60'), code: 'trade' },
        { id: 't1-base', debit: bobSpot, credit: aliceSpot, asset: 'BTC', amount: d('1'), code: 'trade' },
        { id: 't1-fee', debit: bobSpot, credit: fees, asset: 'BTC', amount: d('0.001'), code: 'fee' },
      ]),
    );
    expect(error.transferId).toBe('t1-fee');
    expect(await balanceOf(ALICE)).toEqual({ available: '100', locked: '0', total: '100' });
    expect(await balanceOf(BOB, 'BTC')).toEqual({ available: '1', locked: '0', total: '1' });
    expect(await balanceOf(BOB)).toEqual({ available: '0', locked: '0', total: '0' });
    expect(await transferCount()).toBe(2);
  });

  it('checks each leg in order, as TigerBeetle does', async () => {
    await ledger.execute([deposit('dep-a', ALICE, '10')]);
    const spendBeforeIncome: TransferInput[] = [
      { id: 'out', debit: aliceSpot, credit: bobSpot, asset: 'USDT', amount: d('15'), code: 'transfer' },
      deposit('in', ALICE, '5'),
    ];
    expect((await refusal(ledger.execute(spendBeforeIncome))).key).toBe(LEDGER_ERRORS.insufficientBalance);
    await ledger.execute([...spendBeforeIncome].reverse());
    expect(await balanceOf(ALICE)).toEqual({ available: '0', locked: '0', total: '0' });
  });

  it('refuses malformed batches before touching the database', async () => {
    const base = deposit('x', ALICE, '1');
    const cases: [unknown[], string][] = [
      [[], 'batch'],
      [[{ ...base, amount: d('0') }], 'amount'],
      [[{ ...base, amount: d('-1') }], 'amount'],
      [[{ ...base, asset: 'usdt' }], 'asset'],
      [[{ ...base, id: '' }], 'id'],
      [[{ ...base, code: '' }], 'code'],
      [[{ ...base, credit: { owner: ALICE, wallet: 'fees' } }], 'credit.wallet'],
      [[{ ...base, credit: { owner: 0, wallet: 'spot' } }], 'credit.owner'],
      [[{ ...base, debit: { owner: 'system', wallet: 'spot' } }], 'debit.wallet'],
      [[{ ...base, debit: aliceSpot, credit: aliceSpot }], 'credit'],
      [[base, base], 'id'],
      [[{ id: 'p', type: 'post_pending', pendingId: 'h', amount: d('0'), code: 'trade' }], 'amount'],
    ];
    for (const [batch, field] of cases) {
      const error = await refusal(ledger.execute(batch as TransferInput[]));
      expect(error.key, field).toBe(LEDGER_ERRORS.invalidTransfer);
      expect(error.params, field).toEqual({ field });
    }
    expect(await transferCount()).toBe(0);
  });
});

describe('holds', () => {
  const hold = (id: string, amount: string): TransferInput => ({
    id,
    type: 'pending',
    debit: aliceSpot,
    credit: systemAccount('clearing'),
    asset: 'USDT',
    amount: d(amount),
    code: 'order',
    reference: 'order-1',
  });
  const post = (id: string, amount: string, pendingId = 'hold-1'): TransferInput => ({
    id,
    type: 'post_pending',
    pendingId,
    amount: d(amount),
    code: 'trade',
  });
  const release = (id: string, pendingId = 'hold-1'): TransferInput => ({
    id,
    type: 'void_pending',
    pendingId,
    code: 'cancel',
  });

  beforeEach(async () => {
    await ledger.execute([deposit('dep-1', ALICE, '100')]);
  });

  it('locks funds, posts them in several fills and releases the rest on cancel', async () => {
    await ledger.execute([hold('hold-1', '60')]);
    expect(await balanceOf(ALICE)).toEqual({ available: '40', locked: '60', total: '100' });

    await ledger.execute([post('fill-1', '10')]);
    await ledger.execute([post('fill-2', '15.5')]);
    expect(await balanceOf(ALICE)).toEqual({ available: '40', locked: '34.5', total: '74.5' });
    const open = await ledger.hold('hold-1');
    expect(open?.state).toBe('open');
    expect(open?.remaining.toString()).toBe('34.5');
    expect(open?.transfer.reference).toBe('order-1');

    const [voided] = await ledger.execute([release('cancel-1')]);
    expect(voided?.amount.toString()).toBe('34.5');
    expect(voided?.debit).toEqual(aliceSpot);
    expect(voided?.pendingId).toBe('hold-1');
    expect(await balanceOf(ALICE)).toEqual({ available: '74.5', locked: '0', total: '74.5' });
    const clearing = await ledger.balance({ ...systemAccount('clearing'), asset: 'USDT' });
    expect(clearing.total.toString()).toBe('25.5');
    expect((await ledger.hold('hold-1'))?.state).toBe('voided');
  });

  it('refuses a hold larger than the available balance', async () => {
    await ledger.execute([hold('hold-1', '70')]);
    const error = await refusal(ledger.execute([hold('hold-2', '30.01')]));
    expect(error.key).toBe(LEDGER_ERRORS.insufficientBalance);
    expect(await balanceOf(ALICE)).toEqual({ available: '30', locked: '70', total: '100' });
  });

  it('refuses to post more than the hold still reserves', async () => {
    await ledger.execute([hold('hold-1', '60'), post('fill-1', '50')]);
    const error = await refusal(ledger.execute([post('fill-2', '10.000000000000000001')]));
    expect(error.key).toBe(LEDGER_ERRORS.exceedsHold);
    expect(await balanceOf(ALICE)).toEqual({ available: '40', locked: '10', total: '50' });
  });

  it('closes a hold that is posted in full; a later void or post is refused', async () => {
    await ledger.execute([hold('hold-1', '60')]);
    await ledger.execute([post('fill-1', '60')]);
    expect((await ledger.hold('hold-1'))?.state).toBe('posted');
    expect((await refusal(ledger.execute([release('cancel-1')]))).key).toBe(LEDGER_ERRORS.holdClosed);
    expect((await refusal(ledger.execute([post('fill-2', '1')]))).key).toBe(LEDGER_ERRORS.holdClosed);
  });

  it('refuses to void twice, and to post after a void', async () => {
    await ledger.execute([hold('hold-1', '60')]);
    await ledger.execute([release('cancel-1')]);
    expect((await refusal(ledger.execute([release('cancel-2')]))).key).toBe(LEDGER_ERRORS.holdClosed);
    expect((await refusal(ledger.execute([post('fill-1', '1')]))).key).toBe(LEDGER_ERRORS.holdClosed);
    expect(await balanceOf(ALICE)).toEqual({ available: '100', locked: '0', total: '100' });
  });

  it('answers a retried void with the first result even though the hold is closed', async () => {
    await ledger.execute([hold('hold-1', '60')]);
    const [first] = await ledger.execute([release('cancel-1')]);
    const [again] = await ledger.execute([release('cancel-1')]);
    expect(again).toEqual(first);
  });

  it('refuses to post or void what is not a hold', async () => {
    expect((await refusal(ledger.execute([post('fill-1', '1', 'nope')]))).key).toBe(
      LEDGER_ERRORS.holdNotFound,
    );
    expect((await refusal(ledger.execute([release('cancel-1', 'dep-1')]))).key).toBe(
      LEDGER_ERRORS.holdNotFound,
    );
  });

  it('holds and fills in one batch (an order that matches at once)', async () => {
    const results = await ledger.execute([
      hold('hold-1', '60'),
      post('fill-1', '60'),
      {
        id: 'deliver',
        debit: systemAccount('clearing'),
        credit: bobSpot,
        asset: 'USDT',
        amount: d('60'),
        code: 'trade',
      },
    ]);
    expect(results.map((transfer) => transfer.type)).toEqual(['pending', 'post_pending', 'posted']);
    expect(await balanceOf(ALICE)).toEqual({ available: '40', locked: '0', total: '40' });
    expect(await balanceOf(BOB)).toEqual({ available: '60', locked: '0', total: '60' });
  });
});

describe('serialisation', () => {
  it('lets exactly the affordable batches through when they race for the same funds', async () => {
    await ledger.execute([deposit('dep-1', ALICE, '35')]);
    const attempts = Array.from({ length: 12 }, (_, index) =>
      ledger.execute([
        {
          id: `pay-${index}`,
          debit: aliceSpot,
          credit: bobSpot,
          asset: 'USDT',
          amount: d('10'),
          code: 'transfer',
        },
      ]),
    );
    const outcomes = await Promise.allSettled(attempts);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    for (const outcome of outcomes) {
      if (outcome.status === 'rejected')
        expect(outcome.reason).toMatchObject({ key: LEDGER_ERRORS.insufficientBalance });
    }
    expect(await balanceOf(ALICE)).toEqual({ available: '5', locked: '0', total: '5' });
    expect(await balanceOf(BOB)).toEqual({ available: '30', locked: '0', total: '30' });
  });

  it('serialises module transactions with queued batches', async () => {
    await ledger.execute([deposit('dep-1', ALICE, '35')]);
    const inTransactions = Array.from({ length: 6 }, (_, index) =>
      ledger.transaction(async (trx) => {
        await ledger.execute(
          [
            {
              id: `hold-${index}`,
              type: 'pending',
              debit: aliceSpot,
              credit: bobSpot,
              asset: 'USDT',
              amount: d('10'),
              code: 'order',
            },
          ],
          trx,
        );
        return index;
      }),
    );
    const queued = Array.from({ length: 6 }, (_, index) =>
      ledger.execute([
        {
          id: `pay-${index}`,
          debit: aliceSpot,
          credit: bobSpot,
          asset: 'USDT',
          amount: d('10'),
          code: 'transfer',
        },
      ]),
    );
    const outcomes = await Promise.allSettled([...inTransactions, ...queued]);
    expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(3);
    const alice = await ledger.balance({ ...aliceSpot, asset: 'USDT' });
    expect(alice.available.toString()).toBe('5');
  });

  it('refuses new writes when the queue is full', async () => {
    const small = createLedger(store, clock, { queueMax: 1 });
    const writes = [1, 2, 3].map((n) => small.execute([deposit(`dep-${n}`, ALICE, '1')]));
    const outcomes = await Promise.allSettled(writes);
    expect(outcomes.map((outcome) => outcome.status)).toEqual(['fulfilled', 'fulfilled', 'rejected']);
    expect(outcomes[2]).toMatchObject({ reason: { key: LEDGER_ERRORS.busy } });
  });
});

describe('ledger.transaction (a module writes its rows and its batch atomically)', () => {
  it('rolls the batch back when the module work fails', async () => {
    await ledger.execute([deposit('dep-1', ALICE, '100')]);
    const failure = await ledger
      .transaction(async (trx) => {
        await ledger.execute(
          [
            {
              id: 'hold-1',
              type: 'pending',
              debit: aliceSpot,
              credit: bobSpot,
              asset: 'USDT',
              amount: d('60'),
              code: 'order',
            },
          ],
          trx,
        );
        expect(shown(await ledger.balance({ ...aliceSpot, asset: 'USDT' }))).toMatchObject({ locked: '60' });
        throw new Error('order row could not be written');
      })
      .catch((error: Error) => error.message);
    expect(failure).toBe('order row could not be written');
    expect(await balanceOf(ALICE)).toEqual({ available: '100', locked: '0', total: '100' });
    expect(await ledger.transfer('hold-1')).toBeNull();
  });

  it('lets the work catch a refusal and go on: the refusal wrote nothing', async () => {
    await ledger.execute([deposit('dep-1', ALICE, '100')]);
    const outcome = await ledger.transaction(async (trx) => {
      const pay = (id: string, amount: string) =>
        ledger.execute(
          [{ id, debit: aliceSpot, credit: bobSpot, asset: 'USDT', amount: d(amount), code: 'transfer' }],
          trx,
        );
      await pay('pay-1', '70');
      const refused = await pay('pay-2', '70').catch((error: LedgerError) => error.key);
      await pay('pay-3', '30');
      return refused;
    });
    expect(outcome).toBe(LEDGER_ERRORS.insufficientBalance);
    expect(await balanceOf(ALICE)).toEqual({ available: '0', locked: '0', total: '0' });
    expect(await balanceOf(BOB)).toEqual({ available: '100', locked: '0', total: '100' });
  });

  it('refuses a transaction it did not open, and nested writes, instead of deadlocking', async () => {
    const foreign = await store.db
      .transaction()
      .execute((trx) =>
        ledger.execute([deposit('dep-1', ALICE, '1')], trx).catch((error: Error) => error.message),
      );
    expect(foreign).toMatch(/needs the trx of a ledger.transaction/);
    const nested = await ledger.transaction(() =>
      ledger.execute([deposit('dep-2', ALICE, '1')]).catch((error: Error) => error.message),
    );
    expect(nested).toMatch(/already inside ledger.transaction/);
    expect(await transferCount()).toBe(0);
  });
});

describe('executeBulk (more transfers than a batch, answering nothing)', () => {
  /** A hold per order and its settlement: a post of the whole hold or a void and a payout. */
  function settlements(orders: number, prefix = 'o'): TransferInput[] {
    const transfers: TransferInput[] = [];
    for (let order = 0; order < orders; order += 1) {
      const pendingId = `${prefix}${order}:hold`;
      transfers.push({
        id: pendingId,
        type: 'pending',
        debit: userAccount(1 + (order % 3), 'spot'),
        credit: fees,
        asset: 'USDT',
        amount: d('1'),
        code: 'stake',
      });
      if (order % 2 === 0) {
        transfers.push({
          id: `${prefix}${order}:lose`,
          type: 'post_pending',
          pendingId,
          amount: d('1'),
          code: 'loss',
        });
      } else {
        transfers.push({ id: `${prefix}${order}:void`, type: 'void_pending', pendingId, code: 'release' });
        transfers.push({
          id: `${prefix}${order}:pay`,
          debit: systemAccount('treasury'),
          credit: userAccount(1 + (order % 3), 'spot'),
          asset: 'USDT',
          amount: d('0.5'),
          code: 'payout',
        });
      }
    }
    return transfers;
  }

  beforeEach(async () => {
    await ledger.execute([1, 2, 3].map((owner) => deposit(`dep-${owner}`, owner, '1000')));
  });

  it('commits thousands of transfers in one ledger transaction', async () => {
    const transfers = settlements(1000);
    expect(transfers.length).toBeGreaterThan(BATCH_MAX);
    await ledger.transaction((trx) => ledger.executeBulk(transfers, trx));
    expect(await transferCount()).toBe(3 + transfers.length);
    // Even orders lose 1, odd ones win 0.5: user 1 has 167 of each, user 2 166 losses and
    // 167 wins, user 3 167 losses and 166 wins.
    expect(await balanceOf(1)).toEqual({ available: '916.5', locked: '0', total: '916.5' });
    expect(await balanceOf(2)).toEqual({ available: '917.5', locked: '0', total: '917.5' });
    expect(await balanceOf(3)).toEqual({ available: '916', locked: '0', total: '916' });
    expect((await ledger.hold('o0:hold'))?.state).toBe('posted');
    expect((await ledger.hold('o1:hold'))?.state).toBe('voided');
    const [pay] = (await ledger.transfers({ ...userAccount(2, 'spot'), asset: 'USDT' }, { limit: 1 })).items;
    expect(pay).toMatchObject({ id: 'o997:pay', side: 'credit', code: 'payout' });
  });

  it('skips ids already written with the same fields, refuses them with other fields', async () => {
    const transfers = settlements(10);
    await ledger.executeBulk(transfers);
    await ledger.executeBulk(transfers);
    expect(await transferCount()).toBe(3 + transfers.length);
    const changed = transfers.map((input) => (input.id === 'o3:pay' ? { ...input, code: 'bonus' } : input));
    const error = await refusal(ledger.executeBulk(changed));
    expect(error).toMatchObject({ key: LEDGER_ERRORS.idConflict, transferId: 'o3:pay' });
  });

  it('writes nothing when one transfer of thousands is refused', async () => {
    const transfers = [
      ...settlements(1000),
      {
        id: 'too-much',
        debit: aliceSpot,
        credit: bobSpot,
        asset: 'USDT',
        amount: d('1000'),
        code: 'transfer',
      },
    ];
    const error = await refusal(ledger.transaction((trx) => ledger.executeBulk(transfers, trx)));
    expect(error).toMatchObject({ key: LEDGER_ERRORS.insufficientBalance, transferId: 'too-much' });
    expect(await transferCount()).toBe(3);
    expect(await balanceOf(1)).toEqual({ available: '1000', locked: '0', total: '1000' });
    const duplicated = [...settlements(2), ...settlements(1)];
    expect(await refusal(ledger.executeBulk(duplicated))).toMatchObject({
      key: LEDGER_ERRORS.invalidTransfer,
      transferId: 'o0:hold',
    });
  });
});

describe('reads', () => {
  it('lists an account history newest first, page by page, with filters', async () => {
    for (let n = 1; n <= 5; n += 1) {
      clock.advance(1000);
      await ledger.execute([deposit(`dep-${n}`, ALICE, String(n))]);
    }
    await ledger.execute([
      { id: 'pay-1', debit: aliceSpot, credit: bobSpot, asset: 'USDT', amount: d('2'), code: 'transfer' },
    ]);
    const key = { ...aliceSpot, asset: 'USDT' };
    const first = await ledger.transfers(key, { limit: 4 });
    expect(first.items.map((entry) => [entry.id, entry.side])).toEqual([
      ['pay-1', 'debit'],
      ['dep-5', 'credit'],
      ['dep-4', 'credit'],
      ['dep-3', 'credit'],
    ]);
    const second = await ledger.transfers(key, { limit: 4, before: first.next });
    expect(second.items.map((entry) => entry.id)).toEqual(['dep-2', 'dep-1']);
    expect(second.next).toBeNull();
    const deposits = await ledger.transfers(key, { codes: ['transfer'] });
    expect(deposits.items.map((entry) => entry.id)).toEqual(['pay-1']);
    expect((await ledger.transfers({ ...bobSpot, asset: 'BTC' })).items).toEqual([]);
    await expect(ledger.transfers(key, { limit: 101 })).rejects.toMatchObject({
      key: LEDGER_ERRORS.invalidTransfer,
    });
  });

  it('lists every balance of an owner', async () => {
    await ledger.execute([deposit('dep-1', ALICE, '1', 'USDT'), deposit('dep-2', ALICE, '2', 'BTC')]);
    await ledger.execute([
      {
        id: 'to-futures',
        debit: aliceSpot,
        credit: userAccount(ALICE, 'futures'),
        asset: 'USDT',
        amount: d('0.5'),
        code: 'transfer',
      },
    ]);
    const balances = await ledger.balances(ALICE);
    expect(balances.map((row) => [row.wallet, row.asset, row.available.toString()])).toEqual([
      ['futures', 'USDT', '0.5'],
      ['spot', 'BTC', '2'],
      ['spot', 'USDT', '0.5'],
    ]);
    expect(await ledger.balances('system')).toHaveLength(2);
  });

  it('reads several balances at once, in the order asked, an unused account as zero', async () => {
    await ledger.execute([deposit('dep-1', ALICE, '1', 'USDT'), deposit('dep-2', BOB, '2', 'BTC')]);
    const balances = await ledger.balancesOf([
      { ...bobSpot, asset: 'BTC' },
      { ...aliceSpot, asset: 'BTC' },
      { ...aliceSpot, asset: 'USDT' },
      { ...bobSpot, asset: 'BTC' },
    ]);
    expect(balances.map((balance) => balance.available.toString())).toEqual(['2', '0', '1', '2']);
    expect(await ledger.balancesOf([])).toEqual([]);
  });
});

describe('createApp', () => {
  it('exposes the ledger on the app, bound to its store and clock', async () => {
    const app = await createApp({
      config: { ...loadConfig({}), demo: false },
      store,
      clock,
      rateLimits: false,
    });
    try {
      const [transfer] = await app.ledger.execute([
        {
          id: 'mint',
          debit: systemAccount('treasury'),
          credit: userAccount(9, 'spot'),
          asset: 'USDT',
          amount: d('5'),
          code: 'demo',
        },
      ]);
      expect(transfer?.timestamp).toBe(clock.now());
      expect(await balanceOf(9)).toEqual({ available: '5', locked: '0', total: '5' });
    } finally {
      await app.close();
    }
  });
});
