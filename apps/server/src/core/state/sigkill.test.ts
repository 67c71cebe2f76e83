import { describe, expect, it } from 'vitest';
import { childBundle } from '../../child-bundles.ts';
import { openFileJournal, openSnapshotStore } from '../journal/index.ts';
import { runUntilKilled, useTempDirs } from '../journal/test-support.ts';
import { recover, step } from '../sequencer/index.ts';
import { prng } from './command-stream.ts';
import { moneyMachine, moneyStateHash } from './index.ts';

const tempDir = useTempDirs();
const ROUNDS = 6;
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });

describe('kill -9 while commands flow', () => {
  const seed = 20_261_127;
  it(`keeps every acknowledged command exactly once, and recovers the state a fresh replay gives (${ROUNDS} kills, seed ${seed})`, async () => {
    const random = prng(seed);
    const child = await childBundle('src/core/state/sigkill-child.ts');
    const dir = await tempDir();
    const acknowledged: string[] = [];
    for (let round = 1; round <= ROUNDS; round++)
      acknowledged.push(
        ...(await runUntilKilled(
          child,
          [dir, String(round)],
          (line) => line.startsWith('r'),
          300 + random(1_500),
        )),
      );

    const journal = await openFileJournal(`${dir}/journal`);
    const journaled = new Map<string, number>();
    const fresh = machine.initialState();
    for await (const record of journal.read(0)) {
      const command = machine.decodeCommand(record.payload);
      journaled.set(command.id!, (journaled.get(command.id!) ?? 0) + 1);
      step(machine, fresh, command, record.seq);
    }
    for (const id of acknowledged) expect(journaled.get(id), id).toBe(1);
    expect([...journaled.values()].every((count) => count === 1)).toBe(true);

    const recovered = await recover(machine, journal, openSnapshotStore(`${dir}/snapshots`));
    expect(recovered.snapshotSeq).toBeGreaterThan(0);
    expect(recovered.seq).toBe(journal.lastSequence());
    expect(moneyStateHash(recovered.state)).toBe(moneyStateHash(fresh));
    await journal.close();
  });
});
