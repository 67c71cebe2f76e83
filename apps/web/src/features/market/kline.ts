import type { KLineData } from 'klinecharts';

/**
 * One packed series row "yyyymmddhhmmss|open|high|low|close|volume" (UTC bar
 * start) as klinecharts draws it. The chart plots pixels, so its prices are
 * JavaScript numbers; nothing is computed from them.
 */
export function parseSeriesRow(row: string): KLineData | null {
  const [packed = '', open, high, low, close, volume] = row.split('|');
  const match = /^(\d{4})(\d{2})(\d{2})(\d{2})(\d{2})(\d{2})$/.exec(packed);
  if (!match) return null;
  const [, year, month, day, hour, minute, second] = match.map(Number) as number[];
  const timestamp = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const values = [open, high, low, close, volume].map(Number);
  if (values.some((value) => Number.isNaN(value))) return null;
  const [o, h, l, c, v] = values as [number, number, number, number, number];
  return { timestamp, open: o, high: h, low: l, close: c, volume: v };
}

export function parseSeries(rows: readonly string[]): KLineData[] {
  return rows.map(parseSeriesRow).filter((bar): bar is KLineData => bar !== null);
}
