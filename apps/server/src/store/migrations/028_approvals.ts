import { serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Four-eyes approvals (modules/approvals, issue 18 item 3): an operator's
 * request of a sensitive action (a balance adjustment, a large withdrawal's
 * release, a role change, a market listing) waits here until a second,
 * different operator approves or rejects it; the outcome of its execution is
 * kept on the row. `subject` names what the request is about (e.g.
 * `withdrawal:12`) so a second request for the same thing finds the first.
 */
export const approvalsMigration: HalyardMigration = {
  async up(db, dialect) {
    await db.schema
      .createTable('approval_requests')
      .addColumn('id', serialType(dialect), (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('subject', 'text')
      // JSON of the validated payload the handler executes.
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('requested_by', 'text', (c) => c.notNull())
      .addColumn('requested_by_email', 'text', (c) => c.notNull())
      .addColumn('requested_at', 'bigint', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('decided_by', 'text')
      .addColumn('decided_by_email', 'text')
      .addColumn('decided_at', 'bigint')
      .addColumn('decision_reason', 'text')
      // JSON: what the execution answered, or the error key and params it failed with.
      .addColumn('result', 'text')
      .addColumn('error', 'text')
      .execute();
    await db.schema
      .createIndex('approval_requests_status')
      .on('approval_requests')
      .columns(['status', 'id'])
      .execute();
    await db.schema
      .createIndex('approval_requests_subject')
      .on('approval_requests')
      .columns(['kind', 'subject'])
      .execute();
  },
};
