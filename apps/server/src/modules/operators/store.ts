import type { OperatorRole, OperatorStatus } from '@halyard/protocol';
import { type Generated, type Insertable, type Selectable, sql } from 'kysely';
import type { Database, Executor } from '../../store/database.ts';
import { containsPattern } from '../../store/dialect.ts';

export interface OperatorsTable {
  id: Generated<number>;
  email: string;
  password_hash: string;
  role: OperatorRole;
  status: OperatorStatus;
  totp_secret: string | null;
  totp_enrolled: number;
  /** The last TOTP time step accepted: a code of this step or an earlier one is refused. */
  totp_last_step: number | null;
  failed_attempts: number;
  locked_until: number | null;
  created_by: number | null;
  created_at: number;
  last_login_at: number | null;
}

export interface OperatorSessionsTable {
  id: Generated<number>;
  token_hash: string;
  operator_id: number;
  /** 1 once signed in with the second factor; 0: the session only enrols TOTP. */
  second_factor: number;
  created_at: number;
  last_seen_at: number;
  expires_at: number;
  revoked_at: number | null;
  ip: string | null;
}

export interface OperatorRecoveryCodesTable {
  operator_id: number;
  code_hash: string;
  used_at: number | null;
}

declare module '../../store/database.ts' {
  interface Database {
    operators: OperatorsTable;
    operator_sessions: OperatorSessionsTable;
    operator_recovery_codes: OperatorRecoveryCodesTable;
  }
}

export type OperatorRecord = Selectable<OperatorsTable>;
export type OperatorSessionRecord = Selectable<OperatorSessionsTable>;
/** operator_audit_log is declared by the identity module, which created it (migration 002); 030 added columns. */
type OperatorAuditLogTable = Database['operator_audit_log'];
export type AuditRecord = Selectable<OperatorAuditLogTable>;
export type NewAuditRecord = Insertable<OperatorAuditLogTable>;

export interface AuditFilter {
  operatorId?: number;
  action?: string;
  subject?: string;
  userId?: number;
  from?: number;
  to?: number;
}

/** The operators module's SQL; only its service calls it. */
export const operatorStore = {
  // ── accounts ──────────────────────────────────────────────────────────
  insertOperator(db: Executor, row: Insertable<OperatorsTable>): Promise<OperatorRecord> {
    return db.insertInto('operators').values(row).returningAll().executeTakeFirstOrThrow();
  },

  byId(db: Executor, id: number): Promise<OperatorRecord | undefined> {
    return db.selectFrom('operators').selectAll().where('id', '=', id).executeTakeFirst();
  },

  byEmail(db: Executor, email: string): Promise<OperatorRecord | undefined> {
    return db.selectFrom('operators').selectAll().where('email', '=', email).executeTakeFirst();
  },

  list(db: Executor): Promise<OperatorRecord[]> {
    return db.selectFrom('operators').selectAll().orderBy('id').execute();
  },

  async administratorExists(db: Executor): Promise<boolean> {
    const row = await db
      .selectFrom('operators')
      .select('id')
      .where('role', '=', 'administrator')
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  },

  async update(
    db: Executor,
    id: number,
    changes: Partial<Omit<Selectable<OperatorsTable>, 'id'>>,
  ): Promise<void> {
    await db.updateTable('operators').set(changes).where('id', '=', id).execute();
  },

  /** Counts a failed sign-in; the lock is set by the caller when the count reaches the limit. */
  async countFailure(db: Executor, id: number): Promise<number> {
    const row = await db
      .updateTable('operators')
      .set({ failed_attempts: sql`failed_attempts + 1` })
      .where('id', '=', id)
      .returning('failed_attempts')
      .executeTakeFirstOrThrow();
    return Number(row.failed_attempts);
  },

  /**
   * Records the TOTP time step accepted, only if it is later than the last one:
   * of two requests with the same code at once, exactly one wins.
   */
  async claimTotpStep(db: Executor, id: number, step: number): Promise<boolean> {
    const result = await db
      .updateTable('operators')
      .set({ totp_last_step: step })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  // ── sessions ──────────────────────────────────────────────────────────
  async insertSession(db: Executor, row: Insertable<OperatorSessionsTable>): Promise<void> {
    await db.insertInto('operator_sessions').values(row).execute();
  },

  liveSession(db: Executor, tokenHash: string, now: number): Promise<OperatorSessionRecord | undefined> {
    return db
      .selectFrom('operator_sessions')
      .selectAll()
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  },

  async touchSession(db: Executor, id: number, now: number): Promise<void> {
    await db.updateTable('operator_sessions').set({ last_seen_at: now }).where('id', '=', id).execute();
  },

  async upgradeSession(db: Executor, id: number): Promise<void> {
    await db.updateTable('operator_sessions').set({ second_factor: 1 }).where('id', '=', id).execute();
  },

  async revokeSession(db: Executor, id: number, now: number): Promise<void> {
    await db.updateTable('operator_sessions').set({ revoked_at: now }).where('id', '=', id).execute();
  },

  /** Ends the operator's sessions, all of them or all but `keep`. */
  async revokeSessionsOf(db: Executor, operatorId: number, now: number, keep?: number): Promise<void> {
    let query = db
      .updateTable('operator_sessions')
      .set({ revoked_at: now })
      .where('operator_id', '=', operatorId)
      .where('revoked_at', 'is', null);
    if (keep !== undefined) query = query.where('id', '<>', keep);
    await query.execute();
  },

  // ── recovery codes ────────────────────────────────────────────────────
  async replaceRecoveryCodes(db: Executor, operatorId: number, codeHashes: string[]): Promise<void> {
    await db.deleteFrom('operator_recovery_codes').where('operator_id', '=', operatorId).execute();
    await db
      .insertInto('operator_recovery_codes')
      .values(codeHashes.map((code_hash) => ({ operator_id: operatorId, code_hash, used_at: null })))
      .execute();
  },

  /** Marks an unused code used; false when it is unknown or was used already. */
  async useRecoveryCode(db: Executor, operatorId: number, codeHash: string, now: number): Promise<boolean> {
    const result = await db
      .updateTable('operator_recovery_codes')
      .set({ used_at: now })
      .where('operator_id', '=', operatorId)
      .where('code_hash', '=', codeHash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  // ── audit log (append-only: insert and select only) ───────────────────
  async appendAudit(db: Executor, entry: NewAuditRecord): Promise<void> {
    await db.insertInto('operator_audit_log').values(entry).execute();
  },

  async searchAudit(
    db: Executor,
    filter: AuditFilter,
    page: { offset: number; limit: number },
  ): Promise<{ rows: AuditRecord[]; total: number }> {
    let query = db.selectFrom('operator_audit_log');
    if (filter.operatorId !== undefined) query = query.where('operator_id', '=', filter.operatorId);
    if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
    if (filter.from !== undefined) query = query.where('at', '>=', filter.from);
    if (filter.to !== undefined) query = query.where('at', '<', filter.to);
    if (filter.action)
      query = query.where(sql<boolean>`lower(action) like ${containsPattern(filter.action)} escape '\\'`);
    if (filter.subject)
      query = query.where(sql<boolean>`lower(subject) like ${containsPattern(filter.subject)} escape '\\'`);
    const [rows, count] = await Promise.all([
      query.selectAll().orderBy('id', 'desc').offset(page.offset).limit(page.limit).execute(),
      query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },
};
