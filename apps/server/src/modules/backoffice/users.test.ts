import type { AdminUserDetail, AdminUserPage, OperatorRole } from '@halyard/protocol';
import { translate } from '@halyard/protocol';
import type { Hex } from 'viem';
import { privateKeyToAccount } from 'viem/accounts';
import { createSiweMessage } from 'viem/siwe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type Envelope,
  expectOk,
  get,
  type Harness,
  MINUTE_MS,
  PASSWORD,
  post,
  registerByEmail,
  requestCode,
  startHarness,
} from '../identity/test-support.ts';
import { operatorSession } from '../operators/test-support.ts';
import { fund, verifiedUser } from '../wallet/test-support.ts';

// A well-known development key (Hardhat account #1): never holds real funds.
const wallet = privateKeyToAccount('0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d');

let h: Harness;
/** Operator headers per role, each a separate operator signed in with TOTP. */
const as = new Map<OperatorRole, Record<string, string>>();
const headersOf = (role: OperatorRole) => {
  const headers = as.get(role);
  if (!headers) throw new Error(`no ${role} operator`);
  return headers;
};

beforeAll(async () => {
  h = await startHarness();
  for (const role of ['compliance', 'support', 'finance', 'content'] as const) {
    as.set(role, (await operatorSession(h.app, role, h.clock)).headers);
  }
});
afterAll(async () => {
  await h.close();
});

async function search(q: string, role: OperatorRole = 'compliance'): Promise<AdminUserPage> {
  const answer = await expectOk(
    get(h, `/admin/users?q=${encodeURIComponent(q)}`, undefined, headersOf(role)),
  );
  return answer.data as AdminUserPage;
}

const idsOf = (page: AdminUserPage) => page.items.map((item) => item.id);

async function detail(userId: number, role: OperatorRole = 'compliance'): Promise<AdminUserDetail> {
  return (await expectOk(get(h, `/admin/users/${userId}`, undefined, headersOf(role))))
    .data as AdminUserDetail;
}

async function registerByPhone(phone: string): Promise<{ token: string; id: number }> {
  const code = await requestCode(h, phone, 'register', { areaCode: '86' });
  const answer = await expectOk(
    post(h, '/member/register', {
      account: phone,
      areaCode: '86',
      code,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      agreed: true,
    }),
  );
  const data = answer.data as { token: string; member: { id: number } };
  return { token: data.token, id: data.member.id };
}

async function signInWithWallet(): Promise<number> {
  const issued = (await expectOk(get(h, '/member/siweNonce'))).data as {
    nonce: string;
    domain: string;
    uri: string;
  };
  const message = createSiweMessage({
    domain: issued.domain,
    address: wallet.address,
    uri: issued.uri,
    version: '1',
    chainId: 56,
    nonce: issued.nonce,
    issuedAt: new Date(h.clock.now()),
    expirationTime: new Date(h.clock.now() + 5 * MINUTE_MS),
  });
  const signature: Hex = await wallet.signMessage({ message });
  const answer = await expectOk(post(h, '/member/loginByAddress', { message, signature }));
  return (answer.data as { member: { id: number } }).member.id;
}

/** The audit trail's views of a user's personal data (`<what>.view`). */
async function viewsOf(userId: number) {
  const page = await h.app.operators.audit.search({ userId, action: '.view' });
  return page.items;
}

describe('the user search', () => {
  it('finds a user by id, part of the e-mail, phone, invitation code, sign-in wallet or deposit address', async () => {
    const mail = await registerByEmail(h, 'Search.Target@Example.com');
    const phone = await registerByPhone('13912345678');
    const walletUser = await signInWithWallet();
    const depositor = await verifiedUser(h);
    const address = (await h.app.wallet.service.depositAddress(depositor.id, 'USDT', 56)).address;

    expect(idsOf(await search(String(phone.id)))).toContain(phone.id);
    expect(idsOf(await search('search.target'))).toEqual([mail.member.id]);
    expect(idsOf(await search('91234567'))).toEqual([phone.id]);
    expect(idsOf(await search(mail.member.invitationCode.toLowerCase()))).toEqual([mail.member.id]);
    expect(idsOf(await search(wallet.address.toLowerCase()))).toEqual([walletUser]);
    expect(idsOf(await search(address.toLowerCase()))).toEqual([depositor.id]);
    // LIKE wildcards in the text are taken literally.
    expect(idsOf(await search('%'))).toEqual([]);
    expect(idsOf(await search('_'))).toEqual([]);
  });

  it('pages through everyone when the text is empty, newest first, with the total', async () => {
    const first = (await expectOk(get(h, '/admin/users?page=1&limit=2', undefined, headersOf('support'))))
      .data as AdminUserPage;
    const second = (await expectOk(get(h, '/admin/users?page=2&limit=2', undefined, headersOf('support'))))
      .data as AdminUserPage;
    expect(first.items).toHaveLength(2);
    expect(first.items[0]!.id).toBeGreaterThan(first.items[1]!.id);
    expect(second.items[0]!.id).toBeLessThan(first.items[1]!.id);
    expect(second.total).toBe(first.total);
  });
});

describe('personal data', () => {
  it('is masked without pii.read, nothing audited; shown with it, and each view audited', async () => {
    const user = await verifiedUser(h);
    const info = await h.app.identity.service.getUser(user.id);
    const email = info.email ?? '';

    const masked = await search(email, 'support');
    expect(masked.unmasked).toBe(false);
    expect(masked.items[0]?.email).toBe(`${email[0]}***${email.slice(email.indexOf('@'))}`);
    const maskedDetail = await detail(user.id, 'support');
    expect(maskedDetail).toMatchObject({ unmasked: false, kyc: 'succeeded', kycSubmission: null });
    expect(maskedDetail.profile.email).not.toBe(email);
    expect(await viewsOf(user.id)).toEqual([]);

    const shown = await detail(user.id, 'compliance');
    expect(shown.profile.email).toBe(email);
    expect(shown.kycSubmission).toMatchObject({ name: 'Li Si', state: 'succeeded' });
    expect(shown.kycSubmission?.photoUrl).toMatch(/^\/admin\/uploads\/[\w-]+\.png$/);
    const views = await viewsOf(user.id);
    expect(views).toMatchObject([
      { action: 'user.profile.view', userId: user.id, operator: expect.stringMatching(/^compliance/) },
    ]);

    expect((await search(email, 'compliance')).items[0]?.email).toBe(email);
    const searches = await h.app.operators.audit.search({ action: 'users.search.view' });
    expect(JSON.parse(searches.items[0]?.details ?? '{}')).toMatchObject({ q: email, userIds: [user.id] });
  });

  it('masks phone numbers too', async () => {
    const phone = await registerByPhone('13800001234');
    expect((await search('13800001234', 'support')).items[0]?.phone).toBe('138****1234');
    expect((await detail(phone.id, 'support')).profile.phone).toBe('138****1234');
  });

  it('is refused to roles without the permission', async () => {
    const user = await registerByEmail(h, 'refused@example.com');
    expect((await get(h, '/admin/users', undefined, headersOf('content'))).code).toBe(403);
    expect((await get(h, `/admin/users/${user.member.id}`, undefined, headersOf('content'))).code).toBe(403);
    expect((await get(h, `/admin/users/${user.member.id}`)).code).toBe(403);
    expect((await get(h, '/admin/users/999999', undefined, headersOf('support'))).code).toBe(404);
  });
});

describe("a user's page", () => {
  it('shows balances per wallet and coin, open orders and live sessions', async () => {
    const user = await verifiedUser(h);
    await fund(h, user.id, { USDT: '1000' });
    await h.app.spot.service.placeForUser(user.id, {
      tradcoin: 'BTC',
      maincoin: 'USDT',
      side: 'buy',
      style: 'limit',
      price: '1000',
      number: '0.5',
    });
    const page = await detail(user.id, 'support');
    expect(page.balances).toEqual([
      { wallet: 'spot', coin: 'USDT', available: '500', locked: '500', total: '1000' },
    ]);
    expect(page.openOrders).toMatchObject([
      {
        market: 'spot',
        symbol: 'BTC/USDT',
        side: 'buy',
        style: 'limit',
        price: '1000',
        amount: '0.5',
        filled: '0',
      },
    ]);
    expect(page.recentOrders).toEqual([]);
    expect(page.positions).toEqual([]);
    expect(page.sessions).toHaveLength(1);
  });

  it('keeps the login history: registration, success and failure, with address and user agent', async () => {
    const { member } = await registerByEmail(h, 'history@example.com');
    const agent = { 'user-agent': 'HistoryTest/1.0' };
    expect(
      (
        await post(
          h,
          '/member/login',
          { account: 'history@example.com', password: 'wrong123' },
          undefined,
          agent,
        )
      ).msg,
    ).toBe(translate('en', 'identity.loginFailed'));
    await expectOk(
      post(
        h,
        '/member/login',
        { account: 'history@example.com', password: PASSWORD, device: 'ios' },
        undefined,
        agent,
      ),
    );
    const { logins } = await detail(member.id, 'support');
    expect(logins).toMatchObject([
      { method: 'password', result: 'success', device: 'ios', userAgent: 'HistoryTest/1.0', ip: '127.0.0.1' },
      {
        method: 'password',
        result: 'wrongPassword',
        account: 'history@example.com',
        userAgent: 'HistoryTest/1.0',
      },
      { method: 'register', result: 'success' },
    ]);
    expect(logins[0]!.at).toBe(h.clock.now());
  });

  it('records locked and wallet attempts', async () => {
    const { member } = await registerByEmail(h, 'locked@example.com');
    for (let attempt = 0; attempt < 6; attempt += 1) {
      await post(h, '/member/login', { account: 'locked@example.com', password: 'wrong123' });
    }
    const results = (await detail(member.id, 'support')).logins.map((entry) => entry.result);
    expect(results.slice(0, 2)).toEqual(['locked', 'wrongPassword']);
    expect(results.filter((result) => result === 'wrongPassword')).toHaveLength(5);

    const walletUser = await signInWithWallet();
    await post(h, '/member/loginByAddress', {
      message: 'not signed',
      signature: '0x00',
      address: wallet.address,
    });
    const walletLogins = (await detail(walletUser, 'support')).logins;
    expect(walletLogins[0]).toMatchObject({ method: 'wallet', result: 'failed', account: wallet.address });
    expect(walletLogins[1]).toMatchObject({ method: 'wallet', result: 'success' });
  });
});

describe('session revoke', () => {
  async function login(email: string, device: string): Promise<string> {
    const answer = await expectOk(post(h, '/member/login', { account: email, password: PASSWORD, device }));
    return (answer.data as { token: string }).token;
  }
  const userInfo = (token: string): Promise<Envelope> => get(h, '/user/userInfo', token);

  it('logs the user out of that session only; refused without users.sessions', async () => {
    const { member } = await registerByEmail(h, 'revoke@example.com');
    const phone = await login('revoke@example.com', 'ios');
    const desk = await login('revoke@example.com', 'web');
    const sessions = (await detail(member.id, 'compliance')).sessions;
    expect(sessions.map((session) => session.device)).toEqual(['web', 'ios', 'web']);
    const target = sessions[1]!;
    const url = `/admin/users/${member.id}/sessions/${target.id}/revoke`;

    expect((await post(h, url, {}, undefined, headersOf('support'))).code).toBe(403);
    expect((await userInfo(phone)).code).toBe(200);
    await expectOk(post(h, url, {}, undefined, headersOf('compliance')));
    expect((await userInfo(phone)).code).toBe(401);
    expect((await userInfo(desk)).code).toBe(200);
    expect((await detail(member.id, 'compliance')).sessions.map((session) => session.id)).not.toContain(
      target.id,
    );

    const again = await post(h, url, {}, undefined, headersOf('compliance'));
    expect(again).toMatchObject({ code: 404, msg: translate('en', 'identity.sessionNotFound') });
    const other = await registerByEmail(h, 'other-revoke@example.com');
    const notTheirs = await post(
      h,
      `/admin/users/${other.member.id}/sessions/${sessions[0]!.id}/revoke`,
      {},
      undefined,
      headersOf('compliance'),
    );
    expect(notTheirs.code).toBe(404);
    expect((await userInfo(desk)).code).toBe(200);
    // Each attempt is in the audit trail, the refused ones with their status. The trail is
    // written once the answer is sent (operators' onResponse hook), so it is polled for, in
    // any order.
    const writes = async () => {
      const { items } = await h.app.operators.audit.search({ action: '/sessions/' });
      return items.map((entry) => `${entry.userId} ${entry.status}`).sort();
    };
    await expect
      .poll(writes)
      .toEqual([`${other.member.id} 404`, `${member.id} 404`, `${member.id} 200`, `${member.id} 403`].sort());
  });
});
