import { describe, expect, it } from 'vitest';
import { followMarketChanges, type MarketChange, type MarketNotices } from './changes.ts';

/** One channel in memory, as NATS gives every gateway (cluster/notices.ts): each notice reaches every listener. */
function channel() {
  const listeners = new Set<Parameters<MarketNotices['listen']>[0]>();
  const notices: MarketNotices = {
    publish: (change) => {
      for (const listener of listeners) listener.notice(change);
    },
    listen: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
  const deaf = (isDeaf: boolean) => {
    for (const listener of listeners) listener.deaf(isDeaf);
  };
  return { notices, deaf };
}

describe('the cycle pairs of the other gateways', () => {
  it('are read again on each change, and after notices may have been lost', async () => {
    const { notices, deaf } = channel();
    let loads = 0;
    const load = async () => {
      loads += 1;
    };
    const stop = followMarketChanges(notices, { load }, (error) => {
      throw error;
    });
    const change: MarketChange = { kind: 'cycle', id: 3 };
    notices.publish(change);
    expect(loads).toBe(1);
    deaf(true);
    expect(loads).toBe(1);
    deaf(false);
    expect(loads).toBe(2);
    stop();
    notices.publish(change);
    expect(loads).toBe(2);
  });
});
