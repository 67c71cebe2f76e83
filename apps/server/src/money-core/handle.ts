import type { Sequencer } from '../core/sequencer/index.ts';
import type { MoneyCommand, MoneyEvent, MoneyResult, MoneyState } from '../core/state/index.ts';

/** A command's answer, and the sequence it was journaled and published under. */
export interface Submitted {
  result: MoneyResult;
  seq: number;
}

/**
 * The sequenced core as the modules use it (issue 19's cut-over): submit a
 * command, wait until SQL holds it, read the state, follow the durable
 * events. The running core (`MoneyCore`, start.ts) is one; the modules import
 * only this, never the composition, which imports their projection writers.
 */
export interface MoneyCoreHandle {
  /** The state as applied so far (ahead of what is durable by the batches being written). */
  readonly state: MoneyState;
  readonly sequencer: Pick<
    Sequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>,
    'subscribe' | 'lastSequence' | 'queued'
  >;
  /** Applies a command; answers once it is durable, with the sequence it was journaled and published under. */
  submit(command: MoneyCommand): Promise<Submitted>;
  /** Resolves once SQL holds what sequence `seq` did (read-your-writes); rejects past the bound. */
  projected(seq: number): Promise<void>;
  /** What a reply to a durable command waits for: SQL holding it; never rejects (see MoneyCore.readable). */
  readable(seq: number): Promise<void>;
  /**
   * A reply to `userId` went out before SQL held sequence `seq` (a spot
   * order answered from its own events): that user's next request waits for
   * it (`caughtUp`).
   */
  answeredAhead(userId: number, seq: number): void;
  /** Resolves once SQL holds every command answered ahead to `userId` (read-your-writes); never rejects, as `readable`. */
  caughtUp(userId: number): Promise<void>;
}
