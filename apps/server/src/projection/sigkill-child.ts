import { commandStream } from '../core/state/command-stream.ts';
import { moneyMachine } from '../core/state/index.ts';
import { ledgerProjectionWriter } from '../ledger/projection.ts';
import { openPostgres, openStore } from '../store/connect.ts';
import { Projector } from './projector.ts';
import { startProjected } from './start.ts';

/**
 * The process sigkill.test.ts kills: opens the store (argv[4]: a SQLite file,
 * or `postgres:<schema>` on TEST_DATABASE_URL), starts the money state from
 * the data directory argv[2] with the ledger's projector caught up, then
 * submits the seeded stream of round argv[3], 64 in flight, each command
 * with an id of its own, taking a snapshot every 400 answers and pruning the
 * snapshots down to 2 (and the newest at or below the watermark). It prints
 * `open <journal's last sequence> <watermark before catching up>` once started, then each acknowledged id on a line.
 */
const [dir, round, database] = process.argv.slice(2);
if (!dir || !round || !database)
  throw new Error('usage: sigkill-child.ts DIR ROUND SQLITE_FILE|postgres:SCHEMA');
const url = process.env.TEST_DATABASE_URL;
const store = database.startsWith('postgres:')
  ? openPostgres(url ?? '', database.slice('postgres:'.length))
  : await openStore({ databaseUrl: null, sqliteFile: database });
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });
const projector = await Projector.open({
  db: store.db,
  writer: ledgerProjectionWriter(store.dialect),
  batchMax: 256,
  onError: (error) => process.stderr.write(`projector: ${String(error)}\n`),
});
const watermark = projector.watermark();
const { sequencer, snapshots } = await startProjected(machine, dir, [projector], { segmentBytes: 64 * 1024 });
process.stdout.write(`open ${sequencer.lastSequence()} ${watermark}\n`);

const stream = commandStream({ seed: Number(round), users: 200, traders: 20, idPrefix: `r${round}` });
let answered = 0;
let n = 0;
async function submitForever(): Promise<never> {
  for (;;) {
    const command = { ...stream.next().value!, id: `r${round}:q${n++}` };
    await sequencer.submit(command);
    process.stdout.write(`${command.id}\n`);
    if (++answered % 400 === 0)
      void sequencer.snapshot().then(() => snapshots.prune(2, projector.watermark()));
  }
}
await Promise.all(Array.from({ length: 64 }, submitForever));
