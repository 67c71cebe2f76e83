// The engine's one command queue and its group commit: GROUP_MAX commands in
// one ledger transaction, refusals failing alone, a failed group rolled back.

import type { CommandResult, FuturesCommand, GroupEffects } from '../../core/state/futures-commands.ts';
import { AppError } from '../../http/errors.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { Trx } from '../../store/database.ts';

/** Commands waiting in the futures queue, at most; beyond it orders are refused with `futures.busy`. */
export const QUEUE_MAX = 10_000;
/** Queued commands committed together in one transaction, at most (group commit). */
export const GROUP_MAX = 64;

/** What a command does once its checks passed: refusals are thrown before, never inside. */
export type Execution = () => Promise<CommandResult>;

export interface QueueOptions {
  ledger: Ledger;
  /** A command's checks (a refusal throws an AppError before anything is written), answering what runs it. */
  check(trx: Trx, command: FuturesCommand, effects: GroupEffects): Promise<Execution>;
  /** After a rolled-back group: the in-memory state rebuilt from the store. */
  rolledBack(): Promise<void>;
  /** After a commit, before the commands are answered. */
  committed(effects: GroupEffects): void;
  /** After the commands are answered: the pushes. */
  onCommitted(effects: GroupEffects): void;
  onError(error: unknown): void;
}

interface Job {
  command: FuturesCommand;
  resolve(result: CommandResult): void;
  reject(error: unknown): void;
}

type Outcome = { ok: true; value: CommandResult } | { ok: false; error: AppError };

/**
 * The futures engine's ONE queue, for every contract: commands run one at a
 * time, GROUP_MAX of them in one ledger transaction (group commit). A
 * refusal fails its command alone (it is decided before anything is
 * written); any other error rolls the group back and fails all of it.
 */
export class CommandQueue {
  private readonly jobs: Job[] = [];
  private draining = false;

  constructor(private readonly options: QueueOptions) {}

  /** Commands waiting. */
  get length(): number {
    return this.jobs.length;
  }

  /** Queues a command; answers after its transaction commits. */
  submit(command: FuturesCommand): Promise<CommandResult> {
    if (this.jobs.length >= QUEUE_MAX) return Promise.reject(new AppError('futures.busy', {}, 429));
    return new Promise((resolve, reject) => {
      this.jobs.push({ command, resolve, reject });
      if (!this.draining) void this.drain();
    });
  }

  async idle(): Promise<void> {
    while (this.draining) await new Promise((resolve) => setImmediate(resolve));
  }

  private async drain(): Promise<void> {
    this.draining = true;
    try {
      while (this.jobs.length > 0) await this.runGroup(this.jobs.splice(0, GROUP_MAX));
    } finally {
      this.draining = false;
    }
  }

  private async runGroup(jobs: Job[]): Promise<void> {
    const outcomes: Outcome[] = [];
    const effects: GroupEffects = { contracts: new Set(), trades: [] };
    try {
      await this.options.ledger.transaction(async (trx) => {
        for (const job of jobs) outcomes.push(await this.run(trx, job.command, effects));
      });
    } catch (error) {
      for (const job of jobs) job.reject(error);
      try {
        await this.options.rolledBack();
      } catch (restoreError) {
        this.options.onError(restoreError);
      }
      return;
    }
    this.options.committed(effects);
    jobs.forEach((job, index) => {
      const outcome = outcomes[index]!;
      if (outcome.ok) job.resolve(outcome.value);
      else job.reject(outcome.error);
    });
    try {
      this.options.onCommitted(effects);
    } catch (error) {
      this.options.onError(error);
    }
  }

  private async run(trx: Trx, command: FuturesCommand, effects: GroupEffects): Promise<Outcome> {
    let execution: Execution;
    try {
      execution = await this.options.check(trx, command, effects);
    } catch (error) {
      if (error instanceof AppError) return { ok: false, error };
      throw error;
    }
    return { ok: true, value: await execution() };
  }
}
