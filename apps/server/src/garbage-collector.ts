import { setFlagsFromString } from 'node:v8';

/**
 * The V8 setting every Halyard process runs with (main.ts calls this first;
 * the core's benches call it too, so they measure what the server runs).
 *
 * No allocation-site pretenuring. V8 allocates straight in the old
 * generation the objects of a code site whose objects once mostly outlived
 * a young collection. The core's state is built that way at a start (a
 * snapshot's million accounts, a replay's first commands), and the same
 * sites then make a command's short-lived values: a trade's legs, a batch's
 * transfers. Dead in the old generation, those keep the young values they
 * point to alive through every scavenge until the next full collection. So
 * each scavenge copied about 6.7 MB instead of 4.2 and took about 37 ms
 * instead of 24 (docs/core.md, "Stop 34"), and a scavenge is most of the
 * longest pause an order sees while a snapshot is written.
 *
 * The flag is read when a collection decides what to pretenure, so setting
 * it at run time, before the state is built, is enough.
 */
export function tuneGarbageCollector(): void {
  setFlagsFromString('--no-allocation-site-pretenuring');
}
