import type { CycleService } from '../cycle/index.ts';

/**
 * A market changed that the other gateways of a cluster must read again from
 * the store. Only the cycle pairs: spot pairs and futures contracts are in the
 * money state, so each gateway sees theirs change when its replica does.
 */
export interface MarketChange {
  kind: 'cycle';
  id: number;
}

/** The gateways' channel of market changes (cluster/notices.ts); none in one process. */
export interface MarketNotices {
  /** Sent after the change committed; never throws. */
  publish(change: MarketChange): void;
  /** `deaf(false)`: notices arrive again after some may have been lost. Answers the unsubscribe. */
  listen(listener: { notice(change: MarketChange): void; deaf(deaf: boolean): void }): () => void;
}

/**
 * Reads the cycle pairs again on each change another gateway made (this one
 * hears its own too, which reads them once more), and after notices may have
 * been lost. Answers the unsubscribe.
 */
export function followMarketChanges(
  notices: MarketNotices,
  cycle: Pick<CycleService, 'load'>,
  onError: (error: unknown) => void,
): () => void {
  const reload = () => void cycle.load().catch(onError);
  return notices.listen({
    notice: reload,
    deaf: (deaf) => {
      if (!deaf) reload();
    },
  });
}
