import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  expectOk,
  get,
  type Harness,
  HOUR_MS,
  PASSWORD,
  PUBLIC_URL,
  post,
  registerByEmail,
  requestCode,
  startHarness,
  TINY_PNG,
  upload,
} from './test-support.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

describe('identity: the whole journey', () => {
  it('registers, logs in, sets a fund password, verifies identity, changes password and logs out', async () => {
    // Register with the code demo mode shows to the one who asked for it.
    const registered = await registerByEmail(h, 'Alice@Example.com');
    expect(registered.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(registered.member).toMatchObject({ email: 'alice@example.com', verification: 'none' });

    // Log in with the password: code, data.member, data.token (spec §3 Login response).
    const login = await expectOk(
      post(h, '/member/login', { account: 'alice@example.com', password: PASSWORD }),
    );
    const { token, member } = login.data as { token: string; member: { id: number; invitationCode: string } };
    expect(token).not.toBe(registered.token);

    const info = await expectOk(get(h, '/user/userInfo', token));
    expect(info.data).toMatchObject({
      id: member.id,
      email: 'alice@example.com',
      phone: null,
      walletAddress: null,
      invitationCode: member.invitationCode,
      verification: 'none',
      recomurl: `${PUBLIC_URL}/register?code=${member.invitationCode}`,
      hasLoginPassword: true,
      hasFundPassword: false,
      lockedUntil: null,
      frozen: null,
    });
    const invitation = await expectOk(get(h, '/user/getInvitationUrl', token));
    expect(invitation.data).toEqual({
      code: member.invitationCode,
      url: `${PUBLIC_URL}/register?code=${member.invitationCode}`,
    });

    // Bind a phone: a code goes to the new number; userInfo shows it masked.
    const bindCode = await requestCode(h, '13812345678', 'bind');
    await expectOk(post(h, '/user/setNewTelOrEmail', { account: '13812345678', code: bindCode }, token));
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({
      phone: '138****5678',
      areaCode: '86',
    });

    // Fund password: the first time the session is enough.
    await expectOk(
      post(h, '/user/updatePassword', { payPassword: '123456', confirmPayPassword: '123456' }, token),
    );
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({ hasFundPassword: true });
    await expect(h.app.identity.service.assertFundPassword(member.id, '123456')).resolves.toBeUndefined();
    await expect(h.app.identity.service.assertFundPassword(member.id, '654321')).rejects.toMatchObject({
      key: 'identity.fundPasswordWrong',
    });

    // KYC with a real PNG; an operator approves.
    const uploaded = await expectOk(upload(h, token, 'id.png', TINY_PNG));
    const url = (uploaded.data as { url: string }[])[0]?.url ?? '';
    expect(url).toMatch(/^\/uploads\/[A-Za-z0-9_-]{32}\.png$/);
    // Served to its owner only, as the 1×1 PNG it was (encoded anew).
    expect((await h.app.http.inject({ method: 'GET', url })).json()).toMatchObject({ code: 401 });
    const served = await h.app.http.inject({ method: 'GET', url, headers: { token } });
    expect(served.headers['content-type']).toBe('image/png');
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 1, height: 1 });

    await expect(h.app.identity.service.assertKycDone(member.id)).rejects.toMatchObject({
      key: 'identity.kycRequired',
    });
    await expectOk(
      post(
        h,
        '/user/editRealName',
        { name: 'Zhang San', idNumber: '11010519491231002X', photoUrl: url },
        token,
      ),
    );
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({ verification: 'review' });
    const queue = await expectOk(get(h, '/admin/identity/kyc', undefined, { 'admin-token': ADMIN_TOKEN }));
    const [submission] = queue.data as { id: number; userId: number; photoUrl: string }[];
    expect(submission).toMatchObject({ userId: member.id, photoUrl: url });
    await expectOk(
      post(h, `/admin/identity/kyc/${submission?.id}/approve`, {}, undefined, {
        'admin-token': ADMIN_TOKEN,
      }),
    );
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({ verification: 'succeeded' });
    await expect(h.app.identity.service.assertKycDone(member.id)).resolves.toBeUndefined();
    const resubmit = await post(
      h,
      '/user/editRealName',
      { name: 'Zhang San', idNumber: '11010519491231002X', photoUrl: url },
      token,
    );
    expect(resubmit).toMatchObject({ code: 409, msg: 'Your identity is already verified' });

    // Change the password: the 24 h lock is reported and enforced, then lifts.
    await expectOk(
      post(
        h,
        '/user/editPassword',
        { oldPassword: PASSWORD, password: 'newpass456', confirmPassword: 'newpass456' },
        token,
      ),
    );
    const locked = (await get(h, '/user/userInfo', token)).data as { lockedUntil: number };
    expect(locked.lockedUntil).toBe(h.clock.now() + 24 * HOUR_MS);
    await expect(h.app.identity.service.assertNotLocked(member.id)).rejects.toMatchObject({
      key: 'identity.locked',
      params: { until: '2026-01-02 00:00 UTC' },
    });
    expect((await h.app.identity.service.getUser(member.id)).lockedUntil).toBe(locked.lockedUntil);
    h.clock.advance(24 * HOUR_MS);
    await expect(h.app.identity.service.assertNotLocked(member.id)).resolves.toBeUndefined();
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({ lockedUntil: null });

    // Log out: the token is dead.
    await expectOk(post(h, '/user/logout', {}, token));
    expect(await get(h, '/user/userInfo', token)).toMatchObject({ code: 401, msg: 'Please log in' });
    await expectOk(post(h, '/member/login', { account: 'alice@example.com', password: 'newpass456' }));
  });

  it('exposes a user summary for other modules', async () => {
    const inviter = await registerByEmail(h, 'inviter@example.com');
    const invited = await registerByEmail(h, 'invited@example.com', {
      invitationCode: inviter.member.invitationCode.toLowerCase(),
    });
    const summary = await h.app.identity.service.getUser(invited.member.id);
    expect(summary).toEqual({
      id: invited.member.id,
      email: 'invited@example.com',
      areaCode: null,
      phone: null,
      walletAddress: null,
      invitationCode: invited.member.invitationCode,
      parentId: inviter.member.id,
      kyc: 'none',
      hasFundPassword: false,
      lockedUntil: null,
      createdAt: h.clock.now(),
    });
    expect(await h.app.identity.service.invitees(inviter.member.id)).toEqual([
      { id: invited.member.id, createdAt: h.clock.now() },
    ]);
  });

  it('guards login routes with the exported preHandler', async () => {
    const { token } = await registerByEmail(h, 'guard@example.com');
    const resolved = await h.app.identity.service.resolve(token);
    expect(resolved).toEqual({ id: expect.any(Number) });
    expect(await get(h, '/user/userInfo')).toMatchObject({ code: 401 });
    expect(await get(h, '/user/userInfo', 'not-a-token')).toMatchObject({ code: 401 });
    // Sessions expire after config.sessionTtlMs.
    h.clock.advance(h.config.sessionTtlMs);
    expect(await get(h, '/user/userInfo', token)).toMatchObject({ code: 401 });
  });
});
