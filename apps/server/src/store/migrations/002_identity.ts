import { type Kysely, sql } from 'kysely';
import type { DialectName } from '../dialect.ts';
import { serialType } from '../dialect.ts';
import type { HalyardMigration } from '../migrate.ts';

/**
 * The identity module's tables: users, sessions, verification codes, the dev
 * outbox, login failures, SIWE nonces, uploads, KYC submissions, freezes and
 * the operator audit log. Times are integer milliseconds since the epoch.
 */
export const identityMigration: HalyardMigration = {
  async up(db, dialect) {
    const id = serialType(dialect);

    await db.schema
      .createTable('users')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('email', 'text', (c) => c.unique())
      .addColumn('area_code', 'text')
      .addColumn('phone', 'text')
      .addColumn('wallet_address', 'text', (c) => c.unique())
      .addColumn('password_hash', 'text')
      .addColumn('pay_password_hash', 'text')
      .addColumn('invitation_code', 'text', (c) => c.notNull().unique())
      .addColumn('parent_id', 'bigint')
      .addColumn('locked_until', 'bigint')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('users_phone').unique().on('users').columns(['area_code', 'phone']).execute();
    await db.schema.createIndex('users_parent').on('users').column('parent_id').execute();

    await db.schema
      .createTable('sessions')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('token_hash', 'text', (c) => c.notNull().unique())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('device', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('revoked_at', 'bigint')
      .execute();
    await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

    await db.schema
      .createTable('verification_codes')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('account', 'text', (c) => c.notNull())
      .addColumn('purpose', 'text', (c) => c.notNull())
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('salt', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('wrong_tries', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('closed_at', 'bigint')
      .execute();
    await db.schema
      .createIndex('verification_codes_account')
      .on('verification_codes')
      .columns(['account', 'purpose', 'created_at'])
      .execute();

    await db.schema
      .createTable('dev_outbox')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('channel', 'text', (c) => c.notNull())
      .addColumn('recipient', 'text', (c) => c.notNull())
      .addColumn('subject', 'text', (c) => c.notNull())
      .addColumn('body', 'text', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('login_failures')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('account', 'text', (c) => c.notNull())
      .addColumn('failed_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('login_failures_account')
      .on('login_failures')
      .columns(['account', 'failed_at'])
      .execute();

    await db.schema
      .createTable('siwe_nonces')
      .addColumn('nonce', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .addColumn('expires_at', 'bigint', (c) => c.notNull())
      .addColumn('used_at', 'bigint')
      .execute();

    await db.schema
      .createTable('uploads')
      .addColumn('name', 'text', (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('size_bytes', 'bigint', (c) => c.notNull())
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();

    await db.schema
      .createTable('kyc_submissions')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('real_name', 'text', (c) => c.notNull())
      .addColumn('id_number', 'text', (c) => c.notNull())
      .addColumn('photo_url', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('reason', 'text')
      .addColumn('submitted_at', 'bigint', (c) => c.notNull())
      .addColumn('decided_at', 'bigint')
      .addColumn('decided_by', 'text')
      .execute();
    await db.schema.createIndex('kyc_submissions_user').on('kyc_submissions').column('user_id').execute();

    await db.schema
      .createTable('freezes')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('user_id', 'bigint', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('set_by', 'text', (c) => c.notNull())
      .addColumn('starts_at', 'bigint', (c) => c.notNull())
      .addColumn('ends_at', 'bigint', (c) => c.notNull())
      .addColumn('lifted_at', 'bigint')
      .addColumn('lifted_by', 'text')
      .execute();
    await db.schema.createIndex('freezes_user').on('freezes').column('user_id').execute();

    await db.schema
      .createTable('operator_audit_log')
      .addColumn('id', id, (c) => c.primaryKey())
      .addColumn('at', 'bigint', (c) => c.notNull())
      .addColumn('operator', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('user_id', 'bigint')
      .addColumn('details', 'text', (c) => c.notNull())
      .execute();
    await forbidAuditRewrites(db, dialect);
  },
};

/** A6: the audit log is append-only, enforced by the database itself, not only by the code. */
async function forbidAuditRewrites(db: Kysely<unknown>, dialect: DialectName): Promise<void> {
  if (dialect === 'sqlite') {
    for (const event of ['update', 'delete']) {
      await sql
        .raw(
          `create trigger operator_audit_log_no_${event} before ${event} on operator_audit_log
           begin select raise(abort, 'operator_audit_log is append-only'); end`,
        )
        .execute(db);
    }
    return;
  }
  await sql
    .raw(
      `create function operator_audit_log_append_only() returns trigger language plpgsql as $$
       begin raise exception 'operator_audit_log is append-only'; end $$`,
    )
    .execute(db);
  await sql
    .raw(
      `create trigger operator_audit_log_no_rewrite before update or delete on operator_audit_log
       for each row execute function operator_audit_log_append_only()`,
    )
    .execute(db);
}
