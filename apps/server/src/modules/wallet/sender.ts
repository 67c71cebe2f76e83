// Over ~500 lines on purpose: the sender's rounds and the operator's ways out
// of a stuck withdrawal (resend, cancel, refund) share the same steps — take a
// nonce, sign, record before sending, settle from the receipt — and split
// apart those steps would have to become public.
import { Dec } from '@halyard/money';
import { type Address, type Hex, parseTransaction, type TransactionReceipt } from 'viem';
import type { Clock } from '../../clock.ts';
import {
  type OperatorAudit,
  type WithdrawalOutcomeCommand,
  type WithdrawalStep,
  withdrawalSettleTransfers,
  withdrawalVoidTransfer,
} from '../../core/state/index.ts';
import type { AuditActor } from '../../http/auth.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { CustodyWallet, Ledger } from '../../ledger/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Db, Executor } from '../../store/database.ts';
import { custodyOf } from './chain-watcher.ts';
import { decToUnits } from './chains.ts';
import type { CoinChain } from './coins.ts';
import type { ChainId } from './config.ts';
import { hotNonces } from './nonces.ts';
import { transferLogsOf } from './reconcile.ts';
import { approvedOnChain, type SentTxKind, type SentTxRow, sentTxs } from './sent-txs.ts';
import {
  type Fees,
  type SignedTransfer,
  type Signer,
  type TokenTransfer,
  TransferRefused,
} from './signer.ts';
import { walletStore as sql, type WithdrawalRow, type WithdrawalState } from './store.ts';
import { movedMeanwhile, submitWithdrawalCommand } from './withdrawals-on-core.ts';

/** Withdrawals the sender handles per chain and round (TIGER_STYLE: bounded work). */
const SEND_BATCH_MAX = 20;
/** A replacement must outbid the transaction it replaces (geth and ganache want +10%); +20% clears it. */
const FEE_BUMP_PERCENT = 120n;

/** Why the sender set a withdrawal aside for an operator (its `reason` while flagged). */
export type FlagReason = 'nonceUsed' | 'transferMismatch';

export interface SenderOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  signer: Signer;
  /** The chains with an RPC URL now (a demo chain connects after start). */
  chains: () => ChainId[];
  coin: (coin: string, chainId: number) => Promise<CoinChain>;
  /** A transaction still unmined this long after it was signed is signed again with higher fees. */
  feeBumpAfterMs: number;
  onError: (error: unknown, context: string) => void;
  /**
   * The sequenced core, when withdrawals run on it: what the sender saw is
   * the state's `withdrawalOutcome`, and a signed transaction's `sent` is
   * durable before its nonce is taken and it is broadcast.
   */
  core?: MoneyCoreHandle;
}

/** What the sender reports of a withdrawal, besides which one and from which step. */
type Report = Pick<WithdrawalOutcomeCommand, 'outcome' | 'tx' | 'reason' | 'audit'>;

/** Thrown inside a transaction to roll it back (its nonce with it) when another writer moved the withdrawal first. */
class MovedMeanwhile extends Error {}

/**
 * The hot-wallet sender (issue 13). Per chain and hot address, each round:
 *
 * 1. settles the withdrawals whose nonce the chain has used: completed when
 *    one of *its own* transactions is mined, confirmed as deep as the coin's
 *    deposits, and carries the ERC-20 Transfer of its token, amount and
 *    address; released when it reverted or an operator's cancel took the
 *    nonce; flagged for an operator when another transaction used the nonce or
 *    the Transfer does not match;
 * 2. keeps the rest on their way in nonce order: the latest signature is sent
 *    again (a node may have dropped it), or, unmined after `feeBumpAfterMs`,
 *    replaced by the same transaction with higher fees (every hash is kept;
 *    whichever is mined settles it); a node error stops the round there, as
 *    later nonces could not be mined before it anyway;
 * 3. signs approved withdrawals: the nonce comes from the store's counter and
 *    is taken in the transaction that records the signed bytes, so no two
 *    withdrawals ever share one; then the bytes are sent.
 *
 * On the sequenced core (`core`), each step is reported as the money state's
 * `withdrawalOutcome` (sent, mined, failed, flagged) from the step the
 * sender saw; a signed transaction's `sent` is durable before its nonce is
 * taken and its bytes are recorded and sent (docs/core.md, "Deposits,
 * withdrawals and adjustments in the state"); a process that stopped in
 * between is taken up by the next round (`takeUpStoppedSends`).
 */
export class WithdrawalSender {
  private readonly signer: Signer;
  private readonly countersReady = new Set<ChainId>();
  private running: Promise<void> | null = null;
  private next: Promise<void> | null = null;
  /** On the core: the signings at a new nonce, one after another (see `sentAtNextNonce`). */
  private nonceTurn: Promise<unknown> = Promise.resolve();

  constructor(private readonly options: SenderOptions) {
    this.signer = options.signer;
  }

  get hotAddress(): Address {
    return this.signer.address;
  }

  /**
   * One round on every connected chain. A call while a round runs gets the
   * next one (shared by every call meanwhile): the running round may have
   * read its work before the caller's withdrawal existed.
   */
  round(): Promise<void> {
    if (!this.running) {
      this.running = this.roundOnChains().finally(() => {
        this.running = null;
      });
      return this.running;
    }
    this.next ??= this.running.then(() => {
      this.next = null;
      return this.round();
    });
    return this.next;
  }

  private async roundOnChains(): Promise<void> {
    for (const chainId of this.options.chains()) {
      await this.chainRound(chainId).catch((error: unknown) =>
        this.options.onError(error, `withdrawal sender, chain ${chainId}`),
      );
    }
  }

  private async chainRound(chainId: ChainId): Promise<void> {
    const { db } = this.options;
    const mined = await this.signer.minedNonce(chainId);
    await this.ensureCounter(chainId, mined);
    if (this.options.core) await this.takeUpStoppedSends(chainId);
    const head = await this.signer.head(chainId);
    const sending = await sentTxs.withdrawalsByNonce(
      db,
      chainId,
      this.hotAddress,
      'broadcast',
      SEND_BATCH_MAX,
    );
    for (const row of sending.filter((entry) => Number(entry.nonce) < mined)) {
      await this.settle(row, head).catch((error: unknown) =>
        this.options.onError(error, `withdrawal ${row.id}`),
      );
    }
    const unmined = sending.filter((entry) => Number(entry.nonce) >= mined);
    if (!(await this.inNonceOrder(unmined, (row) => this.keepSending(row)))) return;
    await this.inNonceOrder(await approvedOnChain(db, chainId, SEND_BATCH_MAX), (row) =>
      this.signAndSend(row),
    );
  }

  /** Runs `send` on each row in turn; stops at the first error (reported), as later nonces would wait on it. */
  private async inNonceOrder(
    rows: readonly WithdrawalRow[],
    send: (row: WithdrawalRow) => Promise<void>,
  ): Promise<boolean> {
    for (const row of rows) {
      try {
        await send(row);
      } catch (error) {
        this.options.onError(error, `withdrawal ${row.id}`);
        return false;
      }
    }
    return true;
  }

  /** The counter starts once from the chain's mined nonce; from then on the store is the truth. */
  private async ensureCounter(chainId: ChainId, minedNonce: number): Promise<void> {
    if (this.countersReady.has(chainId)) return;
    await hotNonces.initialise(this.options.db, chainId, this.hotAddress, minedNonce);
    this.countersReady.add(chainId);
  }

  // ── signing ────────────────────────────────────────────────────────────

  private async transferOf(row: WithdrawalRow): Promise<{ coin: CoinChain; transfer: TokenTransfer }> {
    const coin = await this.options.coin(row.coin, row.chain_id);
    return {
      coin,
      transfer: {
        chainId: coin.chainId,
        token: coin.contract,
        to: row.address as Address,
        units: decToUnits(Dec.parse(row.amount), coin.decimals),
      },
    };
  }

  private async signAndSend(row: WithdrawalRow): Promise<void> {
    const { transfer } = await this.transferOf(row);
    let quote: Awaited<ReturnType<Signer['quote']>>;
    try {
      quote = await this.signer.quote(transfer);
    } catch (error) {
      if (!(error instanceof TransferRefused)) throw error;
      await this.release(row, 'approved', 'sendFailed');
      return;
    }
    const signed = await this.recordNewNonce(row, 'approved', (nonce) =>
      this.signer.signTransfer(transfer, nonce, quote.gas, quote.fees),
    );
    if (signed) await this.signer.broadcast(transfer.chainId, signed.raw);
  }

  /**
   * Takes the next nonce, signs with it and records the signed transaction,
   * all in one transaction: a crash or a lost race leaves neither a used
   * nonce nor a signed transaction unrecorded. Null when the withdrawal had moved on.
   */
  private async recordNewNonce(
    row: WithdrawalRow,
    from: WithdrawalStep,
    sign: (nonce: number) => Promise<SignedTransfer>,
    audit?: (signed: SignedTransfer, nonce: number) => OperatorAudit,
  ): Promise<SignedTransfer | null> {
    const { core } = this.options;
    if (core) return this.sentAtNextNonce(core, row, from, sign, audit);
    const chainId = row.chain_id as ChainId;
    try {
      return await this.options.ledger.transaction(async (trx) => {
        const nonce = await hotNonces.take(trx, chainId, this.hotAddress);
        const signed = await sign(nonce);
        await this.recordSigned(trx, row, from, signed, nonce, 'transfer');
        await this.appendAudit(trx, row, audit?.(signed, nonce));
        return signed;
      });
    } catch (error) {
      if (error instanceof MovedMeanwhile) return null;
      throw error;
    }
  }

  /**
   * On the core: signs with the next nonce, read but not taken, and takes
   * it only once the state's `sent` is durable (`recordSent`), so a
   * withdrawal moved meanwhile uses none. One at a time: two signers reading
   * the counter at once would sign two transactions with one nonce (on SQL,
   * the ledger's transaction orders them).
   */
  private sentAtNextNonce(
    core: MoneyCoreHandle,
    row: WithdrawalRow,
    from: WithdrawalStep,
    sign: (nonce: number) => Promise<SignedTransfer>,
    audit?: (signed: SignedTransfer, nonce: number) => OperatorAudit,
  ): Promise<SignedTransfer | null> {
    const turn = this.nonceTurn.then(async () => {
      const nonce = await hotNonces.peek(this.options.db, row.chain_id as ChainId, this.hotAddress);
      const signed = await sign(nonce);
      const sent = await this.recordSent(
        core,
        row,
        from,
        { signed, nonce, kind: 'transfer' },
        audit?.(signed, nonce),
      );
      return sent ? signed : null;
    });
    this.nonceTurn = turn.catch(() => {});
    return turn;
  }

  /**
   * On the core: the state's `sent` (the row moves to broadcast with the
   * transaction, the operator's audit entry with it), then, once it is
   * durable, the nonce taken and the transaction kept in the sender's own
   * tables; the caller broadcasts after. False when the withdrawal had moved on.
   */
  private async recordSent(
    core: MoneyCoreHandle,
    row: WithdrawalRow,
    from: WithdrawalStep,
    sent: { signed: SignedTransfer; nonce: number; kind: SentTxKind },
    audit: OperatorAudit | undefined,
  ): Promise<boolean> {
    const { signed, nonce } = sent;
    const tx = { hash: signed.hash, raw: signed.raw, nonce, hotAddress: this.hotAddress };
    if (!(await this.report(core, row, from, { outcome: 'sent', tx, audit: audit ?? null }))) return false;
    await this.keepSent(row, sent);
    return true;
  }

  /** On the core, once its `sent` is durable: the nonce taken (the counter moves past it, never back) and the transaction kept. */
  private async keepSent(
    row: WithdrawalRow,
    sent: { signed: SignedTransfer; nonce: number; kind: SentTxKind },
  ): Promise<void> {
    await this.options.db.transaction().execute(async (trx) => {
      await hotNonces.use(trx, row.chain_id as ChainId, this.hotAddress, sent.nonce);
      await sentTxs.insert(trx, this.sentTxRow(row, sent, this.options.clock.now()));
    });
  }

  /**
   * On the core: a process that stopped after a `sent` became durable and
   * before `keepSent` left the withdrawal broadcast with its signed
   * transaction in its row only, never broadcast. The round takes up where
   * it stopped: the nonce taken and the row's own transaction kept, so
   * `keepSending` broadcasts those very bytes in nonce order (kept now, the
   * fee bump's wait starts now). Nothing is signed again.
   */
  private async takeUpStoppedSends(chainId: ChainId): Promise<void> {
    const stopped = await sentTxs.stoppedSends(this.options.db, chainId, this.hotAddress, SEND_BATCH_MAX);
    for (const row of stopped) {
      const raw = row.raw_tx as Hex;
      const signed = { hash: row.tx_hash as Hex, raw };
      await this.keepSent(row, { signed, nonce: Number(row.nonce), kind: this.kindOf(raw) });
    }
  }

  /** A cancel is the hot wallet's transfer to itself (`Signer.signCancel`); a withdrawal's transfer calls its token. */
  private kindOf(raw: Hex): SentTxKind {
    const to = parseTransaction(raw).to;
    return to?.toLowerCase() === this.hotAddress.toLowerCase() ? 'cancel' : 'transfer';
  }

  private async recordSigned(
    trx: Executor,
    row: WithdrawalRow,
    from: WithdrawalStep,
    signed: SignedTransfer,
    nonce: number,
    kind: SentTxKind,
  ): Promise<void> {
    const now = this.options.clock.now();
    const moved = await sql.moveWithdrawal(trx, Number(row.id), from, {
      state: 'broadcast',
      reason: null,
      tx_hash: signed.hash,
      raw_tx: signed.raw,
      nonce,
      hot_address: this.hotAddress,
      updated_at: now,
    });
    if (!moved) throw new MovedMeanwhile();
    await sentTxs.insert(trx, this.sentTxRow(row, { signed, nonce, kind }, now));
  }

  /** A signed transaction as the sender keeps it: every one is, whichever of them is mined settles the withdrawal. */
  private sentTxRow(
    row: WithdrawalRow,
    { signed, nonce, kind }: { signed: SignedTransfer; nonce: number; kind: SentTxKind },
    now: number,
  ): SentTxRow {
    const fees = feesOf(signed.raw);
    return {
      hash: signed.hash,
      withdrawal_id: Number(row.id),
      chain_id: row.chain_id,
      from_address: this.hotAddress,
      nonce,
      kind,
      raw_tx: signed.raw,
      max_fee_per_gas: fees.maxFeePerGas.toString(),
      max_priority_fee_per_gas: fees.maxPriorityFeePerGas.toString(),
      created_at: now,
    };
  }

  /**
   * On the core: what the sender (or an operator through it) saw, as the
   * state's `withdrawalOutcome` from the step it saw the withdrawal in,
   * answered once SQL holds it. False when another writer moved it first.
   */
  private async report(core: MoneyCoreHandle, row: WithdrawalRow, from: WithdrawalStep, report: Report) {
    const command = {
      kind: 'withdrawalOutcome' as const,
      at: this.options.clock.now(),
      withdrawalId: Number(row.id),
      from,
      ...report,
    };
    try {
      await submitWithdrawalCommand(core, command);
      return true;
    } catch (error) {
      if (movedMeanwhile(error)) return false;
      throw error;
    }
  }

  /** On SQL: an operator's audit entry, in the transaction of what they did. */
  private async appendAudit(trx: Executor, row: WithdrawalRow, audit: OperatorAudit | undefined) {
    if (!audit) return;
    await sql.appendOperatorAction(trx, {
      at: this.options.clock.now(),
      withdrawalId: Number(row.id),
      ...audit,
    });
  }

  /** Signs again at the withdrawal's own nonce (a fee bump, or a cancel) and records it; null when it moved on. */
  private async recordSameNonce(
    row: WithdrawalRow,
    from: WithdrawalStep,
    kind: SentTxKind,
    audit?: (signed: SignedTransfer) => OperatorAudit,
  ): Promise<SignedTransfer | null> {
    const chainId = row.chain_id as ChainId;
    const nonce = Number(row.nonce);
    const last = (await sentTxs.ofWithdrawal(this.options.db, Number(row.id))).at(-1);
    const current = await this.signer.fees(chainId);
    const fees = last ? outbid(feesOf(last.raw_tx as Hex), current) : current;
    let signed: SignedTransfer;
    if (kind === 'cancel') signed = await this.signer.signCancel(chainId, nonce, fees);
    else if (last?.kind === 'transfer') signed = await this.signer.resign(chainId, last.raw_tx as Hex, fees);
    else {
      const { transfer } = await this.transferOf(row);
      const quote = await this.signer.quote(transfer);
      signed = await this.signer.signTransfer(transfer, nonce, quote.gas, fees);
    }
    const { core } = this.options;
    if (core)
      return (await this.recordSent(core, row, from, { signed, nonce, kind }, audit?.(signed)))
        ? signed
        : null;
    try {
      await this.options.ledger.transaction(async (trx) => {
        await this.recordSigned(trx, row, from, signed, nonce, kind);
        await this.appendAudit(trx, row, audit?.(signed));
      });
    } catch (error) {
      if (error instanceof MovedMeanwhile) return null;
      throw error;
    }
    return signed;
  }

  private async keepSending(row: WithdrawalRow): Promise<void> {
    const chainId = row.chain_id as ChainId;
    const last = (await sentTxs.ofWithdrawal(this.options.db, Number(row.id))).at(-1);
    // A withdrawal of the old signer that shared another's transaction has none of its own: it waits to be flagged.
    if (!last) return;
    if (this.options.clock.now() - Number(last.created_at) < this.options.feeBumpAfterMs) {
      await this.signer.broadcast(chainId, last.raw_tx as Hex);
      return;
    }
    const bumped = await this.recordSameNonce(row, 'broadcast', last.kind);
    if (bumped) await this.signer.broadcast(chainId, bumped.raw);
  }

  // ── settling ───────────────────────────────────────────────────────────

  /** The withdrawal's own transaction that the chain mined, if any (at most one: they share a nonce). */
  private async minedTxOf(
    row: WithdrawalRow,
  ): Promise<{ tx: SentTxRow; receipt: TransactionReceipt } | null> {
    for (const tx of await sentTxs.ofWithdrawal(this.options.db, Number(row.id))) {
      const receipt = await this.signer.receipt(row.chain_id as ChainId, tx.hash as Hex);
      if (receipt) return { tx, receipt };
    }
    return null;
  }

  private async settle(row: WithdrawalRow, head: number): Promise<void> {
    const mined = await this.minedTxOf(row);
    if (!mined) {
      await this.flag(row, 'nonceUsed');
      return;
    }
    const { tx, receipt } = mined;
    const coin = await this.options.coin(row.coin, row.chain_id);
    if (head - Number(receipt.blockNumber) + 1 < coin.confirmations) return;
    if (tx.kind === 'cancel') await this.release(row, 'broadcast', 'cancelled');
    else if (receipt.status === 'reverted') await this.release(row, 'broadcast', 'sendFailed');
    else if (this.carriesItsTransfer(receipt, coin, row, tx.from_address as Address))
      await this.complete(row, tx);
    else await this.flag(row, 'transferMismatch');
  }

  private carriesItsTransfer(
    receipt: TransactionReceipt,
    coin: CoinChain,
    row: WithdrawalRow,
    from: Address,
  ): boolean {
    const units = decToUnits(Dec.parse(row.amount), coin.decimals);
    return transferLogsOf(receipt, coin.contract, from).some(
      (log) => log.to.toLowerCase() === row.address.toLowerCase() && log.value === units,
    );
  }

  private async complete(row: WithdrawalRow, tx: SentTxRow): Promise<void> {
    const { core } = this.options;
    if (core) {
      const mined = { hash: tx.hash, raw: tx.raw_tx, nonce: Number(tx.nonce), hotAddress: tx.from_address };
      await this.report(core, row, 'broadcast', { outcome: 'mined', tx: mined });
      return;
    }
    const id = Number(row.id);
    await this.options.ledger.transaction(async (trx) => {
      const moved = await sql.moveWithdrawal(trx, id, 'broadcast', {
        state: 'completed',
        tx_hash: tx.hash,
        raw_tx: tx.raw_tx,
        updated_at: this.options.clock.now(),
      });
      if (!moved) return;
      const custody = custodyOf(row.chain_id as ChainId).wallet as CustodyWallet;
      const settled = { custody, coin: row.coin, amount: Dec.parse(row.amount), fee: Dec.parse(row.fee) };
      await this.options.ledger.execute(withdrawalSettleTransfers(id, settled), trx);
    });
  }

  private async flag(row: WithdrawalRow, reason: FlagReason): Promise<void> {
    const { core } = this.options;
    if (core) {
      await this.report(core, row, 'broadcast', { outcome: 'flagged', reason });
      return;
    }
    await sql.moveWithdrawal(this.options.db, Number(row.id), 'broadcast', {
      state: 'flagged',
      reason,
      updated_at: this.options.clock.now(),
    });
  }

  /** Rejected, and the hold released (with the operator's audit entry, when an operator did it). */
  private async release(
    row: WithdrawalRow,
    from: WithdrawalStep,
    reason: string,
    audit?: OperatorAudit,
  ): Promise<boolean> {
    const { core } = this.options;
    if (core) return this.report(core, row, from, { outcome: 'failed', reason, audit: audit ?? null });
    const id = Number(row.id);
    return this.options.ledger.transaction(async (trx) => {
      const moved = await sql.moveWithdrawal(trx, id, from, {
        state: 'rejected',
        reason,
        updated_at: this.options.clock.now(),
      });
      if (!moved) return false;
      await this.options.ledger.execute([withdrawalVoidTransfer(id)], trx);
      await this.appendAudit(trx, row, audit);
      return true;
    });
  }

  // ── operator actions ───────────────────────────────────────────────────

  /**
   * Signs a stuck or flagged withdrawal again: at its own nonce with higher
   * fees while the chain has not used that nonce, else at a new nonce. Refused
   * when one of its own transactions is mined (it settles by itself, or, when
   * its Transfer does not match, only a refund is left).
   */
  async resend(id: number, by: AuditActor, reason: string): Promise<void> {
    const why = requireReason(reason);
    const row = await this.requireState(id, ['broadcast', 'flagged']);
    const chainId = row.chain_id as ChainId;
    if (await this.minedTxOf(row)) throw conflict('wallet.withdrawalNotResendable');
    const nonceFree = row.nonce !== null && Number(row.nonce) >= (await this.signer.minedNonce(chainId));
    const audit = (signed: SignedTransfer, nonce: number) =>
      auditOf(by, 'withdrawal.resend', { reason: why, nonce, txHash: signed.hash });
    const from = row.state;
    const signed = nonceFree
      ? await this.recordSameNonce(row, from, 'transfer', (again) => audit(again, Number(row.nonce)))
      : await this.resendAtNewNonce(row, from, audit);
    if (!signed) throw conflict('wallet.withdrawalNotResendable');
    await this.signer.broadcast(chainId, signed.raw).catch((error: unknown) =>
      // Recorded and audited: the next round sends it again, so the operator is not told it failed.
      this.options.onError(error, `withdrawal ${id}`),
    );
  }

  private async resendAtNewNonce(
    row: WithdrawalRow,
    from: WithdrawalStep,
    audit: (signed: SignedTransfer, nonce: number) => OperatorAudit,
  ): Promise<SignedTransfer | null> {
    const { transfer } = await this.transferOf(row);
    const quote = await this.signer.quote(transfer);
    await this.ensureCounter(transfer.chainId, await this.signer.minedNonce(transfer.chainId));
    return this.recordNewNonce(
      row,
      from,
      (nonce) => this.signer.signTransfer(transfer, nonce, quote.gas, quote.fees),
      audit,
    );
  }

  /**
   * Replaces a stuck withdrawal's transaction with a zero-value transfer of the
   * hot wallet to itself at the same nonce, with higher fees. Whichever is
   * mined settles it: its transfer completes it, the cancel releases its funds.
   */
  async cancel(id: number, by: AuditActor, reason: string): Promise<void> {
    const why = requireReason(reason);
    const row = await this.requireState(id, ['broadcast']);
    const chainId = row.chain_id as ChainId;
    if (Number(row.nonce) < (await this.signer.minedNonce(chainId)))
      throw conflict('wallet.withdrawalNotResendable');
    const signed = await this.recordSameNonce(row, 'broadcast', 'cancel', (cancel) =>
      auditOf(by, 'withdrawal.cancel', { reason: why, txHash: cancel.hash }),
    );
    if (!signed) throw conflict('wallet.withdrawalNotResendable');
    await this.signer
      .broadcast(chainId, signed.raw)
      .catch((error: unknown) => this.options.onError(error, `withdrawal ${id}`));
  }

  /**
   * Releases a withdrawal's funds to the user, only when none of its
   * transactions can still be mined: nothing was signed (approved), or its
   * nonce was used, as deep as the coin's confirmations, by a transaction
   * that did not carry its transfer.
   */
  async refund(id: number, by: AuditActor, reason: string): Promise<void> {
    const why = requireReason(reason);
    const row = await this.requireState(id, ['approved', 'broadcast', 'flagged']);
    if (row.state !== 'approved' && !(await this.cannotLandAnyMore(row)))
      throw conflict('wallet.withdrawalMayStillLand');
    const audit = auditOf(by, 'withdrawal.refund', { reason: why, nonce: row.nonce });
    const released = await this.release(row, row.state, why, audit);
    if (!released) throw conflict('wallet.withdrawalNotResendable');
  }

  private async cannotLandAnyMore(row: WithdrawalRow): Promise<boolean> {
    const chainId = row.chain_id as ChainId;
    if (row.nonce === null) return false;
    const coin = await this.options.coin(row.coin, chainId);
    const deepBlock = (await this.signer.head(chainId)) - coin.confirmations + 1;
    if (deepBlock < 0) return false;
    if ((await this.signer.minedNonce(chainId, deepBlock)) <= Number(row.nonce)) return false;
    const mined = await this.minedTxOf(row);
    if (!mined || mined.tx.kind === 'cancel' || mined.receipt.status === 'reverted') return true;
    return !this.carriesItsTransfer(mined.receipt, coin, row, mined.tx.from_address as Address);
  }

  private async requireState<S extends WithdrawalStep>(
    id: number,
    states: readonly S[],
  ): Promise<WithdrawalRow & { state: S }> {
    const row = await sql.withdrawal(this.options.db, id);
    if (!row) throw notFound('wallet.withdrawalNotFound');
    if (!isIn(row.state, states)) throw conflict('wallet.withdrawalNotResendable');
    return { ...row, state: row.state };
  }
}

function isIn<S extends WithdrawalState>(state: WithdrawalState, states: readonly S[]): state is S {
  return (states as readonly WithdrawalState[]).includes(state);
}

/** The wallet's own audit row has room for the operator's name only (the /admin trail keeps the id). */
function auditOf(by: AuditActor, action: string, details: Record<string, unknown>): OperatorAudit {
  return { operator: by.name, action, details };
}

function requireReason(reason: string): string {
  const why = reason.trim();
  if (!why) throw badRequest('identity.reasonRequired');
  return why;
}

/** The fees a signed transaction offers (a legacy one offers its gas price as both). */
function feesOf(raw: Hex): Fees {
  const parsed = parseTransaction(raw);
  const legacy = parsed.gasPrice ?? 0n;
  return {
    maxFeePerGas: parsed.maxFeePerGas ?? legacy,
    maxPriorityFeePerGas: parsed.maxPriorityFeePerGas ?? legacy,
  };
}

/** Fees that replace `previous`: FEE_BUMP_PERCENT of it, or what the node asks now if that is more. */
function outbid(previous: Fees, current: Fees): Fees {
  const bump = (fee: bigint) => (fee * FEE_BUMP_PERCENT + 99n) / 100n;
  const maxPriorityFeePerGas = max(bump(previous.maxPriorityFeePerGas), current.maxPriorityFeePerGas);
  const maxFeePerGas = max(bump(previous.maxFeePerGas), current.maxFeePerGas, maxPriorityFeePerGas);
  return { maxFeePerGas, maxPriorityFeePerGas };
}

function max(first: bigint, ...rest: bigint[]): bigint {
  let top = first;
  for (const value of rest) if (value > top) top = value;
  return top;
}
