import { describe, expect, it } from 'vitest';
import { step } from '../core/sequencer/index.ts';
import { takeCommands } from '../core/state/command-stream.ts';
import { type MoneyEvent, moneyMachine } from '../core/state/index.ts';
import { moneyProjection } from '../money-core/writers.ts';
import { wireOf } from '../projection/writer.ts';
import { SYSTEM_OWNER } from './accounts.ts';
import { ledgerProjection } from './projection.ts';
import type { TransferType } from './transfers.ts';

/** The `transfers` events a seeded stream of mixed money commands publishes. */
function publishedTransfers(): Extract<MoneyEvent, { type: 'transfers' }>[] {
  const machine = moneyMachine();
  const state = machine.initialState();
  const found: Extract<MoneyEvent, { type: 'transfers' }>[] = [];
  takeCommands({ seed: 20_261_128, users: 50, traders: 10 }, 3_000).forEach((command, index) => {
    for (const event of step(machine, state, command, index + 1).events)
      if (event.type === 'transfers') found.push(event);
  });
  return found;
}

describe("the ledger's events on their way to a projection worker", () => {
  const events = publishedTransfers();

  it('come back from a structured clone of their packed form exactly as they were published', () => {
    const types = new Set<TransferType>();
    let systemAccounts = 0;
    for (const event of events) {
      expect(ledgerProjection.revive(structuredClone(ledgerProjection.pack!(event)))).toEqual(event);
      for (const transfer of event.transfers) {
        types.add(transfer.type);
        if (transfer.debit.owner === SYSTEM_OWNER || transfer.credit.owner === SYSTEM_OWNER)
          systemAccounts += 1;
      }
    }
    // The stream reaches every kind of transfer and the house's accounts, so the round trip is tried on each.
    expect([...types].sort()).toEqual(['pending', 'post_pending', 'posted', 'void_pending']);
    expect(systemAccounts).toBeGreaterThan(0);
  });

  it('cross packed through the money projection too, and are revived by the ledger', () => {
    for (const event of events.slice(0, 200))
      expect(moneyProjection.revive(structuredClone(wireOf(moneyProjection, event)))).toEqual(event);
  });
});
