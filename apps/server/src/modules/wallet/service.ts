// Over 500 lines: WalletService owns the chain connections, the address
// deriver and the withdrawal sender, and every step of a withdrawal's life
// (request, operator review and hold, release to the sender, resend, cancel,
// refund) uses them, as deposits do. The chain I/O itself is in
// chain-watcher.ts, sender.ts and reconcile.ts. The operators' review steps
// are the part that could become a class of their own.
import { Dec } from '@halyard/money';
import type {
  ApprovalView,
  WithdrawalApproveAnswer,
  WithdrawalHold,
  WithdrawalQueueRow,
  WithdrawalReleasePayload,
} from '@halyard/protocol';
import { checkDepositAccess, checkWithdrawAddress, type RuleError } from '@halyard/rules';
import { type Address, getAddress, isAddress } from 'viem';
import type { Clock } from '../../clock.ts';
import {
  firstWithdrawalStep,
  type WithdrawalChecks,
  type WithdrawalRecord,
  type WithdrawalRequestedCommand,
  type WithdrawalReviewedCommand,
  type WithdrawalTerms,
  withdrawalHoldTransfer,
  withdrawalRequestRefusal,
  withdrawalVoidTransfer,
} from '../../core/state/index.ts';
import type { AuditActor, OperatorIdentity } from '../../http/auth.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { type CustodyWallet, type Ledger, userAccount } from '../../ledger/index.ts';
import type { IndexPriceSource } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Db, Executor, Trx } from '../../store/database.ts';
import { isUniqueViolation } from '../../store/dialect.ts';
import type { IdentityService } from '../identity/index.ts';
import { ChainWatcher, custodyOf } from './chain-watcher.ts';
import { createChainReader, decToUnits, unitsToDec } from './chains.ts';
import type { CoinChain } from './coins.ts';
import { CHAIN_NAMES, type ChainId, isChainId, type WalletConfig } from './config.ts';
import { createAddressDeriver, DEPOSIT_INDEX_MAX } from './hd.ts';
import { FaucetShort, sendFromFaucet } from './local-chain.ts';
import { WithdrawalSender } from './sender.ts';
import { createSigner } from './signer.ts';
import {
  type DepositRow,
  walletStore as sql,
  type WithdrawAddressRow,
  type WithdrawalRow,
  type WithdrawalState,
} from './store.ts';
import {
  submitWithdrawalCommand,
  submitWithdrawalRequest,
  type WithdrawalRequests,
  withdrawalRequests,
} from './withdrawals-on-core.ts';

const DAY_MS = 86_400_000;
/** A reorged deposit the user already spent freezes the account this long, pending an operator's look. */
const UNPAID_REVERSAL_FREEZE_MS = 30 * DAY_MS;

/** Spec §4: what a user sees of a deposit or withdrawal. */
export type RecordState = 'waiting' | 'completed' | 'rejected';

export interface DepositView {
  id: string;
  coin: string;
  chain: ChainId;
  blockname: string;
  address: string;
  amount: string;
  txHash: string;
  state: RecordState;
  reason: string | null;
  time: number;
}

export interface WithdrawalView {
  id: number;
  coin: string;
  chain: ChainId;
  blockname: string;
  address: string;
  amount: string;
  fee: string;
  state: RecordState;
  /** The internal step: review, approved, broadcast, flagged (an operator's turn), completed, rejected. */
  step: WithdrawalState;
  txHash: string | null;
  reason: string | null;
  time: number;
}

export interface WithdrawAddressView {
  id: number;
  coin: string;
  chain: ChainId;
  blockname: string;
  address: string;
  remark: string;
}

export interface WithdrawalRequest {
  coin: string;
  chain: number;
  address: string;
  amount: string;
  payPassword: string;
}

export interface WalletServiceOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  config: WalletConfig;
  /** Index prices in USDT: a withdrawal's value decides whether it needs a second operator. */
  index: IndexPriceSource;
  /** The four-eyes framework (modules/approvals, wired by app.ts) that releases large withdrawals. */
  fourEyes: WithdrawalFourEyes;
  /** Demo mode: the faucet endpoint sends play tokens on the local chain. */
  demo: boolean;
  onError: (error: unknown, context: string) => void;
  /**
   * The sequenced core, when the wallet's money runs on it: the chain
   * watchers submit their credits and reversals, a withdrawal's request and
   * reviews their commands, the sender what it saw.
   */
  core?: MoneyCoreHandle;
}

/**
 * What the wallet asks of the four-eyes framework: `operator` approved a
 * withdrawal worth more than the threshold. The framework asks a second
 * operator, or, when another operator asked already, takes this approval as
 * the second one (and then calls `releaseApproved`, on the core `approveReleased`).
 */
export interface WithdrawalFourEyes {
  release(release: WithdrawalReleasePayload, operator: OperatorIdentity): Promise<ApprovalView>;
}

/** A first deposit address taken at once by other requests is tried again this many times at most. */
const ADDRESS_ATTEMPTS_MAX = 5;

/** A request's money checks but the day's room, which SQL and the state each sum. */
type RequestChecks = Omit<WithdrawalChecks, 'withdrawnToday'>;

/** A withdrawal's value is compared with the four-eyes threshold to the cent. */
const USDT_DIGITS = 8;

function throwIf(error: RuleError | null): void {
  if (error) throw badRequest(error.key, error.params);
}

/** A coin row's withdrawal terms, as the money state's `withdrawalRequested` carries them. */
export function withdrawalTermsOf(coin: CoinChain): WithdrawalTerms {
  return {
    min: coin.withdrawMin.toString(),
    max: coin.withdrawMax.toString(),
    dailyMax: coin.withdrawDailyMax.toString(),
    fee: coin.withdrawFee.toString(),
    approvalThreshold: coin.approvalThreshold.toString(),
    decimals: coin.decimals,
  };
}

function chainOf(chain: number): ChainId {
  if (!isChainId(chain)) throw badRequest('wallet.unknownChain', { chain });
  return chain;
}

/** Parses an address of an EVM chain: well-formed and, when mixed-case, with a valid EIP-55 checksum. */
export function parseAddress(text: string): Address {
  const trimmed = text.trim();
  if (!isAddress(trimmed, { strict: true })) throw badRequest('wallet.addressInvalid');
  return getAddress(trimmed);
}

function depositView(row: DepositRow): DepositView {
  return {
    id: row.id,
    coin: row.coin,
    chain: row.chain_id as ChainId,
    blockname: CHAIN_NAMES[row.chain_id as ChainId],
    address: row.address,
    amount: Dec.canonical(row.amount),
    txHash: row.tx_hash,
    state: row.state,
    reason: row.reason,
    time: Number(row.created_at),
  };
}

function withdrawalView(
  row: Pick<
    WithdrawalRow,
    'id' | 'coin' | 'chain_id' | 'address' | 'amount' | 'fee' | 'state' | 'tx_hash' | 'reason' | 'created_at'
  >,
): WithdrawalView {
  const state: RecordState = row.state === 'completed' || row.state === 'rejected' ? row.state : 'waiting';
  return {
    id: Number(row.id),
    coin: row.coin,
    chain: row.chain_id as ChainId,
    blockname: CHAIN_NAMES[row.chain_id as ChainId],
    address: row.address,
    amount: Dec.canonical(row.amount),
    fee: Dec.canonical(row.fee),
    state,
    step: row.state,
    txHash: row.tx_hash,
    reason: row.reason,
    time: Number(row.created_at),
  };
}

/** A withdrawal as its request wrote it (the row the projector inserts): nothing signed or decided yet. */
function requestedView(withdrawal: WithdrawalRecord): WithdrawalView {
  const { id, coin, chainId, address, amount, fee, state, at } = withdrawal;
  return withdrawalView({
    id,
    coin,
    chain_id: chainId,
    address,
    amount,
    fee,
    state,
    tx_hash: null,
    reason: null,
    created_at: at,
  });
}

/** An operator's hold on a withdrawal in review, for the operators' queue only (its owner sees it waiting). */
function holdOf(row: WithdrawalRow): WithdrawalHold | null {
  if (row.state !== 'review' || row.held_at === null) return null;
  return { reason: row.held_reason ?? '', by: row.held_by ?? '', at: Number(row.held_at) };
}

function addressView(row: WithdrawAddressRow): WithdrawAddressView {
  return {
    id: Number(row.id),
    coin: row.coin,
    chain: row.chain_id as ChainId,
    blockname: CHAIN_NAMES[row.chain_id as ChainId],
    address: row.address,
    remark: row.remark,
  };
}

/**
 * Coins, deposit addresses, deposits seen on chain, the withdrawal address
 * book and withdrawals. Money moves only through the ledger: a deposit from
 * the chain's custody account to the user's spot account, a withdrawal as a
 * hold on the user's spot account that is posted when the chain confirms the
 * transfer and voided when it is rejected or fails.
 */
export class WalletService {
  private readonly db: Db;
  private readonly ledger: Ledger;
  private readonly clock: Clock;
  private readonly deriveAddress: (index: number) => Address;
  private readonly rpcUrls = new Map<ChainId, string>();
  readonly watchers = new Map<ChainId, ChainWatcher>();
  /** Reads the RPC URLs as chains connect; null without a hot-wallet key (withdrawals then wait). */
  private readonly sender: WithdrawalSender | null;
  /** On the core: the withdrawals the users' requests write, which their replies show. */
  private readonly requests: WithdrawalRequests | null;

  constructor(private readonly options: WalletServiceOptions) {
    this.db = options.db;
    this.ledger = options.ledger;
    this.clock = options.clock;
    this.deriveAddress = createAddressDeriver(options.config.depositXpub);
    this.requests = options.core ? withdrawalRequests(options.core) : null;
    const key = options.config.hotWalletKey;
    this.sender = key
      ? new WithdrawalSender({
          db: this.db,
          ledger: this.ledger,
          clock: this.clock,
          signer: createSigner(key, this.rpcUrls),
          chains: () => [...this.rpcUrls.keys()],
          coin: (coin, chainId) => this.coin(coin, chainId),
          feeBumpAfterMs: options.config.feeBumpAfterMs,
          onError: options.onError,
          ...(options.core ? { core: options.core } : {}),
        })
      : null;
    for (const chain of options.config.chains) {
      if (chain.rpcUrl) this.connectChain(chain.id, chain.rpcUrl, { startAtHead: !options.demo });
    }
  }

  /** Starts watching a chain at `rpcUrl` (config, or a local chain once it runs) and lets the signer use it. */
  connectChain(chainId: ChainId, rpcUrl: string, options: { startAtHead: boolean }): void {
    const reader = createChainReader(chainId, rpcUrl);
    this.rpcUrls.set(chainId, rpcUrl);
    this.watchers.set(
      chainId,
      new ChainWatcher({
        db: this.db,
        ledger: this.ledger,
        clock: this.clock,
        reader,
        coins: async () => (await this.coins()).filter((coin) => coin.chainId === chainId),
        startAtHead: options.startAtHead,
        onUnpaidReversal: (deposit) => this.freezeForUnpaidReversal(deposit),
        ...(this.options.core ? { core: this.options.core } : {}),
      }),
    );
  }

  rpcUrl(chainId: ChainId): string | null {
    return this.rpcUrls.get(chainId) ?? null;
  }

  /** The hot wallet's address, or null without a hot-wallet key (withdrawals then wait). */
  hotAddress(): Address | null {
    return this.sender?.hotAddress ?? null;
  }

  // ── coins ──────────────────────────────────────────────────────────────

  coins(): Promise<CoinChain[]> {
    return sql.coins(this.db);
  }

  async coin(coin: string, chain: number): Promise<CoinChain> {
    const chainId = chainOf(chain);
    const found = (await this.coins()).find((entry) => entry.coin === coin && entry.chainId === chainId);
    if (!found) throw badRequest('wallet.unknownCoin', { coin });
    return found;
  }

  /** Spec §3 Wallet coin entry, with the chains each coin is on and their limits. */
  async coinList() {
    const byCoin = new Map<string, CoinChain[]>();
    for (const entry of await this.coins())
      byCoin.set(entry.coin, [...(byCoin.get(entry.coin) ?? []), entry]);
    return [...byCoin.entries()].map(([coin, chains]) => ({
      coin,
      isin: chains.some((entry) => entry.isin),
      isout: chains.some((entry) => entry.isout),
      chains: chains.map((entry) => ({
        chain: entry.chainId,
        blockname: CHAIN_NAMES[entry.chainId],
        contract: entry.contract,
        decimals: entry.decimals,
        isin: entry.isin,
        isout: entry.isout,
        depositMin: entry.depositMin.toString(),
        withdrawMin: entry.withdrawMin.toString(),
        withdrawMax: entry.withdrawMax.toString(),
        withdrawDailyMax: entry.withdrawDailyMax.toString(),
        withdrawFee: entry.withdrawFee.toString(),
        confirmations: entry.confirmations,
      })),
    }));
  }

  // ── deposits ───────────────────────────────────────────────────────────

  /**
   * The user's deposit address on a chain, derived on first request from the
   * next free HD index (unique per user and chain). The URI is EIP-681, for a
   * QR code a wallet can read: it names the token, the chain and the address.
   */
  async depositAddress(userId: number, coinName: string, chain: number) {
    const coin = await this.coin(coinName, chain);
    if (!coin.isin) throw badRequest('wallet.depositClosed', { coin: coin.coin });
    await this.assertMayDeposit(userId);
    const address = await this.addressOf(userId, coin.chainId);
    return {
      coin: coin.coin,
      chain: coin.chainId,
      blockname: CHAIN_NAMES[coin.chainId],
      address,
      contract: coin.contract,
      min: coin.depositMin.toString(),
      confirmations: coin.confirmations,
      uri: `ethereum:${coin.contract}@${coin.chainId}/transfer?address=${address}`,
    };
  }

  /**
   * Spec §5 "Deposit" and §6: identity verification, a fund password and a
   * bound email before a deposit address is handed out. Without an address
   * nothing can be credited.
   */
  private async assertMayDeposit(userId: number): Promise<void> {
    const user = await this.options.identity.getUser(userId);
    const refused = checkDepositAccess({
      kycVerified: user.kyc === 'succeeded',
      fundPasswordSet: user.hasFundPassword,
      email: user.email,
    });
    if (refused) throw forbidden(refused.key, refused.params);
  }

  private async addressOf(userId: number, chainId: ChainId): Promise<Address> {
    const known = await sql.depositAddress(this.db, userId, chainId);
    if (known) return known;
    const created = await this.addressTransaction(async (trx) => {
      const again = await sql.depositAddress(trx, userId, chainId);
      if (again) return { address: again, first: false };
      const index = await sql.nextHdIndex(trx);
      if (index > DEPOSIT_INDEX_MAX) throw new Error('deposit address indexes exhausted');
      const address = this.deriveAddress(index);
      await sql.insertDepositAddress(trx, { userId, chainId, index, address, now: this.clock.now() });
      return { address, first: (await sql.depositAddressCount(trx, chainId)) === 1 };
    });
    if (created.first) {
      await this.watchers
        .get(chainId)
        ?.startIfUnset()
        .catch((error: unknown) => this.options.onError(error, `chain watcher ${chainId}`));
    }
    return created.address;
  }

  /**
   * A new address's transaction. On SQL, serialised through the ledger's
   * lock so two first requests cannot take the same index. On the core the
   * ledger has no SQL transaction to lend (it moves no money here): a plain
   * one, and a request that lost the race for an index (the unique
   * `hd_index`) runs again, reading the winner's row.
   */
  private async addressTransaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    if (!this.options.core) return this.ledger.transaction(work);
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await this.db.transaction().execute(work);
      } catch (error) {
        if (!isUniqueViolation(error) || attempt >= ADDRESS_ATTEMPTS_MAX) throw error;
      }
    }
  }

  async depositRecords(
    userId: number,
    coin: string | null,
    page: number,
    limit: number,
  ): Promise<DepositView[]> {
    const rows = await sql.userDeposits(this.db, userId, coin, (page - 1) * limit, limit);
    return rows.map(depositView);
  }

  /** Demo only: the local chain's faucet sends play tokens to the user's deposit address, on chain. */
  async demoDeposit(userId: number, input: { coin: string; chain: number; amount: string }) {
    if (!this.options.demo) throw forbidden('wallet.demoOnly');
    const coin = await this.coin(input.coin, input.chain);
    const amount = Dec.tryParse(input.amount);
    if (!amount?.isPositive()) throw badRequest('rules.amountInvalid');
    if (!amount.hasAtMostDigits(coin.decimals))
      throw badRequest('rules.tooManyDecimals', { digits: coin.decimals });
    await this.assertMayDeposit(userId);
    const rpcUrl = this.rpcUrls.get(coin.chainId);
    if (!rpcUrl) throw badRequest('wallet.chainUnavailable');
    const address = await this.addressOf(userId, coin.chainId);
    const txHash = await sendFromFaucet(rpcUrl, coin, address, decToUnits(amount, coin.decimals)).catch(
      (error: unknown) => {
        if (!(error instanceof FaucetShort)) throw error;
        const available = unitsToDec(error.available, coin.decimals).toString();
        throw badRequest('wallet.faucetShort', { available, coin: coin.coin });
      },
    );
    return { txHash, address, chain: coin.chainId, coin: coin.coin, amount: amount.toString() };
  }

  private async freezeForUnpaidReversal(deposit: DepositRow): Promise<void> {
    const now = this.clock.now();
    await this.options.identity.freeze({
      userId: Number(deposit.user_id),
      reason: `Deposit ${deposit.tx_hash} was reversed by a chain reorganisation after it was spent`,
      setBy: 'rule:deposit-reorg',
      endsAt: now + UNPAID_REVERSAL_FREEZE_MS,
    });
  }

  // ── withdrawal address book ────────────────────────────────────────────

  async addAddress(userId: number, input: { coin: string; chain: number; address: string; remark: string }) {
    throwIf(checkWithdrawAddress(input));
    const coin = await this.coin(input.coin, input.chain);
    const address = parseAddress(input.address);
    if (await sql.findWithdrawAddress(this.db, userId, coin.coin, coin.chainId, address)) {
      throw conflict('wallet.addressExists');
    }
    const row = await sql.insertWithdrawAddress(this.db, {
      userId,
      coin: coin.coin,
      chainId: coin.chainId,
      address,
      remark: input.remark.trim(),
      now: this.clock.now(),
    });
    return addressView(row);
  }

  async deleteAddress(userId: number, id: number): Promise<void> {
    if (!(await sql.deleteWithdrawAddress(this.db, userId, id))) throw notFound('wallet.addressNotFound');
  }

  async addresses(userId: number, coin: string | null): Promise<WithdrawAddressView[]> {
    return (await sql.withdrawAddresses(this.db, userId, coin)).map(addressView);
  }

  // ── withdrawals ────────────────────────────────────────────────────────

  /**
   * Spec §5 "Withdrawal" and §6, in the order the user meets them: the rules
   * (identity verification and fund password set, amount, address, fund
   * password entered, per-withdrawal minimum and maximum, daily maximum,
   * balance including the fee); the token's decimals; a checksum-valid saved
   * address; the 24 h lock; a freeze; the fund password itself. Then the
   * amount plus fee is held, and the withdrawal waits for an operator when it
   * is above the coin's approval threshold. A refusal changes nothing.
   */
  async requestWithdrawal(userId: number, input: WithdrawalRequest): Promise<WithdrawalView> {
    const coin = await this.coin(input.coin, input.chain);
    if (!coin.isout) throw badRequest('wallet.withdrawClosed', { coin: coin.coin });
    const user = await this.options.identity.getUser(userId);
    const now = this.clock.now();
    const since = Math.floor(now / DAY_MS) * DAY_MS;
    const available = (await this.ledger.balance({ ...userAccount(userId, 'spot'), asset: coin.coin }))
      .available;
    // What the money checks read besides the balance and the day's room
    // (the money state's `withdrawalRequested` carries it).
    const checks: RequestChecks = {
      amount: input.amount,
      address: input.address,
      // As the rule reads it: blank is none.
      fundPasswordGiven: (input.payPassword ?? '').trim() !== '',
      kycVerified: user.kyc === 'succeeded',
      fundPasswordSet: user.hasFundPassword,
      terms: withdrawalTermsOf(coin),
    };
    // The rules, then the token's decimals: the state makes the same checks.
    const rules = (withdrawnToday: Dec, usable: Dec) =>
      withdrawalRequestRefusal({ ...checks, withdrawnToday: withdrawnToday.toString() }, usable);
    throwIf(rules(await sql.withdrawnSince(this.db, userId, coin.coin, since), available));
    if (this.requests) return this.requestOnCore(this.requests, { userId, coin, input, checks, at: now });
    const amount = Dec.parse(input.amount);
    const address = await this.withdrawalAccess(userId, coin, input);

    const state: WithdrawalState = firstWithdrawalStep(amount, coin.approvalThreshold);
    const row = await this.ledger.transaction(async (trx) => {
      // Checked again under the ledger's lock: two requests at once cannot both use the same daily room.
      throwIf(rules(await sql.withdrawnSince(trx, userId, coin.coin, since), available));
      const inserted = await sql.insertWithdrawal(trx, {
        user_id: userId,
        coin: coin.coin,
        chain_id: coin.chainId,
        address,
        amount: amount.toString(),
        fee: coin.withdrawFee.toString(),
        state,
        created_at: now,
        updated_at: now,
      });
      const id = Number(inserted.id);
      const custody = custodyOf(coin.chainId).wallet as CustodyWallet;
      const hold = { userId, custody, coin: coin.coin, amount, fee: coin.withdrawFee };
      await this.ledger.execute([withdrawalHoldTransfer(id, hold)], trx);
      return inserted;
    });
    if (state === 'approved') this.sendSoon();
    return withdrawalView(row);
  }

  /**
   * The request on the core, once the money checks passed on what SQL holds
   * (as on SQL: a refusal in the same order). The checks that read other
   * data (`withdrawalAccess`) are made here and their refusal is stamped on
   * the state's `withdrawalRequested`, which makes the money checks again on
   * its own balance and room of the day (two requests at once cannot both
   * use it) and holds amount + fee under its next id. A stamped refusal the
   * state answers is thrown as the edge's own error, with its HTTP code.
   * Answered as soon as it is durable: the user's next request waits until
   * SQL holds it.
   */
  private async requestOnCore(
    requests: WithdrawalRequests,
    request: {
      userId: number;
      coin: CoinChain;
      input: WithdrawalRequest;
      checks: RequestChecks;
      at: number;
    },
  ): Promise<WithdrawalView> {
    const { userId, coin, input, at } = request;
    let savedAddress = '';
    let edgeError: AppError | null = null;
    try {
      savedAddress = await this.withdrawalAccess(userId, coin, input);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      edgeError = error;
    }
    const command: WithdrawalRequestedCommand = {
      kind: 'withdrawalRequested',
      at,
      userId,
      coin: coin.coin,
      chainId: coin.chainId,
      custody: custodyOf(coin.chainId).wallet as CustodyWallet,
      savedAddress,
      ...request.checks,
      edgeRefusal: edgeError && { key: edgeError.key, params: edgeError.params },
    };
    let withdrawal: WithdrawalRecord;
    try {
      withdrawal = await submitWithdrawalRequest(requests, command);
    } catch (error) {
      throw edgeError && error instanceof AppError && error.key === edgeError.key ? edgeError : error;
    }
    if (withdrawal.state === 'approved') this.sendSoon();
    return requestedView(withdrawal);
  }

  /**
   * The request's checks that read other data than money, in their order
   * after the money checks: a checksum-valid saved address, the 24 h lock, a
   * freeze, the fund password itself. The edge makes them before it submits
   * the money state's `withdrawalRequested` and stamps their refusal on it.
   * Answers the saved address, checksummed.
   */
  async withdrawalAccess(userId: number, coin: CoinChain, input: WithdrawalRequest): Promise<Address> {
    const address = parseAddress(input.address);
    if (!(await sql.findWithdrawAddress(this.db, userId, coin.coin, coin.chainId, address))) {
      throw badRequest('wallet.addressNotSaved');
    }
    await this.options.identity.assertNotLocked(userId);
    await this.options.identity.assertNotFrozen(userId);
    await this.options.identity.assertFundPassword(userId, input.payPassword);
    return address;
  }

  async withdrawalRecords(userId: number, coin: string | null, page: number, limit: number) {
    const rows = await sql.userWithdrawals(this.db, userId, coin, (page - 1) * limit, limit);
    return rows.map(withdrawalView);
  }

  /** The operators' queue of one step: each withdrawal with whose it is. */
  async withdrawalsInState(state: WithdrawalState, limit: number): Promise<WithdrawalQueueRow[]> {
    const rows = await sql.withdrawalsInState(this.db, state, limit);
    return rows.map((row) => ({ ...withdrawalView(row), userId: Number(row.user_id), hold: holdOf(row) }));
  }

  /**
   * Operator: approves a withdrawal in review. Worth more than the four-eyes
   * threshold in USDT (or of a coin without an index price, whose worth is
   * unknown) it is not released here: the four-eyes framework asks a second
   * operator, or counts this as the second approval. Otherwise it goes to
   * the signer at once. Audited either way.
   */
  async approveWithdrawal(id: number, operator: OperatorIdentity): Promise<WithdrawalApproveAnswer> {
    const row = await this.requireApprovable(this.db, id);
    const usdt = this.usdtValue(row.coin, Dec.parse(row.amount));
    if (usdt === null || usdt.gt(this.options.config.fourEyesAboveUsdt)) {
      const release = {
        withdrawalId: id,
        coin: row.coin,
        amount: row.amount,
        usdtValue: usdt?.toString() ?? null,
      };
      const approval = await this.options.fourEyes.release(release, operator);
      return { released: approval.status === 'executed', approval };
    }
    await this.approveReleased(id, operator.email, {});
    return { released: true, approval: null };
  }

  /**
   * Moves a withdrawal in review to the signer, with what led to it in the
   * audit entry (a four-eyes release names its request), and wakes the
   * sender. On the core it is the state's approve, which refuses one that
   * left review or is held meanwhile as `releaseApproved` does.
   */
  async approveReleased(id: number, operator: string, details: Record<string, unknown>): Promise<void> {
    const { core } = this.options;
    if (core)
      await this.submitReview(core, { withdrawalId: id, decision: 'approve', operator, reason: '', details });
    else await this.ledger.transaction((trx) => this.releaseApproved(trx, id, operator, details));
    this.sendSoon();
  }

  /** An operator's review as the state's `withdrawalReviewed`, stamped with the clock (the state makes the module's checks). */
  private async submitReview(
    core: MoneyCoreHandle,
    review: Omit<WithdrawalReviewedCommand, 'kind' | 'at'>,
  ): Promise<void> {
    await submitWithdrawalCommand(core, { kind: 'withdrawalReviewed', at: this.clock.now(), ...review });
  }

  /**
   * Moves a withdrawal in review to the signer inside the caller's ledger
   * transaction (the four-eyes approval's), with what led to it in the audit
   * entry; the caller calls `sendSoon` once it committed.
   */
  async releaseApproved(trx: Trx, id: number, operator: string, details: object): Promise<void> {
    await this.requireApprovable(trx, id);
    const now = this.clock.now();
    const moved = await sql.moveWithdrawal(trx, id, 'review', {
      state: 'approved',
      decided_by: operator,
      updated_at: now,
    });
    // Held or decided by someone else since it was read: say which.
    if (!moved) await this.requireApprovable(trx, id);
    await sql.appendOperatorAction(trx, {
      at: now,
      operator,
      action: 'withdrawal.approve',
      withdrawalId: id,
      details,
    });
  }

  /** The value of `amount` of `coin` in USDT at the index, or null while the coin has no price. */
  private usdtValue(coin: string, amount: Dec): Dec | null {
    const { index } = this.options;
    if (coin === index.quote) return amount;
    const price = index.current(coin)?.price;
    return price ? amount.mul(price).floorTo(USDT_DIGITS) : null;
  }

  /** Operator: refuses a withdrawal with a reason; the hold is released; audited. */
  async rejectWithdrawal(id: number, by: AuditActor, reason: string): Promise<void> {
    const why = reason.trim();
    if (!why) throw badRequest('identity.reasonRequired');
    const { core } = this.options;
    if (core) {
      await this.submitReview(core, { withdrawalId: id, decision: 'reject', operator: by.name, reason: why });
      return;
    }
    await this.ledger.transaction(async (trx) => {
      await this.requireInReview(trx, id);
      const now = this.clock.now();
      await sql.moveWithdrawal(trx, id, 'review', {
        state: 'rejected',
        reason: why,
        decided_by: by.name,
        updated_at: now,
      });
      await this.ledger.execute([withdrawalVoidTransfer(id)], trx);
      await sql.appendOperatorAction(trx, {
        at: now,
        operator: by.name,
        action: 'withdrawal.reject',
        withdrawalId: id,
        details: { reason: why },
      });
    });
  }

  /**
   * Operator: holds a withdrawal in review with a reason (issue 18). It stays
   * in review with its funds held by the ledger (the user still sees it
   * waiting), cannot be approved until the hold is released, and can still be
   * rejected; audited.
   */
  async holdWithdrawal(id: number, by: AuditActor, reason: string): Promise<void> {
    await this.changeHold(id, by, reason, 'hold');
  }

  /** Operator: releases a hold with a reason, so the withdrawal may be approved again; audited. */
  async releaseWithdrawalHold(id: number, by: AuditActor, reason: string): Promise<void> {
    await this.changeHold(id, by, reason, 'release');
  }

  private async changeHold(id: number, by: AuditActor, reason: string, change: 'hold' | 'release') {
    const why = reason.trim();
    if (!why) throw badRequest('identity.reasonRequired');
    const holding = change === 'hold';
    const { core } = this.options;
    if (core) {
      const decision = holding ? 'hold' : 'releaseHold';
      await this.submitReview(core, { withdrawalId: id, decision, operator: by.name, reason: why });
      return;
    }
    await this.ledger.transaction(async (trx) => {
      const row = await this.requireInReview(trx, id);
      if ((row.held_at !== null) === holding) {
        throw conflict(holding ? 'wallet.withdrawalAlreadyHeld' : 'wallet.withdrawalNotHeld');
      }
      const now = this.clock.now();
      const hold = holding ? { reason: why, by: by.name, at: now } : null;
      if (!(await sql.setWithdrawalHold(trx, id, hold, now))) throw conflict('wallet.withdrawalNotInReview');
      await sql.appendOperatorAction(trx, {
        at: now,
        operator: by.name,
        action: holding ? 'withdrawal.hold' : 'withdrawal.releaseHold',
        withdrawalId: id,
        details: { reason: why },
      });
    });
  }

  async operatorActions(limit: number) {
    const rows = await sql.operatorActions(this.db, limit);
    return rows.map((row) => ({
      id: Number(row.id),
      at: Number(row.at),
      operator: row.operator,
      action: row.action,
      withdrawalId: Number(row.withdrawal_id),
      details: JSON.parse(row.details) as Record<string, unknown>,
    }));
  }

  private async requireInReview(db: Executor, id: number) {
    const row = await sql.withdrawal(db, id);
    if (!row) throw notFound('wallet.withdrawalNotFound');
    if (row.state !== 'review') throw conflict('wallet.withdrawalNotInReview');
    return row;
  }

  /** In review and not held by an operator. */
  private async requireApprovable(db: Executor, id: number) {
    const row = await this.requireInReview(db, id);
    if (row.held_at !== null) throw conflict('wallet.withdrawalHeld', { reason: row.held_reason ?? '' });
    return row;
  }

  // ── the sender ─────────────────────────────────────────────────────────

  /** Wakes the sender for the withdrawals just approved (after their transaction committed). */
  sendSoon(): void {
    this.sendQueued().catch((error: unknown) => this.options.onError(error, 'withdrawal sender'));
  }

  /**
   * One round of the sender (sender.ts); without a signer (no hot-wallet
   * key) withdrawals wait. It reads the withdrawals from SQL: on the core,
   * once SQL holds every one answered so far (a user's request is answered
   * before SQL holds it).
   */
  async sendQueued(): Promise<void> {
    if (!this.sender) return;
    const { core } = this.options;
    if (core) await core.readable(core.sequencer.lastSequence());
    await this.sender.round();
  }

  /** Operator: signs a stuck or flagged withdrawal again (same nonce while unused, else a new one); audited. */
  async resendWithdrawal(id: number, by: AuditActor, reason: string): Promise<void> {
    await this.requireSender().resend(id, by, reason);
  }

  /** Operator: replaces a stuck withdrawal's transaction by a cancel at its nonce; audited. */
  async cancelWithdrawal(id: number, by: AuditActor, reason: string): Promise<void> {
    await this.requireSender().cancel(id, by, reason);
  }

  /** Operator: releases the funds of a withdrawal none of whose transactions can still be mined; audited. */
  async refundWithdrawal(id: number, by: AuditActor, reason: string): Promise<void> {
    await this.requireSender().refund(id, by, reason);
  }

  private requireSender(): WithdrawalSender {
    if (!this.sender) throw conflict('wallet.withdrawalNotResendable');
    return this.sender;
  }

  /** One round of every watcher and of the sender; errors are reported per chain and do not stop the others. */
  async pollAll(): Promise<void> {
    for (const [chainId, watcher] of this.watchers) {
      await watcher.poll().catch((error: unknown) => this.options.onError(error, `chain watcher ${chainId}`));
    }
    await this.sendQueued().catch((error: unknown) => this.options.onError(error, 'withdrawal sender'));
  }
}
