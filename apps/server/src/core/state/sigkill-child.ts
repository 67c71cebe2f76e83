import { startFromDisk } from '../sequencer/index.ts';
import { commandStream } from './command-stream.ts';
import { moneyMachine } from './machine.ts';

/**
 * The process sigkill.test.ts kills: recovers the money state from the
 * journal and snapshots in argv[2], then submits the seeded stream of round
 * argv[3] — each command with an id of its own — keeping 64 in flight and
 * taking a snapshot every 500 answers, and prints each acknowledged id on its
 * own line. Writes to a pipe are synchronous on Linux, so a printed id is one
 * the sequencer acknowledged before the kill.
 */
const [dir, round] = process.argv.slice(2);
if (!dir || !round) throw new Error('usage: sigkill-child.ts DIR ROUND');
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });
const { sequencer, journal } = await startFromDisk(machine, dir, { segmentBytes: 64 * 1024 });
process.stdout.write(`open ${journal.lastSequence()}\n`);

const stream = commandStream({ seed: Number(round), users: 200, traders: 20, idPrefix: `r${round}` });
let answered = 0;
let n = 0;
async function submitForever(): Promise<never> {
  for (;;) {
    const command = { ...stream.next().value!, id: `r${round}:q${n++}` };
    await sequencer.submit(command);
    process.stdout.write(`${command.id}\n`);
    if (++answered % 500 === 0) void sequencer.snapshot();
  }
}
await Promise.all(Array.from({ length: 64 }, submitForever));
