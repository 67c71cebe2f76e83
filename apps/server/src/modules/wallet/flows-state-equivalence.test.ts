// Over 500 lines: the test carries its own fake chain (blocks, deposit logs,
// a signer whose transactions the stream mines, reverts or loses), the
// module's side (watcher, service, sender) and the edge that turns what the
// module did into the money state's commands; split apart, each piece would
// be read only with the others.
import { Dec } from '@halyard/money';
import {
  type Address,
  encodeAbiParameters,
  encodeEventTopics,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  keccak256,
  type PublicClient,
  serializeTransaction,
  type TransactionReceipt,
} from 'viem';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { prng } from '../../core/state/command-stream.ts';
import type {
  MoneyCommand,
  MoneyResult,
  WithdrawalOutcomeCommand,
  WithdrawalReviewedCommand,
} from '../../core/state/index.ts';
import type { OperatorIdentity } from '../../http/auth.ts';
import { AppError } from '../../http/errors.ts';
import { type CustodyWallet, systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';
import { ledgerProjection } from '../../ledger/projection.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { expectLedgerEquivalent, ledgerSoFar, ProjectedState } from '../../projection/equivalence-support.ts';
import { openTestStore } from '../../store/connect.ts';
import type { Executor } from '../../store/database.ts';
import { ChainWatcher, custodyOf } from './chain-watcher.ts';
import type { ChainReader } from './chains.ts';
import { walletProjection } from './projection.ts';
import { WithdrawalSender } from './sender.ts';
import { withdrawalTermsOf } from './service.ts';
import type { Fees, Signer, TokenTransfer } from './signer.ts';
import { TransferRefused } from './signer.ts';
import { type DepositRow, walletStore as sql, type WithdrawalRow } from './store.ts';
import { CHAIN, FUND_PASSWORD, type Harness, startWalletHarness, verifiedUser } from './test-support.ts';

/**
 * The proof that the money state's `depositCredited`, `withdrawalRequested`,
 * `withdrawalReviewed` and `withdrawalOutcome` can replace the SQL path of
 * the chain watcher's credits, `/account/sendCoinOrder`, the operators'
 * review and the sender's settlements. One seeded stream runs
 *
 *   (a) through the module: the chain watcher over a fake chain's deposit
 *       logs, WalletService's requests and reviews, and the sender's rounds
 *       with a fake signer whose transactions the stream mines, reverts or
 *       loses (another transaction takes the nonce), and operators' refunds;
 *   (b) through the money state, its events written to a fresh database by
 *       the ledger's and the wallet's writers, what the edge writes itself
 *       (a deposit found, one below the minimum) written there too.
 *
 * The edge makes the checks that read other data (WalletService's
 * withdrawalAccess, the daily room from the projected table) and stamps
 * them, and it reports what the watcher and the sender saw as commands, each
 * submitted twice: a repeat must credit, hold, post or release nothing. Every
 * answer, every deposit, withdrawal and audit row, every transfer and every
 * account's totals must be equal.
 */

const SEED = Number(process.env.WALLET_FLOWS_EQUIVALENCE_SEED ?? 19_2027);
const STEPS = Number(process.env.WALLET_FLOWS_EQUIVALENCE_STEPS ?? 400);
const TIME_ZERO = Date.UTC(2026, 10, 26, 1);
const DAY_MS = 86_400_000;
const HOT: Address = getAddress('0x00000000000000000000000000000000000000a1');
const OPERATOR: OperatorIdentity = { id: 7, email: 'reviewer@example.com', role: 'administrator' };
const BY = { name: 'reviewer', id: 7 };
const CUSTODY = custodyOf(CHAIN).wallet as CustodyWallet;

type Answer = { ok: true; id?: number | string } | { ok: false; error: string; params?: unknown };

function refusalOf(error: unknown): Answer {
  if (!(error instanceof AppError)) throw error;
  return Object.keys(error.params).length === 0
    ? { ok: false, error: error.key }
    : { ok: false, error: error.key, params: error.params };
}

function answerOf(result: MoneyResult, id?: number | string): Answer {
  if (!result.ok) return result.params === undefined ? { ok: false, error: result.error } : { ...result };
  return id === undefined ? { ok: true } : { ok: true, id };
}

// ── a fake chain: blocks with deposit logs, and a signer's transactions ─

interface SentTx {
  nonce: number;
  transfer: TokenTransfer;
  /** Decided when the stream mines: carried out, reverted, or its nonce taken by another transaction. */
  fate: 'ok' | 'reverted' | 'lost' | null;
}

class FakeChain {
  head = 1;
  private readonly logs: {
    address: Address;
    args: { from: Address; to: Address; value: bigint };
    blockNumber: bigint;
    blockHash: Hex;
    transactionHash: Hex;
    logIndex: number;
  }[] = [];
  private readonly txs = new Map<Hex, SentTx>();
  private mined = 0;
  /** Deposit transactions so far (each its own hash). */
  private sent = 0;
  refuseQuotes = false;

  /** How many times a reorg replaced each block: its hash changes with it. */
  private readonly forks = new Map<number, number>();

  hashOf(block: number): Hex {
    const fork = this.forks.get(block) ?? 0;
    return `0x${fork.toString(16).padStart(8, '0')}${block.toString(16).padStart(56, '0')}`;
  }

  /** A reorg replaces one of the latest blocks holding a deposit with an empty one: its deposits vanish. */
  reorg(pick: (below: number) => number): void {
    const recent = [...new Set(this.logs.map((log) => Number(log.blockNumber)))].filter(
      (block) => block > this.head - 40,
    );
    if (recent.length === 0) return;
    this.reorgBlock(recent[pick(recent.length)]!);
  }

  reorgBlock(block: number): void {
    this.forks.set(block, (this.forks.get(block) ?? 0) + 1);
    for (let index = this.logs.length - 1; index >= 0; index--)
      if (Number(this.logs[index]!.blockNumber) === block) this.logs.splice(index, 1);
  }

  /** A Transfer of `token` to `to` in a new block. */
  depositLog(token: Address, to: Address, value: bigint): void {
    this.head += 1;
    const blockNumber = BigInt(this.head);
    this.logs.push({
      address: token,
      args: { from: HOT, to, value },
      blockNumber,
      blockHash: this.hashOf(this.head),
      transactionHash: keccak256(`0x${(this.sent++).toString(16).padStart(8, '0')}`),
      logIndex: 0,
    });
  }

  readonly reader: ChainReader = {
    chainId: CHAIN,
    hasCode: async () => true,
    client: {
      getBlockNumber: async () => BigInt(this.head),
      getLogs: async ({ fromBlock, toBlock }: { fromBlock: bigint; toBlock: bigint }) =>
        this.logs.filter((log) => log.blockNumber >= fromBlock && log.blockNumber <= toBlock),
      getBlock: async ({ blockNumber }: { blockNumber: bigint }) => ({
        hash: this.hashOf(Number(blockNumber)),
      }),
    } as unknown as PublicClient,
  };

  /** Every transaction sent and not yet decided gets its fate; the chain then counts their nonces used. */
  mine(fate: () => SentTx['fate']): void {
    for (const tx of this.txs.values()) {
      if (tx.fate !== null) continue;
      tx.fate = fate();
      this.mined = Math.max(this.mined, tx.nonce + 1);
    }
    this.head += 5;
  }

  readonly signer: Signer = {
    address: HOT,
    quote: async () => {
      if (this.refuseQuotes) throw new TransferRefused('the node says it would revert');
      return { gas: 60_000n, fees: FEES };
    },
    fees: async () => FEES,
    signTransfer: async (transfer, nonce, gas, fees) => {
      const raw = serializeTransaction({
        chainId: CHAIN,
        type: 'eip1559',
        nonce,
        to: transfer.token,
        gas,
        maxFeePerGas: fees.maxFeePerGas,
        maxPriorityFeePerGas: fees.maxPriorityFeePerGas,
        data: encodeFunctionData({
          abi: erc20Abi,
          functionName: 'transfer',
          args: [transfer.to, transfer.units],
        }),
      });
      const hash = keccak256(raw);
      this.txs.set(hash, { nonce, transfer, fate: null });
      return { raw, hash };
    },
    resign: async () => {
      throw new Error('the stream bumps no fees');
    },
    signCancel: async () => {
      throw new Error('the stream cancels nothing');
    },
    broadcast: async () => {},
    receipt: async (_chainId, hash) => {
      const tx = this.txs.get(hash);
      if (!tx || tx.fate === null || tx.fate === 'lost') return null;
      return receiptOf(hash, tx, tx.fate === 'ok' ? 'success' : 'reverted');
    },
    minedNonce: async () => this.mined,
    head: async () => this.head,
  };
}

const FEES: Fees = { maxFeePerGas: 10n, maxPriorityFeePerGas: 1n };

/** A receipt carrying the transfer's ERC-20 Transfer log from the hot wallet (none if it reverted). */
function receiptOf(hash: Hex, tx: SentTx, status: 'success' | 'reverted'): TransactionReceipt {
  const topics = encodeEventTopics({
    abi: erc20Abi,
    eventName: 'Transfer',
    args: { from: HOT, to: tx.transfer.to },
  });
  const log = {
    address: tx.transfer.token,
    topics,
    data: encodeAbiParameters([{ type: 'uint256' }], [tx.transfer.units]),
    blockNumber: 2n,
    transactionHash: hash,
    logIndex: 0,
  };
  return {
    status,
    blockNumber: 2n,
    transactionHash: hash,
    logs: status === 'success' ? [log] : [],
  } as unknown as TransactionReceipt;
}

// ── the two sides ─────────────────────────────────────────────────────────

interface World {
  h: Harness;
  chain: FakeChain;
  watcher: ChainWatcher;
  sender: WithdrawalSender;
  state: ProjectedState;
  users: { id: number; saved: Address; deposit: Address }[];
  /** What the edge last saw of each row in the module's tables. */
  deposits: Set<string>;
  /** The module's ledger sequence the edge has reported deposits up to. */
  depositSeq: number;
  withdrawals: Map<number, WithdrawalRow>;
  counts: Map<string, number>;
}

const count = (world: World, key: string) => world.counts.set(key, (world.counts.get(key) ?? 0) + 1);

/** The command twice: the repeat must add nothing, and answer as `expectRepeat` says. */
function submitTwice(world: World, command: MoneyCommand, expectRepeat: (first: MoneyResult) => MoneyResult) {
  const first = world.state.apply(command);
  const transfers = world.state.state.ledger.transfers.size;
  const openWithdrawals = [...world.state.state.withdrawals.open.values()];
  const again = world.state.apply(command);
  expect(again, `repeat of ${JSON.stringify(command)}`).toEqual(expectRepeat(first));
  expect(world.state.state.ledger.transfers.size).toBe(transfers);
  expect([...world.state.state.withdrawals.open.values()]).toEqual(openWithdrawals);
  return first;
}

const refusedAsMoved: (first: MoneyResult) => MoneyResult = () => ({
  ok: false,
  error: 'wallet.withdrawalNotResendable',
});

/**
 * What the watcher did since the edge last looked. Found deposits: the edge
 * records them as waiting itself. Credits and reversals: commands, in the
 * watcher's order (its ledger's), each submitted twice, and the projector
 * waited for, as the watcher would before writing the rows again. A reversal
 * the user could not cover: the command's refusal, then the edge marks it.
 * A deposit rejected before any credit (below the minimum, or reorged while
 * waiting): the edge's own write.
 */
async function reportDeposits(world: World): Promise<void> {
  const [a, b] = [world.h.store.db, world.state.store.db];
  const rows = await a
    .selectFrom('wallet_deposits')
    .selectAll()
    .orderBy('block_number')
    .orderBy('id')
    .execute();
  const byId = new Map(rows.map((row) => [row.id, row]));
  for (const row of rows) {
    if (world.deposits.has(row.id)) continue;
    world.deposits.add(row.id);
    await sql.insertDeposit(b, {
      ...row,
      state: 'waiting',
      reason: null,
      credit_round: 0,
      updated_at: row.created_at,
    });
  }
  const moves = await a
    .selectFrom('ledger_transfers')
    .select(['id', 'seq', 'timestamp'])
    .where('seq', '>', world.depositSeq)
    .where('code', 'in', ['deposit', 'deposit_reversal'])
    .orderBy('seq')
    .execute();
  for (const move of moves) {
    world.depositSeq = Number(move.seq);
    const [, depositId, round, reverse] = /^deposit:(.+):(\d+)(:reverse)?$/.exec(move.id)!;
    const row = byId.get(depositId!)!;
    const command = {
      kind: reverse ? ('depositReversed' as const) : ('depositCredited' as const),
      at: Number(move.timestamp),
      ...creditOf(row, Number(round)),
    };
    // A repeat is a ledger retry: the same answer, nothing added.
    expect(submitTwice(world, command, (first) => first)).toEqual({ ok: true, transfers: [move.id] });
    count(world, reverse ? 'deposit reversed' : 'deposit credited');
  }
  await world.state.write();
  for (const row of rows) {
    const projected = (await sql.deposit(b, row.id))!;
    if (row.reason === 'reorgUnpaid' && projected.reason !== 'reorgUnpaid') {
      const command = {
        kind: 'depositReversed' as const,
        at: Number(row.updated_at),
        ...creditOf(row, row.credit_round),
      };
      const transferId = `deposit:${row.id}:${row.credit_round}:reverse`;
      expect(submitTwice(world, command, (first) => first)).toEqual({
        ok: false,
        error: 'ledger.insufficientBalance',
        params: { transferId },
      });
      await sql.updateDeposit(b, row.id, { reason: 'reorgUnpaid', updated_at: row.updated_at });
      count(world, 'reversal unpaid');
    } else if (row.state === 'rejected' && projected.state === 'waiting') {
      await sql.updateDeposit(b, row.id, {
        state: 'rejected',
        reason: row.reason,
        updated_at: row.updated_at,
      });
      count(world, `deposit rejected: ${row.reason}`);
    }
  }
}

function creditOf(row: DepositRow, round: number) {
  return {
    depositId: row.id,
    round,
    userId: Number(row.user_id),
    custody: CUSTODY,
    coin: row.coin,
    amount: row.amount,
  };
}

/** The withdrawals the sender (or an operator through it) moved since the edge last looked, as outcome commands. */
async function reportWithdrawals(
  world: World,
  audit: WithdrawalOutcomeCommand['audit'] = null,
): Promise<void> {
  for (const row of await allWithdrawals(world.h.store.db)) {
    const id = Number(row.id);
    const seen = world.withdrawals.get(id);
    if (!seen) throw new Error(`withdrawal ${id} appeared without its request`);
    if (seen.state === row.state && seen.tx_hash === row.tx_hash) continue;
    const from = seen.state as WithdrawalOutcomeCommand['from'];
    const base = { kind: 'withdrawalOutcome' as const, at: Number(row.updated_at), withdrawalId: id, from };
    const tx = {
      hash: row.tx_hash ?? '',
      raw: row.raw_tx ?? '',
      nonce: Number(row.nonce),
      hotAddress: row.hot_address ?? '',
    };
    let command: WithdrawalOutcomeCommand;
    if (row.state === 'broadcast') command = { ...base, outcome: 'sent', tx };
    else if (row.state === 'completed') command = { ...base, outcome: 'mined', tx };
    else if (row.state === 'flagged') command = { ...base, outcome: 'flagged', reason: row.reason ?? '' };
    else if (row.state === 'rejected')
      command = { ...base, outcome: 'failed', reason: row.reason ?? '', audit };
    else throw new Error(`withdrawal ${id}: ${seen.state} → ${row.state} is no outcome`);
    const result = submitTwice(world, command, refusedAsMoved);
    expect(result.ok, JSON.stringify({ command, result })).toBe(true);
    count(world, `${command.outcome} from ${from}`);
    world.withdrawals.set(id, row);
  }
}

function allWithdrawals(db: Executor) {
  return db.selectFrom('wallet_withdrawals').selectAll().orderBy('id').execute();
}

// ── the steps ─────────────────────────────────────────────────────────────

/** Mostly fair; now and then zero, under the minimum, over the maximum, large enough for review, or too precise. */
function amountOf(roll: number, random: (below: number) => number): string {
  return roll < 5
    ? '0'
    : roll < 10
      ? '5'
      : roll < 15
        ? '150000'
        : roll < 27
          ? '60000'
          : roll < 31
            ? '12.0000000000000000001'
            : roll < 50
              ? (10_001 + random(8000)).toString()
              : (10 + random(4000)).toString();
}

async function request(
  world: World,
  random: (below: number) => number,
  fixed?: { user: World['users'][number]; amount: string },
): Promise<void> {
  const { h } = world;
  const user = fixed?.user ?? world.users[random(world.users.length)]!;
  const roll = fixed ? 100 : random(100);
  const amount = fixed?.amount ?? amountOf(roll, random);
  const addressRoll = fixed ? 100 : random(100);
  const address =
    addressRoll < 5
      ? 'not an address'
      : addressRoll < 10
        ? getAddress('0x00000000000000000000000000000000000000b2')
        : user.saved;
  const input = { coin: 'USDT', chain: CHAIN, address, amount, payPassword: FUND_PASSWORD };
  const service = h.app.wallet.service;

  let fromModule: Answer;
  try {
    fromModule = { ok: true, id: (await service.requestWithdrawal(user.id, input)).id };
  } catch (error) {
    fromModule = refusalOf(error);
  }

  // The edge: the coin's terms and the user's access read, the other checks stamped (the day's room is the state's).
  const at = h.clock.now();
  const coin = await service.coin('USDT', CHAIN);
  const identity = await h.app.identity.service.getUser(user.id);
  let savedAddress = '';
  let edgeRefusal: { key: string; params?: Record<string, string | number> } | null = null;
  try {
    savedAddress = await service.withdrawalAccess(user.id, coin, input);
  } catch (error) {
    const refused = refusalOf(error);
    if (!refused.ok)
      edgeRefusal = {
        key: refused.error,
        ...(refused.params ? { params: refused.params as Record<string, string | number> } : {}),
      };
  }
  const command: MoneyCommand = {
    kind: 'withdrawalRequested',
    id: `withdrawal:${at}:${user.id}`,
    at,
    userId: user.id,
    coin: coin.coin,
    chainId: coin.chainId,
    custody: CUSTODY,
    savedAddress,
    amount,
    address,
    fundPasswordGiven: true,
    kycVerified: identity.kyc === 'succeeded',
    fundPasswordSet: identity.hasFundPassword,
    terms: withdrawalTermsOf(coin),
    edgeRefusal,
  };
  // A repeat of the same request id is answered as the first, by the sequencer's idempotency.
  const result = submitTwice(world, command, (first) => first);
  const fromState = answerOf(result, result.ok ? result.withdrawalId : undefined);
  expect(fromState, JSON.stringify(input)).toEqual(fromModule);
  count(world, fromModule.ok ? 'requested' : fromModule.error);
  if (fromModule.ok) {
    const row = await sql.withdrawal(h.store.db, Number(fromModule.id));
    world.withdrawals.set(Number(fromModule.id), row!);
  }
}

async function review(world: World, random: (below: number) => number): Promise<void> {
  const { h } = world;
  const service = h.app.wallet.service;
  const rows = [...world.withdrawals.values()];
  const inReview = rows.filter((row) => row.state === 'review');
  // Mostly one in review; now and then one that left review, or none at all.
  const pickRoll = random(100);
  const id =
    pickRoll < 75 && inReview.length > 0
      ? Number(inReview[random(inReview.length)]!.id)
      : pickRoll < 92 && rows.length > 0
        ? Number(rows[random(rows.length)]!.id)
        : rows.length + 1 + random(3);
  const decisions = ['approve', 'approve', 'reject', 'hold', 'releaseHold'] as const;
  const decision = decisions[random(decisions.length)]!;
  const reason = random(10) === 0 ? '  ' : `look ${random(100)}`;
  const call = () => {
    switch (decision) {
      case 'approve':
        return service.approveWithdrawal(id, OPERATOR);
      case 'reject':
        return service.rejectWithdrawal(id, BY, reason);
      case 'hold':
        return service.holdWithdrawal(id, BY, reason);
      case 'releaseHold':
        return service.releaseWithdrawalHold(id, BY, reason);
    }
  };
  const viaModule = async (): Promise<Answer> => {
    try {
      await call();
      return { ok: true, id };
    } catch (error) {
      return refusalOf(error);
    }
  };
  const command: WithdrawalReviewedCommand = {
    kind: 'withdrawalReviewed',
    at: h.clock.now(),
    withdrawalId: id,
    decision,
    operator: decision === 'approve' ? OPERATOR.email : BY.name,
    reason,
    details: {},
  };
  // Each decision twice on both sides: the second is refused alike (no longer in review, already held, not held).
  for (let round = 0; round < 2; round++) {
    const fromModule = await viaModule();
    const result = world.state.apply(command);
    expect(answerOf(result, result.ok ? result.withdrawalId : undefined), JSON.stringify(command)).toEqual(
      fromModule,
    );
    count(world, fromModule.ok ? decision : `${decision}: ${fromModule.error}`);
  }
  const row = await sql.withdrawal(h.store.db, id);
  if (row) world.withdrawals.set(id, row);
  // Rejecting what was just approved (its hold is the signer's now) is refused alike.
  if (decision === 'approve' && row?.state === 'approved') {
    const late = { ...command, decision: 'reject' as const, operator: BY.name, reason: 'too late' };
    let fromModule: Answer;
    try {
      await service.rejectWithdrawal(id, BY, late.reason);
      fromModule = { ok: true, id };
    } catch (error) {
      fromModule = refusalOf(error);
    }
    const result = world.state.apply(late);
    expect(answerOf(result, result.ok ? result.withdrawalId : undefined)).toEqual(fromModule);
    count(world, `reject after approve: ${fromModule.ok ? 'done' : fromModule.error}`);
  }
}

/** The chain decides what was sent, then the sender's round settles, flags and signs. */
async function sendRound(world: World, random: (below: number) => number): Promise<void> {
  const roll = () => random(100);
  world.chain.mine(() => {
    const fate = roll();
    return fate < 70 ? 'ok' : fate < 85 ? 'reverted' : 'lost';
  });
  world.chain.refuseQuotes = random(100) < 10;
  await world.sender.round();
  world.chain.refuseQuotes = false;
  await reportWithdrawals(world);
}

/** An operator refunds a flagged withdrawal (none of its transactions can land), or one not yet signed. */
async function refund(world: World, random: (below: number) => number): Promise<void> {
  const candidates = [...world.withdrawals.values()].filter(
    (row) => row.state === 'flagged' || row.state === 'approved',
  );
  if (candidates.length === 0) return;
  const row = candidates[random(candidates.length)]!;
  const reason = `refund ${random(100)}`;
  try {
    await world.sender.refund(Number(row.id), BY, reason);
  } catch (error) {
    // Refused at the edge (a transaction of it may still land): nothing to submit.
    const refused = refusalOf(error);
    count(world, `refund: ${refused.ok ? '' : refused.error}`);
    return;
  }
  await reportWithdrawals(world, {
    operator: BY.name,
    action: 'withdrawal.refund',
    details: { reason, nonce: row.nonce },
  });
  count(world, 'refund');
}

async function deposit(world: World, random: (below: number) => number): Promise<void> {
  const user = world.users[random(world.users.length)]!;
  const coin = await world.h.app.wallet.service.coin('USDT', CHAIN);
  // Mostly fair; now and then below the coin's minimum (1 USDT).
  const amount = random(100) < 10 ? '0.5' : (1 + random(3000)).toString();
  world.chain.depositLog(coin.contract, user.deposit, Dec.parse(amount).units);
}

// ── the test ──────────────────────────────────────────────────────────────

let world: World;

beforeEach(async () => {
  const h = await startWalletHarness(null, { WITHDRAWAL_FOUR_EYES_ABOVE: '100000000' });
  h.clock.set(TIME_ZERO);
  const chain = new FakeChain();
  const service = h.app.wallet.service;
  const users: World['users'] = [];
  for (let index = 0; index < 4; index++) {
    const user = await verifiedUser(h);
    const saved = getAddress(`0x${(0xc0 + index).toString(16).padStart(40, '0')}`);
    await service.addAddress(user.id, { coin: 'USDT', chain: CHAIN, address: saved, remark: 'cold' });
    const { address } = await service.depositAddress(user.id, 'USDT', CHAIN);
    users.push({ id: user.id, saved, deposit: address as Address });
  }
  // The last user's funds are frozen: the edge stamps the freeze, the module checks it after the money.
  await h.app.identity.service.freeze({
    userId: users[3]!.id,
    reason: 'equivalence',
    setBy: 'test',
    endsAt: TIME_ZERO + 365 * DAY_MS,
  });
  const watcher = new ChainWatcher({
    db: h.store.db,
    ledger: h.app.ledger,
    clock: h.clock,
    reader: chain.reader,
    coins: async () => (await service.coins()).filter((coin) => coin.chainId === CHAIN),
    startAtHead: false,
    onUnpaidReversal: async () => {},
  });
  const sender = new WithdrawalSender({
    db: h.store.db,
    ledger: h.app.ledger,
    clock: h.clock,
    signer: chain.signer,
    chains: () => [CHAIN],
    coin: (coin, chainId) => service.coin(coin, chainId),
    feeBumpAfterMs: 10 * 365 * DAY_MS,
    onError: (error) => {
      throw error;
    },
  });
  const state = new ProjectedState(await openTestStore(), [ledgerProjection, walletProjection]);
  // What the demo seeded in the ledger (the fiat ads' holds) is the state's start too.
  for (const batch of await ledgerSoFar(h.store.db)) expect(state.apply(batch).ok).toBe(true);
  world = {
    h,
    chain,
    watcher,
    sender,
    state,
    users,
    deposits: new Set(),
    depositSeq: Number(
      (
        await h.store.db
          .selectFrom('ledger_transfers')
          .select((eb) => eb.fn.max('seq').as('seq'))
          .executeTakeFirst()
      )?.seq ?? 0,
    ),
    withdrawals: new Map(),
    counts: new Map(),
  };
});

afterEach(async () => {
  await world.h.close();
  await world.state.store.close();
});

async function fund(world: World, userId: number, amount: string): Promise<void> {
  const batch: TransferInput[] = [
    {
      id: `equivalence:fund:${userId}`,
      debit: systemAccount('treasury'),
      credit: userAccount(userId, 'spot'),
      asset: 'USDT',
      amount: Dec.parse(amount),
      code: 'test_funding',
    },
  ];
  await world.h.app.ledger.execute(batch);
  expect(world.state.apply({ kind: 'transfer', at: world.h.clock.now(), batch }).ok).toBe(true);
}

/** Rows compared as the module reads them back: amounts through Dec (a NUMERIC's text is the dialect's). */
const normal = <T extends Record<string, unknown>>(rows: T[], amounts: (keyof T)[]) =>
  rows.map((row) => {
    const copy: Record<string, unknown> = { ...row };
    for (const key of amounts) copy[key as string] = Dec.parse(String(row[key])).toString();
    for (const [key, value] of Object.entries(copy)) if (typeof value === 'bigint') copy[key] = Number(value);
    return copy;
  });

describe('the money state in place of deposits and withdrawals', () => {
  it(`writes the rows, transfers and balances the module writes (${STEPS} steps, seed ${SEED})`, async () => {
    const random = prng(SEED);
    const writeEvery = prng(SEED + 1);
    // One user rich enough to meet the daily maximum (200,000 USDT) in 60,000 steps; one who spends their deposits.
    for (const [index, user] of world.users.slice(0, 3).entries())
      await fund(world, user.id, ['600000', '90000', '100'][index]!);
    // The hard case of a reorg: a deposit credited, spent on a withdrawal, then taken back by the chain.
    const spender = world.users[2]!;
    const usdt = await world.h.app.wallet.service.coin('USDT', CHAIN);
    world.chain.depositLog(usdt.contract, spender.deposit, Dec.parse('1000').units);
    const spentBlock = world.chain.head;
    world.chain.head += 4;
    await world.watcher.poll();
    await reportDeposits(world);
    await request(world, random, { user: spender, amount: '1050' });
    world.chain.reorgBlock(spentBlock);
    await world.watcher.poll();
    await reportDeposits(world);
    expect(world.counts.get('reversal unpaid'), JSON.stringify(Object.fromEntries(world.counts))).toBe(1);
    for (let index = 0; index < STEPS; index++) {
      world.h.clock.set(world.h.clock.now() + 1 + random(60_000));
      const roll = random(100);
      if (roll < 18) await deposit(world, random);
      else if (roll < 22) world.chain.reorg(random);
      else if (roll < 30) {
        world.chain.head += random(3);
        await world.watcher.poll();
        await reportDeposits(world);
      } else if (roll < 62) await request(world, random);
      else if (roll < 80) await review(world, random);
      else if (roll < 94) await sendRound(world, random);
      else await refund(world, random);
      if (writeEvery(4) === 0) await world.state.write();
    }
    await world.state.write();

    const [a, b] = [world.h.store.db, world.state.store.db];
    await expectLedgerEquivalent(a, b, world.state.state, { accountTimes: false });
    const withdrawals = async (db: Executor) => normal(await allWithdrawals(db), ['amount', 'fee']);
    expect(await withdrawals(b)).toEqual(await withdrawals(a));
    const deposits = async (db: Executor) =>
      normal(await db.selectFrom('wallet_deposits').selectAll().orderBy('id').execute(), ['amount']);
    expect(await deposits(b)).toEqual(await deposits(a));
    const audit = async (db: Executor) =>
      normal(
        await db
          .selectFrom('wallet_operator_actions')
          .select(['at', 'operator', 'action', 'withdrawal_id', 'details'])
          .orderBy('id')
          .execute(),
        [],
      );
    expect(await audit(b)).toEqual(await audit(a));

    // The stream must exercise what it claims to.
    const seen = (key: string) => world.counts.get(key) ?? 0;
    const report = JSON.stringify(Object.fromEntries(world.counts));
    for (const key of [
      'deposit credited',
      'deposit reversed',
      'reversal unpaid',
      'deposit rejected: belowMinimum',
      'requested',
      'rules.insufficientBalance',
      'rules.dailyLimitExceeded',
      'rules.tooManyDecimals',
      'wallet.addressNotSaved',
      'common.frozen',
      'approve',
      'reject',
      'hold',
      'releaseHold',
      'approve: wallet.withdrawalHeld',
      'approve: wallet.withdrawalNotInReview',
      'reject after approve: wallet.withdrawalNotInReview',
      'reject: wallet.withdrawalNotInReview',
      'sent from approved',
      'mined from broadcast',
      'failed from broadcast',
      'flagged from broadcast',
      'refund',
    ])
      expect(seen(key), `${key} in ${report}`).toBeGreaterThan(0);
    await expectHealthyLedger(a);
    await expectHealthyLedger(b);
  }, 240_000);
});
