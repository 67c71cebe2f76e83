import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childBundle } from '../child-bundles.ts';
import { openFileJournal } from '../core/journal/index.ts';
import { runUntilKilled } from '../core/journal/test-support.ts';
import { type Published, step } from '../core/sequencer/index.ts';
import { prng } from '../core/state/command-stream.ts';
import { type MoneyEvent, moneyMachine } from '../core/state/index.ts';
import { CorePrints, isPrintEvent } from '../market/core-prints.ts';
import { PartialBars } from '../market/kline.ts';
import { barLine, storedBars } from '../market/test-support.ts';
import { insertStreamMarkets, sharedTestDatabase } from '../projection/test-support.ts';
import { MoneyCore } from './start.ts';

/**
 * The core as the server runs it, killed with SIGKILL twenty times: a child
 * process (sigkill-child.ts) runs MoneyCore on a real journal and database
 * (a SQLite file, or a PostgreSQL schema of its own), submitting spot orders,
 * transfers, holds and cycle contracts 128 at a time, with snapshots every
 * 50 ms and the projector writing every table in a worker thread, and
 * retrying the first commands of the round before. Each kill lands while
 * commands flow, the projector writes and, often, a snapshot is being
 * written. Then:
 *
 * - every acknowledged command is in the journal;
 * - a command journaled again (the retry) was answered from memory, not
 *   applied a second time: replaying the journal, it publishes nothing;
 * - one more start catches the projector up; the ledger's SQL equals the
 *   state (the audit), the ledger's transfers and the spot orders in SQL are
 *   exactly those a fresh replay of the whole journal publishes, each once;
 *   and the K-lines, merged rows that a print written twice would change,
 *   are the bars of that replay's trades, each counted once.
 */
const ROUNDS = 20;
const machine = moneyMachine();

describe('kill -9 of the core as the server runs it', () => {
  const seed = 20_261_201;
  it(`loses no acknowledged command, applies none twice, and projects SQL equal to the state (${ROUNDS} kills, seed ${seed})`, async () => {
    const random = prng(seed);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'halyard-core-kill-'));
    const dataDir = path.join(dir, 'data');
    const db = await sharedTestDatabase(dir);
    try {
      const prepared = await db.open();
      await insertStreamMarkets(prepared.db);
      await prepared.close();

      // The child as a deployment runs it: bundled, plain JavaScript (child-bundles.ts).
      const child = await childBundle('src/money-core/sigkill-child.ts');
      const acknowledged: string[] = [];
      const opened: [number, number, number][] = [];
      let killedWhileSnapshotting = 0;
      const rates: number[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const lines = await runUntilKilled(
          child,
          [dataDir, String(round), db.arg],
          (line) => /^(r|open|speed|snapshot)/.test(line),
          300 + random(1_200),
        );
        const [open, ...rest] = lines;
        opened.push(open!.split(' ').slice(1).map(Number) as [number, number, number]);
        acknowledged.push(...rest.filter((line) => line.startsWith('r')));
        const speeds = rest
          .filter((line) => line.startsWith('speed'))
          .map((line) => Number(line.split(' ')[1]));
        if (speeds.length > 0) rates.push(speeds.at(-1)!);
        // The child's last word on snapshots was that one began: the kill came while it was being written.
        if (rest.findLast((line) => line.startsWith('snapshot')) === 'snapshot begins')
          killedWhileSnapshotting += 1;
      }
      // Kills came while a snapshot was being written, and while the projection was behind the journal.
      expect(killedWhileSnapshotting).toBeGreaterThan(0);
      expect(opened.filter(([journalSeq, watermark]) => watermark < journalSeq).length).toBeGreaterThan(0);
      // And yet every start answered nothing before SQL held the journal: a read right after a crash sees it.
      for (const [journalSeq, , caughtUp] of opened) expect(caughtUp).toBe(journalSeq);
      console.log(
        `${ROUNDS} kills: ${acknowledged.length} commands acknowledged, ${killedWhileSnapshotting} kills while a snapshot was written, ` +
          `${opened.filter(([journalSeq, watermark]) => watermark < journalSeq).length} starts with the projection behind, ` +
          `commands/s from each child's start to its kill: ${rates.join(', ')}`,
      );

      // Every acknowledged command is journaled; a repeat of an id publishes nothing and answers the first result.
      const journal = await openFileJournal(`${dataDir}/journal`);
      const fresh = machine.initialState();
      const journaled = new Map<string, string>();
      const transfers: string[] = [];
      let spotOrders = 0;
      const printed: Published<MoneyEvent>[] = [];
      for await (const record of journal.read(0)) {
        const command = machine.decodeCommand(record.payload);
        const { result, events } = step(machine, fresh, command, record.seq);
        const first = command.id === undefined ? undefined : journaled.get(command.id);
        if (first !== undefined) {
          expect(events, command.id).toEqual([]);
          expect(JSON.stringify(result), command.id).toBe(first);
        } else if (command.id !== undefined) journaled.set(command.id, JSON.stringify(result));
        for (const event of events) {
          if (event.type === 'transfers') transfers.push(...event.transfers.map((transfer) => transfer.id));
          if (event.type === 'spotOrderAccepted') spotOrders += 1;
        }
        if (events.some(isPrintEvent)) printed.push({ seq: record.seq, events: events.filter(isPrintEvent) });
      }
      await journal.close();
      for (const line of acknowledged) expect(journaled.has(line), line).toBe(true);

      const store = await db.open();
      const core = await MoneyCore.start({
        dataDir,
        db: store.db,
        dialect: store.dialect,
        workerStore: db.where,
        now: () => Date.UTC(2026, 10, 26),
      });
      try {
        const { seq, report } = await core.audit(60_000);
        expect(report.breaches).toEqual([]);
        expect(seq).toBe(core.sequencer.lastSequence());
        const rows = await store.db.selectFrom('ledger_transfers').select('id').orderBy('seq').execute();
        expect(rows.map((row) => row.id)).toEqual(transfers);
        expect(transfers.length).toBeGreaterThan(5_000);
        const orders = await store.db
          .selectFrom('spot_orders')
          .select((eb) => eb.fn.countAll().as('n'))
          .execute();
        expect(Number(orders[0]!.n)).toBe(spotOrders);
        const bars = new PartialBars();
        for (const { kind, pair, print } of await new CorePrints().of(store.db, printed))
          bars.record(kind, pair, print);
        const expected = [...bars.take().values()].map(barLine).sort();
        // Every spot pair's bars (the stream has no index prices), each round's trades merged into the same
        // few bars: every round's stream starts at the same time.
        expect(new Set(expected.map((line) => line.split('|').slice(0, 2).join('|')))).toEqual(
          new Set(['trad|BTC/USDT', 'trad|ETH/USDT', 'trad|SOL/USDT', 'trad|HAL/USDT']),
        );
        expect(await storedBars(store.db)).toEqual(expected);
      } finally {
        await core.close();
        await store.close();
      }
    } finally {
      await db.drop();
      await fs.rm(dir, { recursive: true, force: true });
    }
    // Twenty children start with two worker threads each, and run until killed: about 40 s alone.
  }, 300_000);
});
