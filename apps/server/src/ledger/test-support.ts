import { Dec } from '@halyard/money';
import { expect } from 'vitest';
import type { Executor } from '../store/database.ts';
import { auditLedger } from './audit.ts';
import type { Balance } from './ledger.ts';

/** Shorthand for amounts in tests. */
export const d = (text: string): Dec => Dec.parse(text);

/** A balance as strings, so a failing test prints readable values. */
export function shown(balance: Balance): { available: string; locked: string; total: string } {
  return {
    available: balance.available.toString(),
    locked: balance.locked.toString(),
    total: balance.total.toString(),
  };
}

/** DESIGN §4: the invariants are checked after every ledger test. */
export async function expectHealthyLedger(db: Executor): Promise<void> {
  const report = await auditLedger(db);
  expect(report.breaches).toEqual([]);
}
