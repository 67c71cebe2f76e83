import { Dec } from '@halyard/money';
import { type Kysely, sql } from 'kysely';
import { idKeyType, moneyType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Token launches (issue 15): linear vesting and a stored commit total.
 * A tranche may release continuously until `until` (null: all at
 * `release_at`), so it records what of it was released so far and when its
 * next release is due (`next_release_at`: the scheduler reads only tranches
 * with something to release, not every vesting one on every tick). Commit-mode
 * projects keep their running total committed per pay coin, written with each
 * commitment, so the project list no longer reads every order.
 */
export const ieoLinearVestingCommitTotalsMigration: HalyardMigration = {
  async up(db, dialect) {
    const money = sql.raw(moneyType(dialect));
    await db.schema.alterTable('ieo_tranches').addColumn('until', 'bigint').execute();
    await db.schema
      .alterTable('ieo_tranches')
      .addColumn('released_amount', money, (c) => c.notNull().defaultTo('0'))
      .execute();
    await sql`update ieo_tranches set released_amount = amount where released_at is not null`.execute(db);
    await db.schema
      .alterTable('ieo_tranches')
      .addColumn('next_release_at', 'bigint', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update ieo_tranches set next_release_at = release_at`.execute(db);
    await db.schema.dropIndex('ieo_tranches_due').execute();
    await db.schema
      .createIndex('ieo_tranches_due_idx')
      .on('ieo_tranches')
      .columns(['released_at', 'next_release_at'])
      .execute();

    await db.schema
      .createTable('ieo_commit_totals')
      .addColumn('project_id', idKeyType(dialect), (c) => c.notNull())
      .addColumn('paycoin', 'text', (c) => c.notNull())
      .addColumn('committed', money, (c) => c.notNull())
      .addColumn('participants', 'integer', (c) => c.notNull())
      .addPrimaryKeyConstraint('ieo_commit_totals_pk', ['project_id', 'paycoin'])
      .execute();
    await backfillCommitTotals(db);
  },
};

interface CommitRow {
  project_id: number | string;
  paycoin: string;
  amount: string;
}

/** Sums the commitments made before this migration, exactly (SQLite keeps amounts as text). */
async function backfillCommitTotals(db: Kysely<unknown>): Promise<void> {
  const { rows } = await sql<CommitRow>`
    select o.project_id, o.paycoin, o.amount from ieo_orders o
    join ieo_projects p on p.id = o.project_id where p.mode = 'commit'`.execute(db);
  const totals = new Map<
    string,
    { projectId: number; paycoin: string; committed: Dec; participants: number }
  >();
  for (const row of rows) {
    const key = `${row.project_id}:${row.paycoin}`;
    const total = totals.get(key) ?? {
      projectId: Number(row.project_id),
      paycoin: row.paycoin,
      committed: Dec.ZERO,
      participants: 0,
    };
    total.committed = total.committed.add(Dec.parse(String(row.amount)));
    total.participants += 1;
    totals.set(key, total);
  }
  for (const total of totals.values())
    await sql`insert into ieo_commit_totals (project_id, paycoin, committed, participants)
      values (${total.projectId}, ${total.paycoin}, ${total.committed.toString()}, ${total.participants})`.execute(
      db,
    );
}
