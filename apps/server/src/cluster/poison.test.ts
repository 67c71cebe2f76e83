import { Dec } from '@halyard/money';
import { connect, nuid } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { eventually, NATS_SERVERS, skipWithoutNats } from '../core/journal-jetstream/test-support.ts';
import { type MoneyCommand, moneyStateHash } from '../core/state/index.ts';
import { systemAccount, userAccount } from '../ledger/index.ts';
import { openTestStore } from '../store/connect.ts';
import { ClusterRefusedError, clusterNames } from './protocol.ts';
import { askNode, InProcessCluster } from './test-support.ts';

/**
 * A command the money state throws on (a bug: refusals are results, not
 * throws) stops the leader's sequencer, which is right: its state may be
 * half-changed. Its gateway must not send it again to the next leader, as it
 * does with the commands a failover left unanswered, or it stops every
 * sequencer of the cluster in turn. Here the leader refuses it as `invalid`
 * and ends; the standby takes over and goes on taking commands; the command
 * is in no journal, so every copy of the state agrees.
 *
 * PostgreSQL only (a cluster keeps its record there), against this
 * machine's NATS; skipped without either.
 */
const skip = (await skipWithoutNats()) || !process.env.TEST_DATABASE_URL;

describe.skipIf(skip)('a command the state throws on, sent through a gateway', () => {
  it('stops only the leader that met it: the gateway does not send it again, and the standby takes over', async () => {
    const store = await openTestStore();
    const names = clusterNames(`test_poison_${nuid.next()}`);
    const nc = await connect({ servers: NATS_SERVERS });
    const cluster = new InProcessCluster(nc, names, store);
    const alice = userAccount(1, 'spot');
    let transfers = 0;
    const grant = (): MoneyCommand => ({
      kind: 'transfer',
      at: Date.now(),
      batch: [
        {
          id: `grant-${++transfers}`,
          code: 'deposit',
          debit: systemAccount('treasury'),
          credit: alice,
          asset: 'USDT',
          amount: Dec.parse('10'),
        },
      ],
    });
    try {
      const gateway = await cluster.gateway();
      const first = await cluster.node('a');
      await eventually(() => first.status().role === 'leader');
      const standby = await cluster.node('b');
      expect((await gateway.submit(grant())).result).toMatchObject({ ok: true });

      // What the edge would never build: the state reads a field of a pair that is not there.
      const poisoned = { kind: 'openPair', at: Date.now(), pair: null } as unknown as MoneyCommand;
      await expect(gateway.submit(poisoned)).rejects.toBeInstanceOf(ClusterRefusedError);
      expect(await first.ended).toMatch(/made the state throw/);
      // Its process exits (sequencer-role.ts), and its lease with it: here, closing it stands for that.
      await first.close();

      await eventually(() => standby.status().role === 'leader');
      const after = await gateway.submit(grant());
      expect(after.result).toMatchObject({ ok: true });
      const hash = await askNode<{ seq: number; hash: string }>(nc, names.subjects.node('b'), 'hash');
      expect(hash).toEqual({ seq: after.seq, hash: moneyStateHash(gateway.state) });
      // Two grants, and nothing of the command that threw, in either state.
      expect(gateway.state.ledger.transfers.has('grant-2')).toBe(true);
      const stillLeading = await Promise.race([standby.ended, Promise.resolve('leading')]);
      expect(stillLeading).toBe('leading');
    } finally {
      await cluster.close();
      await nc.close();
      await store.close();
    }
  }, 60_000);
});
