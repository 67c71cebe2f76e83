/** The intake queue is full: the command was not taken (nothing was journaled). Retry later. */
export class SequencerBusyError extends Error {
  override readonly name = 'SequencerBusyError';
  constructor(readonly queueMax: number) {
    super(`sequencer busy: ${queueMax} commands already queued`);
  }
}

/**
 * The sequencer stopped for good: its journal failed (the state in memory may
 * be ahead of what is durable), or a machine threw. Restart, which recovers
 * from the snapshot and the journal.
 */
export class SequencerStoppedError extends Error {
  override readonly name: string = 'SequencerStoppedError';
  constructor(cause: unknown) {
    super(`sequencer stopped: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/**
 * What the command that made the machine throw is rejected with (the others
 * of its batch, and every later one, get the plain SequencerStoppedError).
 * It was not journaled, so a restart does not meet it again; but the same
 * command sent again would throw again. A caller that retries commands
 * after a stop (a cluster gateway, on the next leader) must not retry this
 * one, or it stops every sequencer in turn.
 */
export class CommandThrewError extends SequencerStoppedError {
  override readonly name = 'CommandThrewError';
}

/** The latest snapshot holds commands the journal does not: the two directories do not belong together. */
export class SnapshotAheadError extends Error {
  override readonly name = 'SnapshotAheadError';
  constructor(
    readonly snapshotSeq: number,
    readonly journalSeq: number,
  ) {
    super(`snapshot at ${snapshotSeq} is past the journal's last record ${journalSeq}`);
  }
}

/** A projector's watermark is past the journal's last record: its database was projected from another journal. */
export class ProjectionAheadError extends Error {
  override readonly name = 'ProjectionAheadError';
  constructor(
    readonly watermark: number,
    readonly journalSeq: number,
  ) {
    super(`projection watermark ${watermark} is past the journal's last record ${journalSeq}`);
  }
}
