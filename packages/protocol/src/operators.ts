/**
 * Operators of the back office on the wire (issue 18): their roles, the
 * permissions each role allows, sign-in with a password and a TOTP second
 * factor, and the audit trail. Shared by the server's /admin routes and the
 * console (apps/admin). Times are epoch milliseconds.
 *
 * Headers: `operator-token` carries a session, `operator-totp` a fresh TOTP
 * code for money actions (each code is accepted once per operator).
 */

export const OPERATOR_ROLES = [
  'administrator',
  'compliance',
  'finance',
  'support',
  'content',
  'auditor',
] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** Every action the server checks on an /admin route; a role is an allow-list of these. */
export const PERMISSIONS = [
  'dashboard.read',
  'users.read',
  'users.freeze',
  'users.sessions',
  'pii.read',
  'kyc.review',
  'deposits.read',
  'withdrawals.read',
  'withdrawals.review',
  'wallet.recover',
  'adjustments.request',
  'adjustments.approve',
  'markets.read',
  'markets.edit',
  'markets.list',
  'ieo.manage',
  'fiat.merchants',
  'fiat.appeals',
  'content.manage',
  'tickets.manage',
  'referral.settings',
  'audit.read',
  'operators.manage',
] as const;
export type Permission = (typeof PERMISSIONS)[number];

/** The read-only permissions: an auditor holds all of them and nothing else. */
const READ_PERMISSIONS: readonly Permission[] = PERMISSIONS.filter((permission) =>
  permission.endsWith('.read'),
);

const ROLE_PERMISSION_LISTS: ReadonlyArray<readonly [OperatorRole, readonly Permission[]]> = [
  ['administrator', PERMISSIONS],
  [
    'compliance',
    [
      'dashboard.read',
      'users.read',
      'users.freeze',
      'users.sessions',
      'pii.read',
      'kyc.review',
      'fiat.merchants',
    ],
  ],
  [
    'finance',
    [
      'dashboard.read',
      'users.read',
      'deposits.read',
      'withdrawals.read',
      'withdrawals.review',
      'wallet.recover',
      'adjustments.request',
      'adjustments.approve',
    ],
  ],
  ['support', ['dashboard.read', 'users.read', 'tickets.manage', 'fiat.appeals']],
  ['content', ['content.manage']],
  // Every read, personal data included, and no write.
  ['auditor', [...READ_PERMISSIONS, 'pii.read']],
];

/** What each role may do; the server checks it on every /admin route. */
export const ROLE_PERMISSIONS: ReadonlyMap<OperatorRole, ReadonlySet<Permission>> = new Map(
  ROLE_PERMISSION_LISTS.map(([role, permissions]) => [role, new Set(permissions)]),
);

const ROLE_SET: ReadonlySet<string> = new Set(OPERATOR_ROLES);
const PERMISSION_SET: ReadonlySet<string> = new Set(PERMISSIONS);

/** Prototype-safe: "__proto__" or "toString" are not roles. */
export function isOperatorRole(value: string): value is OperatorRole {
  return ROLE_SET.has(value);
}

export function isPermission(value: string): value is Permission {
  return PERMISSION_SET.has(value);
}

export function roleAllows(role: OperatorRole, permission: Permission): boolean {
  return ROLE_PERMISSIONS.get(role)?.has(permission) ?? false;
}

/** The permissions of a role in PERMISSIONS order (what /admin/auth/me answers). */
export function permissionsOf(role: OperatorRole): Permission[] {
  return PERMISSIONS.filter((permission) => roleAllows(role, permission));
}

export const OPERATOR_STATUSES = ['active', 'disabled'] as const;
export type OperatorStatus = (typeof OPERATOR_STATUSES)[number];

/** GET /admin/auth/me: the signed-in operator. */
export interface OperatorMe {
  id: number;
  email: string;
  role: OperatorRole;
  permissions: Permission[];
  /** False until the operator confirmed a code of their authenticator app. */
  totpEnrolled: boolean;
}

/** POST /admin/auth/login. Once TOTP is enrolled, `totp` or one of the `recoveryCode`s is required. */
export interface OperatorLoginRequest {
  email: string;
  password: string;
  totp?: string;
  recoveryCode?: string;
}

/** The secret to add to an authenticator app: the console renders `otpauthUri` as a QR code. */
export interface OperatorTotpEnrolment {
  secret: string;
  otpauthUri: string;
}

/**
 * The answer of POST /admin/auth/login and /admin/auth/bootstrap. `enrolTotp`:
 * the token only opens /admin/auth/totp/confirm, /me and /logout until the
 * operator confirms a code of the new secret.
 */
export type OperatorLoginAnswer =
  | { step: 'signedIn'; token: string; expiresAt: number; operator: OperatorMe }
  | {
      step: 'enrolTotp';
      token: string;
      expiresAt: number;
      operator: OperatorMe;
      enrolment: OperatorTotpEnrolment;
    };

/** GET /admin/auth/bootstrap: `open` until an administrator exists (then the admin token is refused). */
export interface OperatorBootstrapStatus {
  open: boolean;
}

/** POST /admin/auth/bootstrap: the configured admin-token header names the first administrator. */
export interface OperatorBootstrapRequest {
  email: string;
  password: string;
}

/** POST /admin/auth/totp/confirm with the session of an `enrolTotp` answer. */
export interface OperatorTotpConfirmRequest {
  code: string;
}

/** Shown once: each recovery code signs in once in place of a TOTP code. */
export interface OperatorTotpConfirmAnswer {
  recoveryCodes: string[];
  operator: OperatorMe;
}

/** POST /admin/operators: the new operator enrols TOTP at their first sign-in. */
export interface OperatorCreateRequest {
  email: string;
  password: string;
  role: OperatorRole;
}

/** A row of GET /admin/operators. */
export interface OperatorRow {
  id: number;
  email: string;
  role: OperatorRole;
  status: OperatorStatus;
  totpEnrolled: boolean;
  createdAt: number;
  lastLoginAt: number | null;
  /** Set while failed sign-ins keep the account locked. */
  lockedUntil: number | null;
}

/** A row of GET /admin/audit: an operator's write or view of personal data. */
export interface OperatorAuditRow {
  id: number;
  at: number;
  /** Null for entries written before operator accounts, and for the bootstrap token. */
  operatorId: number | null;
  /** The operator's e-mail (or the name recorded by older entries, or "bootstrap"). */
  operator: string;
  /** A write: its method and route ("POST /admin/identity/freeze"); a view: what was looked at ("upload.view"). */
  action: string;
  /** What was acted on or looked at (a user, a withdrawal, an upload), when known. */
  subject: string | null;
  userId: number | null;
  /** The HTTP status of a write; null for views. */
  status: number | null;
  ip: string | null;
  /** JSON: the route's params and body with secrets redacted, or the entry's own details. */
  details: string;
}

/** GET /admin/audit query: every filter optional; `action` and `subject` match a part. */
export interface OperatorAuditQuery {
  operatorId?: number;
  action?: string;
  subject?: string;
  userId?: number;
  from?: number;
  to?: number;
  page?: number;
  limit?: number;
}

export interface OperatorAuditPage {
  items: OperatorAuditRow[];
  total: number;
  page: number;
  limit: number;
}
