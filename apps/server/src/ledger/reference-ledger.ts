import { accountMapKeyOf, mayGoNegative } from './accounts.ts';
import { LEDGER_ERRORS, type LedgerErrorKey } from './errors.ts';
import type { TransferInput } from './transfers.ts';

/**
 * A deliberately naive ledger in memory: the oracle of the property test
 * (exchange-core keeps such a reference beside its fast engine). It works on
 * bigint units, applies a batch step by step and undoes the steps when one is
 * refused. It shares no code with `plan.ts` except the account policy.
 */

export interface ReferenceTotals {
  debitsPosted: bigint;
  creditsPosted: bigint;
  debitsPending: bigint;
  creditsPending: bigint;
}

interface ReferenceHold {
  remaining: bigint;
  state: 'open' | 'posted' | 'voided';
  debit: string;
  credit: string;
}

export class ReferenceLedger {
  readonly accounts = new Map<string, ReferenceTotals & { mayGoNegative: boolean }>();
  readonly holds = new Map<string, ReferenceHold>();
  /** Committed transfer ids with the request that made them. */
  private readonly committed = new Map<string, string>();

  /** 'ok' or the key of the refusal the real ledger must give. */
  execute(batch: readonly TransferInput[]): 'ok' | LedgerErrorKey {
    const undo: (() => void)[] = [];
    for (const input of batch) {
      const outcome = this.step(input, undo);
      if (outcome !== 'ok') {
        for (const revert of undo.reverse()) revert();
        return outcome;
      }
    }
    return 'ok';
  }

  available(key: string): bigint {
    const account = this.accounts.get(key);
    return account ? account.creditsPosted - account.debitsPosted - account.debitsPending : 0n;
  }

  private step(input: TransferInput, undo: (() => void)[]): 'ok' | LedgerErrorKey {
    const request = fingerprint(input);
    const previous = this.committed.get(input.id);
    if (previous !== undefined) return previous === request ? 'ok' : LEDGER_ERRORS.idConflict;
    this.committed.set(input.id, request);
    undo.push(() => this.committed.delete(input.id));

    if (input.type === 'post_pending' || input.type === 'void_pending') {
      const hold = this.holds.get(input.pendingId);
      if (!hold) return LEDGER_ERRORS.holdNotFound;
      if (hold.state !== 'open') return LEDGER_ERRORS.holdClosed;
      const amount = input.type === 'post_pending' ? input.amount.units : hold.remaining;
      if (amount > hold.remaining) return LEDGER_ERRORS.exceedsHold;
      const before = { ...hold };
      undo.push(() => Object.assign(hold, before));
      hold.remaining -= amount;
      hold.state = input.type === 'void_pending' ? 'voided' : hold.remaining === 0n ? 'posted' : 'open';
      this.add(hold.debit, 'debitsPending', -amount, undo);
      this.add(hold.credit, 'creditsPending', -amount, undo);
      if (input.type === 'post_pending') {
        this.add(hold.debit, 'debitsPosted', amount, undo);
        this.add(hold.credit, 'creditsPosted', amount, undo);
      }
      return 'ok';
    }

    const debit = accountMapKeyOf(input.debit, input.asset);
    const credit = accountMapKeyOf(input.credit, input.asset);
    this.open(debit, mayGoNegative(input.debit), undo);
    this.open(credit, mayGoNegative(input.credit), undo);
    const amount = input.amount.units;
    if (input.type === 'pending') {
      this.add(debit, 'debitsPending', amount, undo);
      this.add(credit, 'creditsPending', amount, undo);
      this.holds.set(input.id, {
        remaining: amount,
        state: 'open',
        debit,
        credit,
      });
      undo.push(() => this.holds.delete(input.id));
    } else {
      this.add(debit, 'debitsPosted', amount, undo);
      this.add(credit, 'creditsPosted', amount, undo);
    }
    const account = this.accounts.get(debit)!;
    const overdrawn = account.debitsPosted + account.debitsPending > account.creditsPosted;
    return overdrawn && !account.mayGoNegative ? LEDGER_ERRORS.insufficientBalance : 'ok';
  }

  private open(key: string, negativeAllowed: boolean, undo: (() => void)[]): void {
    if (this.accounts.has(key)) return;
    this.accounts.set(key, {
      debitsPosted: 0n,
      creditsPosted: 0n,
      debitsPending: 0n,
      creditsPending: 0n,
      mayGoNegative: negativeAllowed,
    });
    undo.push(() => this.accounts.delete(key));
  }

  private add(key: string, total: keyof ReferenceTotals, amount: bigint, undo: (() => void)[]): void {
    const account = this.accounts.get(key)!;
    account[total] += amount;
    undo.push(() => {
      account[total] -= amount;
    });
  }
}

/** The request as text (amounts through Dec.toJSON), with the defaults filled in. */
function fingerprint(input: TransferInput): string {
  return JSON.stringify({ ...input, type: input.type ?? 'posted', reference: input.reference ?? null });
}
