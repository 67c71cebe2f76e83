import { spawn } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach } from 'vitest';

/** A fresh temporary directory per call, removed after the test. */
export function useTempDirs(): () => Promise<string> {
  const made: string[] = [];
  afterEach(async () => {
    await Promise.all(made.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
  });
  return async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'halyard-journal-'));
    made.push(dir);
    return dir;
  };
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();

export function text(value: string): Uint8Array {
  return encoder.encode(value);
}

export function asText(payload: Uint8Array): string {
  return decoder.decode(payload);
}

export async function collect<T>(source: AsyncIterable<T>): Promise<T[]> {
  const items: T[] = [];
  for await (const item of source) items.push(item);
  return items;
}

/** The segment file names in dir, oldest first. */
export async function segmentFiles(dir: string): Promise<string[]> {
  return (await fs.readdir(dir)).filter((name) => name.endsWith('.seg')).sort();
}

/**
 * Runs `node child ...args` until `acks` of its output lines are
 * acknowledgements (`isAck`), kills it with SIGKILL, answers those lines in
 * the order printed. Rejects if the child exits on its own.
 */
export function runUntilKilled(
  child: string,
  args: string[],
  isAck: (line: string) => boolean,
  acks: number,
): Promise<string[]> {
  return new Promise((resolve, reject) => {
    const running = spawn(process.execPath, [child, ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    const acknowledged: string[] = [];
    let pending = '';
    let errors = '';
    running.stderr.on('data', (chunk: Buffer) => {
      errors += chunk.toString();
    });
    running.stdout.on('data', (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) if (isAck(line)) acknowledged.push(line);
      if (acknowledged.length >= acks) running.kill('SIGKILL');
    });
    running.on('exit', (code, signal) => {
      if (signal === 'SIGKILL') resolve(acknowledged);
      else reject(new Error(`child exited with ${code}: ${errors}`));
    });
  });
}
