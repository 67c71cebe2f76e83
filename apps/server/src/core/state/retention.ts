/**
 * How long the state remembers ids (transfer ids, command ids) so that a
 * retry is answered instead of repeated: a bounded window of sequences.
 *
 * Sequences are cut into epochs of `epochSeqs`; an id belongs to the epoch
 * of the command that added it. Epochs older than the newest `epochsKept`
 * are forgotten, so an id is remembered for at least
 * (epochsKept − 1) × epochSeqs commands. Forgetting is spread out: each
 * command forgets at most DROPS_PER_COMMAND ids, oldest first, so that no
 * command pays for a whole epoch (a bulk of deposits can put a million ids
 * in one). It depends only on sequences, so replay forgets exactly what the
 * live run forgot.
 */
export interface RetentionPolicy {
  epochSeqs: number;
  epochsKept: number;
}

/** About 200,000 to 260,000 commands: retries come within seconds; the SQL projection keeps every id for good. */
export const DEFAULT_RETENTION: RetentionPolicy = { epochSeqs: 65_536, epochsKept: 4 };

/**
 * Several times what a command adds on average (a few ids), so the expired
 * epochs drain; a few microseconds a command, so a turn of a thousand
 * commands is not slowed much while they do.
 */
const DROPS_PER_COMMAND = 32;

/**
 * `Entry`: what the window keeps per id; the transfers' window keeps the
 * transfer itself (an immutable value, the one the ledger holds under its
 * id), so that forgetting one needs no lookup to learn what it was.
 */
export class RetentionWindow<Entry = string> {
  /** Entries by epoch, oldest epoch first (epochs are created in increasing order). */
  readonly epochs = new Map<number, Entry[]>();
  /** How many ids of the oldest epoch were already forgotten (it is being drained). */
  drained = 0;

  constructor(readonly policy: RetentionPolicy) {}

  epochOf(seq: number): number {
    return Math.floor(seq / this.policy.epochSeqs);
  }

  add(entry: Entry, seq: number): void {
    this.addToEpoch(this.epochOf(seq), entry);
  }

  /** Epochs must be added oldest first (a snapshot being loaded does). */
  addToEpoch(epoch: number, entry: Entry): void {
    let entries = this.epochs.get(epoch);
    if (!entries) {
      entries = [];
      this.epochs.set(epoch, entries);
    }
    entries.push(entry);
  }

  /**
   * Forgets up to DROPS_PER_COMMAND ids of the epochs too old at `seq`, in
   * the order they were added. `drop(entry)` forgets its id and answers true,
   * or answers false to keep it (an open hold's transfer): it then moves to
   * the current epoch.
   */
  expire(seq: number, drop: (entry: Entry) => boolean): void {
    const current = this.epochOf(seq);
    const oldestKept = current - this.policy.epochsKept + 1;
    let budget = DROPS_PER_COMMAND;
    for (const [epoch, entries] of this.epochs) {
      if (epoch >= oldestKept || budget === 0) return;
      const end = Math.min(entries.length, this.drained + budget);
      for (let index = this.drained; index < end; index++) {
        const entry = entries[index]!;
        if (!drop(entry)) this.addToEpoch(current, entry);
      }
      budget -= end - this.drained;
      this.drained = end;
      if (end < entries.length) return;
      this.epochs.delete(epoch);
      this.drained = 0;
    }
  }
}
