import { describe, expect, it } from 'vitest';
import { openFileJournal, openSnapshotStore } from '../journal/index.ts';
import { useTempDirs } from '../journal/test-support.ts';
import { inlineSnapshotSink, recover, Sequencer, step } from '../sequencer/index.ts';
import { takeCommands } from './command-stream.ts';
import { type MoneyResult, moneyMachine, moneyStateHash } from './index.ts';

/**
 * Replay determinism: a seeded stream applied live through the sequencer (a
 * real journal on disk, snapshots taken while commands flow) and then
 * replayed from the journal alone and from each snapshot must give the same
 * state hash at every checkpoint, and the same results.
 *
 * The retry window is small here (epochs of 2,000 commands, 3 kept), so the
 * stream also crosses many window expiries, before and after the snapshots.
 */
const tempDir = useTempDirs();
const COMMANDS = Number(process.env.CORE_REPLAY_COMMANDS ?? 20_000);
/** At least two minutes; two milliseconds a command for the long runs (CORE_REPLAY_COMMANDS=1000000). */
const TIMEOUT_MS = Math.max(120_000, 2 * COMMANDS);
const WAVE = 2_000;
/**
 * Waves between checkpoints (a state hash), and between snapshots: every
 * wave and every other one by default; on a long run, about a hundred
 * checkpoints and fifty snapshots. The open orders and holds grow with the stream, so a hash or a
 * snapshot costs more as it goes: one after every wave of a million commands
 * would cost the square of it.
 */
const WAVES_PER_CHECKPOINT = Math.max(1, Math.round(COMMANDS / WAVE / 100));
const WAVES_PER_SNAPSHOT = 2 * WAVES_PER_CHECKPOINT;
const SEED = 20_261_126;
const retention = { epochSeqs: 2_000, epochsKept: 3 };
const machine = moneyMachine(retention);

describe('replay determinism', () => {
  it(`gives identical hashes live, from the journal and from every snapshot (${COMMANDS} commands, seed ${SEED})`, {
    timeout: TIMEOUT_MS,
  }, async () => {
    const dir = await tempDir();
    const commands = takeCommands(
      {
        seed: SEED,
        users: 400,
        traders: 40,
        referral: true,
        cycle: true,
        futures: true,
        ieo: true,
        fiat: true,
        walletFlows: true,
      },
      COMMANDS,
    );
    const journal = await openFileJournal(`${dir}/journal`);
    const store = openSnapshotStore(`${dir}/snapshots`);
    const snapshots = new Map<number, Uint8Array>();
    const keepingStore = inlineSnapshotSink({
      async write(seq: number, bytes: Uint8Array) {
        snapshots.set(seq, bytes);
        await store.write(seq, bytes);
      },
    });
    const sequencer = new Sequencer({
      machine,
      journal,
      snapshots: keepingStore,
      start: { state: machine.initialState(), seq: 0 },
      queueMax: WAVE,
      batchMax: 97,
      snapshotSliceMs: 0,
    });

    const liveHashes = new Map<number, string>();
    const liveResults: MoneyResult[] = [];
    for (let start = 0; start < commands.length; start += WAVE) {
      const waveIndex = start / WAVE;
      const wave = commands.slice(start, start + WAVE);
      const half = Math.floor(wave.length / 2);
      const answers = wave.slice(0, half).map((command) => sequencer.submit(command));
      // A snapshot taken mid-wave: its slices interleave with the second half's batches.
      const snapshot =
        waveIndex % WAVES_PER_SNAPSHOT === WAVES_PER_SNAPSHOT - 1 ? sequencer.snapshot() : null;
      answers.push(...wave.slice(half).map((command) => sequencer.submit(command)));
      liveResults.push(...(await Promise.all(answers)));
      await snapshot;
      const last = start + WAVE >= commands.length;
      if (waveIndex % WAVES_PER_CHECKPOINT === WAVES_PER_CHECKPOINT - 1 || last)
        liveHashes.set(sequencer.lastSequence(), moneyStateHash(sequencer.state));
    }
    await sequencer.close();
    expect(snapshots.size).toBeGreaterThanOrEqual(5);
    expect(liveResults.filter((result) => result.ok).length).toBeGreaterThan(COMMANDS / 4);
    expect(liveResults.some((result) => !result.ok && result.error === 'ledger.idConflict')).toBe(true);
    expect(sequencer.state.orders.size).toBeGreaterThan(0);
    // Cycle contracts opened, refused and settled, some still open in the snapshots (their header).
    const cycleOpens = commands.flatMap((command, at) =>
      command.kind === 'cycleOpen' ? [liveResults[at]!] : [],
    );
    expect(cycleOpens.filter((result) => result.ok).length).toBeGreaterThan(100);
    expect(cycleOpens.some((result) => !result.ok)).toBe(true);
    expect(sequencer.state.cycle.nextOrderId - 1).toBeGreaterThan(sequencer.state.cycle.open.size);
    const withOpenCycles = [...snapshots.values()].filter(
      (bytes) => machine.decodeState(bytes).cycle.open.size > 0,
    );
    expect(withOpenCycles.length).toBeGreaterThan(0);

    // From the journal alone: every checkpoint, every snapshot's state, the same results.
    const fromZero = machine.initialState();
    const replayHashes = new Map<number, string>();
    const replayResults: MoneyResult[] = [];
    for await (const record of journal.read(0)) {
      replayResults.push(step(machine, fromZero, machine.decodeCommand(record.payload), record.seq).result);
      if (liveHashes.has(record.seq) || snapshots.has(record.seq))
        replayHashes.set(record.seq, moneyStateHash(fromZero));
    }
    expect(replayResults).toEqual(liveResults);
    for (const [seq, hash] of liveHashes) expect(replayHashes.get(seq), `checkpoint ${seq}`).toBe(hash);
    for (const [seq, bytes] of snapshots)
      expect(moneyStateHash(machine.decodeState(bytes)), `snapshot ${seq}`).toBe(replayHashes.get(seq));

    // From each snapshot to the next one (the last one to the end), every checkpoint on the way: each snapshot
    // replays to the next one's state, so the chain covers the whole journal once, not once per snapshot.
    const snapshotSeqs = [...snapshots.keys()].sort((a, b) => a - b);
    for (const [index, snapshotSeq] of snapshotSeqs.entries()) {
      const until = snapshotSeqs[index + 1] ?? commands.length;
      const state = machine.decodeState(snapshots.get(snapshotSeq)!);
      let checked = 0;
      for await (const record of journal.read(snapshotSeq)) {
        if (record.seq > until) break;
        step(machine, state, machine.decodeCommand(record.payload), record.seq);
        if (liveHashes.has(record.seq)) {
          expect(moneyStateHash(state), `from ${snapshotSeq} at ${record.seq}`).toBe(
            liveHashes.get(record.seq),
          );
          checked += 1;
        }
      }
      expect(moneyStateHash(state), `from ${snapshotSeq} to ${until}`).toBe(replayHashes.get(until));
      expect(checked).toBeGreaterThan(0);
    }

    // And recover() (the newest snapshot + replay) ends at the live state.
    const recovered = await recover(machine, journal, store);
    expect(recovered.seq).toBe(commands.length);
    expect(moneyStateHash(recovered.state)).toBe(liveHashes.get(commands.length));
    await journal.close();
    // 20,000 commands applied live, then replayed from the journal and along the chain of snapshots: 3 to 5 s on a
    // quiet machine; a million, about 9 minutes (not a speed check: bench:sequencer measures speed).
  });
});
