import type { IeoSnapshot } from '../../core/state/ieo.ts';
import type { MoneyResult } from '../../core/state/index.ts';
import { AppError } from '../../http/errors.ts';
import type { ProjectedState } from '../../projection/equivalence-support.ts';
import type { Executor } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import { ieoSaleTermsOf } from './service.ts';
import { ieoStore as sql } from './store.ts';

/**
 * What the IEO equivalence tests (state-equivalence.test.ts, the seeded
 * stream; state-distribution.test.ts, one sale of several batches) share:
 * both sides' answers in one shape, the edge's steps around a command (the
 * project row it writes, the clock's `ieoAdvance` until a sale is
 * distributed), and the rows compared.
 */

export type Answer =
  | { ok: true; orderId?: number; cancelled?: boolean }
  | { ok: false; error: string; params?: unknown };

export function answerOf(error: unknown): Answer {
  if (!(error instanceof AppError)) throw error;
  return Object.keys(error.params).length === 0
    ? { ok: false, error: error.key }
    : { ok: false, error: error.key, params: error.params };
}

export function stateAnswer(result: MoneyResult): Answer {
  if (!result.ok) return result.params === undefined ? result : { ...result };
  if (result.ieoOrderId !== undefined) return { ok: true, orderId: result.ieoOrderId };
  if (result.ieoCancelled) return { ok: true, cancelled: true };
  return { ok: true };
}

/** A stub of what IeoService reads of identity: nobody frozen, everyone verified, the inviters given. */
export function stubIdentity(inviters: ReadonlyMap<number, number>): IdentityService {
  const stub = {
    assertNotFrozen: async () => {},
    getUser: async (userId: number) => ({
      id: userId,
      kyc: 'succeeded',
      areaCode: null,
      parentId: inviters.get(userId) ?? null,
    }),
  };
  // Only these two are called by IeoService.
  return stub as unknown as IdentityService;
}

/**
 * The clock at the edge on one sale: `ieoAdvance`, sent again while the
 * result says the sale is left distributing (a batch a command). Answers
 * the last result and how many commands it took.
 */
export function advanceSale(
  side: ProjectedState,
  at: number,
  projectId: number,
): { result: MoneyResult; commands: number } {
  for (let commands = 1; ; commands++) {
    const result = side.apply({ kind: 'ieoAdvance', at, projectId });
    if (!result.ok || !result.ieoDistributing) return { result, commands };
  }
}

/** The edge writes the project row before it sends the sale's terms: the module's row, copied. */
export async function copyProject(moduleDb: Executor, side: ProjectedState, id: number): Promise<void> {
  await side.write();
  const row = (await sql.project(moduleDb, id))!;
  const exists = await sql.project(side.store.db, id);
  if (exists) await sql.updateProject(side.store.db, id, row);
  else await sql.insertProject(side.store.db, row);
}

/** `ieoSale` with the module's row's terms and salt, and the clock's advance after it if it left the sale distributing. */
export async function saleCommand(
  moduleDb: Executor,
  side: ProjectedState,
  id: number,
  at: number,
  why: { fundWhy: string; defundWhy: string },
): Promise<MoneyResult> {
  const row = (await sql.project(moduleDb, id))!;
  const result = side.apply({
    kind: 'ieoSale',
    at,
    projectId: id,
    terms: ieoSaleTermsOf(row),
    salt: row.salt,
    ...why,
  });
  return result.ok && result.ieoDistributing ? advanceSale(side, at, id).result : result;
}

/** The IEO state's snapshot in a fixed order (maps may list their entries in another order after a load). */
export function canonical(snapshot: IeoSnapshot): IeoSnapshot {
  return {
    nextOrderId: snapshot.nextOrderId,
    sales: [...snapshot.sales].sort((x, y) => x.projectId - y.projectId),
    orders: [...snapshot.orders].sort((x, y) => x.id - y.id),
    owed: [...snapshot.owed].sort((x, y) => x.orderId - y.orderId),
    tranches: [...snapshot.tranches].sort((x, y) => x.orderId - y.orderId || x.seq - y.seq),
  };
}

export async function ieoRows(db: Executor) {
  return {
    projects: await db.selectFrom('ieo_projects').selectAll().orderBy('id').execute(),
    orders: await db.selectFrom('ieo_orders').selectAll().orderBy('id').execute(),
    tranches: await db.selectFrom('ieo_tranches').selectAll().orderBy('order_id').orderBy('seq').execute(),
    totals: await db
      .selectFrom('ieo_commit_totals')
      .selectAll()
      .orderBy('project_id')
      .orderBy('paycoin')
      .execute(),
    rebates: await db.selectFrom('ieo_rebates').selectAll().orderBy('order_id').execute(),
    allocations: await db.selectFrom('ieo_allocations').selectAll().orderBy('project_id').execute(),
    commissions: await db.selectFrom('referral_commissions').selectAll().orderBy('id').execute(),
  };
}
