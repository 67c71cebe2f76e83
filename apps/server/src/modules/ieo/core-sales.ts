import { randomUUID } from 'node:crypto';
import { CODE } from '@halyard/protocol';
import type { Clock } from '../../clock.ts';
import { ieoAdvanceDue, ieoRebatesDue, ieoReleasesDue } from '../../core/state/ieo-clock.ts';
import type { IeoSaleTerms } from '../../core/state/ieo-rules.ts';
import type { IeoOrderRecord, IeoTrancheRecord, MoneyCommand, MoneyEvent } from '../../core/state/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { OwnEvents } from '../../money-core/submit.ts';

/** The HTTP codes of the state's IEO refusals, as IeoService throws them (the rules' are 400). */
const IEO_CODES: ReadonlyMap<string, number> = new Map([
  ['ieo.projectNotFound', CODE.notFound],
  ['ieo.termsFrozen', CODE.conflict],
  ['ieo.projectCancelled', CODE.conflict],
  ['ieo.notOpen', CODE.conflict],
  ['ieo.ended', CODE.conflict],
]);

type IeoRowsEvent = Extract<MoneyEvent, { type: 'ieo' }>;

function isIeoRows(event: MoneyEvent): event is IeoRowsEvent {
  return event.type === 'ieo';
}

/** An order as a subscription left it, with the tranches it inserted. */
export interface SubscribedOrder {
  order: IeoOrderRecord;
  tranches: IeoTrancheRecord[];
}

/**
 * Token launches on the sequenced core (issue 19's cut-over): what
 * IeoService does with money, as the money state's commands (core/state
 * ieo*.ts), each stamped with the clock, its refusal thrown as the SQL
 * path's AppError. A user's subscription is answered as soon as it is
 * durable, from its own events (the user's next request waits until SQL
 * holds it); an operator's or the clock's command once SQL holds it, as
 * their callers read SQL next without a session guard. IeoService keeps the edge's
 * part: the checks of the terms and of the user, and the project rows
 * (terms, texts: no money): a new sale's written before its terms are
 * sent, an edit's once the state took them.
 */
export class CoreSales {
  /** The edit in flight, which the next one waits for. */
  private edits: Promise<unknown> = Promise.resolve();
  /** The rows each command writes; every IEO command goes through `submit`, which takes them. */
  private readonly rows: OwnEvents<IeoRowsEvent>;

  constructor(
    private readonly core: MoneyCoreHandle,
    private readonly clock: Clock,
  ) {
    this.rows = new OwnEvents(core, isIeoRows);
  }

  /**
   * A new sale's terms or an edit's (`ieoSale`): the state funds the
   * project, or replaces its funding, and advances it. Answers whether the
   * state cancelled it instead (an open sale's terms are frozen).
   */
  async sale(
    sale: { projectId: number; terms: IeoSaleTerms; salt: string },
    why: { fundWhy: string; defundWhy: string },
  ): Promise<{ cancelled: boolean }> {
    const result = await this.submit({ kind: 'ieoSale', ...sale, ...why, at: this.clock.now() });
    if (result.ieoDistributing) await this.advance(sale.projectId);
    return { cancelled: result.ieoCancelled === true };
  }

  /**
   * An operator's edit of a sale not open yet: its new terms (`ieoSale`, with
   * fresh funding ids), then `writeRow` (the row's terms) unless the state
   * cancelled the sale instead. Edits run one at a time, so the row ends with
   * the terms the state took last.
   */
  edit(sale: { projectId: number; terms: IeoSaleTerms; salt: string }, writeRow: () => Promise<void>) {
    const run = async () => {
      const outcome = await this.sale(sale, { fundWhy: randomUUID(), defundWhy: randomUUID() });
      if (!outcome.cancelled) await writeRow();
      return outcome;
    };
    const next = this.edits.then(run, run);
    this.edits = next.catch(() => undefined);
    return next;
  }

  /** The clock on one sale (`ieoAdvance`), sent again while the state says it is left distributing (a batch a command). */
  async advance(projectId: number): Promise<void> {
    for (;;) {
      const result = await this.submit({ kind: 'ieoAdvance', projectId, at: this.clock.now() });
      if (!result.ieoDistributing) return;
    }
  }

  async cancel(projectId: number): Promise<void> {
    await this.submit({ kind: 'ieoCancelSale', projectId, at: this.clock.now() });
  }

  /**
   * A subscription the edge found eligible, answered as soon as it is
   * durable: the order it made or added to and the tranches it inserted, as
   * its own events left them. A commitment added to an order of an earlier
   * subscription updates only the amount and the holds: the order's other
   * fields are the state's, which only the sale's end or cancel changes.
   */
  async subscribe(
    userId: number,
    input: { projectId: number; paycoin: string; amount: string },
  ): Promise<SubscribedOrder> {
    const command = { kind: 'ieoSubscribe', userId, ...input, at: this.clock.now() } as const;
    const { result, events } = await this.rows.submit(userId, command, IEO_CODES);
    const id = result.ieoOrderId!;
    let order: IeoOrderRecord | undefined;
    const tranches: IeoTrancheRecord[] = [];
    for (const op of events.flatMap((event) => event.ops)) {
      if (op.op === 'insertOrder' && op.row.id === id) order = { ...op.row };
      else if (op.op === 'updateOrder' && op.id === id)
        order = { ...(order ?? this.core.state.ieo.orders.get(id)!), ...op.set };
      else if (op.op === 'insertTranches') tranches.push(...op.rows.filter((row) => row.order_id === id));
    }
    if (!order) throw new Error(`ieo: the subscription wrote no order ${id}`);
    return { order, tranches };
  }

  /**
   * The module's tick: every sale the clock has passed advanced, then the
   * rebates that became payable, then the tranches that are due. Each
   * command is sent only when the state has something for it to do, so an
   * idle tick journals nothing.
   */
  async tick(): Promise<void> {
    const sales = [...this.core.state.ieo.sales.values()];
    for (const sale of sales) if (ieoAdvanceDue(sale, this.clock.now())) await this.advance(sale.projectId);
    if (ieoRebatesDue(this.core.state)) await this.submit({ kind: 'ieoPayRebates', at: this.clock.now() });
    const now = this.clock.now();
    if (ieoReleasesDue(this.core.state, now)) await this.submit({ kind: 'ieoRelease', at: now });
  }

  /** An operator's or the clock's command, answered once SQL holds it. */
  private async submit(command: MoneyCommand) {
    return (await this.rows.submit(null, command, IEO_CODES)).result;
  }
}
