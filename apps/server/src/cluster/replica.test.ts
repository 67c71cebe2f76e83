import { describe, expect, it } from 'vitest';
import { type JournalRecord, openFileJournal, openSnapshotStore } from '../core/journal/index.ts';
import { collect, useTempDirs } from '../core/journal/test-support.ts';
import { inlineSnapshotSink, type Published, Sequencer } from '../core/sequencer/index.ts';
import { takeCommands } from '../core/state/command-stream.ts';
import { type MoneyEvent, moneyMachine, moneyStateHash } from '../core/state/index.ts';
import { Replica, ReplicaGapError } from './replica.ts';
import { stateHashInSlices } from './state-hash.ts';

const tempDir = useTempDirs();
const machine = moneyMachine({ epochSeqs: 500, epochsKept: 3 });
const COMMANDS = 3_000;

/**
 * A leader's run to follow: a seeded stream of every kind of money command
 * through a real sequencer on a file journal, with a snapshot half way;
 * answers the journal's records, what the sequencer published, its state's
 * hash at the end, and the snapshot store.
 */
async function leaderRun() {
  const dir = await tempDir();
  const journal = await openFileJournal(`${dir}/journal`);
  const snapshots = openSnapshotStore(`${dir}/snapshots`);
  const sequencer = new Sequencer({
    machine,
    journal,
    snapshots: inlineSnapshotSink(snapshots),
    start: { state: machine.initialState(), seq: 0 },
    batchMax: 61,
  });
  const published: Published<MoneyEvent>[] = [];
  sequencer.subscribe((batch) => published.push(...batch));
  const options = { seed: 11, users: 400, traders: 40, referral: true, cycle: true, futures: true };
  const commands = takeCommands({ ...options, ieo: true, fiat: true, walletFlows: true }, COMMANDS);
  await Promise.all(commands.slice(0, COMMANDS / 2).map((command) => sequencer.submit(command)));
  // Taken while the second half is applied: its slices interleave with their batches.
  const snapshot = sequencer.snapshot();
  await Promise.all(commands.slice(COMMANDS / 2).map((command) => sequencer.submit(command)));
  const snapshotSeq = await snapshot;
  await sequencer.close();
  const records = (await collect(journal.read(0))).map((record) => ({
    seq: record.seq,
    payload: Uint8Array.from(record.payload),
  }));
  await journal.close();
  return { records, published, hash: moneyStateHash(sequencer.state), snapshots, snapshotSeq };
}

/** The records in batches of `size`, as a tail yields them. */
async function* inBatches(records: readonly JournalRecord[], size: number): AsyncIterable<JournalRecord[]> {
  for (let at = 0; at < records.length; at += size) yield records.slice(at, at + size);
}

describe('a replica of the money state', () => {
  it('equals the leader: the same state, the same events, from nothing or from a snapshot', async () => {
    const run = await leaderRun();
    const fromZero = new Replica(machine, { state: machine.initialState(), seq: 0 });
    const seen: Published<MoneyEvent>[] = [];
    const throughs: number[] = [];
    fromZero.subscribe((batch, through) => {
      seen.push(...batch);
      throughs.push(through);
    });
    const halfWay = fromZero.reached(COMMANDS / 2);
    await fromZero.follow(inBatches(run.records, 100));
    await halfWay;
    expect(fromZero.lastSequence()).toBe(COMMANDS);
    expect(moneyStateHash(fromZero.state)).toBe(run.hash);
    expect(seen).toEqual(run.published);
    expect(throughs.at(-1)).toBe(COMMANDS);

    // The leader answers the hash a slice a turn; the same hash.
    expect(await stateHashInSlices(machine, fromZero.state)).toBe(run.hash);

    const fromSnapshot = await Replica.fromSnapshot(machine, run.snapshots);
    expect(fromSnapshot.lastSequence()).toBe(run.snapshotSeq);
    expect(run.snapshotSeq).toBeGreaterThan(0);
    await fromSnapshot.follow(inBatches(run.records.slice(run.snapshotSeq), 333));
    expect(moneyStateHash(fromSnapshot.state)).toBe(run.hash);
  });

  it('passes over records it has, and stops at a gap, rejecting its waiters', async () => {
    const run = await leaderRun();
    const replica = new Replica(machine, { state: machine.initialState(), seq: 0 });
    replica.apply(run.records.slice(0, 10));
    replica.apply(run.records.slice(5, 20));
    expect(replica.lastSequence()).toBe(20);
    const waiting = replica.reached(30);
    await expect(replica.follow(inBatches(run.records.slice(21), 5))).rejects.toBeInstanceOf(ReplicaGapError);
    await expect(waiting).rejects.toBeInstanceOf(ReplicaGapError);
    expect(replica.lastSequence()).toBe(20);
  });

  it('keeps the events of its latest sequences for a projector’s catch-up, and says when it does not reach back', async () => {
    const run = await leaderRun();
    const replica = new Replica(machine, { state: machine.initialState(), seq: 0 }, 1_000);
    await replica.follow(inBatches(run.records, 64));
    const after = COMMANDS - 800;
    expect(replica.eventsAfter(after)).toEqual({
      published: run.published.filter((entry) => entry.seq > after),
      through: COMMANDS,
    });
    expect(replica.eventsAfter(COMMANDS)).toEqual({ published: [], through: COMMANDS });
    expect(replica.eventsAfter(COMMANDS - 1_200)).toBeNull();

    const fromSnapshot = await Replica.fromSnapshot(machine, run.snapshots);
    expect(fromSnapshot.eventsAfter(run.snapshotSeq - 1)).toBeNull();
    expect(fromSnapshot.eventsAfter(run.snapshotSeq)).toEqual({ published: [], through: run.snapshotSeq });
  });
});
