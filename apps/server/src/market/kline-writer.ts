import type { MoneyEvent } from '../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../projection/writer.ts';
import { CorePrints, isPrintEvent } from './core-prints.ts';
import { candleKey, PartialBars, writeMerged } from './kline.ts';
import { selectCandlesAt } from './store.ts';

/**
 * The K-lines on the sequenced core (docs/core.md, "The projector"): the
 * prints of a batch's spot trades, futures trades and index prices
 * (core-prints.ts) become partial bars of all eight periods, each merged
 * into its stored bar and written, as the SQL path's aggregator does, with
 * the same functions (kline.ts).
 *
 * Bars are merged rows (read, add, write), so writing a print twice would
 * count it twice. The projector rules that out: the rows and its watermark
 * commit together, and a batch is written again only after its transaction
 * rolled back. So the writer keeps no bar between batches (a cache filled
 * by a rolled-back attempt would count that attempt's prints on the retry):
 * each batch reads the stored bars it touches, inside the projector's
 * transaction.
 */
export function klineProjectionWriter(): ProjectionWriter<MoneyEvent> {
  const prints = new CorePrints();
  return {
    name: 'klines',
    async write(trx, published) {
      const partials = new PartialBars();
      for (const { kind, pair, print } of await prints.of(trx, published)) partials.record(kind, pair, print);
      const bars = [...partials.take().values()];
      if (bars.length === 0) return;
      const stored = new Map(
        (await selectCandlesAt(trx, bars)).map((bar) => [candleKey(bar, bar.start), bar]),
      );
      await writeMerged(trx, bars, async (partial) => stored.get(candleKey(partial, partial.start)) ?? null);
    },
  };
}

/** The K-line writer as a worker builds it (openWorkerProjector): its events are plain data, needing no reviving. */
export const klineProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'klines',
  module: import.meta.url,
  exportName: 'klineProjection',
  create: () => klineProjectionWriter(),
  reads: isPrintEvent,
  revive: (event) => event,
};
