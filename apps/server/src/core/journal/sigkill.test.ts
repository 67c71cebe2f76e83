import { spawn } from 'node:child_process';
import path from 'node:path';
import { build } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { openFileJournal } from './index.ts';
import { asText, useTempDirs } from './test-support.ts';

const tempDir = useTempDirs();
const ROUNDS = 16;

/** The child bundled to plain JavaScript once: node starts it in a fraction of the time tsx takes, ten times over. */
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

/** A small deterministic generator, so a failing run can be repeated (the seed is in the test name). */
function seeded(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state / 2 ** 31;
  };
}

/** Runs the child until it has acknowledged `acks` appends, kills it with SIGKILL, answers the acknowledged sequences. */
function appendThenKill(child: string, dir: string, acks: number): Promise<number[]> {
  return new Promise((resolve, reject) => {
    const process_ = spawn(process.execPath, [child, dir], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const acknowledged: number[] = [];
    let pending = '';
    let errors = '';
    process_.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    process_.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (/^\d+$/.test(line)) acknowledged.push(Number(line));
      if (acknowledged.length >= acks) process_.kill('SIGKILL');
    });
    process_.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acknowledged);
      else reject(new Error(`child exited with ${code}: ${errors}`));
    });
  });
}

describe('kill -9 while appending', () => {
  const seed = 20_261_126;
  it(`keeps every acknowledged record, in order and without gaps, across ${ROUNDS} kills (seed ${seed})`, async () => {
    const random = seeded(seed);
    const child = await bundledChild();
    const dir = await tempDir();
    let everAcknowledged = 0;
    for (let round = 0; round < ROUNDS; round += 1) {
      const acknowledged = await appendThenKill(child, dir, 1 + Math.floor(random() * 200));
      everAcknowledged = Math.max(everAcknowledged, ...acknowledged);

      const journal = await openFileJournal(dir, { segmentBytes: 4096 });
      expect(journal.lastSequence(), `round ${round}`).toBeGreaterThanOrEqual(everAcknowledged);
      let expected = 1;
      for await (const record of journal.read(0)) {
        expect(record.seq).toBe(expected);
        expect(JSON.parse(asText(record.payload))).toHaveProperty('writer');
        expected += 1;
      }
      expect(expected - 1).toBe(journal.lastSequence());
      everAcknowledged = journal.lastSequence();
      await journal.close();
    }
  });
});
