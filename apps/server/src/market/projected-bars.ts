import type { Published } from '../core/sequencer/index.ts';
import type { MoneyEvent } from '../core/state/index.ts';
import type { MoneyCoreHandle } from '../money-core/handle.ts';
import type { Db } from '../store/database.ts';
import { CorePrints, isPrintEvent } from './core-prints.ts';
import { PartialBars } from './kline.ts';
import { type Candle, type SeriesRef, selectCandlesAt, selectCandlesBefore } from './store.ts';

export interface ProjectedBarsOptions {
  db: Db;
  core: MoneyCoreHandle;
  /** The published prints gather this long before their bars are read and announced. */
  flushDelayMs?: number;
  /** Called with the bars SQL holds after each batch of prints, merged. */
  onWritten: (bars: readonly Candle[]) => void;
  /** Where a failed background read goes; the bars are announced again with the next print that touches them. */
  onError: (error: unknown) => void;
}

/**
 * The K-lines on the sequenced core, as the server's thread sees them: the
 * projector writes the bars (kline-writer.ts), and this follows the core's
 * published events. Every `flushDelayMs` at most, once SQL holds the
 * prints published meanwhile, it reads the bars they touched (one statement
 * per market) and announces them, for the pushes and the tickers. It writes
 * nothing, so the server's thread never waits on the projector's write lock.
 */
export class ProjectedBars {
  private readonly prints = new CorePrints();
  private readonly flushDelayMs: number;
  private readonly unsubscribe: () => void;
  private pending: Published<MoneyEvent>[] = [];
  private timer: NodeJS.Timeout | null = null;
  private announcing: Promise<void> = Promise.resolve();

  constructor(private readonly options: ProjectedBarsOptions) {
    this.flushDelayMs = options.flushDelayMs ?? 100;
    this.unsubscribe = options.core.sequencer.subscribe((published) => this.follow(published));
  }

  /** Resolves once SQL holds what the core has applied so far; never rejects (MoneyCoreHandle.readable). */
  caughtUp(): Promise<void> {
    return this.options.core.readable(this.options.core.sequencer.lastSequence());
  }

  /**
   * Announces the bars of every print published so far, once SQL holds them,
   * and resolves once SQL holds what the core has applied (the catch-up of a
   * start included).
   */
  async flush(): Promise<void> {
    await this.announce();
    await this.caughtUp();
  }

  /** Up to `count` bars of a series starting before `before`, oldest first, with every print the core has applied. */
  async series(series: SeriesRef, count: number, before: number): Promise<Candle[]> {
    await this.caughtUp();
    return selectCandlesBefore(this.options.db, series, before, count);
  }

  /** Stops following the core and announces what it has followed. */
  async close(): Promise<void> {
    this.unsubscribe();
    await this.flush();
  }

  /** The sequencer's listener: keeps the prints' events, never throws. */
  private follow(published: readonly Published<MoneyEvent>[]): void {
    for (const { seq, events } of published) {
      if (events.some(isPrintEvent)) this.pending.push({ seq, events: events.filter(isPrintEvent) });
    }
    if (this.pending.length === 0 || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = null;
      this.announce().catch((error: unknown) => this.options.onError(error));
    }, this.flushDelayMs);
    this.timer.unref();
  }

  /** Announces what is pending now rather than after the delay; one announcement at a time. */
  private announce(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const next = this.announcing.then(() => this.announcePending());
    this.announcing = next.catch(() => undefined);
    return next;
  }

  private async announcePending(): Promise<void> {
    const batch = this.pending;
    this.pending = [];
    if (batch.length === 0) return;
    const touched = new PartialBars();
    for (const { kind, pair, print } of await this.prints.of(this.options.db, batch))
      touched.record(kind, pair, print);
    await this.options.core.readable(batch.at(-1)!.seq);
    const bars = await selectCandlesAt(this.options.db, touched.take().values());
    if (bars.length > 0) this.options.onWritten(bars);
  }
}
