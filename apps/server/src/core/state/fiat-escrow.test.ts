import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { systemAccount, userAccount } from '../../ledger/index.ts';
import { step } from '../sequencer/index.ts';
import type { FiatCandidate, MoneyCommand, MoneyResult } from './index.ts';
import { moneyMachine } from './machine.ts';
import { available, type MoneyState } from './money-state.ts';
import { captureMoneyState, decodeMoneyState, moneyStateHash } from './snapshot-codec.ts';

/**
 * The escrow's hard cases on the state alone: an order released once (a
 * second release, a refund after it, a release after a refund are refused
 * and move nothing), a repeated command id answered alike, the ad's hold
 * given back on a refund, and open orders and ads that survive a snapshot.
 * The equivalence with the module is modules/fiat/state-equivalence.test.ts.
 */

const machine = moneyMachine();
const AT = Date.UTC(2026, 10, 26);
const BUYER = 7;

const candidate: FiatCandidate = {
  adId: 1,
  merchantId: 1,
  merchantUserId: null,
  price: '7.25',
  windowMs: 600_000,
  terms: '',
  payee: '{}',
};

const setup: MoneyCommand[] = [
  {
    kind: 'transfer',
    at: AT,
    batch: [
      {
        id: 'fund:house',
        debit: systemAccount('treasury'),
        credit: systemAccount('fiat_house'),
        asset: 'USDT',
        amount: Dec.parse('1000'),
        code: 'test_funding',
      },
    ],
  },
  {
    kind: 'fiatAd',
    at: AT,
    adId: 1,
    side: 'buy',
    coin: 'USDT',
    merchantUserId: null,
    available: '1000',
    online: true,
  },
];

const open = (at: number, id?: string): MoneyCommand => ({
  kind: 'fiatOpen',
  at,
  ...(id ? { id } : {}),
  userId: BUYER,
  side: 'buy',
  coin: 'USDT',
  fiat: 'CNY',
  amount: '725',
  payType: 'bank',
  candidates: [candidate],
});
const paid = (orderId: number, at: number): MoneyCommand => ({
  kind: 'fiatPaid',
  at,
  orderId,
  expiresAt: AT + 600_000,
  windowMinutes: 10,
  by: 'buyer',
  reason: 'paid',
  img: null,
});
const release = (orderId: number, at: number): MoneyCommand => ({
  kind: 'fiatRelease',
  at,
  orderId,
  from: 'paid',
  by: 'seller',
  reason: 'received',
  audit: null,
});
const refund = (orderId: number, at: number): MoneyCommand => ({
  kind: 'fiatRefund',
  at,
  orderId,
  from: 'to_pay',
  by: 'buyer',
  reason: 'cancelled',
  audit: null,
  ban: null,
});

function snapshotOf(state: MoneyState): Uint8Array {
  const capture = captureMoneyState(state);
  const parts: Uint8Array[] = [];
  for (let part = capture.next(); part !== null; part = capture.next()) parts.push(part);
  return Buffer.concat(parts);
}

let seq = 0;
function run(state: MoneyState, commands: MoneyCommand[]): MoneyResult[] {
  return commands.map((command) => step(machine, state, command, ++seq).result);
}

const outcome = (result: MoneyResult) => (result.ok ? (result.fiatOrderId ?? 'ok') : result.error);

describe('the fiat escrow commands', () => {
  it('release an order once, refund it once, and give the ad its part back', () => {
    seq = 0;
    const state = machine.initialState();
    run(state, setup);
    const buyer = userAccount(BUYER, 'fiat');
    const answers = run(state, [
      open(AT + 1, 'o1'),
      open(AT + 2, 'o1'),
      paid(1, AT + 3),
      release(1, AT + 4),
      release(1, AT + 5),
      refund(1, AT + 6),
      open(AT + 7),
      refund(2, AT + 8),
      release(2, AT + 9),
      paid(2, AT + 10),
    ]);
    expect(answers.map(outcome)).toEqual([
      1,
      1,
      'ok',
      'ok',
      'fiat.wrongState',
      'fiat.wrongState',
      2,
      'ok',
      'fiat.wrongState',
      'fiat.wrongState',
    ]);
    // 725 CNY at 7.25: 100 USDT reached the buyer once; the refunded order's part is held by the ad again.
    expect(available(state, buyer, 'USDT').toString()).toBe('100');
    expect(state.fiat.ads.get(1)!.available).toBe('900');
    expect(available(state, systemAccount('fiat_house'), 'USDT').toString()).toBe('0');
    expect(state.fiat.orders.size).toBe(0);
  });

  it('keeps open orders and ads across a snapshot and decides alike after it', () => {
    seq = 0;
    const state = machine.initialState();
    run(state, [...setup, open(AT + 1), paid(1, AT + 2)]);
    const loaded = decodeMoneyState(snapshotOf(state));
    expect(moneyStateHash(loaded)).toBe(moneyStateHash(state));
    const next = [release(1, AT + 3), release(1, AT + 4)];
    const from = seq;
    const live = run(state, next);
    seq = from;
    expect(run(loaded, next)).toEqual(live);
    expect(moneyStateHash(loaded)).toBe(moneyStateHash(state));
  });
});
