import { Dec } from '@halyard/money';
import type { Locale } from '@halyard/protocol';
import { depthBarWidths, FUTURES_POLL_MS } from '@halyard/rules';
import { formatChange, formatDateTime, formatMoney, trendOf } from '../../shared/format.ts';
import type { BookRow, Entrust, Position, Side, TdMode } from './types.ts';

/** Spec §9: the futures book shows 7 rows a side. */
export const BOOK_ROWS = 7;
/** Amounts in the main coin (margin, fee, profit) show 4 decimals. */
export const MONEY_DIGITS = 4;

/** Spec §4: open orders and positions refresh every 3 s while any exists; otherwise polling stops. */
export function pollDelay(
  lists: { entrusts: readonly unknown[]; positions: readonly unknown[] } | undefined,
) {
  if (!lists) return false;
  return lists.entrusts.length > 0 || lists.positions.length > 0 ? FUTURES_POLL_MS : false;
}

/** A book row as drawn, its depth bar width known. */
export type ShownBookRow = BookRow & { width: string };

/**
 * One side of the book as shown: exactly 7 rows, null where the book is
 * thinner (drawn as dashes). Sells are listed best (lowest) last so both
 * sides meet at the current price in the middle. Each row keeps the bar width
 * the server sent, else gets the spec §9 one over the rows shown.
 */
export function bookSide(rows: readonly BookRow[], side: Side): (ShownBookRow | null)[] {
  const top = rows.slice(0, BOOK_ROWS);
  const widths = depthBarWidths(top.map((row) => Dec.tryParse(row.amount) ?? Dec.ZERO));
  const shown: (ShownBookRow | null)[] = top.map((row, index) => ({
    ...row,
    width: row.width ?? widths[index] ?? '0.00',
  }));
  while (shown.length < BOOK_ROWS) shown.push(null);
  return side === 'sell' ? shown.reverse() : shown;
}

/** Spec §3 "Poster order": income shown = profit / position × 100, 2 decimals (floored). */
export function posterIncome(profit: string, margin: string): string {
  const base = Dec.tryParse(margin) ?? Dec.ZERO;
  if (base.isZero()) return '0.00';
  return (Dec.tryParse(profit) ?? Dec.ZERO).mul(Dec.fromInt(100)).div(base).toFixed(2);
}

/** The profit a poster shows: realised for a closed position, unrealised while open. */
export function posterProfit(position: Position): string {
  return position.closedate === null ? position.profit : position.last_profit;
}

/**
 * The poster's percent: profit / margin × 100 while open. A closed position's
 * margin is released (0), so the server measures it on the margin it was
 * opened with and sends that as `income`; it is shown as sent.
 */
export function posterPercent(position: Position): string {
  return position.closedate === null ? posterIncome(position.profit, position.position) : position.income;
}

/** Spec §2: positive or zero income shows the profit theme, negative the loss theme. */
export function posterTheme(income: string): 'profit' | 'loss' {
  return trendOf(income) === 'up' ? 'profit' : 'loss';
}

export function directionKey(side: Side): string {
  return side === 'buy' ? 'perp.long' : 'perp.short';
}

/** An order's direction: opening a long or short, or closing one (a sell closes a long, a buy a short). */
export function entrustDirectionKey(entrust: Pick<Entrust, 'type' | 'action'>): string {
  if (entrust.action === 'open') return directionKey(entrust.type);
  return entrust.type === 'sell' ? 'perp.closeLong' : 'perp.closeShort';
}

export function modeKey(mode: TdMode): string {
  return mode === 'cross' ? 'perp.cross' : 'perp.isolated';
}

/** A labelled figure of a card: the i18n key of its label, the text, an optional tone. */
export interface CardField {
  label: string;
  value: string;
  tone?: 'up' | 'down';
}

export interface CardHeader {
  pair: string;
  direction: string;
  side: Side;
  mode: string;
  lever: string;
  time: string;
}

function header(row: Entrust | Position, locale: Locale): CardHeader {
  return {
    pair: `${row.tradcoin}/${row.maincoin}`,
    direction: directionKey(row.type),
    side: row.type,
    mode: modeKey(row.tdMode),
    lever: `${row.lever}×`,
    time: formatDateTime(row.wdate, locale),
  };
}

const DASH = '--';

function priceOrDash(text: string, point: number, locale: Locale): string {
  const value = Dec.tryParse(text);
  return value === null || value.isZero() ? DASH : formatMoney(text, point, locale);
}

/**
 * Spec §2 entrust card: every field, formatted. An open order shows the
 * contract's latest price; a finished one (the records) its own average fill
 * price, since the latest price is the same on every row and says nothing
 * about the order.
 */
export function entrustCard(entrust: Entrust, locale: Locale, finished = false) {
  const triggers = [entrust.profitPrice, entrust.lossPrice]
    .map((text) => priceOrDash(text, entrust.point, locale))
    .join(' / ');
  const fields: CardField[] = [
    {
      label: 'perp.entrustPrice',
      value:
        entrust.style === 'market'
          ? 'perp.marketPrice'
          : formatMoney(entrust.entrust_price, entrust.point, locale),
    },
    finished
      ? { label: 'perp.fillPrice', value: priceOrDash(entrust.deal_price, entrust.point, locale) }
      : { label: 'perp.latestPrice', value: priceOrDash(entrust.price, entrust.point, locale) },
    { label: 'perp.triggerPrice', value: triggers },
    { label: 'perp.quantity', value: formatMoney(entrust.number, 0, locale) },
    { label: 'perp.unfilled', value: formatMoney(entrust.unfilled, 0, locale) },
    { label: 'perp.style', value: entrust.style === 'limit' ? 'perp.limit' : 'perp.market' },
  ];
  // A finished order's record names what its fills paid and in which coin (issue 17: the fee's coin is what commissions are paid in).
  if (finished) {
    fields.push({
      label: 'perp.fee',
      value: `${formatMoney(entrust.fee, MONEY_DIGITS, locale)} ${entrust.feeCoin}`,
    });
  }
  return { header: { ...header(entrust, locale), direction: entrustDirectionKey(entrust) }, fields };
}

function signedTone(text: string): 'up' | 'down' {
  return trendOf(text);
}

/** Spec §2 position card: every field, formatted; profit and percent coloured by sign. */
export function positionCard(position: Position, locale: Locale) {
  const coin = position.maincoin;
  const fields: CardField[] = [
    { label: 'perp.openPrice', value: formatMoney(position.price, position.point, locale) },
    {
      label: 'perp.realised',
      value: `${formatMoney(position.realised, MONEY_DIGITS, locale)} ${coin}`,
      tone: signedTone(position.realised),
    },
    {
      label: 'perp.feeRate',
      value: `${formatMoney(Dec.parse(position.gas).mul(Dec.fromInt(100)).toString(), 4, locale)}%`,
    },
    { label: 'perp.quantity', value: formatMoney(position.number, 0, locale) },
    { label: 'perp.fees', value: `${formatMoney(position.fess, MONEY_DIGITS, locale)} ${coin}` },
    {
      label: 'perp.liquidationPrice',
      value: priceOrDash(position.liquidation_price, position.point, locale),
    },
    { label: 'perp.margin', value: `${formatMoney(position.position, MONEY_DIGITS, locale)} ${coin}` },
  ];
  return {
    header: header(position, locale),
    profit: `${formatMoney(position.profit, MONEY_DIGITS, locale)} ${coin}`,
    percent: formatChange(posterPercent(position), locale),
    tone: signedTone(position.profit),
    fields,
  };
}

/** Values that are i18n keys rather than figures (market price, order style). */
export function isTextKey(value: string): boolean {
  return value.startsWith('perp.');
}

/** A closed position has no lots, margin or liquidation price left: its card shows how it opened and closed. */
export function closedFields(position: Position, locale: Locale): CardField[] {
  const coin = position.maincoin;
  return [
    { label: 'perp.openPrice', value: formatMoney(position.price, position.point, locale) },
    { label: 'perp.closePrice', value: priceOrDash(position.close_price, position.point, locale) },
    {
      label: 'perp.closeTime',
      value: position.closedate === null ? DASH : formatDateTime(position.closedate, locale),
    },
    { label: 'perp.fees', value: `${formatMoney(position.fess, MONEY_DIGITS, locale)} ${coin}` },
  ];
}
