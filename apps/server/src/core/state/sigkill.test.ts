import { spawn } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { openFileJournal, openSnapshotStore } from '../journal/index.ts';
import { useTempDirs } from '../journal/test-support.ts';
import { recover, step } from '../sequencer/index.ts';
import { prng } from './command-stream.ts';
import { moneyMachine, moneyStateHash } from './index.ts';

const tempDir = useTempDirs();
const ROUNDS = 6;
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });

/** The child bundled to plain JavaScript once: node starts it far faster than tsx does, round after round. */
async function bundledChild(): Promise<string> {
  const outfile = path.join(await tempDir(), 'sigkill-child.mjs');
  await build({
    entryPoints: [path.join(import.meta.dirname, 'sigkill-child.ts')],
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    outfile,
    logLevel: 'silent',
  });
  return outfile;
}

/** Runs the child until it has acknowledged `acks` commands, kills it with SIGKILL, answers the acknowledged ids. */
function submitThenKill(child: string, dir: string, round: number, acks: number): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const running = spawn(process.execPath, [child, dir, String(round)], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acknowledged: string[] = [];
    let pending = '';
    let errors = '';
    running.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    running.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (line.startsWith('r')) acknowledged.push(line);
      if (acknowledged.length >= acks) running.kill('SIGKILL');
    });
    running.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acknowledged);
      else reject(new Error(`child exited with ${code}: ${errors}`));
    });
  });
}

describe('kill -9 while commands flow', () => {
  const seed = 20_261_127;
  it(`keeps every acknowledged command exactly once, and recovers the state a fresh replay gives (${ROUNDS} kills, seed ${seed})`, async () => {
    const random = prng(seed);
    const child = await bundledChild();
    const dir = await tempDir();
    const acknowledged: string[] = [];
    for (let round = 1; round <= ROUNDS; round++)
      acknowledged.push(...(await submitThenKill(child, dir, round, 300 + random(1_500))));

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
