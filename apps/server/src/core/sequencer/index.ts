/**
 * The sequencer (docs/core.md): commands in, journaled before any reply,
 * applied one after another by a deterministic machine; snapshots read
 * without stopping it; start-up from the latest snapshot and a replay.
 */
export {
  CommandThrewError,
  ProjectionAheadError,
  SequencerBusyError,
  SequencerStoppedError,
  SnapshotAheadError,
} from './errors.ts';
export { type Applied, type Machine, type StateCapture, step } from './machine.ts';
export { type CatchUp, type Recovered, recover } from './recover.ts';
export { type Listener, type Published, Sequencer, type SequencerOptions } from './sequencer.ts';
export {
  inlineSnapshotSink,
  type SnapshotSink,
  type SnapshotWriter,
  workerSnapshotSink,
} from './snapshot-sink.ts';
export { type StartedSequencer, startFromDisk } from './start.ts';
export { type MapCapture, TrackedMap } from './tracked-map.ts';
