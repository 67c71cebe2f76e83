import { serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * Operator accounts of the back office (modules/operators, issue 18 item 1):
 * argon2id password, TOTP second factor (`totp_last_step`: the last time step
 * accepted, so a code is never accepted twice), hashed one-time recovery codes,
 * sessions with an idle and an absolute expiry, and a lock after failed
 * sign-ins. The append-only audit log (migration 002, its triggers kept) gains
 * who acted as an account, the subject, the HTTP status of a write and the IP.
 */
export const operatorsMigration: HalyardMigration = {
  async up(db, dialect) {
    const id = serialType(dialect);
    await db.schema
      .createTable('operators')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.notNull().unique())
      .addColumn('password_hash', 'text', (c) => c.notNull())
      .addColumn('role', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      // Base32; set at the first sign-in, confirmed by a code (totp_enrolled 1).
      .addColumn('totp_secret', 'text')
      .addColumn('totp_enrolled', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('totp_last_step', 'bigint')
      .addColumn('failed_attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('locked_until', 'bigint')
      .addColumn('created_by', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_login_at', 'bigint')
      .execute();

    await db.schema
      .createTable('operator_sessions')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('operator_id', 'bigint', (c) => c.notNull())
      // 0 while the operator has yet to confirm a TOTP code (enrolment only).
      .addColumn('second_factor', 'integer', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('last_seen_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .addColumn('ip', 'text')
      .execute();
    await db.schema
      .createIndex('operator_sessions_operator')
      .on('operator_sessions')
      .column('operator_id')
      .execute();

    await db.schema
      .createTable('operator_recovery_codes')
      .addColumn('operator_id', 'bigint', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .addPrimaryKeyConstraint('operator_recovery_codes_pk', ['operator_id', 'code_hash'])
      .execute();

    // Adding columns is no update of a row: the append-only triggers stay as they are.
    for (const [column, type] of [
      ['operator_id', 'bigint'],
      ['subject', 'text'],
      ['status', 'integer'],
      ['ip', 'text'],
    ] as const) {
      await db.schema.alterTable('operator_audit_log').addColumn(column, type).execute();
    }
    await db.schema.createIndex('operator_audit_log_at').on('operator_audit_log').column('at').execute();
    await db.schema
      .createIndex('operator_audit_log_operator')
      .on('operator_audit_log')
      .columns(['operator_id', 'id'])
      .execute();
  },
};
