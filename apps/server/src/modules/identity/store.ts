import { type Generated, type Insertable, type Selectable, sql } from 'kysely';
import type { Executor } from '../../store/database.ts';
import { containsPattern } from '../../store/dialect.ts';

export interface UsersTable {
  id: Generated<number>;
  email: string | null;
  area_code: string | null;
  phone: string | null;
  wallet_address: string | null;
  password_hash: string | null;
  pay_password_hash: string | null;
  invitation_code: string;
  parent_id: number | null;
  /** Withdrawals and fiat deposits are blocked until then (24 h after a password change or reset). */
  locked_until: number | null;
  created_at: number;
}

export interface SessionsTable {
  id: Generated<number>;
  token_hash: string;
  user_id: number;
  device: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
  /** Where the session was opened from (migration 029; null for older sessions). */
  ip: string | null;
  user_agent: string | null;
}

/** How an attempt signed in: a password, a wallet signature, or the registration itself. */
export type LoginMethod = 'password' | 'wallet' | 'register';
/** `unknownAccount`: nobody has the account named; `locked`: refused by the brute-force guard unchecked. */
export type LoginOutcome = 'success' | 'wrongPassword' | 'unknownAccount' | 'locked' | 'failed';

/** Every sign-in attempt (migration 029): the operator's login history of a user. */
export interface LoginHistoryTable {
  id: Generated<number>;
  user_id: number | null;
  /** The account as it was named: an email, "+86 138…", or a wallet address. */
  account: string;
  method: LoginMethod;
  result: LoginOutcome;
  ip: string | null;
  user_agent: string | null;
  device: string;
  at: number;
}

export interface VerificationCodesTable {
  id: Generated<number>;
  account: string;
  purpose: string;
  code_hash: string;
  salt: string;
  created_at: number;
  expires_at: number;
  wrong_tries: Generated<number>;
  /** Set when the code is used, superseded by a newer one or exhausted by wrong tries. */
  closed_at: number | null;
}

export interface LoginFailuresTable {
  id: Generated<number>;
  account: string;
  failed_at: number;
}

export interface SiweNoncesTable {
  nonce: string;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

export interface UploadsTable {
  name: string;
  user_id: number;
  content_type: string;
  size_bytes: number;
  created_at: number;
}

export type KycState = 'review' | 'failed' | 'succeeded';

export interface KycSubmissionsTable {
  id: Generated<number>;
  user_id: number;
  real_name: string;
  id_number: string;
  photo_url: string;
  state: KycState;
  reason: string | null;
  submitted_at: number;
  decided_at: number | null;
  decided_by: string | null;
}

export interface FreezesTable {
  id: Generated<number>;
  user_id: number;
  reason: string;
  set_by: string;
  starts_at: number;
  ends_at: number;
  lifted_at: number | null;
  lifted_by: string | null;
}

export interface OperatorAuditLogTable {
  id: Generated<number>;
  at: number;
  operator: string;
  action: string;
  user_id: number | null;
  /** JSON of the action's inputs. */
  details: string;
  /** Migration 030 (modules/operators): the operator account, what was acted on, a write's HTTP status, the IP. */
  operator_id: number | null;
  subject: string | null;
  status: number | null;
  ip: string | null;
}

declare module '../../store/database.ts' {
  interface Database {
    users: UsersTable;
    sessions: SessionsTable;
    verification_codes: VerificationCodesTable;
    login_failures: LoginFailuresTable;
    siwe_nonces: SiweNoncesTable;
    uploads: UploadsTable;
    kyc_submissions: KycSubmissionsTable;
    freezes: FreezesTable;
    operator_audit_log: OperatorAuditLogTable;
    login_history: LoginHistoryTable;
  }
}

export type UserRow = Selectable<UsersTable>;
export type VerificationCodeRow = Selectable<VerificationCodesTable>;
export type KycSubmissionRow = Selectable<KycSubmissionsTable>;
export type FreezeRow = Selectable<FreezesTable>;
export type AuditRow = Selectable<OperatorAuditLogTable>;
export type UploadRow = Selectable<UploadsTable>;
export type SessionRow = Selectable<SessionsTable>;
export type LoginHistoryRow = Selectable<LoginHistoryTable>;

/** What an operator's user search may match; each part is optional and any match counts. */
export interface UserSearch {
  id: number | null;
  /** Matched as a part of the email or phone, case-insensitively (LIKE wildcards escaped). */
  contains: string;
  /** Matched whole: an invitation code (upper case) or a wallet address (lower case). */
  invitationCode: string;
  walletAddress: string;
  /** Owners of a matching deposit address (the wallet module's, looked up by the caller). */
  userIds: readonly number[];
}

/** The identity module's SQL. Only `service.ts` calls it. */
export const identityStore = {
  // ── users ────────────────────────────────────────────────────────────
  async insertUser(db: Executor, user: Insertable<UsersTable>): Promise<number> {
    const row = await db.insertInto('users').values(user).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  },

  userById(db: Executor, id: number): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirst();
  },

  userByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('email', '=', email).executeTakeFirst();
  },

  userByPhone(db: Executor, areaCode: string, phone: string): Promise<UserRow | undefined> {
    return db
      .selectFrom('users')
      .selectAll()
      .where('area_code', '=', areaCode)
      .where('phone', '=', phone)
      .executeTakeFirst();
  },

  userByWallet(db: Executor, address: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('wallet_address', '=', address).executeTakeFirst();
  },

  userByInvitationCode(db: Executor, code: string): Promise<UserRow | undefined> {
    return db.selectFrom('users').selectAll().where('invitation_code', '=', code).executeTakeFirst();
  },

  usersByParent(db: Executor, parentId: number): Promise<Pick<UserRow, 'id' | 'created_at'>[]> {
    return db
      .selectFrom('users')
      .select(['id', 'created_at'])
      .where('parent_id', '=', parentId)
      .orderBy('id', 'asc')
      .execute();
  },

  /** Users matching any part of `search`, newest first, and how many match in all. */
  async searchUsers(
    db: Executor,
    search: UserSearch,
    offset: number,
    limit: number,
  ): Promise<{ rows: UserRow[]; total: number }> {
    const pattern = containsPattern(search.contains);
    const matching = db.selectFrom('users').where((eb) => {
      const parts = [
        eb(sql<string>`lower(email)`, 'like', sql<string>`${pattern} escape '\\'`),
        eb(
          sql<string>`coalesce(area_code, '') || ' ' || coalesce(phone, '')`,
          'like',
          sql<string>`${pattern} escape '\\'`,
        ),
        eb('invitation_code', '=', search.invitationCode),
        eb(sql<string>`lower(wallet_address)`, '=', search.walletAddress),
      ];
      if (search.id !== null) parts.push(eb('id', '=', search.id));
      if (search.userIds.length > 0) parts.push(eb('id', 'in', [...search.userIds]));
      return eb.or(parts);
    });
    const [rows, count] = await Promise.all([
      matching.selectAll().orderBy('id', 'desc').offset(offset).limit(limit).execute(),
      matching.select((eb) => eb.fn.countAll<number | string>().as('total')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.total) };
  },

  /** How many users there are, and how many registered at or after `since`. */
  async userCounts(db: Executor, since: number): Promise<{ total: number; since: number }> {
    const row = await db
      .selectFrom('users')
      .select((eb) => [
        eb.fn.countAll<number | string>().as('total'),
        eb.fn
          .sum<number | string | null>(eb.case().when('created_at', '>=', since).then(1).else(0).end())
          .as('recent'),
      ])
      .executeTakeFirstOrThrow();
    return { total: Number(row.total), since: Number(row.recent ?? 0) };
  },

  async updateUser(
    db: Executor,
    id: number,
    changes: Partial<
      Pick<UserRow, 'email' | 'area_code' | 'phone' | 'password_hash' | 'pay_password_hash' | 'locked_until'>
    >,
  ): Promise<void> {
    await db.updateTable('users').set(changes).where('id', '=', id).execute();
  },

  // ── sessions ─────────────────────────────────────────────────────────
  async insertSession(db: Executor, session: Insertable<SessionsTable>): Promise<void> {
    await db.insertInto('sessions').values(session).execute();
  },

  liveSessionUser(
    db: Executor,
    tokenHash: string,
    now: number,
  ): Promise<{ user_id: number; expires_at: number } | undefined> {
    return db
      .selectFrom('sessions')
      .select(['user_id', 'expires_at'])
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
  },

  async revokeSession(db: Executor, tokenHash: string, now: number): Promise<void> {
    await db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('token_hash', '=', tokenHash)
      .where('revoked_at', 'is', null)
      .execute();
  },

  /** A user's sessions neither revoked nor expired at `now`, newest first. */
  liveSessionsOf(db: Executor, userId: number, now: number): Promise<SessionRow[]> {
    return db
      .selectFrom('sessions')
      .selectAll()
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .orderBy('id', 'desc')
      .execute();
  },

  /** Revokes one live session of a user; answers its token hash, or null when it is not theirs or not live. */
  async revokeSessionOf(
    db: Executor,
    userId: number,
    sessionId: number,
    now: number,
  ): Promise<string | null> {
    const row = await db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('id', '=', sessionId)
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null)
      .where('expires_at', '>', now)
      .returning('token_hash')
      .executeTakeFirst();
    return row?.token_hash ?? null;
  },

  /** Revokes every live session of a user except the one with `keepTokenHash` (null: all). */
  async revokeUserSessions(db: Executor, userId: number, keepTokenHash: string | null, now: number) {
    let query = db
      .updateTable('sessions')
      .set({ revoked_at: now })
      .where('user_id', '=', userId)
      .where('revoked_at', 'is', null);
    if (keepTokenHash) query = query.where('token_hash', '!=', keepTokenHash);
    await query.execute();
  },

  // ── verification codes ───────────────────────────────────────────────
  latestCode(db: Executor, account: string, purpose: string): Promise<VerificationCodeRow | undefined> {
    return db
      .selectFrom('verification_codes')
      .selectAll()
      .where('account', '=', account)
      .where('purpose', '=', purpose)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  async closeOpenCodes(db: Executor, account: string, purpose: string, now: number): Promise<void> {
    await db
      .updateTable('verification_codes')
      .set({ closed_at: now })
      .where('account', '=', account)
      .where('purpose', '=', purpose)
      .where('closed_at', 'is', null)
      .execute();
  },

  async insertCode(db: Executor, code: Insertable<VerificationCodesTable>): Promise<void> {
    await db.insertInto('verification_codes').values(code).execute();
  },

  /**
   * Takes one of the code's tries before the comparison, so parallel guesses
   * cannot outrun the limit. Null when the code is closed or out of tries.
   */
  async claimTry(db: Executor, id: number, maxTries: number): Promise<number | null> {
    const row = await db
      .updateTable('verification_codes')
      .set((eb) => ({ wrong_tries: eb('wrong_tries', '+', 1) }))
      .where('id', '=', id)
      .where('closed_at', 'is', null)
      .where('wrong_tries', '<', maxTries)
      .returning('wrong_tries')
      .executeTakeFirst();
    return row ? Number(row.wrong_tries) : null;
  },

  /** Gives a try back after the right code was entered. */
  async releaseTry(db: Executor, id: number): Promise<void> {
    await db
      .updateTable('verification_codes')
      .set((eb) => ({ wrong_tries: eb('wrong_tries', '-', 1) }))
      .where('id', '=', id)
      .execute();
  },

  /** Closes an open code; false when another request closed it first (single use). */
  async closeCode(db: Executor, id: number, now: number): Promise<boolean> {
    const result = await db
      .updateTable('verification_codes')
      .set({ closed_at: now })
      .where('id', '=', id)
      .where('closed_at', 'is', null)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },

  // ── failed secret checks (logins, fund passwords) ─────────────────────
  async insertLoginFailure(db: Executor, account: string, at: number): Promise<void> {
    await db.insertInto('login_failures').values({ account, failed_at: at }).execute();
  },

  /** The newest `limit` failures of `account`, newest first. */
  latestFailures(db: Executor, account: string, limit: number): Promise<{ failed_at: number }[]> {
    return db
      .selectFrom('login_failures')
      .select('failed_at')
      .where('account', '=', account)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  async clearLoginFailures(db: Executor, account: string): Promise<void> {
    await db.deleteFrom('login_failures').where('account', '=', account).execute();
  },

  // ── login history ────────────────────────────────────────────────────
  async insertLoginHistory(db: Executor, entry: Insertable<LoginHistoryTable>): Promise<void> {
    await db.insertInto('login_history').values(entry).execute();
  },

  loginHistoryOf(db: Executor, userId: number, limit: number): Promise<LoginHistoryRow[]> {
    return db
      .selectFrom('login_history')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  },

  // ── SIWE nonces ──────────────────────────────────────────────────────
  async insertNonce(db: Executor, nonce: Insertable<SiweNoncesTable>): Promise<void> {
    await db.insertInto('siwe_nonces').values(nonce).execute();
  },

  /** Marks a live nonce used; false when it is unknown, expired or already used. */
  async consumeNonce(db: Executor, nonce: string, now: number): Promise<boolean> {
    const result = await db
      .updateTable('siwe_nonces')
      .set({ used_at: now })
      .where('nonce', '=', nonce)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },

  // ── uploads ──────────────────────────────────────────────────────────
  async insertUpload(db: Executor, upload: Insertable<UploadsTable>): Promise<void> {
    await db.insertInto('uploads').values(upload).execute();
  },

  upload(db: Executor, name: string): Promise<UploadRow | undefined> {
    return db.selectFrom('uploads').selectAll().where('name', '=', name).executeTakeFirst();
  },

  // ── KYC ──────────────────────────────────────────────────────────────
  latestKyc(db: Executor, userId: number): Promise<KycSubmissionRow | undefined> {
    return db
      .selectFrom('kyc_submissions')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  kycById(db: Executor, id: number): Promise<KycSubmissionRow | undefined> {
    return db.selectFrom('kyc_submissions').selectAll().where('id', '=', id).executeTakeFirst();
  },

  async kycCount(db: Executor, state: KycState): Promise<number> {
    const row = await db
      .selectFrom('kyc_submissions')
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .where('state', '=', state)
      .executeTakeFirstOrThrow();
    return Number(row.count);
  },

  kycByState(db: Executor, state: KycState, limit: number): Promise<KycSubmissionRow[]> {
    return db
      .selectFrom('kyc_submissions')
      .selectAll()
      .where('state', '=', state)
      .orderBy('id', 'asc')
      .limit(limit)
      .execute();
  },

  /**
   * The submission under review or approved that holds an ID number (the
   * unique index of migration 014 allows one), or undefined when the number
   * is free: never claimed, or only in rejected submissions.
   */
  liveKycByIdNumber(db: Executor, idNumber: string): Promise<KycSubmissionRow | undefined> {
    return db
      .selectFrom('kyc_submissions')
      .selectAll()
      .where('id_number', '=', idNumber)
      .where('state', '<>', 'failed')
      .executeTakeFirst();
  },

  /** Submissions still under review that were submitted at or before `submittedBy`, oldest first. */
  kycUnderReviewSince(db: Executor, submittedBy: number): Promise<KycSubmissionRow[]> {
    return db
      .selectFrom('kyc_submissions')
      .selectAll()
      .where('state', '=', 'review')
      .where('submitted_at', '<=', submittedBy)
      .orderBy('id', 'asc')
      .execute();
  },

  async insertKyc(db: Executor, submission: Insertable<KycSubmissionsTable>): Promise<number> {
    const row = await db
      .insertInto('kyc_submissions')
      .values(submission)
      .returning('id')
      .executeTakeFirstOrThrow();
    return Number(row.id);
  },

  /** Decides a submission still under review; false when someone decided it first. */
  async decideKyc(
    db: Executor,
    id: number,
    decision: { state: KycState; reason: string | null; decided_at: number; decided_by: string },
  ): Promise<boolean> {
    const result = await db
      .updateTable('kyc_submissions')
      .set(decision)
      .where('id', '=', id)
      .where('state', '=', 'review')
      .executeTakeFirst();
    return result.numUpdatedRows === 1n;
  },

  // ── freezes ──────────────────────────────────────────────────────────
  async insertFreeze(db: Executor, freeze: Insertable<FreezesTable>): Promise<number> {
    const row = await db.insertInto('freezes').values(freeze).returning('id').executeTakeFirstOrThrow();
    return Number(row.id);
  },

  /** The freeze in force at `now` that ends last, if any. */
  activeFreeze(db: Executor, userId: number, now: number): Promise<FreezeRow | undefined> {
    return db
      .selectFrom('freezes')
      .selectAll()
      .where('user_id', '=', userId)
      .where('lifted_at', 'is', null)
      .where('starts_at', '<=', now)
      .where('ends_at', '>', now)
      .orderBy('ends_at', 'desc')
      .limit(1)
      .executeTakeFirst();
  },

  /** The user's freezes not lifted and not over at `now`, in force or still to start. */
  freezesNotOver(db: Executor, userId: number, now: number): Promise<FreezeRow[]> {
    return db
      .selectFrom('freezes')
      .selectAll()
      .where('user_id', '=', userId)
      .where('lifted_at', 'is', null)
      .where('ends_at', '>', now)
      .execute();
  },

  /** Lifts every freeze of the user not yet over; returns how many. */
  async liftFreezes(db: Executor, userId: number, liftedBy: string, now: number): Promise<number> {
    const result = await db
      .updateTable('freezes')
      .set({ lifted_at: now, lifted_by: liftedBy })
      .where('user_id', '=', userId)
      .where('lifted_at', 'is', null)
      .where('ends_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  },

  // ── operator audit log (append-only) ─────────────────────────────────
  async appendAudit(db: Executor, entry: Insertable<OperatorAuditLogTable>): Promise<void> {
    await db.insertInto('operator_audit_log').values(entry).execute();
  },

  auditLog(db: Executor, userId: number | null, limit: number): Promise<AuditRow[]> {
    // The domain's own entries and views: the trail of every /admin request (a status) is read at /admin/audit.
    let query = db.selectFrom('operator_audit_log').selectAll().where('status', 'is', null);
    if (userId !== null) query = query.where('user_id', '=', userId);
    return query.orderBy('id', 'desc').limit(limit).execute();
  },
};
