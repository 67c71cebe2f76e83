import { Dec } from '@halyard/money';
import {
  type AccountKey,
  type AccountRef,
  BATCH_MAX,
  type Ledger,
  type TransferInput,
} from '../../ledger/index.ts';
import type { Trx } from '../../store/database.ts';
import {
  insertOrders,
  insertTrades,
  type OrderRow,
  selectMaxOrderAutoid,
  type TradeRow,
  updateOrder,
} from './store.ts';

/**
 * The writes of one group of commands, gathered while they run and written
 * once at the end of the group's transaction: the ledger transfers in as few
 * batches as the ledger's bound allows, new orders in multi-row inserts,
 * each touched order updated once, the trades inserted together. This is what
 * makes group commit cheap: a group of 64 orders costs a handful of statements
 * instead of a few dozen per order.
 *
 * The spec's balance check still sees every earlier command of the group: the
 * usable balance of an account is read once (under the ledger's lock) and the
 * group's own holds, deliveries and releases are applied to it in memory. The
 * ledger re-checks everything when the batches are written; if it ever
 * refused, the whole group would roll back.
 */
export class GroupWork {
  private nextAutoid: number;
  private readonly transfers: TransferInput[] = [];
  /** Available balances as stored when the group began, read on first use. */
  private readonly stored = new Map<string, Dec>();
  /** What this group's gathered transfers change in each account's available balance. */
  private readonly deltas = new Map<string, Dec>();
  private readonly inserted = new Map<number, OrderRow>();
  private readonly updated = new Map<number, OrderRow>();
  readonly trades: TradeRow[] = [];

  private constructor(
    readonly trx: Trx,
    private readonly ledger: Ledger,
    lastAutoid: number,
  ) {
    this.nextAutoid = lastAutoid + 1;
  }

  /** Orders are numbered from the store's highest autoid: every writer of orders holds the ledger's lock. */
  static async open(trx: Trx, ledger: Ledger): Promise<GroupWork> {
    return new GroupWork(trx, ledger, await selectMaxOrderAutoid(trx));
  }

  /** What the account can spend now: its stored available balance and this group's changes so far. */
  async available(account: AccountRef, asset: string): Promise<Dec> {
    const key = mapKey({ ...account, asset });
    let stored = this.stored.get(key);
    if (stored === undefined) {
      // Nothing of this group is written before the flush, so the stored balance excludes its changes.
      stored = (await this.ledger.balance({ ...account, asset }, this.trx)).available;
      this.stored.set(key, stored);
    }
    return stored.add(this.deltas.get(key) ?? Dec.ZERO);
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

  /** Writes everything gathered, in order. */
  async flush(): Promise<void> {
    for (let start = 0; start < this.transfers.length; start += BATCH_MAX) {
      await this.ledger.execute(this.transfers.slice(start, start + BATCH_MAX), this.trx);
    }
    await insertOrders(this.trx, [...this.inserted.values()]);
    for (const row of this.updated.values()) {
      await updateOrder(this.trx, row.autoid, {
        unfilled: row.unfilled,
        hold_spent: row.hold_spent,
        deal_amount: row.deal_amount,
        deal_money: row.deal_money,
        fee: row.fee,
        state: row.state,
        cancel_reason: row.cancel_reason,
        updated_at: row.updated_at,
      });
    }
    await insertTrades(
      this.trx,
      this.trades.map(({ autoid: _autoid, ...trade }) => trade),
    );
  }

  private change(account: AccountRef, asset: string, delta: Dec): void {
    const key = mapKey({ ...account, asset });
    this.deltas.set(key, (this.deltas.get(key) ?? Dec.ZERO).add(delta));
  }
}

function mapKey(key: AccountKey): string {
  return `${String(key.owner)}|${key.wallet}|${key.asset}`;
}
