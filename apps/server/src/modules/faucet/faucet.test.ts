import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userAccount } from '../../ledger/index.ts';
import {
  expectOk,
  type Harness,
  HOUR_MS,
  post,
  registerByEmail,
  startHarness,
} from '../identity/test-support.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const usdt = (userId: number) => h.app.ledger.balance({ ...userAccount(userId, 'spot'), asset: 'USDT' });

describe('demo faucet', () => {
  it('credits play money to a user', async () => {
    const { token, member } = await registerByEmail(h, 'faucet@example.com');
    await expectOk(post(h, '/account/demoFaucet', {}, token));
    expect((await usdt(member.id)).available.toString()).toBe('10000');
  });

  it('refuses a frozen user with the freeze message and credits nothing', async () => {
    const { token, member } = await registerByEmail(h, 'frozen@example.com');
    await h.app.identity.service.freeze({
      userId: member.id,
      reason: 'Under investigation',
      setBy: 'ops-bo',
      endsAt: h.clock.now() + HOUR_MS,
    });
    expect(await post(h, '/account/demoFaucet', {}, token)).toMatchObject({
      code: 403,
      msg: 'Your funds are frozen (Under investigation) until 2026-01-01 01:00 UTC. Please contact customer service',
    });
    expect((await usdt(member.id)).available.isZero()).toBe(true);
  });
});
