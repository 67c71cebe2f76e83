import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { childBundle } from '../child-bundles.ts';
import { runUntilKilled } from '../core/journal/test-support.ts';
import { step } from '../core/sequencer/index.ts';
import { prng } from '../core/state/command-stream.ts';
import { moneyMachine } from '../core/state/index.ts';
import { ledgerProjectionWriter } from '../ledger/projection.ts';
import { auditLedgerProjection } from './audit.ts';
import { Projector } from './projector.ts';
import { startProjected } from './start.ts';
import { sharedTestDatabase } from './test-support.ts';

/**
 * A child process runs the money state with the ledger's projector on a real
 * journal and a real database (a SQLite file, or a PostgreSQL schema of its
 * own), and is killed with SIGKILL while it submits, projects and takes
 * snapshots, round after round. Then one more start: the projector catches
 * up, SQL equals the state and passes the ledger audit, and holds exactly the
 * transfers a fresh replay of the whole journal publishes, each once.
 */
const ROUNDS = 4;
const machine = moneyMachine({ epochSeqs: 1_000, epochsKept: 3 });

describe('kill -9 while the projector writes', () => {
  const seed = 20_261_129;
  it(`recovers a projection equal to the state, each transfer once (${ROUNDS} kills, seed ${seed})`, async () => {
    const random = prng(seed);
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'halyard-projection-kill-'));
    const db = await sharedTestDatabase(dir);
    try {
      // The child as a deployment runs it: bundled (child-bundles.ts).
      const child = await childBundle('src/projection/sigkill-child.ts');
      const starts: string[] = [];
      for (let round = 1; round <= ROUNDS; round++) {
        const lines = await runUntilKilled(
          child,
          [dir, String(round), db.arg],
          (line) => line.startsWith('r') || line.startsWith('open'),
          400 + random(1_200),
        );
        starts.push(lines[0]!);
      }
      // Each start but the first found a projection to resume, and some found it behind the journal.
      const opened = starts.map((line) => line.split(' ').slice(1).map(Number) as [number, number]);
      expect(opened[0]).toEqual([0, 0]);
      for (const [, watermark] of opened.slice(1)) expect(watermark).toBeGreaterThan(0);
      expect(opened.some(([journalSeq, watermark]) => watermark < journalSeq)).toBe(true);

      const store = await db.open();
      try {
        const projector = await Projector.open({
          db: store.db,
          writer: ledgerProjectionWriter(store.dialect),
        });
        const { sequencer, journal } = await startProjected(machine, dir, [projector]);
        const { report } = await auditLedgerProjection({
          db: store.db,
          projector,
          source: sequencer,
          timeoutMs: 60_000,
        });
        expect(report.breaches).toEqual([]);

        // A fresh replay of the whole journal: the transfers it publishes are the rows, each once.
        const fresh = machine.initialState();
        const transfers: string[] = [];
        for await (const record of journal.read(0)) {
          for (const event of step(machine, fresh, machine.decodeCommand(record.payload), record.seq).events)
            if (event.type === 'transfers') transfers.push(...event.transfers.map((transfer) => transfer.id));
        }
        const rows = await store.db.selectFrom('ledger_transfers').select('id').orderBy('seq').execute();
        expect(rows.map((row) => row.id)).toEqual(transfers);
        expect(transfers.length).toBeGreaterThan(500);
        await projector.close();
        await sequencer.close();
        await journal.close();
      } finally {
        await store.close();
      }
    } finally {
      await db.drop();
      await fs.rm(dir, { recursive: true, force: true });
    }
    // Four child processes start and run until killed: about 10 s alone, more beside other test files.
  }, 120_000);
});
