import { describe, expect, it } from 'vitest';
import { pruneAndTruncate } from '../../projection/start.ts';
import { type Journal, openFileJournal, openSnapshotStore, type SnapshotStore } from '../journal/index.ts';
import { collect, useTempDirs } from '../journal/test-support.ts';
import { inlineSnapshotSink, recover, Sequencer } from '../sequencer/index.ts';
import { takeCommands } from '../state/command-stream.ts';
import { moneyMachine, moneyStateHash } from '../state/index.ts';
import { openJetStreamJournal, openJetStreamSnapshotStore } from './index.ts';
import { skipWithoutNats, useJetStream } from './test-support.ts';

const skip = await skipWithoutNats();
const tempDir = useTempDirs();
const COMMANDS = 3_000;
const WAVE = 500;
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });
const commands = takeCommands(
  { seed: 20_261_201, users: 200, traders: 20, futures: true, walletFlows: true },
  COMMANDS,
);

/** The same commands through a sequencer on `journal`, a snapshot mid-wave every other wave; answers the live state's hash. */
async function runLive(journal: Journal, store: SnapshotStore): Promise<string> {
  const sequencer = new Sequencer({
    machine,
    journal,
    snapshots: inlineSnapshotSink(store),
    start: { state: machine.initialState(), seq: 0 },
    queueMax: WAVE,
    batchMax: 97,
    snapshotSliceMs: 0,
  });
  for (let start = 0; start < commands.length; start += WAVE) {
    const wave = commands.slice(start, start + WAVE);
    const answers = wave.slice(0, WAVE / 2).map((command) => sequencer.submit(command));
    const snapshot = (start / WAVE) % 2 === 1 ? sequencer.snapshot() : null;
    answers.push(...wave.slice(WAVE / 2).map((command) => sequencer.submit(command)));
    await Promise.all(answers);
    await snapshot;
  }
  const hash = moneyStateHash(sequencer.state);
  await sequencer.close();
  return hash;
}

describe.skipIf(skip)('recovery from the JetStream journal and Object Store snapshots', () => {
  const nats = useJetStream();

  it('gives the state recovery from files gives, after pruning and truncating both alike', async () => {
    const dir = await tempDir();
    const files = {
      journal: await openFileJournal(`${dir}/journal`),
      store: openSnapshotStore(`${dir}/snapshots`),
    };
    const stream = nats.name('recovery');
    const cluster = {
      journal: await openJetStreamJournal({ connection: nats.nc(), stream, subject: `${stream}.commands` }),
      store: await openJetStreamSnapshotStore({
        connection: nats.nc(),
        bucket: nats.name('recovery_snapshots'),
      }),
    };
    const liveHash = await runLive(files.journal, files.store);
    expect(await runLive(cluster.journal, cluster.store)).toBe(liveHash);

    const recovered = [];
    for (const { journal, store } of [files, cluster]) {
      // No projector behind: the watermark is the end. Keep two snapshots, truncate the journal below the older.
      const end = journal.lastSequence();
      const bound = await pruneAndTruncate({
        snapshots: store,
        journal,
        keep: 2,
        projectors: [{ watermark: () => end }],
      });
      expect(bound).toBeGreaterThan(0);
      recovered.push({ bound, ...(await recover(machine, journal, store)) });
    }
    // The file journal drops only whole segments (this one has a single segment); the stream drops records.
    await expect(collect(cluster.journal.read(0))).rejects.toThrow(/truncated/);
    const [fromFiles, fromCluster] = recovered;
    expect(fromFiles!.seq).toBe(COMMANDS);
    expect(fromFiles!.snapshotSeq).toBeGreaterThan(fromFiles!.bound);
    expect(fromFiles!.replayed).toBeGreaterThan(0);
    expect(moneyStateHash(fromFiles!.state)).toBe(liveHash);
    expect({ ...fromCluster, state: moneyStateHash(fromCluster!.state) }).toEqual({
      ...fromFiles,
      state: liveHash,
    });
    await Promise.all([files.journal.close(), cluster.journal.close()]);
  }, 60_000);
});
