import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { EXIT_CORRUPT, EXIT_OK, EXIT_TORN_TAIL, inspectJournal, verifyJournal } from './cli-commands.ts';
import { openFileJournal } from './index.ts';
import { segmentFiles, text, useTempDirs } from './test-support.ts';

const tempDir = useTempDirs();

async function sampleJournal(): Promise<string> {
  const dir = await tempDir();
  const journal = await openFileJournal(dir, { segmentBytes: 80 });
  for (const seq of [1, 2, 3, 4, 5]) await journal.append([text(JSON.stringify({ order: seq }))]);
  await journal.append([Uint8Array.from([0xff, 0x00, 0x10])]);
  await journal.close();
  return dir;
}

async function run(command: (print: (line: string) => void) => Promise<number>) {
  const lines: string[] = [];
  const exitCode = await command((line) => lines.push(line));
  return { lines, exitCode };
}

/** Flips the last byte of the first or the last segment file. */
async function damageEndOf(dir: string, which: 'first' | 'last'): Promise<void> {
  const segments = await segmentFiles(dir);
  const file = path.join(dir, (which === 'first' ? segments[0] : segments.at(-1))!);
  const bytes = await fs.readFile(file);
  bytes.writeUInt8(bytes.readUInt8(bytes.length - 1) ^ 0xff, bytes.length - 1);
  await fs.writeFile(file, bytes);
}

describe('journal CLI', () => {
  it('inspect prints the records after --from, up to --limit, JSON as text and other bytes as hex', async () => {
    const dir = await sampleJournal();
    const { lines, exitCode } = await run((print) => inspectJournal(dir, { from: 3, limit: 10 }, print));
    expect(exitCode).toBe(EXIT_OK);
    expect(lines.slice(1).map((line) => line.split('\t'))).toEqual([
      ['4', '11', 'ok', expect.stringMatching(/\.seg:\d+$/), '{"order":4}'],
      ['5', '11', 'ok', expect.stringMatching(/\.seg:\d+$/), '{"order":5}'],
      ['6', '3', 'ok', expect.stringMatching(/\.seg:\d+$/), 'hex ff0010'],
    ]);
    const limited = await run((print) => inspectJournal(dir, { limit: 2 }, print));
    expect(limited.lines.slice(1).map((line) => line.split('\t')[0])).toEqual(['1', '2']);
  });

  it('verify prints the counts of a sound journal and exits 0', async () => {
    const dir = await sampleJournal();
    const { lines, exitCode } = await run((print) => verifyJournal(dir, print));
    expect(exitCode).toBe(EXIT_OK);
    expect(lines[0]).toMatch(/^\d+ segments, 6 records, sequences 1\.\.6$/);
  });

  it('verify names the first problem and exits non-zero, telling a torn tail from corruption', async () => {
    const torn = await sampleJournal();
    await damageEndOf(torn, 'last');
    const tornRun = await run((print) => verifyJournal(torn, print));
    expect(tornRun.exitCode).toBe(EXIT_TORN_TAIL);
    expect(tornRun.lines[1]).toMatch(/^torn tail: 0+5\.seg at byte 47, record 6: checksum mismatch/);

    const corrupt = await sampleJournal();
    await damageEndOf(corrupt, 'first');
    const corruptRun = await run((print) => verifyJournal(corrupt, print));
    expect(corruptRun.exitCode).toBe(EXIT_CORRUPT);
    expect(corruptRun.lines.at(-1)).toMatch(
      /^FAILED: journal corrupt: 0+1\.seg at byte \d+, record \d+: checksum mismatch/,
    );
    const inspectRun = await run((print) => inspectJournal(corrupt, {}, print));
    expect(inspectRun.exitCode).toBe(EXIT_CORRUPT);
    expect(inspectRun.lines.at(-1)).toMatch(/\tBAD\t0+1\.seg:\d+\tbad-checksum/);
  });
});
