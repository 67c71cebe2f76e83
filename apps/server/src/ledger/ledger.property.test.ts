import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
// The seeded generator the core's command streams draw from: one mulberry32 for every seeded test.
import { prng } from '../core/state/command-stream.ts';
import { openTestStore, type Store } from '../store/connect.ts';
import {
  type AccountRef,
  accountMapKey,
  custodyWallet,
  systemAccount,
  type UserWallet,
  userAccount,
} from './accounts.ts';
import { auditLedger } from './audit.ts';
import { isLedgerError, type LedgerErrorKey } from './errors.ts';
import { createLedger, type Ledger } from './ledger.ts';
import { ReferenceLedger } from './reference-ledger.ts';
import type { TransferInput } from './transfers.ts';

/**
 * A seeded random stream of transfers, holds, posts, voids, trades, retries
 * and conflicting retries among a few users and system accounts. A naive
 * reference ledger predicts every outcome; the real ledger must give the same
 * outcome for every batch, keep every invariant (audited at checkpoints and at
 * the end), end with the reference's balances, and give identical balances
 * when the stream is replayed on a fresh store with a different grouping.
 *
 * LEDGER_PROPERTY_TRANSFERS sets the number of transfers. The default is
 * 100,000 on SQLite and 10,000 on PostgreSQL (TEST_DATABASE_URL set), where
 * every statement is a network round trip: 100,000 pass there too but take
 * about five minutes, which the suite should not pay on every run.
 */
const onPostgres = Boolean(process.env.TEST_DATABASE_URL);
const TRANSFERS = Number(process.env.LEDGER_PROPERTY_TRANSFERS ?? (onPostgres ? 10_000 : 100_000));
const SEED = Number(process.env.LEDGER_PROPERTY_SEED ?? 20_260_101);
const CHECKPOINTS = 4;
const USERS = [1, 2, 3, 4, 5];
const ASSETS = ['USDT', 'BTC', 'ETH'];
const USER_WALLETS: UserWallet[] = ['spot', 'futures'];

interface Step {
  batch: TransferInput[];
  expected: 'ok' | LedgerErrorKey;
}

/** Builds the stream and the reference's verdict on each batch. */
function generateStream(
  seed: number,
  transfersWanted: number,
): { steps: Step[]; reference: ReferenceLedger } {
  const random = prng(seed);
  const reference = new ReferenceLedger();
  const steps: Step[] = [];
  const succeeded: TransferInput[][] = [];
  let transfers = 0;
  let counter = 0;
  const holdIds: string[] = [];
  const nextId = (kind: string) => `${kind}-${++counter}`;
  const pick = <T>(items: readonly T[]): T => items[random(items.length)]!;
  const user = (): AccountRef => userAccount(pick(USERS), pick(USER_WALLETS));
  /** 0.01 .. 1000 with up to eight decimals. */
  const freshAmount = () =>
    Dec.fromUnits(BigInt(1 + random(100_000)) * 10n ** 16n + BigInt(random(1_000_000)) * 10n ** 10n);
  /** Around what the account can spend, so that both outcomes happen often. */
  const nearAvailable = (ref: AccountRef, asset: string, upToPerMille = 1300) => {
    const available = reference.available(accountMapKey({ ...ref, asset }));
    const scaled = (available * BigInt(random(upToPerMille))) / 1000n;
    const amount = (scaled / 10n ** 10n) * 10n ** 10n;
    return amount > 0n ? Dec.fromUnits(amount) : freshAmount();
  };
  const otherUser = (not: AccountRef): AccountRef => {
    const candidate = user();
    return candidate.owner === not.owner && candidate.wallet === not.wallet
      ? systemAccount('fees')
      : candidate;
  };

  function move(
    type: 'posted' | 'pending',
    debit: AccountRef,
    credit: AccountRef,
    code: string,
    idPrefix = code,
  ): TransferInput {
    const asset = pick(ASSETS);
    const amount = debit.owner === 'system' ? freshAmount() : nearAvailable(debit, asset);
    return {
      id: nextId(idPrefix),
      type,
      debit,
      credit,
      asset,
      amount,
      code,
      reference: random(3) === 0 ? 'ref' : null,
    };
  }

  /** Mostly one of the latest holds (often still open), sometimes any id at all. */
  function settle(kind: 'post' | 'void'): TransferInput {
    const recent = holdIds.slice(-40);
    const pendingId = recent.length > 0 && random(10) > 0 ? pick(recent) : `hold-${1 + random(counter + 1)}`;
    if (kind === 'void') return { id: nextId('void'), type: 'void_pending', pendingId, code: 'cancel' };
    const remaining = reference.holds.get(pendingId)?.remaining ?? 10n ** 18n;
    const choice = random(4);
    const units = choice === 0 ? remaining : (remaining * BigInt(1 + random(1200))) / 1000n;
    const amount = units > 0n ? Dec.fromUnits(units) : freshAmount();
    return { id: nextId('post'), type: 'post_pending', pendingId, amount, code: 'trade' };
  }

  /**
   * A fill, five legs linked: part of the buyer's hold is posted into clearing
   * and delivered to the seller, the seller pays the buyer in another asset,
   * and both pay a fee. Usually affordable, sometimes not.
   */
  function trade(): TransferInput[] {
    const post = settle('post');
    const hold = post.type === 'post_pending' ? reference.holds.get(post.pendingId) : undefined;
    if (post.type !== 'post_pending' || !hold) return [post];
    const [buyerId, quote] = hold.debit.split('|') as [string, string];
    const buyer = userAccount(Number(buyerId), 'spot');
    const seller = userAccount(pick(USERS.filter((id) => id !== buyer.owner)), 'spot');
    const base = pick(ASSETS.filter((asset) => asset !== quote));
    const baseAmount = nearAvailable(seller, base, 1050);
    const fees = systemAccount('fees');
    return [
      post,
      {
        id: nextId('deliver'),
        debit: systemAccount('clearing'),
        credit: seller,
        asset: quote,
        amount: post.amount,
        code: 'trade',
      },
      { id: nextId('base'), debit: seller, credit: buyer, asset: base, amount: baseAmount, code: 'trade' },
      {
        id: nextId('fee'),
        debit: seller,
        credit: fees,
        asset: quote,
        amount: post.amount.percent(Dec.parse('0.1')).add(Dec.step(18)),
        code: 'fee',
      },
      {
        id: nextId('fee'),
        debit: buyer,
        credit: fees,
        asset: base,
        amount: baseAmount.percent(Dec.parse('0.1')).add(Dec.step(18)),
        code: 'fee',
      },
    ];
  }

  function nextBatch(): TransferInput[] {
    const roll = random(100);
    if (roll < 10)
      return [
        move('posted', systemAccount(custodyWallet('bsc')), userAccount(pick(USERS), 'spot'), 'deposit'),
      ];
    if (roll < 13) return [move('posted', systemAccount('treasury'), user(), 'demo')];
    if (roll < 25) {
      const from = user();
      return [move('posted', from, otherUser(from), 'transfer')];
    }
    if (roll < 28) return [move('posted', user(), systemAccount('fees'), 'fee')];
    if (roll < 30) return [move('posted', systemAccount('fees'), user(), 'rebate')];
    if (roll < 48)
      return [move('pending', userAccount(pick(USERS), 'spot'), systemAccount('clearing'), 'order', 'hold')];
    if (roll < 56) return [settle('post')];
    if (roll < 62) return [settle('void')];
    if (roll < 88) return trade();
    if (roll < 94 && succeeded.length > 0) return pick(succeeded);
    if (succeeded.length > 0) {
      const [original] = pick(succeeded);
      if (original?.type === 'void_pending') return [{ ...original, code: 'changed' }];
      if (original) return [{ ...original, amount: original.amount.add(Dec.ONE) }];
    }
    return [move('posted', systemAccount(custodyWallet('eth')), userAccount(pick(USERS), 'spot'), 'deposit')];
  }

  while (transfers < transfersWanted) {
    const batch = nextBatch();
    const expected = reference.execute(batch);
    if (expected === 'ok') succeeded.push(batch);
    steps.push({ batch, expected });
    transfers += batch.length;
  }
  return { steps, reference };
}

/**
 * Runs the steps in chunks: one chunk in eight inside one `ledger.transaction`
 * (a refused batch is caught and the chunk goes on), the others queued all at
 * once, which the ledger group-commits. Answers each step's outcome.
 */
async function runStream(
  ledger: Ledger,
  steps: readonly Step[],
  chunkSize: number,
  atCheckpoint: (done: number) => Promise<void>,
): Promise<('ok' | LedgerErrorKey)[]> {
  const outcomes: ('ok' | LedgerErrorKey)[] = [];
  const outcomeOf = (error: unknown) => {
    if (!isLedgerError(error)) throw error;
    return error.key;
  };
  const checkpointEvery = Math.ceil(steps.length / CHECKPOINTS);
  for (let start = 0; start < steps.length; start += chunkSize) {
    const chunk = steps.slice(start, start + chunkSize);
    if ((start / chunkSize) % 8 === 0) {
      await ledger.transaction(async (trx) => {
        for (const step of chunk) {
          outcomes.push(await ledger.execute(step.batch, trx).then(() => 'ok' as const, outcomeOf));
        }
      });
    } else {
      const settled = await Promise.all(
        chunk.map((step) => ledger.execute(step.batch).then(() => 'ok' as const, outcomeOf)),
      );
      outcomes.push(...settled);
    }
    const done = start + chunk.length;
    if (Math.floor(done / checkpointEvery) > Math.floor(start / checkpointEvery)) await atCheckpoint(done);
  }
  return outcomes;
}

async function allTotals(store: Store): Promise<Record<string, string[]>> {
  const rows = await store.db.selectFrom('ledger_accounts').selectAll().execute();
  const totals: Record<string, string[]> = {};
  for (const row of rows) {
    totals[`${row.owner}|${row.asset}|${row.wallet}`] = [
      row.debits_posted,
      row.credits_posted,
      row.debits_pending,
      row.credits_pending,
    ].map((value) => Dec.parse(value).toString());
  }
  return totals;
}

describe('ledger property: a random stream keeps every invariant', () => {
  it(`${TRANSFERS} transfers agree with the reference ledger, audit clean, and replay identically`, async () => {
    const { steps, reference } = generateStream(SEED, TRANSFERS);
    const kinds = new Set(steps.map((step) => step.expected));
    // The stream must exercise every rule, or it proves little.
    expect([...kinds].sort()).toEqual(
      [
        'ok',
        'ledger.exceedsHold',
        'ledger.holdClosed',
        'ledger.holdNotFound',
        'ledger.idConflict',
        'ledger.insufficientBalance',
      ].sort(),
    );

    const store = await openTestStore();
    const replayStore = await openTestStore();
    try {
      const clock = new ManualClock();
      const ledger = createLedger(store, clock);
      const outcomes = await runStream(ledger, steps, 500, async () => {
        clock.advance(1000);
        const report = await auditLedger(store.db);
        expect(report.breaches).toEqual([]);
      });
      const mismatch = outcomes.findIndex((outcome, index) => outcome !== steps[index]!.expected);
      expect(
        mismatch === -1 ? null : { index: mismatch, batch: steps[mismatch], got: outcomes[mismatch] },
      ).toBeNull();

      const totals = await allTotals(store);
      const expectedTotals = Object.fromEntries(
        [...reference.accounts].map(([key, account]) => [
          key,
          [account.debitsPosted, account.creditsPosted, account.debitsPending, account.creditsPending].map(
            (units) => Dec.fromUnits(units).toString(),
          ),
        ]),
      );
      expect(totals).toEqual(expectedTotals);

      const replayLedger = createLedger(replayStore, new ManualClock());
      await runStream(replayLedger, steps, 997, async () => {});
      expect(await allTotals(replayStore)).toEqual(totals);
      expect((await auditLedger(replayStore.db)).breaches).toEqual([]);
    } finally {
      await store.close();
      await replayStore.close();
    }
  }, 600_000);
});
