import type { Generated, Insertable } from 'kysely';
import {
  type ContractRow,
  type EntrustRow,
  type FundingRow,
  type FuturesTradeRow,
  OPEN_ENTRUST_STATES,
  type PositionRow,
  type TriggerRow,
} from '../../core/state/futures-rows.ts';
import type { Executor } from '../../store/database.ts';

// The futures tables: each row is the money state's record (core/state/futures-rows.ts), its id the table's serial.
export interface FuturesContractsTable extends Omit<ContractRow, 'autoid'> {
  autoid: Generated<number>;
}

export interface FuturesOrdersTable extends Omit<EntrustRow, 'autoid'> {
  autoid: Generated<number>;
}

export interface FuturesPositionsTable extends Omit<PositionRow, 'autoid'> {
  autoid: Generated<number>;
}

export interface FuturesTriggersTable extends Omit<TriggerRow, 'autoid'> {
  autoid: Generated<number>;
}

export interface FuturesTradesTable extends Omit<FuturesTradeRow, 'autoid'> {
  autoid: Generated<number>;
}

export interface FuturesFundingTable extends Omit<FundingRow, 'autoid'> {
  autoid: Generated<number>;
}

declare module '../../store/database.ts' {
  interface Database {
    futures_contracts: FuturesContractsTable;
    futures_orders: FuturesOrdersTable;
    futures_positions: FuturesPositionsTable;
    futures_triggers: FuturesTriggersTable;
    futures_trades: FuturesTradesTable;
    futures_funding: FuturesFundingTable;
  }
}

export async function selectContracts(db: Executor): Promise<ContractRow[]> {
  return db.selectFrom('futures_contracts').selectAll().orderBy('sort').orderBy('autoid').execute();
}

export async function selectContract(db: Executor, id: number): Promise<ContractRow | undefined> {
  return db.selectFrom('futures_contracts').selectAll().where('autoid', '=', id).executeTakeFirst();
}

/** The settings an operator may change (the back office); the coins, the name and the lot size stay. */
export async function updateContractSettings(db: Executor, contract: ContractRow): Promise<void> {
  await db
    .updateTable('futures_contracts')
    .set({
      price_accuracy: contract.price_accuracy,
      minnumber: contract.minnumber,
      maxnumber: contract.maxnumber,
      max_lever: contract.max_lever,
      levers: contract.levers,
      gas: contract.gas,
      initial_margin_rate: contract.initial_margin_rate,
      maintenance_margin_rate: contract.maintenance_margin_rate,
      state: contract.state,
      sort: contract.sort,
    })
    .where('autoid', '=', contract.autoid)
    .execute();
}

/** A new contract (an approved listing); answers its id. */
export async function insertContract(db: Executor, row: Insertable<FuturesContractsTable>): Promise<number> {
  const inserted = await db
    .insertInto('futures_contracts')
    .values(row)
    .returning('autoid')
    .executeTakeFirstOrThrow();
  return Number(inserted.autoid);
}

export async function insertMissingContracts(
  db: Executor,
  rows: readonly Insertable<FuturesContractsTable>[],
): Promise<void> {
  for (const row of rows) {
    await db
      .insertInto('futures_contracts')
      .values(row)
      .onConflict((conflict) => conflict.columns(['tradcoin', 'maincoin']).doNothing())
      .execute();
  }
}

export async function insertEntrust(db: Executor, row: Insertable<FuturesOrdersTable>): Promise<EntrustRow> {
  return db.insertInto('futures_orders').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function saveEntrust(db: Executor, row: EntrustRow): Promise<void> {
  const { autoid, ...fields } = row;
  await db.updateTable('futures_orders').set(fields).where('autoid', '=', autoid).execute();
}

export async function selectOpenEntrusts(db: Executor): Promise<EntrustRow[]> {
  return db
    .selectFrom('futures_orders')
    .selectAll()
    .where('state', 'in', OPEN_ENTRUST_STATES)
    .orderBy('autoid')
    .execute();
}

export async function selectEntrustPage(
  db: Executor,
  filter: { userId: number; open: boolean; contractId?: number | undefined },
  offset: number,
  limit: number,
): Promise<{ rows: EntrustRow[]; count: number }> {
  let query = db
    .selectFrom('futures_orders')
    .where('user_id', '=', filter.userId)
    .where('owner', '=', String(filter.userId))
    .where('state', filter.open ? 'in' : 'not in', OPEN_ENTRUST_STATES);
  if (filter.contractId !== undefined) query = query.where('contract_id', '=', filter.contractId);
  const rows = await query.selectAll().orderBy('autoid', 'desc').offset(offset).limit(limit).execute();
  const counted = await query
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirst();
  return { rows, count: Number(counted?.count ?? 0) };
}

export async function insertPosition(
  db: Executor,
  row: Insertable<FuturesPositionsTable>,
): Promise<PositionRow> {
  return db.insertInto('futures_positions').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function savePosition(db: Executor, row: PositionRow): Promise<void> {
  const { autoid, ...fields } = row;
  await db.updateTable('futures_positions').set(fields).where('autoid', '=', autoid).execute();
}

export async function selectOpenPositions(db: Executor): Promise<PositionRow[]> {
  return db
    .selectFrom('futures_positions')
    .selectAll()
    .where('state', '=', 'open')
    .orderBy('autoid')
    .execute();
}

export async function selectPosition(db: Executor, autoid: number): Promise<PositionRow | undefined> {
  return db.selectFrom('futures_positions').selectAll().where('autoid', '=', autoid).executeTakeFirst();
}

/** Closed and liquidated positions of a user, newest first (tradHistory). */
export async function selectClosedPositionPage(
  db: Executor,
  userId: number,
  contractId: number | undefined,
  offset: number,
  limit: number,
): Promise<{ rows: PositionRow[]; count: number }> {
  let query = db
    .selectFrom('futures_positions')
    .where('user_id', '=', userId)
    .where('owner', '=', String(userId))
    .where('state', '!=', 'open');
  if (contractId !== undefined) query = query.where('contract_id', '=', contractId);
  const rows = await query.selectAll().orderBy('autoid', 'desc').offset(offset).limit(limit).execute();
  const counted = await query
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirst();
  return { rows, count: Number(counted?.count ?? 0) };
}

export async function insertTrigger(
  db: Executor,
  row: Insertable<FuturesTriggersTable>,
): Promise<TriggerRow> {
  return db.insertInto('futures_triggers').values(row).returningAll().executeTakeFirstOrThrow();
}

export async function saveTrigger(db: Executor, row: TriggerRow): Promise<void> {
  const { autoid, ...fields } = row;
  await db.updateTable('futures_triggers').set(fields).where('autoid', '=', autoid).execute();
}

export async function selectActiveTriggers(db: Executor): Promise<TriggerRow[]> {
  return db
    .selectFrom('futures_triggers')
    .selectAll()
    .where('state', '=', 'active')
    .orderBy('autoid')
    .execute();
}

export async function insertTrades(
  db: Executor,
  rows: readonly Insertable<FuturesTradesTable>[],
): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto('futures_trades')
      .values([...rows])
      .execute();
}

export async function selectLatestTrades(
  db: Executor,
  contractId: number,
  limit: number,
): Promise<FuturesTradeRow[]> {
  return db
    .selectFrom('futures_trades')
    .selectAll()
    .where('contract_id', '=', contractId)
    .orderBy('autoid', 'desc')
    .limit(limit)
    .execute();
}

export async function insertFunding(db: Executor, row: Insertable<FuturesFundingTable>): Promise<void> {
  await db.insertInto('futures_funding').values(row).execute();
}

export async function selectLastFundingSlot(db: Executor, contractId: number): Promise<number | null> {
  const row = await db
    .selectFrom('futures_funding')
    .select('slot')
    .where('contract_id', '=', contractId)
    .orderBy('slot', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row ? Number(row.slot) : null;
}
