/**
 * The projector (docs/core.md, "The projector"): writes SQL behind the
 * sequencer, in batches, each with its writer's watermark, on the
 * sequencer's thread or in a worker thread, with a bound that pauses the
 * sequencer's intake; catches up after a crash from recovery's replay;
 * audits the ledger's projection against the money state.
 */
export {
  auditLedgerProjection,
  auditLedgerProjectionOnDisk,
  type LedgerStateSource,
  type ProjectionAudit,
} from './audit.ts';
export {
  type ProjectionSource,
  ProjectionTimeoutError,
  Projector,
  type ProjectorOptions,
  ProjectorStoppedError,
  type ProjectorTuning,
} from './projector.ts';
export { catchUpAll, journalTruncationBound, pruneAndTruncate, startProjected } from './start.ts';
export { watermarkStore } from './store.ts';
export { openWorkerProjector, type WorkerProjectorOptions, type WorkerStore } from './worker-transport.ts';
export type { ProjectionWriter, ProjectionWriterSpec } from './writer.ts';
export { wireOf } from './writer.ts';
