import type { OperatorAuditPage, OperatorAuditQuery, OperatorAuditRow } from '@halyard/protocol';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Clock } from '../../clock.ts';
import { auditActor } from '../../http/auth.ts';
import type { Executor } from '../../store/database.ts';
import { type AuditRecord, operatorStore as store } from './store.ts';

/** What an operator looked at: e.g. `{ action: 'upload.view', subject: 'upload:…', userId: 7 }`. */
export interface AuditedView {
  action: string;
  subject?: string | null;
  userId?: number | null;
  details?: Record<string, unknown>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The operators module's audit trail: `auditView` writes through it. */
    operatorAudit: AuditTrail;
  }
}

const REDACTED = '[redacted]';
/** Body fields never written to the log, under whatever nesting. */
const SECRET_KEY = /pass|totp|code|secret|token|otp|mnemonic|private/i;
/** Longer details (a notice in nine languages) are cut: the log says what was done, not the whole document. */
const MAX_DETAILS = 4_000;
const CSV_MAX_ROWS = 10_000;

/** A copy of a request body with every secret-looking field replaced. */
export function redactSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(redactSecrets);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      SECRET_KEY.test(key) ? REDACTED : redactSecrets(inner),
    ]),
  );
}

function limited(text: string): string {
  return text.length <= MAX_DETAILS ? text : `${text.slice(0, MAX_DETAILS)}…`;
}

function objectOf(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** `/admin/wallet/withdrawals/:id/approve` with id 12 → `withdrawals:12`: the segment before each parameter names it. */
function subjectOf(routeUrl: string, params: Record<string, unknown>): string | null {
  const segments = routeUrl.split('/');
  const parts: string[] = [];
  segments.forEach((segment, index) => {
    if (!segment.startsWith(':')) return;
    const name = segment.slice(1);
    if (Object.hasOwn(params, name)) parts.push(`${segments[index - 1] ?? name}:${String(params[name])}`);
  });
  return parts.length > 0 ? parts.join(',') : null;
}

/** The user an action concerns, when its params, body or query name one. */
function userIdOf(...sources: Record<string, unknown>[]): number | null {
  for (const source of sources) {
    const value = Object.hasOwn(source, 'userId') ? Number(source.userId) : Number.NaN;
    if (Number.isSafeInteger(value)) return value;
  }
  return null;
}

function auditRow(row: AuditRecord): OperatorAuditRow {
  const nullableNumber = (value: number | null) => (value === null ? null : Number(value));
  return {
    id: Number(row.id),
    at: Number(row.at),
    operatorId: nullableNumber(row.operator_id),
    operator: row.operator,
    action: row.action,
    subject: row.subject,
    userId: nullableNumber(row.user_id),
    status: nullableNumber(row.status),
    ip: row.ip,
    details: row.details,
  };
}

/** A CSV cell: quoted, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
function csvCell(value: string | number | null): string {
  if (value === null) return '';
  const text = String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

const CSV_COLUMNS = [
  'id',
  'at',
  'operatorId',
  'operator',
  'action',
  'subject',
  'userId',
  'status',
  'ip',
  'details',
] as const;

/**
 * The audit trail over the append-only operator_audit_log: every operator
 * write (the onSend hook) and every view of personal data (`auditView`),
 * with who, when, what, the status and the IP; searchable and exportable.
 */
export class AuditTrail {
  constructor(
    private readonly db: Executor,
    private readonly clock: Clock,
  ) {}

  /** Who to record: the operator's e-mail and id; a request refused before sign-in is `anonymous`. */
  private actor(request: FastifyRequest) {
    const actor = request.operator ? auditActor(request) : { name: 'anonymous', id: null };
    return { operator: actor.name, operator_id: actor.id, ip: request.ip };
  }

  /** One non-GET /admin request, allowed or refused, after its answer was sent. */
  async recordWrite(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const route = request.routeOptions.url ?? request.url;
    const params = objectOf(request.params);
    const body = objectOf(request.body);
    await store.appendAudit(this.db, {
      ...this.actor(request),
      at: this.clock.now(),
      action: `${request.method} ${route}`,
      subject: subjectOf(route, params),
      user_id: userIdOf(params, body, objectOf(request.query)),
      status: reply.statusCode,
      details: limited(JSON.stringify({ params, body: redactSecrets(body) })),
    });
  }

  async recordView(request: FastifyRequest, view: AuditedView): Promise<void> {
    await store.appendAudit(this.db, {
      ...this.actor(request),
      at: this.clock.now(),
      action: view.action,
      subject: view.subject ?? null,
      user_id: view.userId ?? null,
      status: null,
      details: limited(JSON.stringify(view.details ?? {})),
    });
  }

  async search(query: OperatorAuditQuery): Promise<OperatorAuditPage> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 50;
    const { rows, total } = await store.searchAudit(this.db, query, { offset: (page - 1) * limit, limit });
    return { items: rows.map(auditRow), total, page, limit };
  }

  /** The entries matching `query`, newest first, at most 10,000 rows. */
  async csv(query: OperatorAuditQuery): Promise<string> {
    const { rows } = await store.searchAudit(this.db, query, { offset: 0, limit: CSV_MAX_ROWS });
    const lines = rows.map((row) => {
      const entry = auditRow(row);
      return CSV_COLUMNS.map((column) =>
        csvCell(column === 'at' ? new Date(entry.at).toISOString() : entry[column]),
      ).join(',');
    });
    return `${[CSV_COLUMNS.join(','), ...lines].join('\r\n')}\r\n`;
  }
}

/** Every non-GET request to /admin is written to the audit trail once answered. */
export function registerAuditTrail(
  http: FastifyInstance,
  trail: AuditTrail,
  onError: (error: unknown) => void,
): void {
  http.decorate('operatorAudit', trail);
  // onSend, not onResponse: the entry is written before the operator reads the answer, so whoever
  // reads the log next finds it. What the command did is done: a failed write is logged, never
  // turned into a failure of the answer.
  http.addHook('onSend', async (request, reply, payload) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return payload;
    const route = request.routeOptions.url;
    if (!route?.startsWith('/admin/')) return payload;
    await trail.recordWrite(request, reply).catch(onError);
    return payload;
  });
}

/**
 * Records that the operator of a guarded request looked at personal data (an
 * identity document, a user's profile). Call it before answering.
 */
export function auditView(request: FastifyRequest, view: AuditedView): Promise<void> {
  return request.server.operatorAudit.recordView(request, view);
}
