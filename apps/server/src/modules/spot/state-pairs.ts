import type { MoneyCoreHandle } from '../../money-core/handle.ts';

/**
 * Calls `changed` after each batch the core applies in which a pair of the
 * state is new or has new settings. Every listing and every change of a
 * pair's settings is an `openPair`, which every replica of a cluster applies,
 * so a gateway hears of them whichever gateway made them. A trade replaces
 * the pair's state too (its last price) but keeps its `config`, so the
 * config's identity is what is compared: a trade must not send every
 * gateway back to the store. Answers the unsubscribe.
 */
export function onStatePairsChanged(core: Pick<MoneyCoreHandle, 'state' | 'sequencer'>, changed: () => void) {
  const seen = new Map([...core.state.pairs].map(([symbol, pair]) => [symbol, pair.config]));
  return core.sequencer.subscribe(() => {
    let any = false;
    for (const [symbol, pair] of core.state.pairs) {
      if (seen.get(symbol) === pair.config) continue;
      seen.set(symbol, pair.config);
      any = true;
    }
    if (any) changed();
  });
}
