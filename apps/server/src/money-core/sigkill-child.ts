import { commandStream, takeCommands } from '../core/state/command-stream.ts';
import type { MoneyCommand } from '../core/state/index.ts';
import { watermarkStore } from '../projection/store.ts';
import type { WorkerStore } from '../projection/worker-transport.ts';
import { openPostgres, openStore } from '../store/connect.ts';
import { MONEY_PROJECTION } from './projection-name.ts';
import { MoneyCore } from './start.ts';

/**
 * The process sigkill.test.ts kills: the core as the server runs it
 * (MoneyCore: the projector of every table in a worker thread, snapshots by a
 * worker, the journal truncated behind them) on the data
 * directory argv[2] and the database argv[4] (a SQLite file, or
 * `postgres:<schema>` on TEST_DATABASE_URL). It first submits again the
 * first commands of the round before, with their ids (a client retrying
 * after the crash), then round argv[3]'s seeded stream, 128 in flight, each
 * command with an id of its own. It prints `open <journal's last sequence>
 * <watermark before the start> <watermark once the start returned>`, then each acknowledged id on a line, and
 * every 500 answers `speed <commands a second since the start>`; and
 * `snapshot begins` / `snapshot written` around each snapshot it takes.
 */
const [dir, round, database] = process.argv.slice(2);
if (!dir || !round || !database)
  throw new Error('usage: sigkill-child.ts DIR ROUND SQLITE_FILE|postgres:SCHEMA');
const url = process.env.TEST_DATABASE_URL ?? '';
const where: WorkerStore = database.startsWith('postgres:')
  ? { postgresUrl: url, schema: database.slice('postgres:'.length) }
  : { sqliteFile: database };
const store =
  'postgresUrl' in where
    ? openPostgres(url, where.schema!)
    : await openStore({ databaseUrl: null, sqliteFile: where.sqliteFile });
const watermark = await watermarkStore.read(store.db, MONEY_PROJECTION);
const core = await MoneyCore.start({
  dataDir: dir,
  db: store.db,
  dialect: store.dialect,
  workerStore: where,
  now: () => Date.UTC(2026, 10, 26),
  snapshotEveryMs: 100,
  keepSnapshots: 2,
  onError: (error) => process.stderr.write(`snapshot: ${String(error)}\n`),
});
process.stdout.write(`open ${core.sequencer.lastSequence()} ${watermark} ${core.projector.watermark()}\n`);

/** Round r's commands, each with an id: `r<round>:q<n>`. */
function withIds(r: number, commands: Iterable<MoneyCommand>): Iterator<MoneyCommand> {
  let n = 0;
  const ids = function* () {
    for (const command of commands) yield { ...command, id: `r${r}:q${n++}` };
  };
  return ids();
}

const options = (r: number) => ({ seed: r, users: 200, traders: 20, idPrefix: `r${r}`, cycle: true });
const retries =
  Number(round) > 1 ? withIds(Number(round) - 1, takeCommands(options(Number(round) - 1), 200)) : null;
const stream = withIds(Number(round), commandStream(options(Number(round))));

const opened = performance.now();
let answered = 0;
async function submitForever(): Promise<never> {
  for (;;) {
    const retry = retries?.next();
    const command = retry && !retry.done ? retry.value : stream.next().value!;
    await core.submit(command);
    process.stdout.write(`${command.id}\n`);
    // The rate since the start, now and then: what the kill test reports.
    if (++answered % 500 === 0)
      process.stdout.write(`speed ${Math.round(answered / ((performance.now() - opened) / 1000))}\n`);
  }
}
/**
 * Snapshots 50 ms apart (besides the core's own, every 100 ms), so that many
 * kills land while one is being written.
 */
async function snapshotForever(): Promise<never> {
  for (;;) {
    process.stdout.write('snapshot begins\n');
    await core.snapshot();
    process.stdout.write('snapshot written\n');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}
await Promise.all([snapshotForever(), ...Array.from({ length: 128 }, submitForever)]);
