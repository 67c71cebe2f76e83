import type { MoneyCoreHandle } from '../../money-core/handle.ts';

/**
 * Calls `changed` after each batch the core applies in which a pair of the
 * state is new or replaced. Every listing and every change of a pair's
 * settings is an `openPair`, which every replica of a cluster applies, so a
 * gateway hears of them whichever gateway made them. Answers the unsubscribe.
 */
export function onStatePairsChanged(core: Pick<MoneyCoreHandle, 'state' | 'sequencer'>, changed: () => void) {
  const seen = new Map(core.state.pairs);
  return core.sequencer.subscribe(() => {
    let any = false;
    for (const [symbol, pair] of core.state.pairs) {
      if (seen.get(symbol) === pair) continue;
      seen.set(symbol, pair);
      any = true;
    }
    if (any) changed();
  });
}
