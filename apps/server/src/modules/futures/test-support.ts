import { Dec } from '@halyard/money';
import { translate } from '@halyard/protocol';
import { expect } from 'vitest';
import { type AccountRef, systemAccount, userAccount } from '../../ledger/index.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import {
  type Envelope,
  expectOk,
  get,
  type Harness,
  post,
  registerByEmail,
} from '../identity/test-support.ts';
import type { EntrustView, PositionView } from './service.ts';

export { type Envelope, expectOk, get, type Harness, post, startHarness } from '../identity/test-support.ts';

export interface TestUser {
  id: number;
  token: string;
}

export const BTC = { tradcoin: 'BTC', maincoin: 'USDT' } as const;
export const POOL = systemAccount('futures_margin');
export const INSURANCE = systemAccount('insurance');
export const FEES = systemAccount('fees');
export const HOUSE = systemAccount('market_maker');

let registered = 0;

/** A signed-in user whose futures wallet holds `usdt` play money from the treasury. */
export async function futuresUser(h: Harness, usdt = '10000'): Promise<TestUser> {
  registered += 1;
  const { token, member } = await registerByEmail(h, `futures${registered}@example.com`);
  await h.app.ledger.execute([
    {
      id: `test-futures-fund:${member.id}:${registered}`,
      debit: systemAccount('treasury'),
      credit: userAccount(member.id, 'futures'),
      asset: 'USDT',
      amount: Dec.parse(usdt),
      code: 'test_funding',
    },
  ]);
  return { id: member.id, token };
}

/** The scripted mark: what an index tick of the coin would deliver. */
export async function mark(h: Harness, price: string, coin = 'BTC'): Promise<void> {
  await h.app.futures.service.onIndexTick({
    coin,
    price: Dec.parse(price),
    ts: h.clock.now(),
    source: 'test',
  });
}

export interface OrderOptions {
  price?: string;
  lever?: number;
  tdMode?: 'lsolate' | 'cross';
  profitPrice?: string;
  lossPrice?: string;
}

export function order(
  h: Harness,
  user: TestUser,
  side: 'buy' | 'sell',
  style: 'limit' | 'market',
  number: string,
  options: OrderOptions = {},
): Promise<Envelope> {
  const path = `/contract/${side}${style === 'limit' ? 'Limit' : 'Market'}`;
  return post(
    h,
    path,
    { ...BTC, number, lever: options.lever ?? 10, tdMode: options.tdMode ?? 'cross', ...options },
    user.token,
  );
}

export async function placed(pending: Promise<Envelope>): Promise<EntrustView> {
  return (await expectOk(pending)).data as EntrustView;
}

export async function positionsOf(h: Harness, user: TestUser): Promise<PositionView[]> {
  return (await expectOk(get(h, '/contract/position', user.token))).data as PositionView[];
}

/**
 * One account's balance, read from SQL past the session guard: on the core,
 * a user's command is answered before SQL holds it, so this first waits
 * until SQL holds every command answered.
 */
export async function balanceOf(h: Harness, ref: AccountRef, asset = 'USDT') {
  await h.app.futures.service.idle();
  const balance = await h.app.ledger.balance({ ...ref, asset });
  return { available: balance.available.toString(), locked: balance.locked.toString() };
}

export const futuresOf = (user: TestUser): AccountRef => userAccount(user.id, 'futures');

/** The ledger audit, once SQL holds every command answered (on the core, a user's may be answered before). */
export async function expectAuditClean(h: Harness): Promise<void> {
  await h.app.futures.service.idle();
  await expectHealthyLedger(h.store.db);
}

export function expectRefused(
  answer: Envelope,
  key: string,
  params: Record<string, string | number> = {},
): void {
  expect(answer.code, answer.msg).not.toBe(200);
  expect(answer.msg).toBe(translate('en', key, params));
}
