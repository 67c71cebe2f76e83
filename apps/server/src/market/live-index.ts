import { Dec } from '@halyard/money';
import type { MoneyCoreHandle } from '../money-core/handle.ts';
import type { IndexPriceSource, IndexTick } from './index-price.ts';

/**
 * The index every module of this process reads (`market.index`), fed by one
 * of two things (docs/cluster.md, "What the gateways share"):
 *
 * - the index source this process runs (the simulator): its ticks, as it
 *   announces them. One process, or the gateway that holds the jobs lease;
 * - the money state's `indexPrices` events, when another process runs the
 *   source (`follow`): that process sends each tick to the core as a command,
 *   and every replica publishes its event, so every gateway sees the same
 *   prices in the same order, a journal's round trip after the source.
 *
 * It is one object whichever feeds it, so the modules' subscriptions stay
 * in place when the jobs lease moves. Coins, accuracies, the source's name
 * and the history (`priceAt`, read from SQL, where the source records every
 * tick before announcing it) are the source's on every gateway.
 */
export class LiveIndex implements IndexPriceSource {
  private readonly listeners = new Set<(tick: IndexTick) => void>();
  /** The ticks taken from the core while following, by coin. */
  private readonly followed = new Map<string, IndexTick>();
  private stopFollowing: (() => void) | null = null;

  constructor(
    private readonly source: IndexPriceSource,
    private readonly onError: (error: unknown) => void,
  ) {
    source.subscribe((tick) => {
      // A process follows the core or runs the source, never both: a source tick while following is not relayed.
      if (!this.stopFollowing) this.announce(tick);
    });
  }

  get name(): string {
    return this.source.name;
  }

  get quote(): string {
    return this.source.quote;
  }

  get tickMs(): number {
    return this.source.tickMs;
  }

  coins(): readonly string[] {
    return this.source.coins();
  }

  priceAccuracy(coin: string): number | null {
    return this.source.priceAccuracy(coin);
  }

  /** While following: the latest price the core published, else the source's (read from SQL at its load). */
  current(coin: string): IndexTick | null {
    return (this.stopFollowing ? this.followed.get(coin) : undefined) ?? this.source.current(coin);
  }

  priceAt(coin: string, ts: number): Promise<IndexTick | null> {
    return this.source.priceAt(coin, ts);
  }

  subscribe(listener: (tick: IndexTick) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Whether the ticks come from the core's events (`follow`) rather than from this process's source. */
  get following(): boolean {
    return this.stopFollowing !== null;
  }

  /**
   * Takes the ticks from the core's `indexPrices` events from now on (a
   * gateway that does not run the source). The source must not tick here
   * meanwhile: its ticks are not relayed.
   */
  follow(core: Pick<MoneyCoreHandle, 'sequencer'>): void {
    if (this.stopFollowing) return;
    this.followed.clear();
    this.stopFollowing = core.sequencer.subscribe((published) => {
      for (const { events } of published)
        for (const event of events)
          if (event.type === 'indexPrices')
            for (const [coin, price] of event.prices) this.takeFollowed(coin, price, event.at);
    });
  }

  /** Back to the source's ticks (this process takes the jobs lease and runs the source). */
  unfollow(): void {
    this.stopFollowing?.();
    this.stopFollowing = null;
    this.followed.clear();
  }

  private takeFollowed(coin: string, price: string, at: number): void {
    // Coins the source does not price are not the index's, as on the gateway that runs it.
    if (this.source.priceAccuracy(coin) === null) return;
    const tick: IndexTick = { coin, price: Dec.parse(price), ts: at, source: this.source.name };
    this.followed.set(coin, tick);
    this.announce(tick);
  }

  private announce(tick: IndexTick): void {
    for (const listener of this.listeners) {
      try {
        listener(tick);
      } catch (error) {
        this.onError(error);
      }
    }
  }
}
