import type { Clock } from '../../clock.ts';
import { closeToleranceMs } from '../../core/state/cycle-rules.ts';
import type { CycleSettleCommand, MoneyEvent } from '../../core/state/index.ts';
import type { IndexPriceSource, IndexTick } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Db } from '../../store/database.ts';
import type { CycleSettlement } from './settlement.ts';
import { type OrderRow, type SettledOrder, selectSettledOrders } from './store.ts';

/**
 * Recorded ticks one call sends at most per coin (TIGER_STYLE: every loop has
 * a bound). Only the ticks since the state's latest one, back to the earliest
 * due expiry, are sent: a few, unless the index ticked for hours with orders
 * due and nothing settling them.
 */
const TICKS_MAX = 100_000;

export interface CoreSettlementOptions {
  core: MoneyCoreHandle;
  db: Db;
  clock: Clock;
  index: IndexPriceSource;
}

/**
 * Cycle settlement on the sequenced core (issue 19, docs/core.md "The
 * cut-over"): the money state holds the open orders and settles them on
 * `cycleSettle` commands, with the rules the SQL engine uses
 * (core/state/cycle.ts); the projector writes the rows behind.
 *
 * The state closes an instant at the latest tick it was sent at or before
 * it, so it must be sent the recorded history: a call sends, in time order,
 * the ticks recorded since the state's latest one, back to the earliest due
 * expiry (a coin with nothing due is sent nothing), then a cut with no new
 * tick at `cut` for what is due after the last tick, as the SQL engine reads
 * `priceAt` of each instant up to `cut`. So the same orders settle at the
 * same closes, by hand, on each tick (start) and at start after the server
 * was down. Calls run one after another, so ticks are sent once, in order.
 */
export class CoreSettlement implements CycleSettlement {
  private running: Promise<unknown> = Promise.resolve();
  private readonly toleranceMs: number;
  /** The orders each settle command settled, by its sequence, until the call that sent it takes them. */
  private readonly settledBySeq = new Map<number, number[]>();
  private readonly unsubscribe: () => void;

  constructor(private readonly options: CoreSettlementOptions) {
    this.toleranceMs = closeToleranceMs(options.index.tickMs);
    this.unsubscribe = options.core.sequencer.subscribe((published) => {
      for (const { seq, events } of published) {
        const settled = settledIdsOf(events);
        if (settled.length > 0) this.settledBySeq.set(seq, settled);
      }
    });
  }

  /** The state holds the open orders: nothing to read. */
  async load(): Promise<void> {}

  get full(): boolean {
    return this.open.full;
  }

  get openCount(): number {
    return this.open.size;
  }

  openOf(userId: number, pairId: number | null): OrderRow[] {
    return this.open.ofUser(userId, pairId);
  }

  settleDue(cut: number, coin: string | null = null): Promise<SettledOrder[]> {
    const run = this.running.then(() => this.settleAll(cut, coin));
    this.running = run.catch(() => undefined);
    return run;
  }

  async idle(): Promise<void> {
    await this.running;
  }

  async close(): Promise<void> {
    await this.idle();
    this.unsubscribe();
  }

  private get open() {
    return this.options.core.state.cycle.open;
  }

  /** Sends each due coin's ticks and cut; answers the orders settled, from SQL once it holds them. */
  private async settleAll(cut: number, coin: string | null): Promise<SettledOrder[]> {
    const settled: number[] = [];
    let last = 0;
    for (const name of coin === null ? this.open.coins() : [coin]) {
      const earliest = this.open.earliestExpiry(name);
      if (earliest === null || earliest > cut) continue;
      for (const tick of await this.unsentTicks(name, cut, earliest)) {
        last = await this.send(
          { coin: name, price: tick.price.toString(), ts: tick.ts, source: tick.source },
          settled,
        );
      }
      // What is due after the last recorded tick closes at it (or is void): the record up to `cut` is final.
      if ((this.open.earliestExpiry(name) ?? Number.POSITIVE_INFINITY) <= cut)
        last = await this.send({ coin: name, ts: cut }, settled);
    }
    if (last === 0) return [];
    await this.options.core.readable(last);
    return selectSettledOrders(this.options.db, settled);
  }

  /**
   * The ticks of `coin` recorded after the state's latest one and up to
   * `cut`, oldest first, from the one at or before the earliest due expiry
   * on (the earlier ones close nothing still open).
   */
  private async unsentTicks(coin: string, cut: number, earliest: number): Promise<IndexTick[]> {
    const sent = this.options.core.state.cycle.lastTicks.get(coin)?.ts ?? Number.NEGATIVE_INFINITY;
    const ticks: IndexTick[] = [];
    let tick = await this.options.index.priceAt(coin, cut);
    while (tick !== null && tick.ts > sent) {
      if (ticks.length === TICKS_MAX)
        throw new Error(`cycle: more than ${TICKS_MAX} ticks of ${coin} unsent`);
      ticks.push(tick);
      if (tick.ts <= earliest) break;
      tick = await this.options.index.priceAt(coin, tick.ts - 1);
    }
    return ticks.reverse();
  }

  /** Submits one settle command, stamped with the clock; adds the orders it settled to `settled`. Answers its sequence. */
  private async send(
    tick: Pick<CycleSettleCommand, 'coin' | 'price' | 'ts' | 'source'>,
    settled: number[],
  ): Promise<number> {
    const command: CycleSettleCommand = {
      kind: 'cycleSettle',
      at: this.options.clock.now(),
      ...tick,
      toleranceMs: this.toleranceMs,
    };
    const { result, seq } = await this.options.core.submit(command);
    // Only a malformed command is refused: a bug of this edge, not the user's.
    if (!result.ok) throw new Error(`cycle: the state refused a settlement (${result.error})`);
    for (const orderid of this.settledBySeq.get(seq) ?? []) settled.push(orderid);
    this.settledBySeq.delete(seq);
    return seq;
  }
}

function settledIdsOf(events: readonly MoneyEvent[]): number[] {
  const ids: number[] = [];
  for (const event of events)
    if (event.type === 'cycleSettled')
      for (const { settlements } of event.atCloses) for (const row of settlements) ids.push(row.orderid);
  return ids;
}
