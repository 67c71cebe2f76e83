import type { Published } from '../core/sequencer/index.ts';
import type { Trx } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';

/**
 * One kind of SQL rows the projector keeps behind the sequencer (the ledger's
 * transfers, spot orders and trades, …). The projector hands it the
 * published events of consecutive sequences, in sequence order, and calls it
 * inside the transaction that also moves the writer's watermark: the rows and
 * the watermark commit together or not at all. So a writer is never given a
 * sequence twice, and never has to look for rows it wrote before.
 *
 * A writer picks out the events it cares about and ignores the rest; a batch
 * may hold none of them. It must not commit, roll back or open a transaction
 * of its own, and it must not keep `trx` after its promise settles. A throw
 * rolls the whole batch back (rows and watermark); the projector retries it.
 */
export interface ProjectionWriter<Event> {
  /**
   * The watermark row's key: stable across restarts, one per writer
   * (`ledger`, `spot`). Renaming it re-projects everything from sequence 0.
   */
  readonly name: string;
  /** Writes the rows of these events, in order, within `trx`. `published` is never empty. */
  write(trx: Trx, published: readonly Published<Event>[]): Promise<void>;
}

/**
 * A writer as a worker thread builds it (projection/worker.ts): the worker
 * imports `module` (a file URL: the defining module's `import.meta.url`) and
 * takes its export `exportName`, which is this object, then calls `create`
 * with its own connection's dialect. Only the events `reads` accepts cross
 * to the worker, by structured clone, which keeps plain data and bigints but
 * drops classes: `revive` makes each one what the writer expects again
 * (a `Dec` from its units, for instance).
 *
 * The clone is paid on the sequencer's thread, by the number of values it
 * copies. A writer whose events are many and large (the ledger's transfers)
 * also has `pack`, which turns an event into fewer, plainer values; `revive`
 * is then given what `pack` made (`Wire`).
 */
export interface ProjectionWriterSpec<Event, Wire = Event> {
  readonly name: string;
  readonly module: string;
  readonly exportName: string;
  create(dialect: DialectName): ProjectionWriter<Event>;
  reads(event: Event): boolean;
  pack?(event: Event): Wire;
  revive(wire: Wire): Event;
}

/** What crosses to a worker for `event`: `spec.pack`'s form of it, or the event itself. */
export function wireOf<Event, Wire>(spec: ProjectionWriterSpec<Event, Wire>, event: Event): Wire | Event {
  return spec.pack ? spec.pack(event) : event;
}

/** A combined spec's wire form of an event whose writer packs it: which of the specs, and what it made. */
interface PackedBy {
  packedBy: number;
  wire: unknown;
}

function isPackedBy(wire: unknown): wire is PackedBy {
  return typeof wire === 'object' && wire !== null && 'packedBy' in wire;
}

/**
 * Several writers as one (`name` its watermark): each batch written by every
 * writer in the order given, in one transaction, so a reader never sees one
 * table ahead of another (an order filled before its trade's balances). Each
 * writer is given only the events it reads; an event is packed and revived
 * by the first spec that reads it, so specs that read the same kind of event
 * must revive it alike (the K-line writer reads spot's and futures' trades,
 * plain data).
 */
export function combinedProjection<Event>(
  name: string,
  module: string,
  exportName: string,
  // Each spec's own wire form is its business: the combined one only hands it back to the spec that made it.
  specs: readonly ProjectionWriterSpec<Event, unknown>[],
): ProjectionWriterSpec<Event, unknown> {
  const readerOf = (event: Event) => specs.findIndex((spec) => spec.reads(event));
  return {
    name,
    module,
    exportName,
    create(dialect) {
      const writers = specs.map((spec) => ({ spec, writer: spec.create(dialect) }));
      return {
        name,
        async write(trx, published) {
          for (const { spec, writer } of writers) {
            const read = published.map(({ seq, events }) => ({ seq, events: events.filter(spec.reads) }));
            if (read.some(({ events }) => events.length > 0)) await writer.write(trx, read);
          }
        },
      };
    },
    reads: (event) => readerOf(event) !== -1,
    pack(event) {
      const reader = readerOf(event);
      const spec = specs[reader]!;
      return spec.pack ? { packedBy: reader, wire: spec.pack(event) } : event;
    },
    revive(wire) {
      if (isPackedBy(wire)) return specs[wire.packedBy]!.revive(wire.wire);
      // Not packed: the structured clone of an event this spec read.
      const event = wire as Event;
      return specs[readerOf(event)]!.revive(event);
    },
  };
}
