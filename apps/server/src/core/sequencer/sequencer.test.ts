import { describe, expect, it } from 'vitest';
import { openFileJournal, openSnapshotStore } from '../journal/index.ts';
import { useTempDirs } from '../journal/test-support.ts';
import {
  CommandThrewError,
  inlineSnapshotSink,
  type Machine,
  type Published,
  recover,
  Sequencer,
  SequencerBusyError,
  SequencerStoppedError,
  SnapshotAheadError,
} from './index.ts';

/** A counter: the smallest machine that shows what the runtime does with any machine. */
interface Counter {
  total: number;
  answers: Map<string, number>;
}
interface Add {
  id?: string;
  add: number;
}

const encoder = new TextEncoder();
const decoder = new TextDecoder();
const counter: Machine<Counter, Add, number, string> = {
  apply(state, command, seq) {
    if (command.add < 0) throw new Error('a bug in the machine');
    state.total += command.add;
    return { result: state.total, events: [`+${command.add}@${seq}`] };
  },
  idOf: (command) => command.id ?? null,
  recall: (state, id) => state.answers.get(id),
  remember: (state, id, result) => state.answers.set(id, result),
  encodeCommand: (command) => encoder.encode(JSON.stringify(command)),
  decodeCommand: (payload) => JSON.parse(decoder.decode(payload)) as Add,
  capture(state) {
    let given = false;
    const bytes = encoder.encode(JSON.stringify({ total: state.total, answers: [...state.answers] }));
    return {
      next() {
        if (given) return null;
        given = true;
        return bytes;
      },
      abandon: () => undefined,
    };
  },
  decodeState(bytes) {
    const { total, answers } = JSON.parse(decoder.decode(bytes)) as {
      total: number;
      answers: [string, number][];
    };
    return { total, answers: new Map(answers) };
  },
  initialState: () => ({ total: 0, answers: new Map() }),
};

/** A journal whose appends resolve only when the test says so. */
function heldJournal() {
  let last = 0;
  const writes: number[] = [];
  const held: { seq: number; settle: (error?: Error) => void }[] = [];
  return {
    journal: {
      lastSequence: () => 0,
      append(payloads: readonly Uint8Array[]): Promise<number> {
        writes.push(payloads.length);
        last += payloads.length;
        const seq = last;
        return new Promise<number>((resolve, reject) => {
          held.push({ seq, settle: (error) => (error ? reject(error) : resolve(seq)) });
        });
      },
    },
    writes,
    release: (error?: Error) => {
      for (const write of held.splice(0)) write.settle(error);
    },
  };
}

const noSnapshots = inlineSnapshotSink({ write: async () => undefined });
const turn = () => new Promise((resolve) => setImmediate(resolve));
const tempDir = useTempDirs();

function sequencerOn(journal: ReturnType<typeof heldJournal>['journal'], queueMax = 100) {
  return new Sequencer({
    machine: counter,
    journal,
    snapshots: noSnapshots,
    start: { state: counter.initialState(), seq: 0 },
    queueMax,
  });
}

describe('sequencer', () => {
  it('applies at once but answers and publishes only once the journal says durable', async () => {
    const { journal, release } = heldJournal();
    const sequencer = sequencerOn(journal);
    const published: Published<string>[] = [];
    sequencer.subscribe((batch) => published.push(...batch));
    let answered = false;
    const answers = Promise.all([sequencer.submit({ add: 2 }), sequencer.submit({ add: 3 })]).then(
      (results) => {
        answered = true;
        return results;
      },
    );
    await turn();
    await turn();
    expect(sequencer.state.total).toBe(5);
    expect(answered).toBe(false);
    expect(published).toEqual([]);
    release();
    expect(await answers).toEqual([2, 5]);
    expect(published).toEqual([
      { seq: 1, events: ['+2@1'] },
      { seq: 2, events: ['+3@2'] },
    ]);
  });

  it('journals at most batchMax commands a turn, numbered as they were applied', async () => {
    const { journal, release, writes } = heldJournal();
    const sequencer = new Sequencer({
      machine: counter,
      journal,
      snapshots: noSnapshots,
      start: { state: counter.initialState(), seq: 0 },
      batchMax: 2,
    });
    const published: Published<string>[] = [];
    sequencer.subscribe((batch) => published.push(...batch));
    const answers = Promise.all([1, 2, 3, 4, 5].map((add) => sequencer.submit({ add })));
    for (let turns = 0; turns < 4; turns++) await turn();
    release();
    expect(await answers).toEqual([1, 3, 6, 10, 15]);
    expect(writes).toEqual([2, 2, 1]);
    expect(published.map(({ seq, events }) => `${seq}:${events}`)).toEqual([
      '1:+1@1',
      '2:+2@2',
      '3:+3@3',
      '4:+4@4',
      '5:+5@5',
    ]);
  });

  it('refuses beyond the queue bound, before journaling anything', async () => {
    const { journal, release } = heldJournal();
    const sequencer = sequencerOn(journal, 2);
    const taken = [sequencer.submit({ add: 1 }), sequencer.submit({ add: 1 })];
    await expect(sequencer.submit({ add: 1 })).rejects.toBeInstanceOf(SequencerBusyError);
    await turn();
    release();
    expect(await Promise.all(taken)).toEqual([1, 2]);
    expect(sequencer.lastSequence()).toBe(2);
  });

  it('answers a repeated id with the first result, and changes nothing', async () => {
    const { journal, release } = heldJournal();
    const sequencer = sequencerOn(journal);
    const first = sequencer.submit({ id: 'a', add: 5 });
    const again = sequencer.submit({ id: 'a', add: 7 });
    const other = sequencer.submit({ add: 1 });
    await turn();
    release();
    expect(await Promise.all([first, again, other])).toEqual([5, 5, 6]);
  });

  it('stops for good when the journal fails: the state may be ahead of the disk', async () => {
    const { journal, release } = heldJournal();
    const sequencer = sequencerOn(journal);
    const told: unknown[] = [];
    sequencer.onStopped((error) => told.push(error));
    const lost = sequencer.submit({ add: 1 });
    await turn();
    release(new Error('disk gone'));
    await expect(lost).rejects.toBeInstanceOf(SequencerStoppedError);
    await expect(sequencer.submit({ add: 1 })).rejects.toBeInstanceOf(SequencerStoppedError);
    await expect(sequencer.snapshot()).rejects.toBeInstanceOf(SequencerStoppedError);
    // Told once, with the reason: whoever runs the process restarts it.
    expect(told).toHaveLength(1);
    expect(told[0]).toBeInstanceOf(SequencerStoppedError);
    expect(String((told[0] as Error).message)).toMatch(/disk gone/);
  });

  it('stops for good when the machine throws', async () => {
    const { journal, release } = heldJournal();
    const sequencer = sequencerOn(journal);
    const told: unknown[] = [];
    sequencer.onStopped((error) => told.push(error));
    const errorOf = (submitted: Promise<unknown>) =>
      submitted.then(
        () => null,
        (rejected: unknown) => rejected,
      );
    const before = errorOf(sequencer.submit({ add: 1 }));
    const broken = errorOf(sequencer.submit({ add: -1 }));
    const after = errorOf(sequencer.submit({ add: 1 }));
    await turn();
    release();
    // The command that threw is told so (a caller must not send it again); the others only that it stopped.
    expect(await broken).toBeInstanceOf(CommandThrewError);
    expect(String(await broken)).toMatch(/a bug in the machine/);
    for (const other of [await before, await after]) {
      expect(other).toBeInstanceOf(SequencerStoppedError);
      expect(other).not.toBeInstanceOf(CommandThrewError);
    }
    await expect(sequencer.submit({ add: 1 })).rejects.toBeInstanceOf(SequencerStoppedError);
    expect(told).toHaveLength(1);
  });

  it('writes a snapshot that recover starts from, and replays after it', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(`${dir}/journal`);
    const snapshots = openSnapshotStore(`${dir}/snapshots`);
    const sequencer = new Sequencer({
      machine: counter,
      journal,
      snapshots: inlineSnapshotSink(snapshots),
      start: await recover(counter, journal, snapshots),
    });
    await Promise.all([1, 2, 3].map((add) => sequencer.submit({ id: `c${add}`, add })));
    expect(await sequencer.snapshot()).toBe(3);
    await sequencer.submit({ add: 10 });
    await sequencer.close();
    const recovered = await recover(counter, journal, snapshots);
    expect(recovered).toMatchObject({ seq: 4, snapshotSeq: 3, replayed: 1 });
    expect(recovered.state.total).toBe(16);
    expect(recovered.state.answers.get('c2')).toBe(3);
    await journal.close();
  });

  it('gives a batch and a snapshot slice turns of their own, with the event loop between them', async () => {
    // Which pass of the event loop each batch and slice ran in: a ticker counts the passes.
    let pass = 0;
    let ticking = true;
    const tick = () => {
      pass++;
      if (ticking) setImmediate(tick);
    };
    setImmediate(tick);
    const ran: { what: 'batch' | 'slice'; pass: number }[] = [];
    const logged: typeof counter = {
      ...counter,
      apply(state, command, seq, emit) {
        ran.push({ what: 'batch', pass });
        return counter.apply(state, command, seq, emit);
      },
      capture() {
        let pieces = 0;
        return {
          next() {
            if (pieces === 3) return null;
            pieces++;
            ran.push({ what: 'slice', pass });
            return new Uint8Array([pieces]);
          },
          abandon: () => undefined,
        };
      },
    };
    const { journal, release } = heldJournal();
    const sequencer = new Sequencer({
      machine: logged,
      journal,
      snapshots: noSnapshots,
      start: { state: counter.initialState(), seq: 0 },
      batchMax: 1,
      snapshotSliceMs: 0,
    });
    const answers = Promise.all([1, 2, 3, 4].map((add) => sequencer.submit({ add })));
    const written = sequencer.snapshot();
    for (let turns = 0; turns < 12; turns++) await turn();
    release();
    await Promise.all([answers, written]);
    ticking = false;
    expect(ran.map(({ what }) => what)).toEqual([
      'batch',
      'slice',
      'batch',
      'slice',
      'batch',
      'slice',
      'batch',
    ]);
    const passes = new Map<number, Set<string>>();
    for (const { what, pass: at } of ran) passes.set(at, (passes.get(at) ?? new Set()).add(what));
    for (const kinds of passes.values()) expect(kinds.size).toBe(1);
  });

  it('refuses to start from a snapshot past the journal, or from a state not at the journal end', async () => {
    const dir = await tempDir();
    const journal = await openFileJournal(`${dir}/journal`);
    const snapshots = openSnapshotStore(`${dir}/snapshots`);
    await snapshots.write(5, counter.capture({ total: 1, answers: new Map() }).next()!);
    await expect(recover(counter, journal, snapshots)).rejects.toBeInstanceOf(SnapshotAheadError);
    expect(
      () =>
        new Sequencer({
          machine: counter,
          journal,
          snapshots: inlineSnapshotSink(snapshots),
          start: { state: counter.initialState(), seq: 5 },
        }),
    ).toThrow(/recover first/);
    await journal.close();
  });
});
