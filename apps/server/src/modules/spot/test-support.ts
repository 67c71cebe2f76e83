import { Dec } from '@halyard/money';
import { expect } from 'vitest';
import { type AccountRef, systemAccount, userAccount } from '../../ledger/index.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import {
  type Envelope,
  expectOk,
  get,
  type Harness,
  PASSWORD,
  post,
  registerByEmail,
  requestCode,
} from '../identity/test-support.ts';

export { type Envelope, expectOk, get, type Harness, post, startHarness } from '../identity/test-support.ts';

export interface TestUser {
  id: number;
  token: string;
}

let registered = 0;

/** A signed-in user with a bound email, funded from the treasury with the given balances. */
export async function fundedUser(h: Harness, balances: Record<string, string> = {}): Promise<TestUser> {
  registered += 1;
  const { token, member } = await registerByEmail(h, `trader${registered}@example.com`);
  await fund(h, member.id, balances);
  return { id: member.id, token };
}

/** A signed-in user registered by phone: no email is bound. */
export async function userWithoutEmail(h: Harness, balances: Record<string, string> = {}): Promise<TestUser> {
  registered += 1;
  const phone = `138${String(10_000_000 + registered).slice(-8)}`;
  const code = await requestCode(h, phone, 'register');
  const answer = await expectOk(
    post(h, '/member/register', {
      account: phone,
      code,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      agreed: true,
    }),
  );
  const { token, member } = answer.data as { token: string; member: { id: number } };
  await fund(h, member.id, balances);
  return { id: member.id, token };
}

export async function fund(h: Harness, userId: number, balances: Record<string, string>): Promise<void> {
  const batch = Object.entries(balances).map(([asset, amount]) => ({
    id: `test-fund:${userId}:${asset}:${registered}`,
    debit: systemAccount('treasury'),
    credit: userAccount(userId, 'spot'),
    asset,
    amount: Dec.parse(amount),
    code: 'test_funding',
  }));
  if (batch.length > 0) await h.app.ledger.execute(batch);
}

/**
 * One account's balance as strings, read from SQL past the session guard: on
 * the core, an order is answered before SQL holds it, so this first waits
 * until SQL holds every command answered.
 */
export async function balanceOf(h: Harness, ref: AccountRef, asset: string) {
  await h.app.spot.service.idle();
  const balance = await h.app.ledger.balance({ ...ref, asset });
  return { available: balance.available.toString(), locked: balance.locked.toString() };
}

export const spotOf = (user: TestUser): AccountRef => userAccount(user.id, 'spot');
export const FEES = systemAccount('fees');

export const BTC = { tradcoin: 'BTC', maincoin: 'USDT' } as const;

export function limit(side: 'buy' | 'sell', user: TestUser, price: string, number: string, h: Harness) {
  return post(
    h,
    side === 'buy' ? '/trad/buyLimit' : '/trad/sellLimit',
    { ...BTC, price, number },
    user.token,
  );
}

export function market(side: 'buy' | 'sell', user: TestUser, number: string, h: Harness) {
  return post(h, side === 'buy' ? '/trad/buyMarket' : '/trad/sellMarket', { ...BTC, number }, user.token);
}

export interface OrderData {
  autoid: number;
  type: 'buy' | 'sell';
  number: string;
  state: string;
  unfilled: string;
  price: string;
  deal_amount: string;
  fee: string;
}

export async function placed(pending: Promise<Envelope>): Promise<OrderData> {
  return (await expectOk(pending)).data as OrderData;
}

export async function expectAuditClean(h: Harness): Promise<void> {
  await expectHealthyLedger(h.store.db);
}

export async function bookOf(h: Harness) {
  const answer = await expectOk(get(h, '/trad/trad?tradcoin=BTC&maincoin=USDT'));
  return answer.data as {
    buy: { price: string; amount: string; width: string }[];
    sell: { price: string; amount: string; width: string }[];
  };
}

export function expectRefused(answer: Envelope, msg: string): void {
  expect(answer.code, answer.msg).not.toBe(200);
  expect(answer.msg).toBe(msg);
}
