import { describe, expect, it } from 'vitest';
import type { JournalRecord } from '../journal/index.ts';
import { type Published, recover, step } from '../sequencer/index.ts';
import { takeCommands } from './command-stream.ts';
import { type MoneyEvent, moneyMachine, moneyStateHash } from './index.ts';

/**
 * Replay without events (Machine.apply's `emit`): below the projectors'
 * watermark recovery builds no events, and that must change nothing else —
 * the same results and the same state, command by command, over the seeded
 * stream with spot orders, fees in HAL and referral commissions.
 */
const COMMANDS = 6_000;
const SEED = 19_000_019;
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });
const commands = takeCommands({ seed: SEED, users: 300, traders: 30, referral: true }, COMMANDS);

describe('replay without events', () => {
  it('gives the same results and state hashes as with them, and builds no events', () => {
    const withEvents = machine.initialState();
    const without = machine.initialState();
    const kinds = new Set<string>();
    let halFees = 0;
    commands.forEach((command, index) => {
      const seq = index + 1;
      const full = step(machine, withEvents, command, seq, true);
      const bare = step(machine, without, command, seq, false);
      for (const event of full.events) {
        kinds.add(event.type);
        if (
          event.type === 'spotTrade' &&
          [event.trade.buyerFeeCoin, event.trade.sellerFeeCoin].includes('HAL')
        )
          halFees++;
      }
      expect(bare.events, `seq ${seq}`).toEqual([]);
      expect(bare.result, `seq ${seq}`).toEqual(full.result);
      if (seq % 500 === 0) expect(moneyStateHash(without), `seq ${seq}`).toBe(moneyStateHash(withEvents));
    });
    expect(moneyStateHash(without)).toBe(moneyStateHash(withEvents));
    // The stream must exercise what the flag leaves out: trades, fees in HAL, commissions.
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(['book', 'referralCommissions', 'spotOrderUpdated', 'spotTrade', 'transfers']),
    );
    expect(halFees).toBeGreaterThan(0);
    expect(withEvents.orders.size).toBeGreaterThan(0);
  });

  it('delivers to a catch-up exactly the events of the sequences above its watermark', async () => {
    const live = machine.initialState();
    const liveEvents = new Map<number, MoneyEvent[]>();
    const records: JournalRecord[] = commands.map((command, index) => {
      const seq = index + 1;
      const { events } = step(machine, live, command, seq);
      if (events.length > 0) liveEvents.set(seq, events);
      return { seq, payload: machine.encodeCommand(command) } as JournalRecord;
    });
    const journal = {
      lastSequence: () => records.length,
      async *read(after: number) {
        for (const record of records) if (record.seq > after) yield record;
      },
    };
    const after = Math.floor(COMMANDS * 0.6);
    const delivered: Published<MoneyEvent>[] = [];
    const recovered = await recover(
      machine,
      journal,
      { latest: async () => null },
      { after, deliver: async (published) => void delivered.push(...published) },
    );
    const expected = [...liveEvents].filter(([seq]) => seq > after).map(([seq, events]) => ({ seq, events }));
    expect(expected.length).toBeGreaterThan(100);
    expect(delivered).toEqual(expected);
    expect(moneyStateHash(recovered.state)).toBe(moneyStateHash(live));
  });
});
