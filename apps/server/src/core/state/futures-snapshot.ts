import { Dec } from '@halyard/money';
import { createFuturesMoney, type FuturesMoney } from './futures.ts';
import type { ContractRow, EntrustRow, FuturesTradeRow, PositionRow, TriggerRow } from './futures-rows.ts';

/**
 * Futures in a snapshot (docs/core.md, "Futures in the state"). The small
 * per-contract part is in the header, copied at once at the capture: the
 * contracts in the state's order, each contract's latest trades and last
 * funding slot, the marks, the next ids. The open orders, open positions
 * and active triggers grow with the users: they are lines of their own
 * ('fo', 'fp', 'ft'), read a slice at a time from the TrackedMaps of
 * `FuturesState` (the rows are changed in place, each after
 * `beforeChange`). The books are rebuilt from the open orders
 * (`FuturesState.rebuild`).
 */
export interface FuturesHeader {
  nextOrderId: number;
  nextPositionId: number;
  nextTriggerId: number;
  contracts: ContractRow[];
  trades: [number, FuturesTradeRow[]][];
  lastFunding: [number, number][];
  marks: [string, string][];
}

/** The rows that are lines of their own, by id. */
export interface FuturesRowLines {
  orders: EntrustRow[];
  positions: PositionRow[];
  triggers: TriggerRow[];
}

// A row's line is its fields' values as one JSON array, in a fixed order: the line (and the state hash) does not
// depend on the order the row's object got its keys in (a new row, a row read from SQL, a row read from a snapshot).
const ORDER_FIELDS = [
  'autoid',
  'contract_id',
  'user_id',
  'owner',
  'type',
  'action',
  'td_mode',
  'lever',
  'style',
  'price',
  'number',
  'unfilled',
  'held',
  'hold_spent',
  'deal_money',
  'fee',
  'fee_hal',
  'margin',
  'profit_price',
  'loss_price',
  'position_id',
  'state',
  'cancel_reason',
  'wdate',
  'updated_at',
] as const satisfies readonly (keyof EntrustRow)[];
const POSITION_FIELDS = [
  'autoid',
  'contract_id',
  'user_id',
  'owner',
  'type',
  'td_mode',
  'lever',
  'number',
  'cost',
  'margin',
  'open_price',
  'realised',
  'fees',
  'funding',
  'closed_number',
  'close_money',
  'close_price',
  'state',
  'wdate',
  'closedate',
  'updated_at',
] as const satisfies readonly (keyof PositionRow)[];
const TRIGGER_FIELDS = [
  'autoid',
  'position_id',
  'user_id',
  'profit_price',
  'loss_price',
  'number',
  'state',
  'fired_price',
  'wdate',
  'updated_at',
] as const satisfies readonly (keyof TriggerRow)[];

// Compile-time: every column of each row is in its list (a new column fails here, not in a snapshot).
type Unlisted<Row, Fields extends readonly (keyof Row)[]> = Record<Exclude<keyof Row, Fields[number]>, never>;
const everyOrderField: Unlisted<EntrustRow, typeof ORDER_FIELDS> = {};
const everyPositionField: Unlisted<PositionRow, typeof POSITION_FIELDS> = {};
const everyTriggerField: Unlisted<TriggerRow, typeof TRIGGER_FIELDS> = {};
void [everyOrderField, everyPositionField, everyTriggerField];

function rowLine<Row>(kind: string, fields: readonly (keyof Row)[], row: Row): string {
  // JSON escapes every tab and newline: the array is one field.
  return `${kind}\t${JSON.stringify(fields.map((field) => row[field]))}`;
}

function rowOf<Row>(fields: readonly (keyof Row)[], field: string): Row {
  const values = JSON.parse(field) as unknown[];
  const row: Partial<Record<keyof Row, unknown>> = {};
  fields.forEach((name, index) => {
    row[name] = values[index];
  });
  return row as Row;
}

export const futuresOrderLine = (row: EntrustRow): string => rowLine('fo', ORDER_FIELDS, row);
export const futuresPositionLine = (row: PositionRow): string => rowLine('fp', POSITION_FIELDS, row);
export const futuresTriggerLine = (row: TriggerRow): string => rowLine('ft', TRIGGER_FIELDS, row);

/** Reads a futures row's line into `rows`; answers false for a line of another kind. */
export function loadFuturesLine(rows: FuturesRowLines, f: readonly string[]): boolean {
  switch (f[0]) {
    case 'fo':
      rows.orders.push(rowOf<EntrustRow>(ORDER_FIELDS, f[1]!));
      return true;
    case 'fp':
      rows.positions.push(rowOf<PositionRow>(POSITION_FIELDS, f[1]!));
      return true;
    case 'ft':
      rows.triggers.push(rowOf<TriggerRow>(TRIGGER_FIELDS, f[1]!));
      return true;
    default:
      return false;
  }
}

export function encodeFuturesHeader(futures: FuturesMoney): FuturesHeader {
  const { book } = futures;
  return {
    nextOrderId: futures.nextOrderId,
    nextPositionId: futures.nextPositionId,
    nextTriggerId: futures.nextTriggerId,
    contracts: [...book.markets.values()].map((market) => market.contract),
    trades: [...book.markets].map(([id, market]) => [id, market.trades]),
    lastFunding: [...book.lastFunding],
    marks: [...book.marks].map(([coin, price]) => [coin, price.toString()]),
  };
}

const byId = <Row extends { autoid: number }>(rows: Iterable<Row>): Row[] =>
  [...rows].sort((a, b) => a.autoid - b.autoid);

/** The whole futures part as plain data, rows by id: what tests compare. */
export function futuresContent(futures: FuturesMoney): FuturesHeader & FuturesRowLines {
  const { book } = futures;
  return {
    ...encodeFuturesHeader(futures),
    orders: byId(book.open.values()),
    positions: byId(book.positions.values()),
    triggers: byId(book.triggers.values()),
  };
}

/** The futures part from its header and its rows' lines. */
export function decodeFutures(header: FuturesHeader, rows: FuturesRowLines): FuturesMoney {
  const futures = createFuturesMoney();
  futures.nextOrderId = header.nextOrderId;
  futures.nextPositionId = header.nextPositionId;
  futures.nextTriggerId = header.nextTriggerId;
  for (const [coin, price] of header.marks) futures.book.marks.set(coin, Dec.parse(price));
  // By id, as the live maps hold them (ids only grow): an owner's rows are walked in the maps' order.
  futures.book.rebuild({
    contracts: header.contracts,
    orders: byId(rows.orders),
    positions: byId(rows.positions),
    triggers: byId(rows.triggers),
    trades: new Map(header.trades),
    lastFunding: new Map(header.lastFunding),
  });
  return futures;
}
