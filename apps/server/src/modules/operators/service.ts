import { randomInt } from 'node:crypto';
import {
  CODE,
  type OperatorLoginAnswer,
  type OperatorMe,
  type OperatorRole,
  type OperatorRow,
  type OperatorStatus,
  type OperatorTotpConfirmAnswer,
  permissionsOf,
} from '@halyard/protocol';
import { checkEmail } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import type { PasswordHashCost } from '../../config.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Executor } from '../../store/database.ts';
import { isUniqueViolation } from '../../store/dialect.ts';
import { throwIf } from '../identity/accounts.ts';
import { hashPassword, verifyPassword } from '../identity/passwords.ts';
import { newSessionToken, sha256Hex } from '../identity/secrets.ts';
import { type OperatorRecord, operatorStore as store } from './store.ts';
import { matchTotp, newTotpSecret, totpUri } from './totp.ts';

/** A session ends after this long without a request… */
export const OPERATOR_IDLE_MS = 30 * 60_000;
/** …and this long after sign-in, whatever happens. */
export const OPERATOR_SESSION_MS = 12 * 3_600_000;
/** Failed sign-ins (password, TOTP or recovery code) in a row before the account locks… */
export const OPERATOR_MAX_FAILURES = 5;
/** …for this long. */
export const OPERATOR_LOCK_MS = 15 * 60_000;
const RECOVERY_CODE_COUNT = 10;
// Requests within this long of the last one do not rewrite last_seen_at: one write a minute at most.
const TOUCH_EVERY_MS = 60_000;

export interface OperatorsServiceOptions {
  db: Executor;
  clock: Clock;
  passwordHashCost: PasswordHashCost;
}

/** A live session and its operator, as the guard and the auth routes read them. */
export interface SignedIn {
  sessionId: number;
  operator: OperatorRecord;
  /** False while the session only enrols TOTP. */
  secondFactor: boolean;
}

export interface LoginInput {
  email: string;
  password: string;
  totp?: string | undefined;
  recoveryCode?: string | undefined;
}

function normaliseEmail(email: string): string {
  const normalised = email.trim().toLowerCase();
  throwIf(checkEmail(normalised));
  return normalised;
}

// No 0/O, 1/I/L: a recovery code is copied onto paper and typed back.
const RECOVERY_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** "abcde-fghij": 10 characters of a 31-letter alphabet, ~50 random bits. */
function newRecoveryCode(): string {
  let code = '';
  for (let i = 0; i < 10; i++) code += RECOVERY_ALPHABET[randomInt(0, RECOVERY_ALPHABET.length)];
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}

function recoveryCodeHash(code: string): string {
  return sha256Hex(code.trim().toLowerCase().replace(/[\s-]/g, ''));
}

export function operatorMe(row: OperatorRecord): OperatorMe {
  return {
    id: Number(row.id),
    email: row.email,
    role: row.role,
    permissions: permissionsOf(row.role),
    totpEnrolled: row.totp_enrolled === 1,
  };
}

function operatorRow(row: OperatorRecord, now: number): OperatorRow {
  const lockedUntil = row.locked_until === null ? null : Number(row.locked_until);
  return {
    id: Number(row.id),
    email: row.email,
    role: row.role,
    status: row.status,
    totpEnrolled: row.totp_enrolled === 1,
    createdAt: Number(row.created_at),
    lastLoginAt: row.last_login_at === null ? null : Number(row.last_login_at),
    lockedUntil: lockedUntil !== null && lockedUntil > now ? lockedUntil : null,
  };
}

/**
 * Operator accounts: sign-in with password and TOTP, sessions, recovery codes,
 * locks, and the administrators' management of accounts. The only caller of
 * the operators store's account and session tables.
 */
export class OperatorsService {
  private readonly db: Executor;
  private readonly clock: Clock;
  private readonly passwordHashCost: PasswordHashCost;
  /** Once an administrator exists it always will (roles change through four-eyes, accounts are never deleted). */
  private administratorKnown = false;
  private dummyHash: Promise<string> | undefined;

  constructor(options: OperatorsServiceOptions) {
    this.db = options.db;
    this.clock = options.clock;
    this.passwordHashCost = options.passwordHashCost;
  }

  async administratorExists(): Promise<boolean> {
    if (!this.administratorKnown) this.administratorKnown = await store.administratorExists(this.db);
    return this.administratorKnown;
  }

  // ── accounts ──────────────────────────────────────────────────────────

  /** The first administrator, named by the holder of the admin token; refused once one exists. */
  async bootstrap(email: string, password: string, ip: string): Promise<OperatorLoginAnswer> {
    if (await this.administratorExists()) throw forbidden('operators.bootstrapClosed');
    const operator = await this.insert({ email, password, role: 'administrator' }, null);
    this.administratorKnown = true;
    return this.enrolmentAnswer(operator, ip);
  }

  async create(
    input: { email: string; password: string; role: OperatorRole },
    by: number | null,
  ): Promise<OperatorRow> {
    const operator = await this.insert(input, by);
    if (input.role === 'administrator') this.administratorKnown = true;
    return operatorRow(operator, this.clock.now());
  }

  private async insert(
    input: { email: string; password: string; role: OperatorRole },
    by: number | null,
  ): Promise<OperatorRecord> {
    const email = normaliseEmail(input.email);
    try {
      return await store.insertOperator(this.db, {
        email,
        password_hash: await hashPassword(input.password, this.passwordHashCost),
        role: input.role,
        status: 'active',
        totp_secret: null,
        totp_enrolled: 0,
        totp_last_step: null,
        failed_attempts: 0,
        locked_until: null,
        created_by: by,
        created_at: this.clock.now(),
        last_login_at: null,
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw conflict('operators.emailTaken');
      throw error;
    }
  }

  async list(): Promise<OperatorRow[]> {
    const now = this.clock.now();
    return (await store.list(this.db)).map((row) => operatorRow(row, now));
  }

  async me(operatorId: number): Promise<OperatorMe> {
    return operatorMe(await this.existing(operatorId));
  }

  /** Disabling ends the operator's sessions at once; an operator cannot disable themself. */
  async setStatus(operatorId: number, status: OperatorStatus, by: number): Promise<OperatorRow> {
    if (operatorId === by) throw forbidden('operators.notYourself');
    await this.existing(operatorId);
    const now = this.clock.now();
    await store.update(this.db, operatorId, { status });
    if (status === 'disabled') await store.revokeSessionsOf(this.db, operatorId, now);
    return operatorRow(await this.existing(operatorId), now);
  }

  /** Executed by the four-eyes handler (inside its transaction `db`) once a second administrator approved it; ends the operator's sessions. */
  async changeRole(operatorId: number, role: OperatorRole, db: Executor = this.db): Promise<OperatorRow> {
    const now = this.clock.now();
    await store.update(db, operatorId, { role });
    await store.revokeSessionsOf(db, operatorId, now);
    return operatorRow(await this.existing(operatorId, db), now);
  }

  async existing(operatorId: number, db: Executor = this.db): Promise<OperatorRecord> {
    const row = await store.byId(db, operatorId);
    if (!row) throw notFound('operators.notFound');
    return row;
  }

  // ── sign-in ───────────────────────────────────────────────────────────

  /**
   * Password, then the second factor: a TOTP code or an unused recovery code.
   * Before TOTP is enrolled, the answer is a session that only enrols it.
   * Every failure counts towards the lock; success resets the count.
   */
  async login(input: LoginInput, ip: string): Promise<OperatorLoginAnswer> {
    const now = this.clock.now();
    const operator = await store.byEmail(this.db, input.email.trim().toLowerCase());
    if (!operator) {
      // As long as a wrong password: the answer's time does not tell which e-mails are operators.
      await verifyPassword(await this.unknownAccountHash(), input.password);
      throw badRequest('operators.badCredentials');
    }
    this.refuseWhileLocked(operator, now);
    if (!(await verifyPassword(operator.password_hash, input.password))) {
      return this.fail(operator, badRequest('operators.badCredentials'));
    }
    if (operator.status !== 'active') throw forbidden('operators.disabled');
    if (operator.totp_enrolled !== 1) return this.enrolmentAnswer(operator, ip);
    await this.checkSecondFactor(operator, input, now);
    await store.update(this.db, Number(operator.id), {
      failed_attempts: 0,
      locked_until: null,
      last_login_at: now,
    });
    const { token, expiresAt } = await this.openSession(Number(operator.id), true, ip);
    return { step: 'signedIn', token, expiresAt, operator: operatorMe(operator) };
  }

  private refuseWhileLocked(operator: OperatorRecord, now: number): void {
    const lockedUntil = operator.locked_until === null ? 0 : Number(operator.locked_until);
    if (lockedUntil > now) {
      throw forbidden('operators.locked', { minutes: Math.ceil((lockedUntil - now) / 60_000) });
    }
  }

  /**
   * Counts a failed attempt and refuses with `refusal`; at the limit the
   * account locks instead, and with `endSessions` its sessions end too (codes
   * guessed on a money action come from a session that may not be its owner's).
   */
  private async fail(operator: OperatorRecord, refusal: AppError, endSessions = false): Promise<never> {
    const id = Number(operator.id);
    const failures = await store.countFailure(this.db, id);
    if (failures >= OPERATOR_MAX_FAILURES) {
      const now = this.clock.now();
      await store.update(this.db, id, { failed_attempts: 0, locked_until: now + OPERATOR_LOCK_MS });
      if (endSessions) await store.revokeSessionsOf(this.db, id, now);
      throw forbidden('operators.locked', { minutes: OPERATOR_LOCK_MS / 60_000 });
    }
    throw refusal;
  }

  /** A hash no password matches, at the configured cost, made once. */
  private unknownAccountHash(): Promise<string> {
    this.dummyHash ??= hashPassword(newSessionToken(), this.passwordHashCost);
    return this.dummyHash;
  }

  private async checkSecondFactor(operator: OperatorRecord, input: LoginInput, now: number): Promise<void> {
    if (input.recoveryCode) {
      const used = await store.useRecoveryCode(
        this.db,
        Number(operator.id),
        recoveryCodeHash(input.recoveryCode),
        now,
      );
      if (!used) await this.fail(operator, badRequest('operators.recoveryCodeWrong'));
      return;
    }
    if (!input.totp) throw badRequest('operators.totpRequired');
    if (!(await this.claimTotp(operator, input.totp, now)))
      await this.fail(operator, badRequest('operators.totpWrong'));
  }

  /** True when `code` is the operator's current code and its step was not used before (then it is used). */
  private async claimTotp(operator: OperatorRecord, code: string, now: number): Promise<boolean> {
    if (!operator.totp_secret) return false;
    const lastStep = operator.totp_last_step === null ? null : Number(operator.totp_last_step);
    const step = await matchTotp(operator.totp_secret, code.trim(), now, lastStep);
    return step !== null && (await store.claimTotpStep(this.db, Number(operator.id), step));
  }

  /** A fresh secret each time until one is confirmed: a secret shown earlier never becomes the factor. */
  private async enrolmentAnswer(operator: OperatorRecord, ip: string): Promise<OperatorLoginAnswer> {
    const secret = newTotpSecret();
    await store.update(this.db, Number(operator.id), { totp_secret: secret, totp_last_step: null });
    const { token, expiresAt } = await this.openSession(Number(operator.id), false, ip);
    return {
      step: 'enrolTotp',
      token,
      expiresAt,
      operator: operatorMe(operator),
      enrolment: { secret, otpauthUri: totpUri(operator.email, secret) },
    };
  }

  /** The first code of the new secret: TOTP is on, the session is signed in, and ten recovery codes are shown once. */
  async confirmTotp(signedIn: SignedIn, code: string): Promise<OperatorTotpConfirmAnswer> {
    const operator = signedIn.operator;
    if (operator.totp_enrolled === 1) throw conflict('operators.totpAlreadyEnrolled');
    const now = this.clock.now();
    if (!(await this.claimTotp(operator, code, now))) throw badRequest('operators.totpWrong');
    const recoveryCodes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await store.replaceRecoveryCodes(this.db, Number(operator.id), recoveryCodes.map(recoveryCodeHash));
    await store.update(this.db, Number(operator.id), { totp_enrolled: 1, last_login_at: now });
    await store.upgradeSession(this.db, signedIn.sessionId);
    return { recoveryCodes, operator: operatorMe({ ...operator, totp_enrolled: 1 }) };
  }

  /**
   * A money action's fresh code (header operator-totp): refused when missing,
   * wrong or used before. Wrong codes count like failed sign-ins: the fifth
   * in a row locks the account and ends its sessions.
   */
  async checkFreshTotp(operatorId: number, code: string | null): Promise<void> {
    if (!code) throw forbidden('operators.freshTotpRequired');
    const operator = await this.existing(operatorId);
    if (!(await this.claimTotp(operator, code, this.clock.now()))) {
      await this.fail(operator, forbidden('operators.totpWrong'), true);
    }
    if (operator.failed_attempts > 0) await store.update(this.db, operatorId, { failed_attempts: 0 });
  }

  // ── sessions ──────────────────────────────────────────────────────────

  private async openSession(
    operatorId: number,
    secondFactor: boolean,
    ip: string,
  ): Promise<{ token: string; expiresAt: number }> {
    const token = newSessionToken();
    const now = this.clock.now();
    const expiresAt = now + OPERATOR_SESSION_MS;
    await store.insertSession(this.db, {
      token_hash: sha256Hex(token),
      operator_id: operatorId,
      second_factor: secondFactor ? 1 : 0,
      created_at: now,
      last_seen_at: now,
      expires_at: expiresAt,
      revoked_at: null,
      ip,
    });
    return { token, expiresAt };
  }

  /** The live session of a token and its active operator; null once idle, past its end, revoked or disabled. */
  async authenticate(token: string): Promise<SignedIn | null> {
    const now = this.clock.now();
    const session = await store.liveSession(this.db, sha256Hex(token), now);
    if (!session || Number(session.last_seen_at) + OPERATOR_IDLE_MS <= now) return null;
    const operator = await store.byId(this.db, Number(session.operator_id));
    if (operator?.status !== 'active') return null;
    if (now - Number(session.last_seen_at) >= TOUCH_EVERY_MS) {
      await store.touchSession(this.db, Number(session.id), now);
    }
    return { sessionId: Number(session.id), operator, secondFactor: session.second_factor === 1 };
  }

  async logout(signedIn: SignedIn): Promise<void> {
    await store.revokeSession(this.db, signedIn.sessionId, this.clock.now());
  }

  /**
   * The operator's own new password (the first one was set by an
   * administrator): the current one is asked (a wrong one counts towards the
   * lock, and the fifth ends every session), and the operator's other
   * sessions end.
   */
  async changePassword(signedIn: SignedIn, current: string, next: string): Promise<void> {
    const operator = await this.existing(Number(signedIn.operator.id));
    if (!(await verifyPassword(operator.password_hash, current))) {
      await this.fail(operator, badRequest('operators.badCredentials'), true);
    }
    const id = Number(operator.id);
    await store.update(this.db, id, {
      password_hash: await hashPassword(next, this.passwordHashCost),
      failed_attempts: 0,
    });
    await store.revokeSessionsOf(this.db, id, this.clock.now(), signedIn.sessionId);
  }
}

/** Thrown by the guard for a missing, idle, expired or revoked session: the console signs in again. */
export function sessionExpired(): AppError {
  return new AppError('operators.sessionExpired', {}, CODE.unauthorized);
}
