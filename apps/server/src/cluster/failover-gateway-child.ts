import readline from 'node:readline';
import { connect, type NatsConnection, TimeoutError } from '@nats-io/transport-node';
import { NATS_SERVERS } from '../core/journal-jetstream/test-support.ts';
import { commandStream } from '../core/state/command-stream.ts';
import { type MoneyCommand, moneyStateHash } from '../core/state/index.ts';
import { openPostgres } from '../store/connect.ts';
import { ClusterCore } from './cluster-core.ts';
import { ClusterUnavailableError, clusterNames } from './protocol.ts';
import { openClusterStorage } from './storage.ts';

/**
 * A gateway of failover.test.ts: a ClusterCore streaming transfers, holds and
 * spot orders and cancels (a seeded stream, without ids: the gateway stamps
 * them) to the cluster argv[2] at a steady rate, RATE a second with at most
 * IN_FLIGHT waiting, until told `stop`. Gateway argv[3], started for the
 * argv[4]th time, projecting into the PostgreSQL schema argv[5] of
 * TEST_DATABASE_URL.
 *
 * One answer in LOSS_EVERY is lost on the way back (the command is sent
 * again). Every command carries an `at` no other gateway or start uses, which is how
 * the test finds it in the journal. It prints `ready <sequence>`, then for
 * each command answered `ack <at> <seq> <result as JSON>`, `unknown <at>` for
 * one whose outcome is unknown, `error <at> <message>` for anything else,
 * and `behind <at> <seq>` if its replica had not applied an answered
 * command (read-your-writes). Told `stop`, it sends no more and prints
 * `stopped` once every answer is in; told `hash <seq>`, it prints
 * `hash <seq> <its replica's state hash at seq>`.
 */
const [cluster, gatewayArg, startArg, schema] = process.argv.slice(2);
if (!cluster || !gatewayArg || !startArg || !schema)
  throw new Error('usage: failover-gateway-child.ts CLUSTER GATEWAY START SCHEMA');
const RATE = 400;
const IN_FLIGHT = 64;
const LOSS_EVERY = 200;
/** Apart enough that no gateway's or start's times meet another's. */
const AT_RANGE = 100_000_000;
const gateway = Number(gatewayArg);
const start = Number(startArg);

const names = clusterNames(cluster);
const nc = await connect({ servers: NATS_SERVERS, name: `gateway-${gateway}` });
const storage = await openClusterStorage(nc, names);
const store = openPostgres(process.env.TEST_DATABASE_URL ?? '', schema);
/**
 * The gateway's connection, losing the leader's answer to one command in
 * LOSS_EVERY after the leader sent it: the command is journaled and applied,
 * and the gateway, timed out, sends it again. Kills of the leader do the
 * same now and then; this makes it happen in every run.
 */
let sent = 0;
const lossy = new Proxy(nc, {
  get(target, property, receiver) {
    if (property !== 'request') return Reflect.get(target, property, receiver);
    return async (...args: Parameters<NatsConnection['request']>) => {
      const answer = await target.request(...args);
      if (args[0] === names.subjects.submit && ++sent % LOSS_EVERY === 0) throw new TimeoutError();
      return answer;
    };
  },
});
const core = await ClusterCore.start({
  names,
  nc: lossy,
  tail: storage.tail,
  snapshots: storage.snapshots,
  db: store.db,
  submit: { deadlineMs: 20_000, attemptTimeoutMs: 1_000 },
  onError: (error) => process.stdout.write(`error - ${String(error)}\n`),
});
process.stdout.write(`ready ${core.sequencer.lastSequence()}\n`);

let at = Date.UTC(2026, 10, 26) + (start * 2 + gateway) * AT_RANGE;
const stream = commandStream({
  seed: 1_000 * gateway + start,
  users: 200,
  traders: 20,
  idPrefix: `g${gateway}.${start}`,
});
/** The stream's next command, without the stream's own id and with an `at` of its own. */
function nextCommand(): MoneyCommand {
  const { id: _streamId, ...command } = stream.next().value!;
  at += 1;
  return { ...command, at } as MoneyCommand;
}

let inFlight = 0;
let stopping = false;
let allAnswered: (() => void) | null = null;
async function send(): Promise<void> {
  const command = nextCommand();
  inFlight += 1;
  try {
    const { seq, result } = await core.submit(command);
    if (core.sequencer.lastSequence() < seq) process.stdout.write(`behind ${command.at} ${seq}\n`);
    process.stdout.write(`ack ${command.at} ${seq} ${JSON.stringify(result)}\n`);
  } catch (error) {
    if (error instanceof ClusterUnavailableError) process.stdout.write(`unknown ${command.at}\n`);
    else process.stdout.write(`error ${command.at} ${String(error)}\n`);
  } finally {
    inFlight -= 1;
    if (inFlight === 0) allAnswered?.();
  }
}

// A steady rate: every 50 ms, a twentieth of a second's commands, as far as IN_FLIGHT allows.
const pacing = setInterval(() => {
  for (let n = 0; n < RATE / 20 && inFlight < IN_FLIGHT && !stopping; n++) void send();
}, 50);

function hashAt(seq: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const check = () => {
      const applied = core.sequencer.lastSequence();
      if (applied > seq) reject(new Error(`replica at ${applied}, past ${seq}`));
      if (applied !== seq) return false;
      resolve(moneyStateHash(core.state));
      return true;
    };
    if (check()) return;
    const unsubscribe = core.sequencer.subscribe(() => {
      if (check()) unsubscribe();
    });
  });
}

for await (const line of readline.createInterface({ input: process.stdin })) {
  if (line === 'stop') {
    stopping = true;
    clearInterval(pacing);
    if (inFlight > 0) await new Promise<void>((resolve) => (allAnswered = resolve));
    process.stdout.write('stopped\n');
  } else if (line.startsWith('hash ')) {
    const seq = Number(line.slice('hash '.length));
    process.stdout.write(`hash ${seq} ${await hashAt(seq)}\n`);
  }
}
