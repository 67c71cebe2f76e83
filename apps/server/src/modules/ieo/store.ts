import type { Generated, Insertable, Selectable, Updateable } from 'kysely';
import { IEO_CANCELLABLE_STATES } from '../../core/state/ieo-rules.ts';
import type { IeoOrderRecord, IeoRebateRecord, IeoTrancheRecord } from '../../core/state/index.ts';
import type { Executor } from '../../store/database.ts';

export interface IeoProjectsTable {
  id: Generated<number>;
  coin: string;
  name: string;
  mode: string;
  state: string;
  start_at: number;
  end_at: number;
  total: string;
  sold: string;
  token_decimals: number;
  min_number: string;
  max_number: string;
  gift: string;
  rebate: string;
  require_kyc: number;
  pay_coins: string;
  vesting: string;
  refused_area_codes: string;
  intro: string;
  announcement: string;
  salt: string;
  demo_key: string | null;
  created_at: number;
  updated_at: number;
}

export interface IeoOrdersTable extends Omit<IeoOrderRecord, 'id'> {
  id: Generated<number>;
}

export type IeoTranchesTable = IeoTrancheRecord;

/** Commit mode: the running total committed per project and pay coin, written with each commitment. */
export interface IeoCommitTotalsTable {
  project_id: number;
  paycoin: string;
  committed: string;
  participants: number;
}

/** A promotion rebate: `owed` until its project can no longer be cancelled, then `paid` (or `cancelled`). */
export type IeoRebatesTable = IeoRebateRecord;

export interface IeoAllocationsTable {
  project_id: number;
  summary: string;
  created_at: number;
}

declare module '../../store/database.ts' {
  interface Database {
    ieo_projects: IeoProjectsTable;
    ieo_orders: IeoOrdersTable;
    ieo_tranches: IeoTranchesTable;
    ieo_rebates: IeoRebatesTable;
    ieo_allocations: IeoAllocationsTable;
    ieo_commit_totals: IeoCommitTotalsTable;
  }
}

export type ProjectRow = Selectable<IeoProjectsTable>;
export type OrderRow = Selectable<IeoOrdersTable>;
export type TrancheRow = Selectable<IeoTranchesTable>;
export type RebateRow = Selectable<IeoRebatesTable>;
export type CommitTotalRow = Selectable<IeoCommitTotalsTable>;
/** A tranche due for release, with its token's unit (linear releases floor to it). */
export type DueTrancheRow = TrancheRow & { token_decimals: number };

export const ieoStore = {
  async insertProject(db: Executor, row: Insertable<IeoProjectsTable>): Promise<ProjectRow> {
    return db.insertInto('ieo_projects').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async updateProject(db: Executor, id: number, changes: Updateable<IeoProjectsTable>): Promise<void> {
    await db.updateTable('ieo_projects').set(changes).where('id', '=', id).execute();
  },

  /** Moves a project from one state to the next; false when it was not in `from` (another step did it). */
  async moveState(db: Executor, id: number, from: string, to: string, now: number): Promise<boolean> {
    const result = await db
      .updateTable('ieo_projects')
      .set({ state: to, updated_at: now })
      .where('id', '=', id)
      .where('state', '=', from)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async project(db: Executor, id: number): Promise<ProjectRow | undefined> {
    return db.selectFrom('ieo_projects').selectAll().where('id', '=', id).executeTakeFirst();
  },

  /** The newest demo project of a kind (demo keys are `<kind>:<created at>`). */
  async latestDemoProject(db: Executor, kind: string): Promise<ProjectRow | undefined> {
    return db
      .selectFrom('ieo_projects')
      .selectAll()
      .where('demo_key', 'like', `${kind}:%`)
      .orderBy('id', 'desc')
      .executeTakeFirst();
  },

  async projects(db: Executor, states: readonly string[] | null): Promise<ProjectRow[]> {
    let query = db.selectFrom('ieo_projects').selectAll();
    if (states) query = query.where('state', 'in', states);
    return query.orderBy('start_at', 'desc').orderBy('id', 'desc').limit(200).execute();
  },

  /** The tokens of every project that was not cancelled: coins users may hold. */
  async launchedCoins(db: Executor): Promise<string[]> {
    const rows = await db
      .selectFrom('ieo_projects')
      .select('coin')
      .distinct()
      .where('state', '!=', 'cancelled')
      .execute();
    return rows.map((row) => row.coin);
  },

  /** Projects whose state the clock may move: not yet ended or cancelled. */
  async liveProjects(db: Executor): Promise<ProjectRow[]> {
    return db
      .selectFrom('ieo_projects')
      .selectAll()
      .where('state', 'in', ['not_open', 'open', 'calculating', 'distributing'])
      .orderBy('id')
      .execute();
  },

  async insertOrder(db: Executor, row: Insertable<IeoOrdersTable>): Promise<OrderRow> {
    return db.insertInto('ieo_orders').values(row).returningAll().executeTakeFirstOrThrow();
  },

  async updateOrder(db: Executor, id: number, changes: Updateable<IeoOrdersTable>): Promise<void> {
    await db.updateTable('ieo_orders').set(changes).where('id', '=', id).execute();
  },

  async userOrderOfProject(db: Executor, userId: number, projectId: number): Promise<OrderRow | undefined> {
    return db
      .selectFrom('ieo_orders')
      .selectAll()
      .where('user_id', '=', userId)
      .where('project_id', '=', projectId)
      .orderBy('id')
      .executeTakeFirst();
  },

  /** Tokens a user bought in a project so far (FCFS per-user maximum). */
  async userTokens(db: Executor, userId: number, projectId: number): Promise<string[]> {
    const rows = await db
      .selectFrom('ieo_orders')
      .select('tokens')
      .where('user_id', '=', userId)
      .where('project_id', '=', projectId)
      .execute();
    return rows.map((row) => row.tokens);
  },

  async userOrders(db: Executor, userId: number, offset: number, limit: number): Promise<OrderRow[]> {
    return db
      .selectFrom('ieo_orders')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('id', 'desc')
      .offset(offset)
      .limit(limit)
      .execute();
  },

  async projectOrders(db: Executor, projectId: number): Promise<OrderRow[]> {
    return db
      .selectFrom('ieo_orders')
      .selectAll()
      .where('project_id', '=', projectId)
      .orderBy('id')
      .execute();
  },

  /** Commit-mode orders not yet settled, oldest first. */
  async committedOrders(db: Executor, projectId: number, limit: number): Promise<OrderRow[]> {
    return db
      .selectFrom('ieo_orders')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('state', '=', 'committed')
      .orderBy('id')
      .limit(limit)
      .execute();
  },

  async commitTotals(db: Executor, projectIds: readonly number[]): Promise<CommitTotalRow[]> {
    if (projectIds.length === 0) return [];
    return db.selectFrom('ieo_commit_totals').selectAll().where('project_id', 'in', projectIds).execute();
  },

  /** Adds a commitment to its project's running total (inside the commitment's ledger transaction, which serialises them). */
  async addCommit(
    db: Executor,
    projectId: number,
    paycoin: string,
    add: { committed: (before: string) => string; participants: number },
  ): Promise<void> {
    const row = await db
      .selectFrom('ieo_commit_totals')
      .selectAll()
      .where('project_id', '=', projectId)
      .where('paycoin', '=', paycoin)
      .executeTakeFirst();
    if (!row) {
      await db
        .insertInto('ieo_commit_totals')
        .values({
          project_id: projectId,
          paycoin,
          committed: add.committed('0'),
          participants: add.participants,
        })
        .execute();
      return;
    }
    await db
      .updateTable('ieo_commit_totals')
      .set({
        committed: add.committed(row.committed),
        participants: Number(row.participants) + add.participants,
      })
      .where('project_id', '=', projectId)
      .where('paycoin', '=', paycoin)
      .execute();
  },

  async insertTranches(db: Executor, rows: TrancheRow[]): Promise<void> {
    for (let start = 0; start < rows.length; start += 500) {
      await db
        .insertInto('ieo_tranches')
        .values(rows.slice(start, start + 500))
        .execute();
    }
  },

  async tranchesOf(db: Executor, orderIds: readonly number[]): Promise<TrancheRow[]> {
    if (orderIds.length === 0) return [];
    return db
      .selectFrom('ieo_tranches')
      .selectAll()
      .where('order_id', 'in', orderIds)
      .orderBy('order_id')
      .orderBy('seq')
      .execute();
  },

  /**
   * Tranches not yet released in full whose release has begun, after the
   * (order, seq) cursor: a linear tranche stays due on every tick until its
   * end, so the scheduler pages by key rather than by what is left.
   */
  async dueTranches(
    db: Executor,
    now: number,
    after: { orderId: number; seq: number },
    limit: number,
  ): Promise<DueTrancheRow[]> {
    // Of sales that can no longer be cancelled: a cancel takes every delivered token back.
    return db
      .selectFrom('ieo_tranches')
      .innerJoin('ieo_orders', 'ieo_orders.id', 'ieo_tranches.order_id')
      .innerJoin('ieo_projects', 'ieo_projects.id', 'ieo_orders.project_id')
      .selectAll('ieo_tranches')
      .select('ieo_projects.token_decimals')
      .where('ieo_tranches.released_at', 'is', null)
      .where('ieo_tranches.next_release_at', '<=', now)
      .where('ieo_projects.state', 'not in', IEO_CANCELLABLE_STATES)
      .where((eb) =>
        eb.or([
          eb('ieo_tranches.order_id', '>', after.orderId),
          eb.and([eb('ieo_tranches.order_id', '=', after.orderId), eb('ieo_tranches.seq', '>', after.seq)]),
        ]),
      )
      .orderBy('ieo_tranches.order_id')
      .orderBy('ieo_tranches.seq')
      .limit(limit)
      .execute();
  },

  /**
   * Records that a tranche has released `releasedAmount` in all (and when it
   * is the whole of it, that it is done), only if it still stood at `before`:
   * false when another tick got there first.
   */
  async markReleased(
    db: Executor,
    tranche: { orderId: number; seq: number; before: string },
    releasedAmount: string,
    releasedAt: number | null,
    nextReleaseAt: number,
  ): Promise<boolean> {
    const result = await db
      .updateTable('ieo_tranches')
      .set({ released_amount: releasedAmount, released_at: releasedAt, next_release_at: nextReleaseAt })
      .where('order_id', '=', tranche.orderId)
      .where('seq', '=', tranche.seq)
      .where('released_amount', '=', tranche.before)
      .where('released_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  },

  async deleteUnreleasedTranches(db: Executor, orderId: number): Promise<void> {
    await db
      .deleteFrom('ieo_tranches')
      .where('order_id', '=', orderId)
      .where('released_at', 'is', null)
      .execute();
  },

  async insertRebate(db: Executor, row: RebateRow): Promise<void> {
    await db.insertInto('ieo_rebates').values(row).execute();
  },

  async rebatesOfProject(db: Executor, projectId: number): Promise<RebateRow[]> {
    return db
      .selectFrom('ieo_rebates')
      .innerJoin('ieo_orders', 'ieo_orders.id', 'ieo_rebates.order_id')
      .selectAll('ieo_rebates')
      .where('ieo_orders.project_id', '=', projectId)
      .orderBy('ieo_rebates.order_id')
      .execute();
  },

  /** Cancels the rebates of these orders that are still owed (a paid one stays paid). */
  async cancelOwedRebates(db: Executor, orderIds: readonly number[]): Promise<void> {
    if (orderIds.length > 0)
      await db
        .updateTable('ieo_rebates')
        .set({ state: 'cancelled' })
        .where('order_id', 'in', orderIds)
        .where('state', '=', 'owed')
        .execute();
  },

  /**
   * Owed rebates whose project can no longer be cancelled (distributing or
   * ended), oldest order first, with what the row of the commission records needs.
   */
  async payableRebates(db: Executor, limit: number) {
    return db
      .selectFrom('ieo_rebates')
      .innerJoin('ieo_orders', 'ieo_orders.id', 'ieo_rebates.order_id')
      .innerJoin('ieo_projects', 'ieo_projects.id', 'ieo_orders.project_id')
      .selectAll('ieo_rebates')
      .select([
        'ieo_orders.project_id',
        'ieo_orders.user_id',
        'ieo_orders.spent',
        'ieo_projects.rebate as rate',
      ])
      .where('ieo_rebates.state', '=', 'owed')
      .where('ieo_projects.state', 'in', ['distributing', 'ended'])
      .orderBy('ieo_rebates.order_id')
      .limit(limit)
      .execute();
  },

  /** Marks an owed rebate paid by `transferId`; false when it was not owed any more. */
  async markRebatePaid(db: Executor, orderId: number, transferId: string, now: number): Promise<boolean> {
    const result = await db
      .updateTable('ieo_rebates')
      .set({ state: 'paid', paid_by: transferId, paid_at: now })
      .where('order_id', '=', orderId)
      .where('state', '=', 'owed')
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  },

  async insertAllocation(db: Executor, projectId: number, summary: string, now: number): Promise<void> {
    await db
      .insertInto('ieo_allocations')
      .values({ project_id: projectId, summary, created_at: now })
      .execute();
  },

  async allocation(db: Executor, projectId: number): Promise<string | undefined> {
    return (
      await db
        .selectFrom('ieo_allocations')
        .select('summary')
        .where('project_id', '=', projectId)
        .executeTakeFirst()
    )?.summary;
  },
};
