import { Dec } from '@halyard/money';
import { describe, expect, it } from 'vitest';
import { systemAccount, userAccount } from '../../ledger/accounts.ts';
import { step } from '../sequencer/index.ts';
import { TEST_PAIRS } from './command-stream.ts';
import { type MoneyCommand, type MoneyEvent, type MoneyState, moneyMachine } from './index.ts';
import { available } from './money-state.ts';
import { tierOf } from './referral.ts';
import { captureMoneyState, decodeMoneyState, moneyStateHash } from './snapshot-codec.ts';

/**
 * Fees in HAL and commissions in the money state, by worked examples (the
 * equivalence with modules/referral is modules/spot/state-equivalence.test.ts):
 * malformed referral commands are refused and change nothing; the tier is
 * the previous UTC day's time-weighted HAL; a fee is paid in HAL only while
 * the payer holds enough; commissions accrue unpaid until a payout sweep
 * credits them; the referral part survives a snapshot.
 */
const machine = moneyMachine();
const PAIR = TEST_PAIRS[0]!;
const DAY = 24 * 60 * 60 * 1000;
const T0 = Date.UTC(2026, 10, 26);

let seq = 0;
function apply(state: MoneyState, command: MoneyCommand) {
  seq += 1;
  return step(machine, state, command, seq);
}

function fresh(): MoneyState {
  const state = machine.initialState();
  apply(state, { kind: 'openPair', at: T0, pair: PAIR });
  return state;
}

function deposit(state: MoneyState, at: number, who: number, asset: string, amount: string) {
  return apply(state, {
    kind: 'transfer',
    at,
    batch: [
      {
        id: `deposit:${who}:${asset}:${at}`,
        debit: systemAccount('treasury'),
        credit: userAccount(who, 'spot'),
        asset,
        amount: Dec.parse(amount),
        code: 'deposit',
      },
    ],
  });
}

function profile(userId: number, parentId: number | null, feeDeduction: boolean): MoneyCommand {
  return { kind: 'referralUser', at: T0, userId, parentId, feeDeduction, kickbackRate: '0', idNumbers: [] };
}

/** A trade of 1 BTC at 100 between seller 2 (maker) and buyer 1 (taker). */
function trade(state: MoneyState, at: number): MoneyEvent[] {
  const order = {
    kind: 'place',
    at,
    pair: PAIR.symbol,
    email: 'x@example.com',
    style: 'limit',
    price: '100',
  };
  apply(state, {
    ...order,
    owner: '2',
    account: userAccount(2, 'spot'),
    side: 'sell',
    amount: '1',
  } as MoneyCommand);
  return apply(state, {
    ...order,
    owner: '1',
    account: userAccount(1, 'spot'),
    side: 'buy',
    amount: '1',
  } as MoneyCommand).events;
}

describe('fees in HAL and commissions in the money state', () => {
  it('refuses a malformed referral command and changes nothing', () => {
    const state = fresh();
    const before = moneyStateHash(state);
    const malformed = [
      { ...profile(1, null, true), kickbackRate: '-0.1' },
      { ...profile(1, null, true), kickbackRate: 0.1 },
      { ...profile(1, null, true), idNumbers: [7] },
      { ...profile(1, null, true), parentId: 'x' },
      { kind: 'referralSettings', at: T0, halDiscount: 'ten', marketMakers: [] },
      { kind: 'referralSettings', at: T0, halDiscount: '0.1', marketMakers: ['1'] },
      { kind: 'indexPrices', at: T0, prices: { HAL: '0' } },
      { kind: 'indexPrices', at: T0, prices: { HAL: '0.5', BTC: 7 } },
    ] as unknown as MoneyCommand[];
    for (const command of malformed) {
      const { result, events } = apply(state, command);
      expect(result.ok, JSON.stringify(command)).toBe(false);
      expect(events).toEqual([]);
    }
    expect(moneyStateHash(state)).toBe(before);
  });

  it("fixes a day's tier from the previous day's time-weighted HAL, whatever moves in during the day", () => {
    const state = fresh();
    // 1000 HAL for the second half of day 0: an average of 500, tier 2 on day 1.
    deposit(state, T0 + DAY / 2, 7, 'HAL', '1000');
    expect(tierOf(state.referral, 7, T0 + DAY / 2 + 1).tier).toBe(1);
    expect(tierOf(state.referral, 7, T0 + DAY + 5).tier).toBe(2);
    // 9000 more on day 1 changes nothing that day; day 2 averages 10000 all day long: tier 3.
    deposit(state, T0 + DAY + 10, 7, 'HAL', '9000');
    expect(tierOf(state.referral, 7, T0 + DAY + 20).tier).toBe(2);
    expect(tierOf(state.referral, 7, T0 + 2 * DAY + 20).tier).toBe(3);
    // Moved out 10 s into day 2: day 3 averages 10000 × 10 s / 24 h, about 1.16 HAL: tier 1.
    apply(state, {
      kind: 'transfer',
      at: T0 + 2 * DAY + 10_000,
      batch: [
        {
          id: 'out',
          debit: userAccount(7, 'spot'),
          credit: systemAccount('treasury'),
          asset: 'HAL',
          amount: Dec.parse('10000'),
          code: 'withdrawal',
        },
      ],
    });
    expect(tierOf(state.referral, 7, T0 + 3 * DAY).tier).toBe(1);
  });

  it('takes a fee in HAL while the payer holds enough, then in the coin received, and pays the inviter', () => {
    const state = fresh();
    for (const command of [
      profile(1, 3, true),
      profile(2, null, true),
      { kind: 'indexPrices', at: T0, prices: { HAL: '0.5', BTC: '100' } },
    ] as MoneyCommand[])
      expect(apply(state, command).result).toEqual({ ok: true });
    deposit(state, T0, 1, 'USDT', '1000');
    deposit(state, T0, 2, 'BTC', '5');
    // The buyer's fee: 1 BTC × 0.002 = 0.002 BTC = 0.2 USDT, 10 % off, at 0.5: 0.36 HAL. Enough for one trade.
    deposit(state, T0, 1, 'HAL', '0.5');
    const first = trade(state, T0 + 1);
    const trades = first.filter((event) => event.type === 'spotTrade');
    expect(trades[0]).toMatchObject({ trade: { buyerFee: '0.36', buyerFeeCoin: 'HAL' } });
    // The seller's fee (0.1 USDT): the seller has deduction on but no HAL.
    expect(trades[0]).toMatchObject({ trade: { sellerFee: '0.1', sellerFeeCoin: 'USDT' } });
    expect(available(state, userAccount(1, 'spot'), 'HAL').toString()).toBe('0.14');
    // The inviter (3) earns tier 1 (10 %) of the fee as charged, in HAL.
    const rows = first.find((event) => event.type === 'referralCommissions');
    expect(rows).toMatchObject({
      rows: [{ friend_id: 1, beneficiary_id: 3, fee: '0.36', fee_coin: 'HAL', amount: '0.036' }],
    });
    // Accrued, credited by the next payout sweep: one transfer from the fee account, the row's leg named as paid.
    expect(available(state, userAccount(3, 'spot'), 'HAL').toString()).toBe('0');
    const paid = apply(state, { kind: 'referralPayout', at: T0 + 60_000 }).events;
    const legId = rows!.type === 'referralCommissions' ? rows!.rows[0]!.leg_id : '';
    const payoutId = `referral-payout:${legId}:referral_commission:3`;
    expect(paid).toMatchObject([
      { type: 'transfers', transfers: [{ id: payoutId, code: 'referral_commission', asset: 'HAL' }] },
      {
        type: 'referralPaid',
        at: T0 + 60_000,
        legIds: [legId],
      },
    ]);
    expect(available(state, userAccount(3, 'spot'), 'HAL').toString()).toBe('0.036');
    expect(apply(state, { kind: 'referralPayout', at: T0 + 120_000 }).events).toEqual([]);
    // 0.14 HAL is short of the next fee: it is taken in BTC.
    const second = trade(state, T0 + 2);
    expect(second.find((event) => event.type === 'spotTrade')).toMatchObject({
      trade: { buyerFee: '0.002', buyerFeeCoin: 'BTC' },
    });
  });

  it('keeps profiles, settings, prices, holdings and the commissions accrued unpaid in a snapshot', () => {
    const state = fresh();
    apply(state, profile(1, 3, true));
    apply(state, { kind: 'referralSettings', at: T0, halDiscount: '0.25', marketMakers: [9] });
    apply(state, { kind: 'indexPrices', at: T0, prices: { HAL: '0.5' } });
    deposit(state, T0 + 5, 3, 'HAL', '700');
    deposit(state, T0, 1, 'USDT', '1000');
    deposit(state, T0, 2, 'BTC', '5');
    trade(state, T0 + 6);
    trade(state, T0 + 7);
    expect(state.referral.unpaid.size).toBe(2);
    const capture = captureMoneyState(state);
    const parts: Uint8Array[] = [];
    for (let part = capture.next(); part !== null; part = capture.next()) parts.push(part);
    const loaded = decodeMoneyState(Buffer.concat(parts));
    expect(moneyStateHash(loaded)).toBe(moneyStateHash(state));
    expect(loaded.referral.users.get(1)).toEqual(state.referral.users.get(1));
    expect(loaded.referral.halDiscount.toString()).toBe('0.25');
    expect([...loaded.referral.marketMakers]).toEqual([9]);
    expect(tierOf(loaded.referral, 3, T0 + DAY).tier).toBe(2);
    expect([...loaded.referral.unpaid]).toEqual([...state.referral.unpaid]);
  });
});
