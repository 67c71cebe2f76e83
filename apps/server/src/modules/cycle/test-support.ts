import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Dec } from '@halyard/money';
import type { CyclePosition } from '@halyard/protocol';
import { afterEach, beforeEach, expect } from 'vitest';
import { createApp } from '../../app.ts';
import { ManualClock } from '../../clock.ts';
import { type Config, loadConfig } from '../../config.ts';
import { type AccountRef, systemAccount, userAccount } from '../../ledger/index.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { sqlCaughtUp } from '../../money-core/test-support.ts';
import { openTestStore, type Store } from '../../store/connect.ts';
import {
  ADMIN_TOKEN,
  type Envelope,
  expectOk,
  type Harness,
  moneyCoreOptions,
  PASSWORD,
  post,
  registerByEmail,
  requestCode,
  TEST_ENV,
} from '../identity/test-support.ts';
import { HOUSE, STAKES } from './settlement.ts';

export { type Envelope, expectOk, get, type Harness, post } from '../identity/test-support.ts';
export { HOUSE, STAKES };

export const BTC = { tradcoin: 'BTC', maincoin: 'USDT' } as const;
export const FEES = systemAccount('fees');

function testConfig(dataDir: string): Config {
  return loadConfig({ ...TEST_ENV, HALYARD_DATA_DIR: dataDir, ADMIN_TOKEN, HALYARD_DEMO: 'true' });
}

/**
 * A demo app on a fresh store with a manual clock, whose index has ticked once
 * (`restartApp` restarts it). `moneyCore`: the money on the sequenced core
 * (AppOptions.moneyCore), projected on the test's own connection.
 */
export async function startHarness(options: { moneyCore?: boolean } = {}): Promise<Harness> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'halyard-cycle-'));
  const config = testConfig(dataDir);
  const store: Store = await openTestStore();
  const clock = new ManualClock();
  const appOptions = moneyCoreOptions(dataDir, options.moneyCore ?? false);
  const harness: Harness = {
    app: await createApp({ config, store, clock, rateLimits: false, ...appOptions }),
    clock,
    config,
    store,
    appOptions,
    async close() {
      await harness.app.close();
      await store.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  await tickAfter(harness, 0);
  return harness;
}

/**
 * In the enclosing describe: a fresh harness before each test (on SQL, or on
 * the sequenced core), handed to `use`; after it, the settlements waited for,
 * the ledger audited and the harness closed.
 */
export function eachTestWithHarness(moneyCore: boolean, use: (h: Harness) => void): void {
  let h: Harness;
  beforeEach(async () => {
    h = await startHarness({ moneyCore });
    use(h);
  });
  afterEach(async () => {
    await h.app.cycle.service.settlement.idle();
    await expectAuditClean(h);
    await h.close();
  });
}

/** Moves the clock and records one index tick of every coin at the new time. */
export async function tickAfter(h: Harness, ms: number): Promise<void> {
  h.clock.advance(ms);
  await h.app.market.simulator.tick();
}

export interface TestUser {
  id: number;
  token: string;
}

let registered = 0;

/** A signed-in user with a bound email and `usdt` in the spot wallet. */
export async function fundedUser(h: Harness, usdt = '1000'): Promise<TestUser> {
  registered += 1;
  const { token, member } = await registerByEmail(h, `cycler${registered}@example.com`);
  await fund(h, member.id, usdt);
  return { id: member.id, token };
}

/** A user registered by phone under `areaCode`: no email is bound. */
export async function phoneUser(h: Harness, areaCode: string, usdt = '1000'): Promise<TestUser> {
  registered += 1;
  // A number valid in the area code's plan (packages/rules checkPhone): a mainland mobile, a UK mobile or a US line.
  const serial = String(10_000_000 + registered);
  const others = new Map([
    ['44', `7911${serial.slice(-6)}`],
    ['1', `202555${serial.slice(-4)}`],
  ]);
  const phone = others.get(areaCode) ?? `139${serial.slice(-8)}`;
  const code = await requestCode(h, phone, 'register', { areaCode });
  const answer = await expectOk(
    post(h, '/member/register', {
      account: phone,
      areaCode,
      code,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      agreed: true,
    }),
  );
  const { token, member } = answer.data as { token: string; member: { id: number } };
  await fund(h, member.id, usdt);
  return { id: member.id, token };
}

async function fund(h: Harness, userId: number, usdt: string): Promise<void> {
  await h.app.ledger.execute([
    {
      id: `cycle-test-fund:${userId}`,
      debit: HOUSE,
      credit: userAccount(userId, 'spot'),
      asset: 'USDT',
      amount: Dec.parse(usdt),
      code: 'test_funding',
    },
  ]);
}

export const spotOf = (user: TestUser): AccountRef => userAccount(user.id, 'spot');

/** An account's USDT balance as strings, once SQL holds every command so far (on the core a user's is answered before). */
export async function usdtOf(h: Harness, ref: AccountRef): Promise<{ available: string; locked: string }> {
  await sqlCaughtUp(h.app.moneyCore);
  const balance = await h.app.ledger.balance({ ...ref, asset: 'USDT' });
  return { available: balance.available.toString(), locked: balance.locked.toString() };
}

export function order(
  h: Harness,
  user: TestUser,
  side: 'buy' | 'sell',
  body: Record<string, unknown> = {},
): Promise<Envelope> {
  const path = side === 'buy' ? '/cycle/buyMarket' : '/cycle/sellMarket';
  return post(h, path, { ...BTC, paycoin: 'USDT', number: '100', lever: 30, ...body }, user.token);
}

export async function placed(pending: Promise<Envelope>): Promise<CyclePosition> {
  return (await expectOk(pending)).data as CyclePosition;
}

export async function positionById(h: Harness, user: TestUser, orderid: string): Promise<CyclePosition> {
  const answer = await expectOk(
    h.app.http
      .inject({
        method: 'GET',
        url: `/cycle/positionById?orderId=${orderid}`,
        headers: { token: user.token },
      })
      .then((response) => response.json() as Envelope),
  );
  const [position] = answer.data as CyclePosition[];
  if (!position) throw new Error(`no position ${orderid}`);
  return position;
}

export async function expectAuditClean(h: Harness): Promise<void> {
  await expectHealthyLedger(h.store.db);
}

/** The figures a settlement test compares before and after something that must change nothing. */
export async function snapshot(h: Harness, users: readonly TestUser[]) {
  const { db } = h.store;
  const count = async (table: 'cycle_orders' | 'cycle_open' | 'cycle_settlements' | 'cycle_closes') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirst()
      )?.n ?? 0,
    );
  return {
    orders: await count('cycle_orders'),
    open: await count('cycle_open'),
    settlements: await count('cycle_settlements'),
    closes: await count('cycle_closes'),
    balances: await Promise.all([HOUSE, STAKES, FEES, ...users.map(spotOf)].map((ref) => usdtOf(h, ref))),
  };
}

export function expectRefused(answer: Envelope, msg: string): void {
  expect(answer.code, answer.msg).not.toBe(200);
  expect(answer.msg).toBe(msg);
}
