import type { ApprovalStatus } from '@halyard/protocol';
import type { Generated, Selectable } from 'kysely';
import type { Executor } from '../../store/database.ts';

export interface ApprovalRequestsTable {
  id: Generated<number>;
  kind: string;
  subject: string | null;
  payload: string;
  summary: string;
  reason: string;
  requested_by: string;
  requested_by_email: string;
  requested_at: number;
  status: ApprovalStatus;
  decided_by: string | null;
  decided_by_email: string | null;
  decided_at: number | null;
  decision_reason: string | null;
  result: string | null;
  error: string | null;
}

declare module '../../store/database.ts' {
  interface Database {
    approval_requests: ApprovalRequestsTable;
  }
}

export type ApprovalRow = Selectable<ApprovalRequestsTable>;

export interface NewApproval {
  kind: string;
  subject: string | null;
  payload: string;
  summary: string;
  reason: string;
  requestedBy: string;
  requestedByEmail: string;
  requestedAt: number;
}

export interface Decision {
  by: string;
  email: string;
  at: number;
  reason: string | null;
}

/** The approval module's SQL; only its service calls it. */
export const approvalStore = {
  async insert(db: Executor, input: NewApproval): Promise<ApprovalRow> {
    return db
      .insertInto('approval_requests')
      .values({
        kind: input.kind,
        subject: input.subject,
        payload: input.payload,
        summary: input.summary,
        reason: input.reason,
        requested_by: input.requestedBy,
        requested_by_email: input.requestedByEmail,
        requested_at: input.requestedAt,
        status: 'pending',
      })
      .returningAll()
      .executeTakeFirstOrThrow();
  },

  byId(db: Executor, id: number): Promise<ApprovalRow | undefined> {
    return db.selectFrom('approval_requests').selectAll().where('id', '=', id).executeTakeFirst();
  },

  pendingOf(db: Executor, kind: string, subject: string): Promise<ApprovalRow | undefined> {
    return db
      .selectFrom('approval_requests')
      .selectAll()
      .where('kind', '=', kind)
      .where('subject', '=', subject)
      .where('status', '=', 'pending')
      .orderBy('id')
      .executeTakeFirst();
  },

  /** Every request approved and not yet executed or failed, oldest first. */
  approvedOf(db: Executor): Promise<ApprovalRow[]> {
    return db
      .selectFrom('approval_requests')
      .selectAll()
      .where('status', '=', 'approved')
      .orderBy('id')
      .execute();
  },

  list(
    db: Executor,
    filter: { status: ApprovalStatus | null; kind: string | null; limit: number },
  ): Promise<ApprovalRow[]> {
    let query = db.selectFrom('approval_requests').selectAll();
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    return query.orderBy('id', 'desc').limit(filter.limit).execute();
  },

  /**
   * Moves a pending request to `status` with the decision; false when it was
   * no longer pending (another operator decided first): the one conditional
   * update is what lets exactly one of two racing approvals through.
   */
  async decide(
    db: Executor,
    id: number,
    status: 'approved' | 'rejected',
    decision: Decision,
  ): Promise<boolean> {
    const result = await db
      .updateTable('approval_requests')
      .set({
        status,
        decided_by: decision.by,
        decided_by_email: decision.email,
        decided_at: decision.at,
        decision_reason: decision.reason,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  /** An approved request's outcome: executed with its result, or failed with its error. */
  async finish(
    db: Executor,
    id: number,
    outcome: { status: 'executed'; result: string } | { status: 'failed'; error: string },
  ): Promise<void> {
    await db
      .updateTable('approval_requests')
      .set(
        outcome.status === 'executed'
          ? { status: 'executed', result: outcome.result }
          : { status: 'failed', error: outcome.error },
      )
      .where('id', '=', id)
      .where('status', '=', 'approved')
      .execute();
  },
};
