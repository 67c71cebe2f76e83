import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, HOUR_MS, PASSWORD, requestCode } from '../identity/test-support.ts';
import {
  expectAuditClean,
  expectOk,
  expectRefused,
  fundedUser,
  get,
  type Harness,
  limit,
  post,
  startHarness,
  type TestUser,
  userWithoutEmail,
} from './test-support.ts';

/**
 * The checks before an order (session, freeze, bound email) are answered from
 * memory once read. Every test here first places an order, so what it checks
 * is in memory, then changes it the way a user or an operator does, and
 * expects the very next order to see the change.
 */

let h: Harness;
let user: TestUser;
const admin = { 'admin-token': ADMIN_TOKEN };

beforeEach(async () => {
  h = await startHarness();
  user = await fundedUser(h, { USDT: '100000' });
  await expectOk(limit('buy', user, '100', '1', h));
});

afterEach(async () => {
  await h.app.spot.service.idle();
  await expectAuditClean(h);
  await h.close();
});

function freeze(body: { startsAt?: number; endsAt: number }) {
  return expectOk(
    post(
      h,
      '/admin/identity/freeze',
      { userId: user.id, reason: 'under review', setBy: 'ops', ...body },
      undefined,
      admin,
    ),
  );
}

describe('order checks take effect at once', () => {
  it('a freeze refuses the next order, and lifting it lets the one after through', async () => {
    await freeze({ endsAt: h.clock.now() + HOUR_MS });
    const refused = await limit('buy', user, '100', '1', h);
    expect(refused.code).toBe(403);
    expect(refused.msg).toContain('under review');

    await expectOk(
      post(h, '/admin/identity/unfreeze', { userId: user.id, reason: 'cleared' }, undefined, admin),
    );
    await expectOk(limit('buy', user, '100', '1', h));
  });

  it('a freeze that starts later refuses orders from its start to its end', async () => {
    await freeze({ startsAt: h.clock.now() + HOUR_MS, endsAt: h.clock.now() + 2 * HOUR_MS });
    await expectOk(limit('buy', user, '100', '1', h));
    h.clock.advance(HOUR_MS);
    expect((await limit('buy', user, '100', '1', h)).code).toBe(403);
    h.clock.advance(HOUR_MS);
    await expectOk(limit('buy', user, '100', '1', h));
  });

  it('logout ends the session for the next order', async () => {
    await expectOk(post(h, '/user/logout', {}, user.token));
    expect((await limit('buy', user, '100', '1', h)).code).toBe(401);
  });

  it('a password change ends the other sessions, not the one that changed it', async () => {
    const { email } = (await expectOk(get(h, '/user/userInfo', user.token))).data as { email: string };
    const login = await expectOk(post(h, '/member/login', { account: email, password: PASSWORD }));
    const other = { ...user, token: (login.data as { token: string }).token };
    await expectOk(limit('buy', other, '100', '1', h));

    const changed = 'changed456';
    await expectOk(
      post(
        h,
        '/user/editPassword',
        { oldPassword: PASSWORD, password: changed, confirmPassword: changed },
        user.token,
      ),
    );
    expect((await limit('buy', other, '100', '1', h)).code).toBe(401);
    await expectOk(limit('buy', user, '100', '1', h));
  });

  it('a session is refused from its expiry on', async () => {
    h.clock.advance(h.config.sessionTtlMs);
    expect((await limit('buy', user, '100', '1', h)).code).toBe(401);
  });

  it('binding an email lets a user who had none order at once', async () => {
    const phoneUser = await userWithoutEmail(h, { USDT: '1000' });
    expectRefused(await limit('buy', phoneUser, '100', '1', h), 'Please bind an email address first');
    const email = `bound-${phoneUser.id}@example.com`;
    const code = await requestCode(h, email, 'bind');
    await expectOk(post(h, '/user/setNewTelOrEmail', { account: email, code }, phoneUser.token));
    await expectOk(limit('buy', phoneUser, '100', '1', h));
  });
});
