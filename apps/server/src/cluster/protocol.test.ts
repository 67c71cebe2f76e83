import type { Msg, NatsConnection } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { eventually, skipWithoutNats, useJetStream } from '../core/journal-jetstream/test-support.ts';
import { SequencerBusyError, step } from '../core/sequencer/index.ts';
import { commandStream } from '../core/state/command-stream.ts';
import { moneyMachine } from '../core/state/index.ts';
import {
  ClusterRefusedError,
  ClusterUnavailableError,
  commandIds,
  decodeJson,
  encodeJson,
  type SubmitReply,
  submitToLeader,
} from './protocol.ts';

const skip = await skipWithoutNats();

describe('the cluster protocol', () => {
  it('carries every result of a whole command stream as JSON, unchanged', () => {
    const machine = moneyMachine();
    const state = machine.initialState();
    const options = { seed: 7, users: 40, traders: 10, referral: true, cycle: true, ieo: true };
    let seq = 0;
    for (const command of commandStream({ ...options, fiat: true, futures: true, walletFlows: true })) {
      if (++seq > 3_000) break;
      const { result } = step(machine, state, machine.decodeCommand(machine.encodeCommand(command)), seq);
      // Strict: a class (Dec), a bigint or an undefined field would not come back the same.
      expect(decodeJson(encodeJson(result))).toStrictEqual(result);
    }
  });

  it('gives ids unique to each gateway process', () => {
    const [a, b] = [commandIds(), commandIds()];
    const ids = new Set([a(), a(), b(), b()]);
    expect(ids.size).toBe(4);
  });
});

describe.skipIf(skip)('a command sent to the leader', () => {
  const nats = useJetStream();
  const payload = encodeJson({ kind: 'faucet', at: 1, id: 'x' });
  const options = { deadlineMs: 2_000, attemptTimeoutMs: 200 };

  /** A leader on `subject` answering each request with what `answer` says (nothing for null). */
  const leader = (subject: string, answer: (message: Msg, n: number) => SubmitReply | null) => {
    let n = 0;
    const received: string[] = [];
    const sub = nats.nc().subscribe(subject, {
      callback: (_error, message) => {
        received.push(new TextDecoder().decode(message.data));
        const reply = answer(message, n++);
        if (reply) message.respond(encodeJson(reply));
      },
    });
    return { received, stop: () => sub.unsubscribe() };
  };
  const answered: SubmitReply = { seq: 7, result: { ok: true, transfers: ['t'] } };

  it('is sent again, the same bytes, while no leader listens, and answered once one does', async () => {
    const subject = nats.name('late');
    let attempts = 0;
    const counting = {
      request: (...args: Parameters<NatsConnection['request']>) => {
        attempts += 1;
        return nats.nc().request(...args);
      },
    };
    const sent = submitToLeader(counting, subject, payload, options);
    await eventually(() => attempts >= 2);
    const late = leader(subject, () => answered);
    expect(await sent).toEqual(answered);
    expect(late.received).toEqual([new TextDecoder().decode(payload)]);
    late.stop();
  });

  it('is sent again after a leader kept it unanswered (it died holding it), or was stepping down', async () => {
    const subject = nats.name('dropped');
    const flaky = leader(subject, (_message, n) =>
      n === 0 ? null : n === 1 ? { refused: 'stopping', message: 'stepping down' } : answered,
    );
    expect(await submitToLeader(nats.nc(), subject, payload, options)).toEqual(answered);
    expect(new Set(flaky.received).size).toBe(1);
    expect(flaky.received).toHaveLength(3);
    flaky.stop();
  });

  it('throws ClusterUnavailableError past the deadline: the outcome is unknown, not refused', async () => {
    const subject = nats.name('none');
    const silent = leader(subject, () => null);
    await expect(submitToLeader(nats.nc(), subject, payload, options)).rejects.toBeInstanceOf(
      ClusterUnavailableError,
    );
    expect(silent.received.length).toBeGreaterThan(1);
    silent.stop();
    await expect(
      submitToLeader(nats.nc(), nats.name('nobody'), payload, { ...options, deadlineMs: 300 }),
    ).rejects.toThrow(/outcome is unknown/);
  });

  it('passes on a full intake as SequencerBusyError and a command never takeable as ClusterRefusedError', async () => {
    const subject = nats.name('refusing');
    const refusing = leader(subject, (_message, n) =>
      n === 0 ? { refused: 'busy', queueMax: 10 } : { refused: 'invalid', message: 'a command needs an id' },
    );
    await expect(submitToLeader(nats.nc(), subject, payload, options)).rejects.toBeInstanceOf(
      SequencerBusyError,
    );
    await expect(submitToLeader(nats.nc(), subject, payload, options)).rejects.toBeInstanceOf(
      ClusterRefusedError,
    );
    refusing.stop();
  });
});
