import { createHash } from 'node:crypto';
import type { MoneyMachine, MoneyState } from '../core/state/index.ts';

/**
 * `moneyStateHash`, read a slice a turn through a capture of the state (as
 * a snapshot is read), so that a leader answering it goes on renewing its
 * lease and applying commands meanwhile: the state's lines as they were when
 * the capture opened, sorted, hashed. The caller keeps other captures (a
 * snapshot) from opening meanwhile: a map holds one at a time.
 */
export async function stateHashInSlices(machine: MoneyMachine, state: MoneyState): Promise<string> {
  const capture = machine.capture(state);
  const lines: string[] = [];
  for (let piece = capture.next(); piece !== null; piece = capture.next()) {
    // Each piece is whole lines, each ended by a newline (captureMoneyState).
    const text = Buffer.from(piece.buffer, piece.byteOffset, piece.length).toString('utf8');
    for (const line of text.split('\n')) if (line !== '') lines.push(line);
    await new Promise((resolve) => setImmediate(resolve));
  }
  lines.sort();
  const hash = createHash('sha256');
  for (const line of lines) hash.update(line).update('\n');
  return hash.digest('hex');
}
