import { describe, expect, it } from 'vitest';
import {
  BOOK_ROWS,
  bookSide,
  closedFields,
  entrustCard,
  pollDelay,
  positionCard,
  posterIncome,
  posterPercent,
  posterProfit,
  posterTheme,
} from './calc.ts';
import type { Entrust, Position } from './types.ts';

const position: Position = {
  autoid: 7,
  type: 'buy',
  tdMode: 'cross',
  lever: 10,
  tradcoin: 'BTC',
  maincoin: 'USDT',
  wdate: Date.UTC(2026, 0, 2, 3, 4),
  price: '30000.5',
  open_price: '30000.5',
  number: '5',
  unfilled: '5',
  position: '150.0025',
  profit: '-12.3456789',
  profit_rate: '-8.23',
  realised: '1.5',
  gas: '0.0005',
  fess: '0.075',
  funding: '0',
  point: 2,
  profitOrder: 1,
  mark_price: '29975.81',
  liquidation_price: '27300.129',
  value: '149.879',
  tp_price: '',
  sl_price: '',
  state: 'open',
  closedate: null,
  close_price: '0',
  last_profit: '0',
  income: '0',
};

const entrust: Entrust = {
  autoid: 3,
  id: '3',
  type: 'sell',
  action: 'open',
  tdMode: 'lsolate',
  lever: 20,
  tradcoin: 'ETH',
  maincoin: 'USDT',
  wdate: Date.UTC(2026, 0, 2),
  entrust_price: '2000.129',
  price: '1990',
  deal_price: '0',
  profitPrice: '1800',
  lossPrice: '',
  number: '12',
  unfilled: '4',
  style: 'limit',
  point: 2,
  state: 'section',
  margin: '398.0258',
  fee: '0.48',
  feeCoin: 'USDT',
  feeHal: '0',
};

describe('poster', () => {
  it('shows income = profit / position × 100 with 2 decimals, floored', () => {
    expect(posterIncome('15', '150')).toBe('10.00');
    expect(posterIncome('1', '3')).toBe('33.33');
    expect(posterIncome('-12.3456789', '150.0025')).toBe('-8.24');
  });

  it('shows 0.00 for a zero margin rather than dividing by zero', () => {
    expect(posterIncome('5', '0')).toBe('0.00');
  });

  it('uses the unrealised profit while open and the realised one once closed', () => {
    expect(posterProfit(position)).toBe('-12.3456789');
    expect(posterProfit({ ...position, closedate: 1, last_profit: '20' })).toBe('20');
  });

  it("shows a closed position's income as the server measured it on its opening margin", () => {
    expect(posterPercent(position)).toBe('-8.24');
    expect(posterPercent({ ...position, closedate: 1, position: '0', income: '12.50' })).toBe('12.50');
  });

  it('takes the profit theme at zero or more and the loss theme below', () => {
    expect(posterTheme('0.00')).toBe('profit');
    expect(posterTheme('3.10')).toBe('profit');
    expect(posterTheme('-0.01')).toBe('loss');
  });
});

describe('polling', () => {
  it('polls every 3 s while any entrust or position exists and stops otherwise', () => {
    expect(pollDelay({ entrusts: [entrust], positions: [] })).toBe(3000);
    expect(pollDelay({ entrusts: [], positions: [position] })).toBe(3000);
    expect(pollDelay({ entrusts: [], positions: [] })).toBe(false);
    expect(pollDelay(undefined)).toBe(false);
  });
});

describe('order book', () => {
  const rows = [
    { price: '100', amount: '2' },
    { price: '101', amount: '6' },
  ];

  it('pads each side to 7 rows; sells put the best price last, next to the current price', () => {
    const sells = bookSide(rows, 'sell');
    expect(sells).toHaveLength(BOOK_ROWS);
    expect(sells.slice(0, 5)).toEqual([null, null, null, null, null]);
    expect(sells[6]?.price).toBe('100');
    const buys = bookSide(rows, 'buy');
    expect(buys[0]?.price).toBe('100');
    expect(buys[6]).toBeNull();
  });

  it('cuts a deeper book to 7 rows', () => {
    const deep = Array.from({ length: 12 }, (_, index) => ({ price: String(index + 1), amount: '1' }));
    expect(bookSide(deep, 'buy').map((row) => row?.price)).toEqual(['1', '2', '3', '4', '5', '6', '7']);
  });

  it('keeps the width the server sent, else sizes bars over the 7 rows shown', () => {
    expect(bookSide([{ price: '1', amount: '1', width: '12.50' }], 'buy')[0]?.width).toBe('12.50');
    // The 7 shown total 1 + 6 × 3 = 19, so the first bar is 1 × 800 / 19 = 42.10 %; deeper rows do not count.
    const deep = [
      { price: '1', amount: '1' },
      ...Array.from({ length: 6 }, () => ({ price: '2', amount: '3' })),
      ...Array.from({ length: 5 }, () => ({ price: '3', amount: '100' })),
    ];
    expect(bookSide(deep, 'buy')[0]?.width).toBe('42.10');
  });
});

describe('cards', () => {
  it('lists every entrust field of spec §2, a market order showing "market price"', () => {
    const card = entrustCard(entrust, 'en');
    expect(card.header).toMatchObject({
      pair: 'ETH/USDT',
      direction: 'perp.short',
      mode: 'perp.isolated',
      lever: '20×',
    });
    expect(Object.fromEntries(card.fields.map((field) => [field.label, field.value]))).toEqual({
      'perp.entrustPrice': '2,000.12',
      'perp.latestPrice': '1,990.00',
      'perp.triggerPrice': '1,800.00 / --',
      'perp.quantity': '12',
      'perp.unfilled': '4',
      'perp.style': 'perp.limit',
    });
    const market = entrustCard({ ...entrust, style: 'market', entrust_price: '0' }, 'en');
    expect(market.fields[0]?.value).toBe('perp.marketPrice');
  });

  it('names a closing order by the position it closes: a sell closes a long, a buy a short', () => {
    expect(entrustCard({ ...entrust, type: 'sell', action: 'close' }, 'en').header).toMatchObject({
      direction: 'perp.closeLong',
      side: 'sell',
    });
    expect(entrustCard({ ...entrust, type: 'buy', action: 'close' }, 'en').header.direction).toBe(
      'perp.closeShort',
    );
    expect(entrustCard({ ...entrust, type: 'buy', action: 'open' }, 'en').header.direction).toBe('perp.long');
  });

  it("shows a finished order's own fill price in the records, not the contract's latest price", () => {
    const filled: Entrust = { ...entrust, deal_price: '2001.5', state: 'all' };
    const fields = Object.fromEntries(
      entrustCard(filled, 'en', true).fields.map((field) => [field.label, field.value]),
    );
    expect(fields['perp.fillPrice']).toBe('2,001.50');
    expect(fields).not.toHaveProperty('perp.latestPrice');
    expect(fields['perp.fee']).toBe('0.4800 USDT');
    const unfilled = entrustCard({ ...entrust, state: 'cancel' }, 'en', true).fields;
    expect(unfilled.find((field) => field.label === 'perp.fillPrice')?.value).toBe('--');
  });

  it('lists every position field with profit tone and percent of the margin', () => {
    const card = positionCard(position, 'en');
    expect(card.header).toMatchObject({ direction: 'perp.long', mode: 'perp.cross', lever: '10×' });
    expect(card.profit).toBe('-12.3457 USDT');
    expect(card.percent).toBe('-8.24%');
    expect(card.tone).toBe('down');
    expect(Object.fromEntries(card.fields.map((field) => [field.label, field.value]))).toEqual({
      'perp.openPrice': '30,000.50',
      'perp.realised': '1.5000 USDT',
      'perp.feeRate': '0.0500%',
      'perp.quantity': '5',
      'perp.fees': '0.0750 USDT',
      'perp.liquidationPrice': '27,300.12',
      'perp.margin': '150.0025 USDT',
    });
  });

  it('shows how a closed position opened and closed instead of its emptied lots and margin', () => {
    const closed = {
      ...position,
      state: 'closed' as const,
      closedate: Date.UTC(2026, 0, 3),
      close_price: '31000',
      number: '0',
      position: '0',
    };
    const fields = Object.fromEntries(closedFields(closed, 'en').map((field) => [field.label, field.value]));
    expect(fields['perp.closePrice']).toBe('31,000.00');
    expect(fields['perp.openPrice']).toBe('30,000.50');
    expect(Object.keys(fields)).not.toContain('perp.margin');
    expect(Object.keys(fields)).not.toContain('perp.quantity');
    // The price decimals are how the figures are written, not something to show.
    expect(Object.keys(fields)).not.toContain('perp.point');
  });
});
