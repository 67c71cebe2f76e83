/**
 * The replay's inner loop alone (docs/core.md "Replay after issue #19"): a
 * large state built by applying commands directly (no sequencer, no journal),
 * then REPLAY commands of the seeded mixed stream encoded as the journal holds
 * them and applied the way recover() does (decodeCommand, step, emit false).
 * Prints CPU µs per command and the state hash, so a change to the replay's
 * speed can be measured in a minute and checked for the same end state.
 *
 *   node --max-semi-space-size=64 --import tsx bench/replay-profile.ts
 *   (add --expose-gc for the heap the state keeps after the replay)
 *   env: REPLAY (commands, default 200,000), BOOT_USERS (default 200,000),
 *   PROFILE=file.cpuprofile (a CPU profile of the replay alone, not the build),
 *   FUTURES=1 (the stream trades futures too),
 *   ALLOCATIONS=file.heapprofile (where the replay allocates: V8's sampling heap profiler);
 *   with SURVIVORS=1, only what outlived a young collection (what a scavenge copies)
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { step } from '../apps/server/src/core/sequencer/machine.ts';
import { commandStream } from '../apps/server/src/core/state/command-stream.ts';
import { type MoneyCommand, moneyMachine, moneyStateHash } from '../apps/server/src/core/state/index.ts';
import { tuneGarbageCollector } from '../apps/server/src/garbage-collector.ts';
import { loadText } from './support/http-load.ts';
import { largeStateBootstrap } from './support/large-state.ts';

// The server's collector setting (main.ts), so the figures are the server's.
tuneGarbageCollector();

const REPLAY = Number(process.env.REPLAY ?? 200_000);
const BOOT_USERS = Number(process.env.BOOT_USERS ?? 200_000);
/** BY_KIND=1: the time of each command kind (wall, GC included), at the cost of a clock read per command. */
const BY_KIND = process.env.BY_KIND === '1';
/** FUTURES=1: the stream also trades futures (two contracts, opening orders, closes, marks). */
const FUTURES = process.env.FUTURES === '1';
const RESTING_ORDERS = BOOT_USERS / 2;

const machine = moneyMachine();
const state = machine.initialState();
let seq = 0;
const startedBoot = performance.now();
for (const command of largeStateBootstrap(BOOT_USERS, RESTING_ORDERS))
  step(machine, state, command, ++seq, false);
console.log(
  `state built: ${state.ledger.accounts.size} accounts, ${state.orders.size} open orders in ${((performance.now() - startedBoot) / 1000).toFixed(1)} s`,
);
const stream = commandStream({
  seed: 5,
  users: BOOT_USERS,
  traders: 5_000,
  idPrefix: 'replay',
  futures: FUTURES,
});
const payloads: Uint8Array[] = [];
for (let index = 0; index < REPLAY; index++)
  payloads.push(machine.encodeCommand(stream.next().value as MoneyCommand));

const profile = process.env.PROFILE;
const allocations = process.env.ALLOCATIONS;
const session = profile || allocations ? new Session() : null;
session?.connect();
if (session && profile) {
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
if (session && allocations) {
  await session.post('HeapProfiler.enable');
  await session.post('HeapProfiler.startSampling', {
    samplingInterval: 4096,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: process.env.SURVIVORS !== '1',
  });
}
if (process.env.MARK) console.log(`replay starts at ${performance.now().toFixed(0)} ms`);
const cpu = process.cpuUsage();
const started = performance.now();
const byKind = new Map<string, { count: number; ms: number }>();
for (const payload of payloads) {
  const before = BY_KIND ? performance.now() : 0;
  const command = machine.decodeCommand(payload);
  step(machine, state, command, ++seq, false);
  if (!BY_KIND) continue;
  const kind = byKind.get(command.kind) ?? { count: 0, ms: 0 };
  kind.count++;
  kind.ms += performance.now() - before;
  byKind.set(command.kind, kind);
}
const wall = performance.now() - started;
if (process.env.MARK) console.log(`replay ends at ${performance.now().toFixed(0)} ms`);
for (const [kind, { count, ms }] of [...byKind].sort((a, b) => b[1].ms - a[1].ms))
  console.log(
    `  ${kind.padEnd(20)} ${String(count).padStart(7)} commands, ${((ms * 1000) / count).toFixed(1)} µs each, ${((ms / wall) * 100).toFixed(1)} % of the time`,
  );
const used = process.cpuUsage(cpu);
if (session && profile) {
  const { profile: taken } = await session.post('Profiler.stop');
  writeFileSync(profile, JSON.stringify(taken));
}
if (session && allocations) {
  const { profile: taken } = await session.post('HeapProfiler.stopSampling');
  writeFileSync(allocations, JSON.stringify(taken));
}
console.log(
  `replay of ${REPLAY} commands: ${((wall * 1000) / REPLAY).toFixed(1)} µs wall, ${((used.user + used.system) / REPLAY).toFixed(1)} µs CPU per command; hash ${moneyStateHash(state).slice(0, 16)}   (${loadText()})`,
);
// What the state keeps, which a slow or busy machine does not change: the maps the replay looks up and the heap.
const { transfers, holds, accounts } = state.ledger;
globalThis.gc?.();
const heap = typeof globalThis.gc === 'function' ? process.memoryUsage().heapUsed : null;
console.log(
  `state after it: ${accounts.size} accounts, ${holds.size} holds, ${transfers.size} transfers remembered for retries${heap === null ? ' (run with --expose-gc for the heap)' : `; heap ${(heap / 2 ** 20).toFixed(0)} MiB after a full collection`}`,
);
