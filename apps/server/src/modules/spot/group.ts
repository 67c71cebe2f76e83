import { Dec } from '@halyard/money';
import type { CommissionRow } from '../../core/state/referral-rules.ts';
import type { TradeFee } from '../../core/state/spot-legs.ts';
import {
  type AccountKey,
  type AccountRef,
  accountKey,
  accountMapKeyOf,
  BULK_MAX,
  type Ledger,
  type TransferInput,
} from '../../ledger/index.ts';
import type { Trx } from '../../store/database.ts';
import { insertCommissions } from '../referral/index.ts';
import { insertTrades, type OrderRow, saveOrders, selectMaxOrderAutoid, type TradeRow } from './store.ts';

/** A fee a trade owes, settled after the command's matching (in coin or HAL) with its commissions. */
export interface PendingFee extends TradeFee {
  tradeId: string;
  order: OrderRow;
  trade: TradeRow;
  side: 'buyer' | 'seller';
  /** Owner of the other side's order. */
  counterpartyOwner: string;
  reference: string;
}

/**
 * The writes of one group of commands, gathered while they run and written
 * once at the end of the group's transaction: the ledger transfers in as few
 * bulk writes as the ledger's bound allows, the new and the touched orders
 * together (one upsert, each order once, as it stands at the end), the trades
 * inserted together. This is what makes group commit cheap: a group of 64
 * orders costs a handful of statements instead of a few dozen per order.
 *
 * The spec's balance check still sees every earlier command of the group: the
 * balances the group's orders need are read once, together, when it opens
 * (under the ledger's lock), and the group's own holds, deliveries and
 * releases are applied to them in memory. The ledger re-checks everything
 * when the batches are written; if it ever refused, the whole group would
 * roll back.
 */
export class GroupWork {
  private nextAutoid: number;
  private readonly transfers: TransferInput[] = [];
  /** Available balances as stored when the group began, by `mapKey`. */
  private readonly stored = new Map<string, Dec>();
  /** What this group's gathered transfers change in each account's available balance. */
  private readonly deltas = new Map<string, Dec>();
  private readonly inserted = new Map<number, OrderRow>();
  private readonly updated = new Map<number, OrderRow>();
  readonly trades: TradeRow[] = [];
  /** The fees of the command being run, until its fee step settles them. */
  readonly fees: PendingFee[] = [];
  /** The group's referral commission rows (each command pays its own, after its fees: fees.ts). */
  readonly commissionRows: CommissionRow[] = [];

  private constructor(
    readonly trx: Trx,
    private readonly ledger: Ledger,
    lastAutoid: number,
  ) {
    this.nextAutoid = lastAutoid + 1;
  }

  /**
   * Orders are numbered from the store's highest autoid: every writer of
   * orders holds the ledger's lock. `accounts` are the balances the group's
   * commands will check, read in one statement.
   */
  static async open(trx: Trx, ledger: Ledger, accounts: readonly AccountKey[]): Promise<GroupWork> {
    const work = new GroupWork(trx, ledger, await selectMaxOrderAutoid(trx));
    await work.read(accounts);
    return work;
  }

  /** What the account can spend now: its stored available balance and this group's changes so far. */
  async available(account: AccountRef, asset: string): Promise<Dec> {
    const key = accountMapKeyOf(account, asset);
    if (!this.stored.has(key)) await this.read([accountKey(account, asset)]);
    return this.stored.get(key)!.add(this.deltas.get(key) ?? Dec.ZERO);
  }

  /** Reads the balances not read yet. Nothing of this group is written before the flush, so none of its changes are in them. */
  private async read(accounts: readonly AccountKey[]): Promise<void> {
    const missing = new Map<string, AccountKey>();
    for (const account of accounts) {
      const key = accountMapKeyOf(account, account.asset);
      if (!this.stored.has(key)) missing.set(key, account);
    }
    if (missing.size === 0) return;
    const balances = await this.ledger.balancesOf([...missing.values()], this.trx);
    let index = 0;
    for (const key of missing.keys()) this.stored.set(key, balances[index++]!.available);
  }

  /** A new order: its autoid, and the row to insert at the end. */
  newOrder(fields: Omit<OrderRow, 'autoid'>): OrderRow {
    const row: OrderRow = { autoid: this.nextAutoid++, ...fields };
    this.inserted.set(row.autoid, row);
    return row;
  }

  /** An order whose row changed: written once, as it stands at the end of the group. */
  touched(row: OrderRow): void {
    if (!this.inserted.has(row.autoid)) this.updated.set(row.autoid, row);
  }

  /** Reserves `amount` of the account's `asset` (a pending transfer). */
  hold(transfer: TransferInput & { type: 'pending'; debit: AccountRef; asset: string; amount: Dec }): void {
    this.change(transfer.debit, transfer.asset, transfer.amount.neg());
    this.transfers.push(transfer);
  }

  /** Posts part of a hold: the reserved funds leave; what the owner can spend is unchanged. */
  post(transfer: TransferInput & { type: 'post_pending' }): void {
    this.transfers.push(transfer);
  }

  /** A posted movement that pays `credit` (a delivery or a fee). */
  pay(transfer: TransferInput & { credit: AccountRef; asset: string; amount: Dec }): void {
    this.change(transfer.credit, transfer.asset, transfer.amount);
    this.transfers.push(transfer);
  }

  /** A posted movement that takes from `debit`'s available balance (a fee paid in HAL). */
  charge(transfer: TransferInput & { debit: AccountRef; asset: string; amount: Dec }): void {
    this.change(transfer.debit, transfer.asset, transfer.amount.neg());
    this.transfers.push(transfer);
  }

  /** Releases what a hold still reserves back to its owner. */
  release(
    transfer: TransferInput & { type: 'void_pending' },
    owner: AccountRef,
    asset: string,
    amount: Dec,
  ): void {
    this.change(owner, asset, amount);
    this.transfers.push(transfer);
  }

  /** Writes everything gathered, in order (the transfers as bulk writes: the group needs no Transfer back). */
  async flush(): Promise<void> {
    for (let start = 0; start < this.transfers.length; start += BULK_MAX) {
      await this.ledger.executeBulk(this.transfers.slice(start, start + BULK_MAX), this.trx);
    }
    await saveOrders(this.trx, [...this.inserted.values(), ...this.updated.values()]);
    await insertTrades(this.trx, this.trades);
    await insertCommissions(this.trx, this.commissionRows);
  }

  private change(account: AccountRef, asset: string, delta: Dec): void {
    const key = accountMapKeyOf(account, asset);
    this.deltas.set(key, (this.deltas.get(key) ?? Dec.ZERO).add(delta));
  }
}
