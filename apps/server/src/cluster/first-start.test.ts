import { Dec } from '@halyard/money';
import { connect, nuid } from '@nats-io/transport-node';
import { describe, expect, it } from 'vitest';
import { ManualClock } from '../clock.ts';
import { eventually, NATS_SERVERS, skipWithoutNats } from '../core/journal-jetstream/test-support.ts';
import { moneyStateHash } from '../core/state/index.ts';
import { accountMapKeyOf, createLedger, systemAccount, userAccount } from '../ledger/index.ts';
import { moneyProjection } from '../money-core/writers.ts';
import { watermarkStore } from '../projection/store.ts';
import { openTestStore } from '../store/connect.ts';
import { clusterNames, type NodeAudit } from './protocol.ts';
import { askNode, InProcessCluster } from './test-support.ts';

/**
 * A single process moved to a cluster (docs/cluster.md, "Moving a single
 * process to a cluster"): balances and a hold written by the SQL ledger, and
 * a watermark such as a single process on the core leaves; then
 * a gateway and a sequencer node started on the same database. The node
 * takes the lease on an empty stream and writes snapshot 0 from SQL; the
 * gateway, which started before it from nothing, takes that snapshot
 * before its first record. A transfer the balances alone allow goes
 * through; the gateway's state and the leader's agree; the leader's ledger
 * audit of SQL against its state is clean.
 *
 * PostgreSQL only (a cluster keeps its record there), against this
 * machine's NATS; skipped without either.
 */
const skip = (await skipWithoutNats()) || !process.env.TEST_DATABASE_URL;

describe.skipIf(skip)("a cluster's first start on a database that holds balances", () => {
  it('starts every replica from the balances SQL holds, and the audit of SQL against the state is clean', async () => {
    const store = await openTestStore();
    const names = clusterNames(`test_first_start_${nuid.next()}`);
    const nc = await connect({ servers: NATS_SERVERS });
    const alice = userAccount(1, 'spot');
    const bob = userAccount(2, 'spot');
    const USDT = (amount: string) => ({ asset: 'USDT', amount: Dec.parse(amount) });
    const cluster = new InProcessCluster(nc, names, store);
    try {
      await createLedger(store, new ManualClock()).execute([
        { id: 'grant', code: 'deposit', debit: systemAccount('treasury'), credit: alice, ...USDT('1000') },
        { id: 'pay', code: 'transfer', debit: alice, credit: bob, ...USDT('10') },
        {
          id: 'hold',
          type: 'pending',
          code: 'order',
          debit: alice,
          credit: systemAccount('clearing'),
          ...USDT('50'),
        },
      ]);
      // A single process on the core leaves its own journal's watermark: the new stream starts from 0.
      await watermarkStore.open(store.db, moneyProjection.name);
      await watermarkStore.advance(store.db, moneyProjection.name, 0, 1_234);
      // Up before any node: its replica starts from nothing and must take snapshot 0 before its first record.
      const gateway = await cluster.gateway();
      // The watermark it read counts another journal: it must not answer that SQL holds this stream's sequence 1.
      let projectedEarly = false;
      gateway.projected(1).then(
        () => (projectedEarly = true),
        () => undefined,
      );
      await new Promise((resolve) => setImmediate(resolve));
      expect(projectedEarly).toBe(false);
      const lines: string[] = [];
      const node = await cluster.node('a', (line) => lines.push(line));
      const stopped = node.ended.then((why) => {
        throw new Error(`the node stopped: ${why}`);
      });
      await Promise.race([eventually(() => node.status().projected !== null), stopped]);

      // 940 available to alice (1000 - 10 - 50 held): a payment of 900 needs the balances SQL held.
      const { seq, result } = await gateway.submit({
        kind: 'transfer',
        at: Date.now(),
        batch: [{ id: 'big-pay', code: 'transfer', debit: alice, credit: bob, ...USDT('900') }],
      });
      expect(result).toMatchObject({ ok: true });
      const account = (ref: typeof alice) => gateway.state.ledger.accounts.get(accountMapKeyOf(ref, 'USDT'));
      expect(account(alice)).toMatchObject({
        debitsPosted: Dec.parse('910'),
        debitsPending: Dec.parse('50'),
      });
      expect(account(bob)).toMatchObject({ creditsPosted: Dec.parse('910') });

      const hash = await askNode<{ seq: number; hash: string }>(nc, names.subjects.node('a'), 'hash');
      expect(hash).toEqual({ seq, hash: moneyStateHash(gateway.state) });
      await eventually(() => node.status().projected === seq);
      const audit = await askNode<NodeAudit>(nc, names.subjects.node('a'), 'audit');
      expect(audit.seq).toBe(seq);
      expect(audit.report.breaches).toEqual([]);
      expect(lines).toContain('node a: wrote snapshot 0 from SQL');
      expect(lines).toContain("node a: SQL's watermark 1234 (a single process's journal) set back to 0");
    } finally {
      await cluster.close();
      await nc.close();
      await store.close();
    }
  });
});
