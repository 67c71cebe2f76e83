/**
 * How long the state remembers ids (transfer ids, command ids) so that a
 * retry is answered instead of repeated: a bounded window of sequences.
 *
 * Sequences are cut into epochs of `epochSeqs`; an id belongs to the epoch
 * of the command that added it. When a command opens a new epoch, the
 * epochs older than the newest `epochsKept` are dropped whole: an id is
 * remembered for at least (epochsKept − 1) × epochSeqs commands. It depends
 * only on sequences, so replay drops exactly what the live run dropped.
 */
export interface RetentionPolicy {
  epochSeqs: number;
  epochsKept: number;
}

/** About 200,000 to 260,000 commands: retries come within seconds; the SQL projection keeps every id for good. */
export const DEFAULT_RETENTION: RetentionPolicy = { epochSeqs: 65_536, epochsKept: 4 };

export class RetentionWindow {
  /** Ids by epoch, oldest epoch first (epochs are created in increasing order). */
  readonly epochs = new Map<number, string[]>();

  constructor(readonly policy: RetentionPolicy) {}

  epochOf(seq: number): number {
    return Math.floor(seq / this.policy.epochSeqs);
  }

  add(id: string, seq: number): void {
    this.addToEpoch(this.epochOf(seq), id);
  }

  /** Epochs must be added oldest first (a snapshot being loaded does). */
  addToEpoch(epoch: number, id: string): void {
    this.idsOf(epoch).push(id);
  }

  /**
   * Drops the epochs too old at `seq`, id by id in the order they were added.
   * `drop(id)` forgets the id and answers true, or answers false to keep it
   * (an open hold's transfer): it then moves to the current epoch.
   */
  expire(seq: number, drop: (id: string) => boolean): void {
    const current = this.epochOf(seq);
    const oldestKept = current - this.policy.epochsKept + 1;
    for (const [epoch, ids] of this.epochs) {
      if (epoch >= oldestKept) return;
      this.epochs.delete(epoch);
      let into: string[] | null = null;
      for (const id of ids) {
        if (drop(id)) continue;
        into ??= this.idsOf(current);
        into.push(id);
      }
    }
  }

  private idsOf(epoch: number): string[] {
    let ids = this.epochs.get(epoch);
    if (!ids) {
      ids = [];
      this.epochs.set(epoch, ids);
    }
    return ids;
  }
}
