// Over 500 lines on purpose: IdentityService is the one caller of the identity
// store, and its use-cases (sessions, codes, accounts, uploads, KYC, freezes,
// the checks other modules call) share the store, the clock and the caches.
import fs from 'node:fs/promises';
import path from 'node:path';
import {
  type AdminKycSubmission,
  type AdminLoginEntry,
  type AdminSession,
  type Locale,
  translate,
} from '@halyard/protocol';
import {
  type CalendarDay,
  checkIdCard,
  checkImageSize,
  checkPassword,
  checkPasswordsMatch,
  checkPayPassword,
  checkTermsAgreed,
  maskPhone,
  normaliseIdCard,
  PASSWORD_CHANGE_LOCK_MS,
} from '@halyard/rules';
import type { Hex } from 'viem';
import type { Clock } from '../../clock.ts';
import type { Config } from '../../config.ts';
import type { AuditActor, AuthUser, SessionResolver } from '../../http/auth.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Store } from '../../store/connect.ts';
import type { Executor } from '../../store/database.ts';
import { isUniqueViolation } from '../../store/dialect.ts';
import { type Account, type AccountInput, accountAddress, parseAccount, throwIf } from './accounts.ts';
import { type CachedTrader, ChecksCache, type ForgetNotices, freezeInForce } from './checks-cache.ts';
import { cleanImage } from './images.ts';
import { KeyedQueue } from './keyed-queue.ts';
import type { Messengers } from './messenger.ts';
import type {
  AuditEntry,
  FreezeView,
  KycStatus,
  LoginResult,
  SentCode,
  UserInfo,
  UserSummary,
} from './model.ts';
import { hashPassword, verifyPassword } from './passwords.ts';
import {
  hashCode,
  newInvitationCode,
  newSalt,
  newSessionToken,
  newSiweNonce,
  newUploadName,
  newVerificationCode,
  sameHash,
  sha256Hex,
} from './secrets.ts';
import { SIWE_NONCE_TTL_MS, verifySiweLogin } from './siwe.ts';
import {
  type FreezeRow,
  type KycState,
  type KycSubmissionRow,
  type LoginMethod,
  type LoginOutcome,
  identityStore as sql,
  type UploadRow,
  type UserRow,
  type UserSearch,
} from './store.ts';

export const CODE_PURPOSES = ['register', 'reset', 'bind', 'fund'] as const;
/** register: a new account; reset: forgotten login password; bind: a new email/phone; fund: change the fund password. */
export type CodePurpose = (typeof CODE_PURPOSES)[number];

export const CODE_TTL_MS = 10 * 60 * 1000;
export const CODE_RESEND_COOLDOWN_MS = 60 * 1000;
export const CODE_MAX_WRONG_TRIES = 5;
/** 5 failed logins (or fund-password checks) within 15 minutes refuse further tries for 15 minutes. */
export const ATTEMPTS_MAX = 5;
export const ATTEMPTS_WINDOW_MS = 15 * 60 * 1000;
const INVITATION_CODE_TRIES = 8;
/** Demo mode: how long a well-formed KYC submission waits before the demo reviewer approves it. */
export const DEMO_KYC_REVIEW_MS = 5_000;
/** Who the audit log and the submission name as the decider in demo mode. */
export const DEMO_REVIEWER: AuditActor = { name: 'demo reviewer', id: null };

/** The stored name in an upload's url (`/uploads/<name>`, as /user/img answers it), or null. */
export function uploadNameOf(url: string): string | null {
  return /\/uploads\/([\w-]+\.(?:jpg|png|webp))$/.exec(url)?.[1] ?? null;
}

/** An uploaded image as it is served. */
export interface StoredImage {
  contentType: string;
  bytes: Buffer;
}

export interface IdentityServiceOptions {
  store: Store;
  clock: Clock;
  config: Config;
  messengers: Messengers;
  /** Cluster mode: the gateways tell each other what their checks cache forgot (ChecksCache). */
  forgetNotices?: ForgetNotices;
}

/** Where a request comes from, as the login history and the sessions list keep it. */
export interface ClientInfo {
  ip: string | null;
  userAgent: string | null;
}

const UNKNOWN_CLIENT: ClientInfo = { ip: null, userAgent: null };

/** One sign-in attempt as the login history records it. */
interface LoginAttempt {
  account: string;
  method: LoginMethod;
  device: string;
  client: ClientInfo;
}

/** "2026-01-02 03:04 UTC": how a time appears inside a message. */
export function formatUtc(ms: number): string {
  return `${new Date(ms).toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

function calendarDay(ms: number): CalendarDay {
  const date = new Date(ms);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** A user row without its secrets, as the back office lists it. */
export interface UserSummaryRow {
  id: number;
  email: string | null;
  areaCode: string | null;
  phone: string | null;
  walletAddress: string | null;
  invitationCode: string;
  parentId: number | null;
  createdAt: number;
}

function summaryRow(row: UserRow): UserSummaryRow {
  return {
    id: Number(row.id),
    email: row.email,
    areaCode: row.area_code,
    phone: row.phone,
    walletAddress: row.wallet_address,
    invitationCode: row.invitation_code,
    parentId: row.parent_id === null ? null : Number(row.parent_id),
    createdAt: Number(row.created_at),
  };
}

/** A submission as an operator sees it: the photo is read through the audited /admin/uploads route. */
function kycSubmissionView(row: KycSubmissionRow): AdminKycSubmission {
  const upload = uploadNameOf(row.photo_url);
  return {
    id: Number(row.id),
    name: row.real_name,
    idNumber: row.id_number,
    photoUrl: upload ? `/admin/uploads/${upload}` : row.photo_url,
    state: row.state,
    reason: row.reason,
    submittedAt: Number(row.submitted_at),
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
    decidedBy: row.decided_by,
  };
}

function freezeView(row: FreezeRow): FreezeView {
  return { reason: row.reason, setBy: row.set_by, startsAt: row.starts_at, endsAt: row.ends_at };
}

/**
 * The identity use-cases: accounts, sessions, verification codes, wallet
 * login, KYC, fund password, password locks and freezes. The only caller of
 * the identity store; other modules call the `assert*` and `getUser` methods.
 */
export class IdentityService implements SessionResolver {
  private readonly db: Executor;
  private readonly clock: Clock;
  private readonly config: Config;
  private readonly messengers: Messengers;
  /** Sessions, bound emails and freezes as every guarded request and order reads them; forgotten on change. */
  private readonly checks: ChecksCache;
  /** Records and counts one attempt of a key at a time: on PostgreSQL parallel inserts could miss each other's rows. */
  private readonly attempts = new KeyedQueue();

  constructor(options: IdentityServiceOptions) {
    this.db = options.store.db;
    this.clock = options.clock;
    this.config = options.config;
    this.messengers = options.messengers;
    this.checks = new ChecksCache(() => this.clock.now(), options.forgetNotices ?? null);
  }

  /** Stops hearing the other gateways' forgets. */
  close(): void {
    this.checks.close();
  }

  // ── sessions ───────────────────────────────────────────────────────────

  async resolve(token: string): Promise<AuthUser | null> {
    const tokenHash = sha256Hex(token);
    const session = await this.checks.session(tokenHash, async () => {
      const row = await sql.liveSessionUser(this.db, tokenHash, this.clock.now());
      return row ? { userId: Number(row.user_id), expiresAt: Number(row.expires_at) } : null;
    });
    return session ? { id: session.userId } : null;
  }

  private async openSession(userId: number, attempt: LoginAttempt): Promise<string> {
    const token = newSessionToken();
    const now = this.clock.now();
    await sql.insertSession(this.db, {
      token_hash: sha256Hex(token),
      user_id: userId,
      device: attempt.device,
      created_at: now,
      expires_at: now + this.config.sessionTtlMs,
      revoked_at: null,
      ip: attempt.client.ip,
      user_agent: attempt.client.userAgent,
    });
    return token;
  }

  async logout(token: string): Promise<void> {
    const tokenHash = sha256Hex(token);
    await sql.revokeSession(this.db, tokenHash, this.clock.now());
    this.checks.forgetSession(tokenHash);
  }

  /** Opens a session for a successful attempt and writes it to the login history. */
  private async signIn(userId: number, attempt: LoginAttempt): Promise<LoginResult> {
    const token = await this.openSession(userId, attempt);
    await this.recordLogin(attempt, userId, 'success');
    return { member: await this.userInfo(userId), token };
  }

  private async recordLogin(
    attempt: LoginAttempt,
    userId: number | null,
    result: LoginOutcome,
  ): Promise<void> {
    await sql.insertLoginHistory(this.db, {
      user_id: userId,
      account: attempt.account,
      method: attempt.method,
      result,
      ip: attempt.client.ip,
      user_agent: attempt.client.userAgent,
      device: attempt.device,
      at: this.clock.now(),
    });
  }

  // ── verification codes ─────────────────────────────────────────────────

  /**
   * Sends a fresh code to the account, closing any earlier one; refuses within
   * the resend cooldown. Without a real channel for the account, demo mode
   * answers the code itself (`demoCode`) to the one who asked for it, and so
   * only when that cannot open someone else's account: for an account nobody
   * has yet (register, bind), or to its owner signed in (`requesterId`; a
   * reset or fund-password code).
   */
  async sendCode(
    input: AccountInput & { purpose: CodePurpose },
    locale: Locale,
    requesterId: number | null,
  ): Promise<SentCode> {
    const account = parseAccount(input);
    const channel = this.channelFor(account);
    if (!channel && !this.config.demo) throw new AppError('identity.channelUnavailable', {}, 503);
    const owner = await this.checkPurposeAllowed(account, input.purpose);
    if (!channel && owner && owner.id !== requesterId) throw forbidden('identity.demoCodeOwnerOnly');
    const address = accountAddress(account);
    const now = this.clock.now();
    const latest = await sql.latestCode(this.db, address, input.purpose);
    if (latest && latest.created_at + CODE_RESEND_COOLDOWN_MS > now) {
      const seconds = Math.ceil((latest.created_at + CODE_RESEND_COOLDOWN_MS - now) / 1000);
      throw badRequest('identity.codeCooldown', { seconds });
    }
    const code = newVerificationCode();
    const salt = newSalt();
    await sql.closeOpenCodes(this.db, address, input.purpose, now);
    await sql.insertCode(this.db, {
      account: address,
      purpose: input.purpose,
      code_hash: hashCode(salt, code),
      salt,
      created_at: now,
      expires_at: now + CODE_TTL_MS,
      closed_at: null,
    });
    const cooldownSeconds = CODE_RESEND_COOLDOWN_MS / 1000;
    if (!channel) return { cooldownSeconds, demoCode: code };
    const subject = translate(locale, 'identity.codeMailSubject');
    const text = translate(locale, 'identity.codeMailBody', { code, minutes: CODE_TTL_MS / 60_000 });
    await channel(address, subject, text);
    return { cooldownSeconds };
  }

  /** The real channel that reaches this kind of account (email or SMS), or null when none is configured. */
  private channelFor(
    account: Account,
  ): ((to: string, subject: string, text: string) => Promise<void>) | null {
    const { mailer, sms } = this.messengers;
    if (account.kind === 'email')
      return mailer ? (to, subject, text) => mailer.send(to, subject, text) : null;
    return sms ? (to, _subject, text) => sms.send(to, text) : null;
  }

  /**
   * A register or bind code for a taken account, or a reset code for an
   * unknown one, would be useless. Answers the account's owner, if any.
   */
  private async checkPurposeAllowed(account: Account, purpose: CodePurpose): Promise<UserRow | undefined> {
    const owner = await this.userByAccount(account);
    if ((purpose === 'register' || purpose === 'bind') && owner) throw conflict('identity.accountTaken');
    if (purpose === 'reset' && !owner) throw notFound('identity.accountNotFound');
    return owner;
  }

  /**
   * Checks a code against the account's latest one. Each comparison takes a
   * try first (committed at once, whatever happens next); the right code
   * gives it back, so only wrong tries count and the fifth closes the code.
   * Returns the code's id for `consumeCode`.
   */
  private async verifyCode(address: string, purpose: CodePurpose, code: string): Promise<number> {
    const now = this.clock.now();
    const latest = await sql.latestCode(this.db, address, purpose);
    if (!latest) throw badRequest('identity.codeInvalid');
    if (latest.wrong_tries >= CODE_MAX_WRONG_TRIES) throw badRequest('identity.codeTooManyTries');
    if (latest.closed_at !== null) throw badRequest('identity.codeInvalid');
    if (latest.expires_at <= now) throw badRequest('identity.codeExpired');
    const tries = await sql.claimTry(this.db, latest.id, CODE_MAX_WRONG_TRIES);
    if (tries === null) throw badRequest('identity.codeTooManyTries');
    if (/^\d{6}$/.test(code) && sameHash(hashCode(latest.salt, code), latest.code_hash)) {
      await sql.releaseTry(this.db, latest.id);
      return latest.id;
    }
    if (tries >= CODE_MAX_WRONG_TRIES) {
      await sql.closeCode(this.db, latest.id, now);
      throw badRequest('identity.codeTooManyTries');
    }
    throw badRequest('identity.codeWrong', { left: CODE_MAX_WRONG_TRIES - tries });
  }

  /** Verifies and closes the code: each code works once, even under concurrent requests. */
  private async consumeCode(address: string, purpose: CodePurpose, code: string): Promise<void> {
    const id = await this.verifyCode(address, purpose, code);
    if (!(await sql.closeCode(this.db, id, this.clock.now()))) throw badRequest('identity.codeInvalid');
  }

  /** `/member/codeVerification`: tells whether the code is right without using it up. */
  async checkCode(input: AccountInput & { purpose: CodePurpose; code: string }): Promise<void> {
    await this.verifyCode(accountAddress(parseAccount(input)), input.purpose, input.code);
  }

  // ── register, login, reset ─────────────────────────────────────────────

  private userByAccount(account: Account): Promise<UserRow | undefined> {
    return account.kind === 'email'
      ? sql.userByEmail(this.db, account.email)
      : sql.userByPhone(this.db, account.areaCode, account.phone);
  }

  private async inviterId(invitationCode: string | undefined): Promise<number | null> {
    const code = invitationCode?.trim().toUpperCase();
    if (!code) return null;
    const inviter = await sql.userByInvitationCode(this.db, code);
    if (!inviter) throw badRequest('identity.unknownInviter');
    return inviter.id;
  }

  /** Inserts a user with a fresh unique invitation code, retrying the rare collision. */
  private async createUser(
    fields: Pick<UserRow, 'email' | 'area_code' | 'phone' | 'wallet_address' | 'password_hash' | 'parent_id'>,
  ): Promise<number> {
    for (let attempt = 0; attempt < INVITATION_CODE_TRIES; attempt++) {
      const invitationCode = newInvitationCode();
      if (await sql.userByInvitationCode(this.db, invitationCode)) continue;
      return sql.insertUser(this.db, {
        ...fields,
        invitation_code: invitationCode,
        pay_password_hash: null,
        locked_until: null,
        created_at: this.clock.now(),
      });
    }
    throw new Error(`no free invitation code after ${INVITATION_CODE_TRIES} tries`);
  }

  async register(
    input: AccountInput & {
      code: string;
      password: string;
      confirmPassword: string;
      invitationCode?: string | undefined;
      agreed: boolean;
      device?: string | undefined;
    },
    client: ClientInfo = UNKNOWN_CLIENT,
  ): Promise<LoginResult> {
    const account = parseAccount(input);
    throwIf(checkPassword(input.password));
    throwIf(checkPasswordsMatch(input.password, input.confirmPassword));
    throwIf(checkTermsAgreed(input.agreed));
    const parentId = await this.inviterId(input.invitationCode);
    if (await this.userByAccount(account)) throw conflict('identity.accountTaken');
    await this.consumeCode(accountAddress(account), 'register', input.code);
    const userId = await this.createUser({
      email: account.kind === 'email' ? account.email : null,
      area_code: account.kind === 'phone' ? account.areaCode : null,
      phone: account.kind === 'phone' ? account.phone : null,
      wallet_address: null,
      password_hash: await hashPassword(input.password, this.config.passwordHashCost),
      parent_id: parentId,
    });
    return this.signIn(userId, {
      account: accountAddress(account),
      method: 'register',
      device: input.device ?? 'web',
      client,
    });
  }

  /**
   * Runs a secret check (a login or fund password) under the brute-force
   * guard: after ATTEMPTS_MAX failures within ATTEMPTS_WINDOW_MS, every try
   * is refused until ATTEMPTS_WINDOW_MS after the last of them. The checks of
   * one key run one at a time, each seeing the failures recorded before it,
   * so parallel guesses cannot slip past the count; only a failure is
   * recorded, so parallel right answers never lock anyone out. A success
   * clears the record and a refusal leaves no trace (it does not prolong the
   * wait).
   */
  private guardedCheck(key: string, check: () => Promise<boolean>): Promise<boolean> {
    return this.attempts.run(key, async () => {
      const now = this.clock.now();
      const recent = await sql.latestFailures(this.db, key, ATTEMPTS_MAX);
      const newest = recent[0];
      const oldest = recent[ATTEMPTS_MAX - 1];
      if (newest && oldest && newest.failed_at - oldest.failed_at < ATTEMPTS_WINDOW_MS) {
        const lockedUntil = newest.failed_at + ATTEMPTS_WINDOW_MS;
        if (lockedUntil > now) {
          throw forbidden('identity.tooManyAttempts', { minutes: Math.ceil((lockedUntil - now) / 60_000) });
        }
      }
      if (!(await check())) {
        await sql.insertLoginFailure(this.db, key, now);
        return false;
      }
      await sql.clearLoginFailures(this.db, key);
      return true;
    });
  }

  /** A password login; every attempt, refused or not, goes to the login history. */
  async login(
    input: AccountInput & { password: string; device?: string | undefined },
    client: ClientInfo = UNKNOWN_CLIENT,
  ): Promise<LoginResult> {
    const account = parseAccount(input);
    const address = accountAddress(account);
    const attempt: LoginAttempt = {
      account: address,
      method: 'password',
      device: input.device ?? 'web',
      client,
    };
    const user = await this.userByAccount(account);
    const passed = await this.guardedCheck(`login:${address}`, () =>
      verifyPassword(user?.password_hash ?? null, input.password),
    ).catch(async (error: unknown) => {
      if (error instanceof AppError && error.key === 'identity.tooManyAttempts') {
        await this.recordLogin(attempt, user?.id ?? null, 'locked');
      }
      throw error;
    });
    if (!user || !passed) {
      await this.recordLogin(attempt, user?.id ?? null, user ? 'wrongPassword' : 'unknownAccount');
      throw badRequest('identity.loginFailed');
    }
    return this.signIn(user.id, attempt);
  }

  /** Forgotten password: a code to the account sets a new one, ends every session and starts the 24 h lock. */
  async resetPassword(
    kind: Account['kind'],
    input: AccountInput & { code: string; password: string; confirmPassword: string },
  ): Promise<void> {
    const account = parseAccount(input, kind);
    throwIf(checkPassword(input.password));
    throwIf(checkPasswordsMatch(input.password, input.confirmPassword));
    const user = await this.userByAccount(account);
    if (!user) throw notFound('identity.accountNotFound');
    await this.consumeCode(accountAddress(account), 'reset', input.code);
    await this.replacePassword(user.id, input.password, null);
    await sql.clearLoginFailures(this.db, `login:${accountAddress(account)}`);
  }

  /** Sets a new login password, revokes the other sessions (all when `keepToken` is null), locks funds 24 h. */
  private async replacePassword(userId: number, password: string, keepToken: string | null): Promise<void> {
    const now = this.clock.now();
    const passwordHash = await hashPassword(password, this.config.passwordHashCost);
    const keepTokenHash = keepToken ? sha256Hex(keepToken) : null;
    await this.db.transaction().execute(async (trx) => {
      await sql.updateUser(trx, userId, {
        password_hash: passwordHash,
        locked_until: now + PASSWORD_CHANGE_LOCK_MS,
      });
      await sql.revokeUserSessions(trx, userId, keepTokenHash, now);
    });
    this.checks.forgetUserSessions(userId, keepTokenHash);
  }

  async changePassword(
    userId: number,
    currentToken: string,
    input: { oldPassword: string; password: string; confirmPassword: string },
  ): Promise<void> {
    throwIf(checkPassword(input.password));
    throwIf(checkPasswordsMatch(input.password, input.confirmPassword));
    const user = await this.requireUserRow(userId);
    if (!user.password_hash) throw badRequest('identity.noLoginPassword');
    const hash = user.password_hash;
    if (!(await this.guardedCheck(`password:${userId}`, () => verifyPassword(hash, input.oldPassword)))) {
      throw badRequest('identity.oldPasswordWrong');
    }
    await this.replacePassword(userId, input.password, currentToken);
  }

  // ── wallet login (SIWE, AMENDMENTS A2) ─────────────────────────────────

  async issueSiweNonce(): Promise<{
    nonce: string;
    domain: string;
    uri: string;
    chainIds: number[];
    expiresAt: number;
  }> {
    const now = this.clock.now();
    const nonce = newSiweNonce();
    const expiresAt = now + SIWE_NONCE_TTL_MS;
    await sql.insertNonce(this.db, { nonce, created_at: now, expires_at: expiresAt, used_at: null });
    const [domain = ''] = this.config.siweDomains;
    return { nonce, domain, uri: this.config.siweUri, chainIds: [1, 56], expiresAt };
  }

  async loginByAddress(
    input: {
      message: string;
      signature: Hex;
      address?: string | undefined;
      parent?: string | undefined;
      device?: string | undefined;
    },
    client: ClientInfo = UNKNOWN_CLIENT,
  ): Promise<LoginResult> {
    const device = input.device ?? 'web';
    try {
      return await this.walletSignIn(input, device, client);
    } catch (error) {
      // A refused signature is recorded against the address it claimed, if it named one.
      if (error instanceof AppError) {
        const claimed = input.address ?? '';
        const owner = claimed ? await sql.userByWallet(this.db, claimed) : undefined;
        const attempt: LoginAttempt = { account: claimed || 'wallet', method: 'wallet', device, client };
        await this.recordLogin(attempt, owner?.id ?? null, 'failed');
      }
      throw error;
    }
  }

  private async walletSignIn(
    input: { message: string; signature: Hex; address?: string | undefined; parent?: string | undefined },
    device: string,
    client: ClientInfo,
  ): Promise<LoginResult> {
    const now = this.clock.now();
    const login = await verifySiweLogin(input.message, input.signature, {
      domains: this.config.siweDomains,
      now,
    });
    if (input.address && input.address.toLowerCase() !== login.address.toLowerCase()) {
      throw badRequest('identity.siweSignature');
    }
    if (!(await sql.consumeNonce(this.db, login.nonce, now))) throw badRequest('identity.siweNonce');
    const existing = await sql.userByWallet(this.db, login.address);
    const userId =
      existing?.id ??
      (await this.createUser({
        email: null,
        area_code: null,
        phone: null,
        wallet_address: login.address,
        password_hash: null,
        parent_id: await this.inviterId(input.parent),
      }));
    return this.signIn(userId, { account: login.address, method: 'wallet', device, client });
  }

  // ── profile ────────────────────────────────────────────────────────────

  private async requireUserRow(userId: number): Promise<UserRow> {
    const user = await sql.userById(this.db, userId);
    if (!user) throw notFound();
    return user;
  }

  private async kycOf(userId: number): Promise<{ status: KycStatus; reason: string | null }> {
    const latest = await sql.latestKyc(this.db, userId);
    return latest ? { status: latest.state, reason: latest.reason } : { status: 'none', reason: null };
  }

  private liveLock(user: UserRow): number | null {
    return user.locked_until !== null && user.locked_until > this.clock.now() ? user.locked_until : null;
  }

  invitationUrl(code: string): string {
    // The web app's own path (it has no hash routes), on the operator's public address.
    return `${this.config.publicUrl}/register?code=${encodeURIComponent(code)}`;
  }

  async userInfo(userId: number): Promise<UserInfo> {
    const user = await this.requireUserRow(userId);
    const kyc = await this.kycOf(userId);
    const freeze = await sql.activeFreeze(this.db, userId, this.clock.now());
    return {
      id: user.id,
      email: user.email,
      phone: user.phone ? maskPhone(user.phone) : null,
      areaCode: user.area_code,
      walletAddress: user.wallet_address,
      invitationCode: user.invitation_code,
      verification: kyc.status,
      verificationReason: kyc.status === 'failed' ? kyc.reason : null,
      recomurl: this.invitationUrl(user.invitation_code),
      hasLoginPassword: user.password_hash !== null,
      hasFundPassword: user.pay_password_hash !== null,
      lockedUntil: this.liveLock(user),
      frozen: freeze ? freezeView(freeze) : null,
    };
  }

  async invitation(userId: number): Promise<{ code: string; url: string }> {
    const user = await this.requireUserRow(userId);
    return { code: user.invitation_code, url: this.invitationUrl(user.invitation_code) };
  }

  /** Binds a new email or phone (or replaces the current one) with a code sent to the new account. */
  async bindAccount(userId: number, input: AccountInput & { code: string }): Promise<void> {
    const account = parseAccount(input);
    if (await this.userByAccount(account)) throw conflict('identity.accountTaken');
    await this.consumeCode(accountAddress(account), 'bind', input.code);
    await sql.updateUser(
      this.db,
      userId,
      account.kind === 'email'
        ? { email: account.email }
        : { area_code: account.areaCode, phone: account.phone },
    );
    this.checks.forgetTrader(userId);
  }

  /**
   * Sets the 6-digit fund password. The first time the session is enough;
   * changing it needs a `fund` code sent to the user's email (else phone), so
   * a stolen session alone cannot change it and a forgotten one can be reset.
   */
  async setFundPassword(
    userId: number,
    input: { payPassword: string; confirmPayPassword: string; code?: string | undefined },
  ): Promise<void> {
    throwIf(checkPayPassword(input.payPassword));
    throwIf(checkPasswordsMatch(input.payPassword, input.confirmPayPassword));
    const user = await this.requireUserRow(userId);
    if (user.pay_password_hash !== null) {
      const contact = this.contactOf(user);
      if (!contact) throw badRequest('identity.bindContactFirst');
      if (!input.code) throw badRequest('identity.codeRequired');
      await this.consumeCode(accountAddress(contact), 'fund', input.code);
    }
    await sql.updateUser(this.db, userId, {
      pay_password_hash: await hashPassword(input.payPassword, this.config.passwordHashCost),
    });
  }

  private contactOf(user: UserRow): Account | null {
    if (user.email) return { kind: 'email', email: user.email };
    if (user.phone && user.area_code) return { kind: 'phone', areaCode: user.area_code, phone: user.phone };
    return null;
  }

  // ── uploads ────────────────────────────────────────────────────────

  /**
   * Stores an image under a random name after checking its size, its type
   * and that it decodes; what is stored is the image encoded anew (images.ts).
   */
  async saveUpload(userId: number, bytes: Buffer): Promise<{ url: string }> {
    throwIf(checkImageSize(bytes.length));
    const image = await cleanImage(bytes);
    if ('refused' in image) throw badRequest(image.refused);
    const name = newUploadName(image.type.extension);
    await fs.mkdir(this.config.uploadDir, { recursive: true });
    await fs.writeFile(path.join(this.config.uploadDir, name), image.bytes, { flag: 'wx' });
    await sql.insertUpload(this.db, {
      name,
      user_id: userId,
      content_type: image.type.contentType,
      size_bytes: image.bytes.length,
      created_at: this.clock.now(),
    });
    return { url: `/uploads/${name}` };
  }

  /**
   * An upload as its owner reads it (`/uploads/<name>`), or null when there
   * is none or it is someone else's: an ID photo is personal data.
   */
  async readOwnUpload(userId: number, name: string): Promise<StoredImage | null> {
    const upload = await sql.upload(this.db, name);
    if (!upload || Number(upload.user_id) !== userId) return null;
    return this.uploadBytes(upload);
  }

  /** An upload and its owner, as an operator reads it: the route writes the view to the audit trail first. */
  async readUploadForOperator(name: string): Promise<{ image: StoredImage; userId: number } | null> {
    const upload = await sql.upload(this.db, name);
    if (!upload) return null;
    return { image: await this.uploadBytes(upload), userId: Number(upload.user_id) };
  }

  private async uploadBytes(upload: UploadRow): Promise<StoredImage> {
    return {
      contentType: upload.content_type,
      bytes: await fs.readFile(path.join(this.config.uploadDir, upload.name)),
    };
  }

  /** True when `url` names an upload this user made (a KYC photo must be one's own). */
  async uploadBelongsTo(userId: number, url: string): Promise<boolean> {
    const name = uploadNameOf(url);
    if (!name) return false;
    const upload = await sql.upload(this.db, name);
    return upload !== undefined && Number(upload.user_id) === userId;
  }

  // ── KYC ────────────────────────────────────────────────────────────────

  /**
   * A submission goes under review. One ID number belongs to one account: a
   * number under review or approved for another user is refused (the unique
   * index of migration 014 settles a race); a rejected one is free again.
   */
  async submitKyc(
    userId: number,
    input: { name: string; idNumber: string; photoUrl: string },
  ): Promise<void> {
    const name = input.name.trim();
    if (!name) throw badRequest('identity.nameRequired');
    throwIf(checkIdCard(input.idNumber.trim(), calendarDay(this.clock.now())));
    const idNumber = normaliseIdCard(input.idNumber);
    if (!(await this.uploadBelongsTo(userId, input.photoUrl))) throw badRequest('identity.photoRequired');
    const { status } = await this.kycOf(userId);
    if (status === 'review') throw conflict('identity.kycUnderReview');
    if (status === 'succeeded') throw conflict('identity.kycAlreadyDone');
    if (await sql.liveKycByIdNumber(this.db, idNumber)) throw conflict('identity.idNumberTaken');
    try {
      await sql.insertKyc(this.db, {
        user_id: userId,
        real_name: name,
        id_number: idNumber,
        photo_url: input.photoUrl,
        state: 'review',
        reason: null,
        submitted_at: this.clock.now(),
        decided_at: null,
        decided_by: null,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('identity.idNumberTaken');
      throw error;
    }
  }

  /**
   * Demo mode's stand-in for an operator, so a newcomer can try a deposit:
   * approves each submission that has waited DEMO_KYC_REVIEW_MS under review
   * (it passed every check of submitKyc), as DEMO_REVIEWER, in the audit log
   * like any decision. App.start runs it every second in demo mode only;
   * tests move the clock and call it.
   */
  async approveDueDemoKyc(): Promise<number> {
    if (!this.config.demo) return 0;
    const due = await sql.kycUnderReviewSince(this.db, this.clock.now() - DEMO_KYC_REVIEW_MS);
    let approved = 0;
    for (const submission of due) {
      const decided = await this.decideKyc(submission.id, { by: DEMO_REVIEWER, approve: true }).then(
        () => true,
        // An operator decided it first: theirs stands.
        (error: unknown) => {
          if (error instanceof AppError && error.key === 'identity.kycNotUnderReview') return false;
          throw error;
        },
      );
      if (decided) approved += 1;
    }
    return approved;
  }

  async kycQueue(state: KycState, limit: number) {
    const rows = await sql.kycByState(this.db, state, limit);
    return rows.map((row) => ({
      id: row.id,
      userId: row.user_id,
      name: row.real_name,
      idNumber: row.id_number,
      photoUrl: row.photo_url,
      state: row.state,
      reason: row.reason,
      submittedAt: row.submitted_at,
      decidedAt: row.decided_at,
      decidedBy: row.decided_by,
    }));
  }

  /** An operator approves or rejects (with a reason) a submission under review; audited. */
  async decideKyc(
    id: number,
    decision: { by: AuditActor; approve: boolean; reason?: string | undefined },
  ): Promise<void> {
    const reason = decision.reason?.trim() || null;
    if (!decision.approve && !reason) throw badRequest('identity.reasonRequired');
    const submission = await sql.kycById(this.db, id);
    if (!submission) throw notFound();
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const decided = await sql.decideKyc(trx, id, {
        state: decision.approve ? 'succeeded' : 'failed',
        reason,
        decided_at: now,
        decided_by: decision.by.name,
      });
      if (!decided) throw conflict('identity.kycNotUnderReview');
      await sql.appendAudit(trx, {
        at: now,
        operator: decision.by.name,
        operator_id: decision.by.id,
        action: decision.approve ? 'kyc.approve' : 'kyc.reject',
        user_id: submission.user_id,
        details: JSON.stringify({ submissionId: id, reason }),
      });
    });
  }

  // ── freezes (AMENDMENTS A6) ────────────────────────────────────────────

  /**
   * Freezes a user's funds with a reason, the rule setting it, a start and an
   * end; audited as `by`, the operator acting, or else as the rule itself
   * (a module's own rule, e.g. a deposit reorg, acts without an operator).
   */
  async freeze(
    input: {
      userId: number;
      reason: string;
      setBy: string;
      startsAt?: number | undefined;
      endsAt: number;
    },
    by?: AuditActor,
  ): Promise<void> {
    const reason = input.reason.trim();
    const setBy = input.setBy.trim();
    if (!reason) throw badRequest('identity.reasonRequired');
    if (!setBy) throw badRequest('common.invalidParams', { field: 'setBy' });
    const actor = by ?? { name: setBy, id: null };
    const now = this.clock.now();
    const startsAt = input.startsAt ?? now;
    if (input.endsAt <= startsAt || input.endsAt <= now) throw badRequest('identity.freezeEndInvalid');
    await this.requireUserRow(input.userId);
    await this.db.transaction().execute(async (trx) => {
      const freezeId = await sql.insertFreeze(trx, {
        user_id: input.userId,
        reason,
        set_by: setBy,
        starts_at: startsAt,
        ends_at: input.endsAt,
        lifted_at: null,
        lifted_by: null,
      });
      await sql.appendAudit(trx, {
        at: now,
        operator: actor.name,
        operator_id: actor.id,
        action: 'freeze',
        user_id: input.userId,
        details: JSON.stringify({ freezeId, reason, startsAt, endsAt: input.endsAt }),
      });
    });
    this.checks.forgetTrader(input.userId);
  }

  /** An operator lifts a user's freezes with a reason; audited. */
  async unfreeze(input: { userId: number; reason: string }, by: AuditActor): Promise<void> {
    const reason = input.reason.trim();
    if (!reason) throw badRequest('identity.reasonRequired');
    const now = this.clock.now();
    await this.db.transaction().execute(async (trx) => {
      const lifted = await sql.liftFreezes(trx, input.userId, by.name, now);
      if (lifted === 0) throw badRequest('identity.notFrozen');
      await sql.appendAudit(trx, {
        at: now,
        operator: by.name,
        operator_id: by.id,
        action: 'unfreeze',
        user_id: input.userId,
        details: JSON.stringify({ reason, lifted }),
      });
    });
    this.checks.forgetTrader(input.userId);
  }

  async auditLog(userId: number | null, limit: number): Promise<AuditEntry[]> {
    const rows = await sql.auditLog(this.db, userId, limit);
    return rows.map((row) => ({
      id: row.id,
      at: row.at,
      operator: row.operator,
      action: row.action,
      userId: row.user_id,
      details: JSON.parse(row.details) as Record<string, unknown>,
    }));
  }

  // ── what the back office reads (issue 18) ──────────────────────────────

  /** Users matching the search (see UserSearch), newest first; contact fields as stored. */
  async searchUsers(
    search: UserSearch,
    page: number,
    limit: number,
  ): Promise<{ rows: UserSummaryRow[]; total: number }> {
    const { rows, total } = await sql.searchUsers(this.db, search, (page - 1) * limit, limit);
    return { rows: rows.map(summaryRow), total };
  }

  /** How many users there are, and how many registered at or after `since`. */
  userCounts(since: number): Promise<{ total: number; since: number }> {
    return sql.userCounts(this.db, since);
  }

  /** Submissions waiting for a decision (the KYC queue's length). */
  kycQueueLength(): Promise<number> {
    return sql.kycCount(this.db, 'review');
  }

  /** A user's page: the account, its freeze in force and the latest identity submission (with its fields). */
  async operatorProfile(userId: number) {
    const user = await this.requireUserRow(userId);
    const [submission, freeze] = await Promise.all([
      sql.latestKyc(this.db, userId),
      sql.activeFreeze(this.db, userId, this.clock.now()),
    ]);
    return {
      ...summaryRow(user),
      hasLoginPassword: user.password_hash !== null,
      hasFundPassword: user.pay_password_hash !== null,
      lockedUntil: this.liveLock(user),
      freeze: freeze ? freezeView(freeze) : null,
      kyc: submission?.state ?? ('none' as const),
      kycSubmission: submission ? kycSubmissionView(submission) : null,
    };
  }

  async loginHistory(userId: number, limit: number): Promise<AdminLoginEntry[]> {
    const rows = await sql.loginHistoryOf(this.db, userId, limit);
    return rows.map((row) => ({
      id: Number(row.id),
      at: Number(row.at),
      account: row.account,
      method: row.method,
      result: row.result,
      ip: row.ip,
      userAgent: row.user_agent,
      device: row.device,
    }));
  }

  async liveSessions(userId: number): Promise<AdminSession[]> {
    const rows = await sql.liveSessionsOf(this.db, userId, this.clock.now());
    return rows.map((row) => ({
      id: Number(row.id),
      device: row.device,
      ip: row.ip,
      userAgent: row.user_agent,
      createdAt: Number(row.created_at),
      expiresAt: Number(row.expires_at),
    }));
  }

  /**
   * An operator ends one of a user's sessions: its next request answers 401.
   * (The operator's request itself is written to the audit trail by the
   * operators module, as every /admin write is.)
   */
  async revokeSession(userId: number, sessionId: number): Promise<void> {
    const tokenHash = await sql.revokeSessionOf(this.db, userId, sessionId, this.clock.now());
    if (tokenHash === null) throw notFound('identity.sessionNotFound');
    this.checks.forgetSession(tokenHash);
  }

  // ── what other modules call ────────────────────────────────────────────

  async getUser(userId: number): Promise<UserSummary> {
    const user = await this.requireUserRow(userId);
    return {
      id: user.id,
      email: user.email,
      areaCode: user.area_code,
      phone: user.phone,
      walletAddress: user.wallet_address,
      invitationCode: user.invitation_code,
      parentId: user.parent_id,
      kyc: (await this.kycOf(userId)).status,
      hasFundPassword: user.pay_password_hash !== null,
      lockedUntil: this.liveLock(user),
      createdAt: user.created_at,
    };
  }

  /** Throws `common.frozen` (reason and end) while a freeze is in force. */
  async assertNotFrozen(userId: number): Promise<void> {
    const freezes = (await this.traderChecks(userId))?.freezes ?? [];
    const freeze = freezeInForce(freezes, this.clock.now());
    if (freeze) throw forbidden('common.frozen', { reason: freeze.reason, until: formatUtc(freeze.endsAt) });
  }

  /** The user's bound email (spec §5: orders need one); null when none is bound. */
  async boundEmail(userId: number): Promise<string | null> {
    return (await this.traderChecks(userId))?.email ?? null;
  }

  /** What orders are checked against, from memory while nothing changed it (see ChecksCache). */
  private traderChecks(userId: number): Promise<CachedTrader | null> {
    return this.checks.trader(userId, async () => {
      const user = await sql.userById(this.db, userId);
      if (!user) return null;
      const freezes = await sql.freezesNotOver(this.db, userId, this.clock.now());
      return {
        email: user.email,
        freezes: freezes.map((row) => ({ reason: row.reason, startsAt: row.starts_at, endsAt: row.ends_at })),
      };
    });
  }

  /** Throws during the 24 h after a login-password change or reset (withdrawals, fiat deposits). */
  async assertNotLocked(userId: number): Promise<void> {
    const lockedUntil = this.liveLock(await this.requireUserRow(userId));
    if (lockedUntil !== null) throw forbidden('identity.locked', { until: formatUtc(lockedUntil) });
  }

  async assertKycDone(userId: number): Promise<void> {
    if ((await this.kycOf(userId)).status !== 'succeeded') throw forbidden('identity.kycRequired');
  }

  /** The name of the approved identity verification, or null: fiat payments go to and come from it (modules/fiat). */
  async verifiedName(userId: number): Promise<string | null> {
    const latest = await sql.latestKyc(this.db, userId);
    return latest?.state === 'succeeded' ? latest.real_name : null;
  }

  /**
   * Checks the fund password (withdrawals). Five wrong entries within 15
   * minutes refuse further tries for 15 minutes: six digits are few.
   */
  async assertFundPassword(userId: number, payPassword: string): Promise<void> {
    const user = await this.requireUserRow(userId);
    if (!user.pay_password_hash) throw forbidden('identity.fundPasswordMissing');
    const hash = user.pay_password_hash;
    if (!(await this.guardedCheck(`fund:${userId}`, () => verifyPassword(hash, payPassword)))) {
      throw badRequest('identity.fundPasswordWrong');
    }
  }

  /** The users this user invited (for the referral module's team view). */
  async invitees(userId: number): Promise<{ id: number; createdAt: number }[]> {
    const rows = await sql.usersByParent(this.db, userId);
    return rows.map((row) => ({ id: row.id, createdAt: row.created_at }));
  }
}
