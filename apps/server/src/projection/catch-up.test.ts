import { describe, expect, it } from 'vitest';
import { openFileJournal, openSnapshotStore } from '../core/journal/index.ts';
import { useTempDirs } from '../core/journal/test-support.ts';
import {
  inlineSnapshotSink,
  ProjectionAheadError,
  type Published,
  recover,
  Sequencer,
} from '../core/sequencer/index.ts';
import { takeCommands } from '../core/state/command-stream.ts';
import { type MoneyEvent, moneyMachine } from '../core/state/index.ts';

/**
 * Recovery's catch-up hook alone (no database): the events it derives again
 * above a watermark are exactly those the live sequencer published, from a
 * snapshot at or below the watermark even when a newer one exists.
 */
const tempDir = useTempDirs();
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });

describe("recovery's catch-up", () => {
  it('delivers every event above the watermark, as published live, replaying from a snapshot at or below it', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(`${dir}/journal`);
    const snapshots = openSnapshotStore(`${dir}/snapshots`);
    const sequencer = new Sequencer({
      machine,
      journal,
      snapshots: inlineSnapshotSink(snapshots),
      start: { state: machine.initialState(), seq: 0 },
    });
    const live: Published<MoneyEvent>[] = [];
    const throughs: number[] = [];
    sequencer.subscribe((published, through) => {
      live.push(...published);
      throughs.push(through);
    });
    const commands = takeCommands({ seed: 20_261_130, users: 100, traders: 10 }, 3_000);
    const taken: number[] = [];
    for (let start = 0; start < commands.length; start += 1_000) {
      await Promise.all(commands.slice(start, start + 1_000).map((command) => sequencer.submit(command)));
      taken.push(await sequencer.snapshot());
    }
    await sequencer.close();
    // Every batch was published, those without events too: the last `through` is the last sequence.
    expect(throughs.at(-1)).toBe(3_000);
    expect(taken).toEqual([1_000, 2_000, 3_000]);

    const watermark = 1_500;
    const delivered: Published<MoneyEvent>[] = [];
    const deliveredThroughs: number[] = [];
    const recovered = await recover(machine, journal, snapshots, {
      after: watermark,
      async deliver(published, through) {
        delivered.push(...published);
        deliveredThroughs.push(through);
      },
    });
    expect(recovered.snapshotSeq).toBe(1_000);
    expect(recovered.seq).toBe(3_000);
    expect(delivered).toEqual(live.filter((entry) => entry.seq > watermark));
    expect(delivered.length).toBeGreaterThan(500);
    expect(deliveredThroughs.at(-1)).toBe(3_000);
    expect(deliveredThroughs).toEqual([...deliveredThroughs].sort((a, b) => a - b));

    // Without a snapshot at or below the watermark, replay starts from nothing.
    const fromZero = await recover(machine, journal, snapshots, {
      after: 999,
      deliver: async () => undefined,
    });
    expect(fromZero.snapshotSeq).toBe(0);
    // Without catch-up, the newest snapshot.
    expect((await recover(machine, journal, snapshots)).snapshotSeq).toBe(3_000);
    // A watermark past the journal belongs to another journal.
    await expect(
      recover(machine, journal, snapshots, { after: 3_001, deliver: async () => undefined }),
    ).rejects.toBeInstanceOf(ProjectionAheadError);
    await journal.close();
  });
});
