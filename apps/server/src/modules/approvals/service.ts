import type { ApprovalStatus, ApprovalView, MessageParams, Permission } from '@halyard/protocol';
import type { Clock } from '../../clock.ts';
import { type OperatorIdentity, operatorHolds } from '../../http/auth.ts';
import { AppError, badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Db, Executor, Trx } from '../../store/database.ts';
import { type ApprovalRow, approvalStore as sql } from './store.ts';

/** Which request a handler executes, asked by whom and approved by whom. */
export interface ApprovedRequest {
  requestId: number;
  requestedBy: { id: number; email: string };
  approvedBy: { id: number; email: string };
}

/** What an approved request's handler is given. */
export interface ExecutionContext extends ApprovedRequest {
  /** The ledger transaction that also marks the request executed: write through it, so both commit or neither. */
  trx: Trx;
  /** Work that cannot join `trx` (a push, waking a sender): run once the approval committed; its errors are logged, never recorded as a failure. */
  afterCommit(work: () => void | Promise<void>): void;
}

/**
 * One kind of four-eyes action. `validate` runs when the request is made
 * and again at approval, before the approval's transaction (the world may
 * have changed in between); it answers the payload normalised, or throws a
 * localised AppError and nothing is stored (at approval: the request is
 * recorded as failed). `execute` runs at approval inside the ledger
 * transaction of `ctx.trx` and must read and write only through it: on
 * SQLite (one connection) any other handle would wait for that transaction
 * forever. What it returns is kept as the request's result (JSON).
 */
export interface ApprovalHandler<P> {
  permissionToRequest: Permission;
  permissionToApprove: Permission;
  validate(payload: unknown): P | Promise<P>;
  /** One line for the queue, and what the request is about (`withdrawal:12`), or null. */
  describe(payload: P): { summary: string; subject: string | null };
  execute(payload: P, ctx: ExecutionContext): Promise<unknown>;
  /**
   * On the sequenced core (issue 19's cut-over), the execution as the money
   * state's command, in place of `execute`: submitted once the approval is
   * recorded, answered once SQL holds it. The command's own event marks the
   * request executed with its result (the approvals writer, projection.ts),
   * so a command that became durable is recorded even if the process stops
   * before it answers. A refusal throws the SQL path's AppError.
   */
  submit?(payload: P, request: ApprovedRequest): Promise<void>;
}

export interface ApprovalServiceOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  /**
   * The sequenced core, when the server runs on it: the decisions are
   * written in their own transactions (the ledger's is not taken on the
   * core), and a kind with `submit` executes by its command.
   */
  core?: MoneyCoreHandle;
  /** Errors of `afterCommit` work, after the approval committed. */
  onError: (error: unknown) => void;
}

export interface ApprovalQuery {
  status: ApprovalStatus | null;
  kind: string | null;
  limit: number;
}

/** The outcome of an approval: the request as stored, and the error its execution failed with. */
export interface ApprovalOutcome {
  approval: ApprovalView;
  failure: AppError | null;
}

const REASON_MAX = 500;

/**
 * The generic four-eyes framework: kinds are registered by the modules that
 * own the action; a request is stored pending; a second operator, never the
 * requester, approves it (the handler executes in the same transaction as
 * the decision) or rejects it (nothing executes). Two approvals racing for
 * one request: the ledger's queue orders them and the conditional update of
 * the status lets exactly one through.
 */
export class ApprovalService {
  // biome-ignore lint/suspicious/noExplicitAny: each entry keeps its own payload type; the map only routes by kind.
  private readonly handlers = new Map<string, ApprovalHandler<any>>();

  constructor(private readonly options: ApprovalServiceOptions) {}

  /** Adds a kind; its name is what the queue and the audit log show. Registering a kind twice is a wiring bug. */
  register<P>(kind: string, handler: ApprovalHandler<P>): void {
    if (this.handlers.has(kind)) throw new Error(`approval kind ${kind} registered twice`);
    this.handlers.set(kind, handler);
  }

  kinds(): string[] {
    return [...this.handlers.keys()];
  }

  /** Stores a pending request of `kind` after checking the operator's permission and the payload. */
  async request(
    kind: string,
    payload: unknown,
    operator: OperatorIdentity,
    reason: string,
  ): Promise<ApprovalView> {
    const handler = this.handler(kind);
    requirePermission(operator, handler.permissionToRequest);
    const why = requireReason(reason);
    const valid = await handler.validate(payload);
    const { summary, subject } = handler.describe(valid);
    const row = await sql.insert(this.options.db, {
      kind,
      subject,
      payload: JSON.stringify(valid),
      summary,
      reason: why,
      requestedBy: String(operator.id),
      requestedByEmail: operator.email,
      requestedAt: this.options.clock.now(),
    });
    return approvalView(row);
  }

  /** The pending request of `kind` about `subject`, if any (e.g. the release of withdrawal 12 asked by a first operator). */
  async pendingAbout(kind: string, subject: string): Promise<ApprovalView | null> {
    const row = await sql.pendingOf(this.options.db, kind, subject);
    return row ? approvalView(row) : null;
  }

  /**
   * A second operator approves: refused to the requester themselves and
   * for a request no longer pending; otherwise the handler executes. A
   * refusal by the handler (or any error inside its transaction) rolls the
   * execution back and the request is recorded as failed with the error.
   */
  async approve(id: number, operator: OperatorIdentity): Promise<ApprovalOutcome> {
    const pending = await this.pendingRow(this.options.db, id);
    const handler = this.handler(pending.kind);
    let payload: unknown;
    try {
      // Outside the transaction: validation may read other modules through their own handles.
      payload = await handler.validate(JSON.parse(pending.payload));
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      return { approval: await this.recordFailure(id, operator, error), failure: error };
    }
    if (handler.submit) return this.approveByCommand(id, operator, payload, handler.submit);
    const afterCommit: Array<() => void | Promise<void>> = [];
    // Refusals of the approval itself (self-approval, not pending) are answered as they are, never recorded.
    let claimed = false;
    try {
      const approval = await this.transaction(async (trx) => {
        const { row } = await this.claim(trx, id, operator);
        claimed = true;
        const result = await handler.execute(payload, {
          ...approvedRequestOf(row, operator),
          trx,
          afterCommit: (work) => afterCommit.push(work),
        });
        await sql.finish(trx, id, { status: 'executed', result: JSON.stringify(result ?? null) });
        return this.view(trx, id);
      });
      await this.runAfterCommit(afterCommit);
      return { approval, failure: null };
    } catch (error) {
      if (!claimed) throw error;
      if (!(error instanceof AppError)) this.options.onError(error);
      const failure = error instanceof AppError ? error : new AppError('approvals.executionFailed', {}, 500);
      return { approval: await this.recordFailure(id, operator, failure), failure };
    }
  }

  /**
   * On the core: the approval is recorded first (the one conditional update
   * still lets exactly one of two racing approvals through), then the
   * command executes it; a refusal records the request as failed, as the SQL
   * path does after its rollback.
   */
  private async approveByCommand(
    id: number,
    operator: OperatorIdentity,
    payload: unknown,
    submit: NonNullable<ApprovalHandler<unknown>['submit']>,
  ): Promise<ApprovalOutcome> {
    const { row } = await this.transaction((trx) => this.claim(trx, id, operator));
    return this.executeByCommand(approvedRequestOf(row, operator), payload, submit);
  }

  /** Submits an approved request's command: executed once SQL holds it (its projection), or recorded failed with the refusal. */
  private async executeByCommand(
    request: ApprovedRequest,
    payload: unknown,
    submit: NonNullable<ApprovalHandler<unknown>['submit']>,
  ): Promise<ApprovalOutcome> {
    const id = request.requestId;
    try {
      await submit(payload, request);
      return { approval: await this.get(id), failure: null };
    } catch (error) {
      if (!(error instanceof AppError)) this.options.onError(error);
      const failure = error instanceof AppError ? error : new AppError('approvals.executionFailed', {}, 500);
      await sql.finish(this.options.db, id, { status: 'failed', error: errorRecord(failure) });
      return { approval: await this.get(id), failure };
    }
  }

  /**
   * At start on the core, once every kind is registered: a request recorded
   * approved whose command never became durable (the process stopped
   * between the two) is submitted again. SQL is first brought up to the
   * journal, so a request whose command was durable already reads executed
   * (or failed); the command is idempotent by the request's id all the same.
   * On SQL nothing is left approved: the execution commits with the decision.
   */
  async resumeApproved(): Promise<void> {
    const { core, db } = this.options;
    if (!core) return;
    await core.readable(core.sequencer.lastSequence());
    for (const row of await sql.approvedOf(db)) {
      const submit = this.handlers.get(row.kind)?.submit;
      if (!submit) continue;
      const approvedBy = { id: Number(row.decided_by), email: row.decided_by_email ?? '' };
      await this.executeByCommand(approvedRequestOf(row, approvedBy), JSON.parse(row.payload), submit);
    }
  }

  /** The execution rolled back with `failure`: the request is decided again, as failed, in a transaction of its own. */
  private recordFailure(id: number, operator: OperatorIdentity, failure: AppError): Promise<ApprovalView> {
    return this.transaction(async (trx) => {
      await this.claim(trx, id, operator);
      await sql.finish(trx, id, { status: 'failed', error: errorRecord(failure) });
      return this.view(trx, id);
    });
  }

  /** A second operator (never the requester) refuses with a reason: nothing executes. */
  async reject(id: number, operator: OperatorIdentity, reason: string): Promise<ApprovalView> {
    const why = requireReason(reason);
    return this.transaction(async (trx) => {
      const row = await this.pendingRow(trx, id);
      requireSecondOperator(row, operator);
      requirePermission(operator, this.handler(row.kind).permissionToApprove);
      await this.decide(trx, id, 'rejected', operator, why);
      return this.view(trx, id);
    });
  }

  async list(query: ApprovalQuery): Promise<ApprovalView[]> {
    return (await sql.list(this.options.db, query)).map(approvalView);
  }

  async get(id: number): Promise<ApprovalView> {
    const row = await sql.byId(this.options.db, id);
    if (!row) throw notFound('approvals.notFound');
    return approvalView(row);
  }

  /**
   * A decision's transaction: the ledger's on SQL, so an execution writes
   * its transfers in it; on the core a plain one (the state executes).
   */
  private transaction<T>(work: (trx: Trx) => Promise<T>): Promise<T> {
    if (this.options.core) return this.options.db.transaction().execute(work);
    return this.options.ledger.transaction(work);
  }

  /** Checks and marks the request approved by `operator`, inside `trx`. */
  private async claim(trx: Trx, id: number, operator: OperatorIdentity) {
    const row = await this.pendingRow(trx, id);
    requireSecondOperator(row, operator);
    const handler = this.handler(row.kind);
    requirePermission(operator, handler.permissionToApprove);
    await this.decide(trx, id, 'approved', operator, null);
    return { row, handler };
  }

  private async decide(
    trx: Trx,
    id: number,
    status: 'approved' | 'rejected',
    operator: OperatorIdentity,
    reason: string | null,
  ): Promise<void> {
    const decision = { by: String(operator.id), email: operator.email, at: this.options.clock.now(), reason };
    if (!(await sql.decide(trx, id, status, decision))) throw conflict('approvals.notPending');
  }

  private async pendingRow(db: Executor, id: number): Promise<ApprovalRow> {
    const row = await sql.byId(db, id);
    if (!row) throw notFound('approvals.notFound');
    if (row.status !== 'pending') throw conflict('approvals.notPending', { status: row.status });
    return row;
  }

  private async view(trx: Trx, id: number): Promise<ApprovalView> {
    const row = await sql.byId(trx, id);
    if (!row) throw new Error(`approval ${id} vanished inside its own transaction`);
    return approvalView(row);
  }

  // biome-ignore lint/suspicious/noExplicitAny: see `handlers`.
  private handler(kind: string): ApprovalHandler<any> {
    const handler = this.handlers.get(kind);
    if (!handler) throw badRequest('approvals.unknownKind', { kind });
    return handler;
  }

  private async runAfterCommit(works: ReadonlyArray<() => void | Promise<void>>): Promise<void> {
    for (const work of works) {
      try {
        await work();
      } catch (error) {
        this.options.onError(error);
      }
    }
  }
}

function requirePermission(operator: OperatorIdentity, permission: Permission): void {
  if (!operatorHolds(operator, permission)) throw forbidden('common.forbidden');
}

function requireSecondOperator(row: ApprovalRow, operator: OperatorIdentity): void {
  if (row.requested_by === String(operator.id)) throw forbidden('approvals.selfApproval');
}

function requireReason(reason: string): string {
  const why = reason.trim();
  if (!why) throw badRequest('approvals.reasonRequired');
  if (why.length > REASON_MAX) throw badRequest('approvals.reasonTooLong', { max: REASON_MAX });
  return why;
}

/** A failed execution's error as the request keeps it. */
function errorRecord(failure: AppError): string {
  return JSON.stringify({ key: failure.key, params: failure.params });
}

function approvalView(row: ApprovalRow): ApprovalView {
  const decidedBy =
    row.decided_by === null ? null : { id: Number(row.decided_by), email: row.decided_by_email ?? '' };
  return {
    id: Number(row.id),
    kind: row.kind,
    subject: row.subject,
    payload: JSON.parse(row.payload) as unknown,
    summary: row.summary,
    reason: row.reason,
    requestedBy: { id: Number(row.requested_by), email: row.requested_by_email },
    requestedAt: Number(row.requested_at),
    status: row.status,
    decidedBy,
    decidedAt: row.decided_at === null ? null : Number(row.decided_at),
    decisionReason: row.decision_reason,
    result: row.result === null ? null : (JSON.parse(row.result) as unknown),
    error: row.error === null ? null : (JSON.parse(row.error) as { key: string; params: MessageParams }),
  };
}

/** Who asked for a request and who approved it, as its execution is told. */
function approvedRequestOf(row: ApprovalRow, approvedBy: { id: number; email: string }): ApprovedRequest {
  return {
    requestId: Number(row.id),
    requestedBy: { id: Number(row.requested_by), email: row.requested_by_email },
    approvedBy: { id: approvedBy.id, email: approvedBy.email },
  };
}
