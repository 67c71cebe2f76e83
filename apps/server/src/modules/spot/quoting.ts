import { Dec } from '@halyard/money';
import type { IndexPriceSource } from '../../market/index.ts';

/** A price level the house wants to quote. */
export interface WantedQuote {
  side: 'buy' | 'sell';
  price: Dec;
}

/**
 * The house's market makers (spot and futures, DESIGN §6): each index tick
 * requotes every market; a market still busy with its previous requote is
 * skipped, so slow markets never pile work up.
 */
export abstract class TickQuoter<Market> {
  private readonly running = new Map<number, Promise<void>>();
  private unsubscribe: (() => void) | null = null;

  protected constructor(
    private readonly index: IndexPriceSource,
    protected readonly onError: (error: unknown) => void,
  ) {}

  /** The markets to quote, each with its id. */
  protected abstract markets(): Iterable<readonly [number, Market]>;
  protected abstract requote(market: Market): Promise<void>;

  start(): void {
    if (this.unsubscribe) return;
    this.unsubscribe = this.index.subscribe(() => {
      this.requoteAll().catch(this.onError);
    });
  }

  async stop(): Promise<void> {
    this.unsubscribe?.();
    this.unsubscribe = null;
    await Promise.all(this.running.values());
  }

  /** One requote of every market; one still busy with the previous requote is skipped. */
  async requoteAll(): Promise<void> {
    await Promise.all(
      [...this.markets()].map(([id, market]) => {
        const busy = this.running.get(id);
        if (busy) return busy;
        const run = this.requote(market)
          .catch(this.onError)
          .finally(() => this.running.delete(id));
        this.running.set(id, run);
        return run;
      }),
    );
  }
}

/**
 * Brings the house's resting orders in one market to the wanted levels, with
 * at most `changesMax` cancels plus placements: stale levels are cancelled
 * first, so new quotes never meet the house's own old ones; then the missing
 * levels are placed. A failed cancel or placement is reported and the rest go on.
 */
export async function reconcileQuotes<
  Quote extends WantedQuote,
  Row extends { type: string; price: string | null },
>(work: {
  wanted: readonly Quote[];
  resting: readonly Row[];
  changesMax: number;
  cancel(row: Row): Promise<unknown>;
  place(quote: Quote): Promise<unknown>;
  onError(error: unknown): void;
}): Promise<void> {
  const wantedKeys = new Set(work.wanted.map((quote) => levelKey(quote.side, quote.price)));
  const restingKey = (row: Row) => levelKey(row.type, Dec.parse(row.price ?? '0'));
  const restingKeys = new Set(work.resting.map(restingKey));
  let changesLeft = work.changesMax;
  for (const row of work.resting) {
    if (changesLeft <= 0) return;
    if (wantedKeys.has(restingKey(row))) continue;
    changesLeft -= 1;
    await work.cancel(row).catch(work.onError);
  }
  const missing = work.wanted
    .filter((quote) => !restingKeys.has(levelKey(quote.side, quote.price)))
    .slice(0, changesLeft);
  await Promise.all(missing.map((quote) => work.place(quote).catch(work.onError)));
}

function levelKey(side: string, price: Dec): string {
  return `${side}:${price}`;
}
