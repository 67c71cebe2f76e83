import { IMAGE_MAX_BYTES, normaliseIdCard } from '@halyard/rules';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { DEMO_KYC_REVIEW_MS } from './service.ts';
import {
  ADMIN_TOKEN,
  expectOk,
  get,
  type Harness,
  multipart,
  post,
  registerByEmail,
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

const admin = { 'admin-token': ADMIN_TOKEN };
const VALID_ID = '11010519491231002X';

/** A real 2×2 image of the given type. */
function tinyImage(format: 'jpeg' | 'webp'): Promise<Buffer> {
  return sharp({ create: { width: 2, height: 2, channels: 3, background: '#888' } })
    .toFormat(format)
    .toBuffer();
}

async function uploadedPhoto(token: string): Promise<string> {
  const answer = await expectOk(upload(h, token, 'id.png', TINY_PNG));
  return (answer.data as { url: string }[])[0]?.url ?? '';
}

describe('image upload', () => {
  it('needs a session', async () => {
    const body = multipart('imgurl', 'id.png', TINY_PNG, 'image/png');
    const response = await h.app.http.inject({ method: 'POST', url: '/user/img', ...body });
    expect(response.json()).toMatchObject({ code: 401 });
  });

  it('accepts JPEG and WebP by their bytes', async () => {
    const { token } = await registerByEmail(h, 'img@example.com');
    const jpeg = await tinyImage('jpeg');
    const webp = await tinyImage('webp');
    const jpegUrl = (
      (await expectOk(upload(h, token, 'a.bin', jpeg, 'application/octet-stream'))).data as {
        url: string;
      }[]
    )[0]?.url;
    expect(jpegUrl).toMatch(/\.jpg$/);
    const webpUrl = ((await expectOk(upload(h, token, 'b', webp))).data as { url: string }[])[0]?.url;
    expect(webpUrl).toMatch(/\.webp$/);
  });

  it('refuses a text file named .png, whatever content type it claims', async () => {
    const { token } = await registerByEmail(h, 'img@example.com');
    const answer = await upload(h, token, 'photo.png', Buffer.from('not an image at all'), 'image/png');
    expect(answer).toMatchObject({ code: 400, msg: 'Only JPEG, PNG or WebP images are accepted' });
  });

  it('refuses a file over 10 MB', async () => {
    const { token } = await registerByEmail(h, 'img@example.com');
    const big = Buffer.concat([TINY_PNG, Buffer.alloc(IMAGE_MAX_BYTES + 1 - TINY_PNG.length)]);
    const answer = await upload(h, token, 'big.png', big);
    expect(answer).toMatchObject({ code: 413, msg: 'The image must be at most 10 MB' });
  });

  it('refuses a request without the imgurl field', async () => {
    const { token } = await registerByEmail(h, 'img@example.com');
    const body = multipart('photo', 'id.png', TINY_PNG, 'image/png');
    const response = await h.app.http.inject({
      method: 'POST',
      url: '/user/img',
      payload: body.payload,
      headers: { ...body.headers, token },
    });
    expect(response.json()).toMatchObject({ code: 400, msg: 'Please choose an image' });
  });

  it('answers 404 for a name that was never uploaded', async () => {
    const { token } = await registerByEmail(h, 'img@example.com');
    const response = await h.app.http.inject({
      method: 'GET',
      url: `/uploads/${'a'.repeat(32)}.png`,
      headers: { token },
    });
    expect(response.json()).toMatchObject({ code: 404 });
  });

  it('refuses a PNG header followed by HTML, and a JPEG header on a PNG body', async () => {
    const { token } = await registerByEmail(h, 'img@example.com');
    const html = Buffer.concat([
      TINY_PNG.subarray(0, 8),
      Buffer.from('<html><script>alert(1)</script></html>'),
    ]);
    expect(await upload(h, token, 'x.png', html)).toMatchObject({
      code: 400,
      msg: 'The image cannot be read. Please upload a clear JPEG, PNG or WebP photo',
    });
    const posing = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff]), TINY_PNG]);
    expect((await upload(h, token, 'x.jpg', posing)).code).toBe(400);
    const truncated = (await tinyImage('jpeg')).subarray(0, 60);
    expect((await upload(h, token, 'x.jpg', truncated)).code).toBe(400);
  });

  it('stores the image encoded anew: bytes hidden after it are gone', async () => {
    const { token } = await registerByEmail(h, 'img@example.com');
    const smuggled = Buffer.concat([TINY_PNG, Buffer.from('<html><script>alert(1)</script></html>')]);
    const url = ((await expectOk(upload(h, token, 'x.png', smuggled))).data as { url: string }[])[0]?.url;
    const served = await h.app.http.inject({ method: 'GET', url: url ?? '', headers: { token } });
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.rawPayload.includes('<html>')).toBe(false);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'png', width: 1, height: 1 });
  });

  it('shows an upload to its owner and to an operator (audited), to nobody else', async () => {
    const owner = await registerByEmail(h, 'owner@example.com');
    const other = await registerByEmail(h, 'other@example.com');
    const url = await uploadedPhoto(owner.token);
    const name = url.split('/').pop() ?? '';
    const read = (path: string, headers: Record<string, string> = {}) =>
      h.app.http.inject({ method: 'GET', url: path, headers });
    expect((await read(url)).json()).toMatchObject({ code: 401 });
    expect((await read(url, { token: other.token })).json()).toMatchObject({ code: 404 });
    expect((await read(url, { token: owner.token })).statusCode).toBe(200);
    expect((await read(`/admin/uploads/${name}`)).json()).toMatchObject({ code: 403 });
    expect((await read(`/admin/uploads/${name}`, { 'admin-token': 'wrong' })).statusCode).toBe(403);
    const seen = await read(`/admin/uploads/${name}`, admin);
    expect(seen.headers['content-type']).toBe('image/png');
    const audit = await expectOk(get(h, `/admin/identity/audit?userId=${owner.member.id}`, undefined, admin));
    // The admin token before any administrator exists acts as "bootstrap" (modules/operators).
    expect(audit.data).toMatchObject([{ operator: 'bootstrap', action: 'upload.view', details: { name } }]);
  });
});

describe('identity verification', () => {
  /** Submits `idNumber` for a new user with their own photo; answers the user and the answer. */
  async function submitFor(email: string, idNumber: string) {
    const user = await registerByEmail(h, email);
    const photoUrl = await uploadedPhoto(user.token);
    const answer = await post(h, '/user/editRealName', { name: 'Li Si', idNumber, photoUrl }, user.token);
    return { ...user, photoUrl, answer };
  }

  async function decide(userId: number, verdict: 'approve' | 'reject') {
    const rows = (await expectOk(get(h, '/admin/identity/kyc?state=review', undefined, admin))).data as {
      id: number;
      userId: number;
    }[];
    const id = rows.find((row) => row.userId === userId)?.id;
    await expectOk(post(h, `/admin/identity/kyc/${id}/${verdict}`, { reason: 'Blurred' }, undefined, admin));
  }

  it('gives one ID number to one account, whatever its spelling', async () => {
    const first = await submitFor('first@example.com', '11010519491231002x');
    await expectOk(Promise.resolve(first.answer));
    const second = await submitFor('second@example.com', VALID_ID);
    expect(second.answer).toMatchObject({
      code: 409,
      msg: 'This ID number is already verified for another account',
    });
    const cn = await post(
      h,
      '/user/editRealName',
      { name: 'Li Si', idNumber: VALID_ID, photoUrl: second.photoUrl },
      second.token,
      { lang: 'cn' },
    );
    expect(cn.msg).toBe('该证件号码已被其他账户认证');
    expect((await get(h, '/user/userInfo', second.token)).data).toMatchObject({ verification: 'none' });
    // The 15-digit spelling of an 18-digit number is the same person's number.
    await expectOk(Promise.resolve((await submitFor('third@example.com', '130503670401001')).answer));
    const fourth = await submitFor('fourth@example.com', normaliseIdCard('130503670401001'));
    expect(fourth.answer.code).toBe(409);
  });

  it('frees a rejected number: its user may submit it again, and so may another once it is rejected', async () => {
    const first = await submitFor('first@example.com', VALID_ID);
    await decide(first.member.id, 'reject');
    await expectOk(
      post(
        h,
        '/user/editRealName',
        { name: 'Li Si', idNumber: VALID_ID, photoUrl: first.photoUrl },
        first.token,
      ),
    );
    await decide(first.member.id, 'reject');
    await expectOk(Promise.resolve((await submitFor('second@example.com', VALID_ID)).answer));
  });

  it('in demo mode, the demo reviewer approves a submission after a few seconds, audited', async () => {
    const { member, answer } = await submitFor('demo@example.com', VALID_ID);
    await expectOk(Promise.resolve(answer));
    h.clock.advance(DEMO_KYC_REVIEW_MS - 1);
    expect(await h.app.identity.service.approveDueDemoKyc()).toBe(0);
    h.clock.advance(1);
    expect(await h.app.identity.service.approveDueDemoKyc()).toBe(1);
    expect((await h.app.identity.service.getUser(member.id)).kyc).toBe('succeeded');
    const [decided] = (await expectOk(get(h, '/admin/identity/kyc?state=succeeded', undefined, admin)))
      .data as {
      decidedBy: string;
    }[];
    expect(decided?.decidedBy).toBe('demo reviewer');
    const audit = await expectOk(get(h, `/admin/identity/audit?userId=${member.id}`, undefined, admin));
    expect(audit.data).toMatchObject([{ operator: 'demo reviewer', action: 'kyc.approve' }]);
  });

  it('outside demo mode, only an operator decides', async () => {
    const live = await startHarness({ demo: false });
    try {
      const user = await live.app.identity.service.userInfo(
        (
          await live.store.db
            .insertInto('users')
            .values({
              email: 'live@example.com',
              area_code: null,
              phone: null,
              wallet_address: null,
              password_hash: null,
              pay_password_hash: null,
              invitation_code: 'LIVE0001',
              parent_id: null,
              locked_until: null,
              created_at: live.clock.now(),
            })
            .returning('id')
            .executeTakeFirstOrThrow()
        ).id,
      );
      const { url } = await live.app.identity.service.saveUpload(user.id, TINY_PNG);
      await live.app.identity.service.submitKyc(user.id, {
        name: 'Li Si',
        idNumber: VALID_ID,
        photoUrl: url,
      });
      live.clock.advance(DEMO_KYC_REVIEW_MS * 100);
      expect(await live.app.identity.service.approveDueDemoKyc()).toBe(0);
      expect((await live.app.identity.service.getUser(user.id)).kyc).toBe('review');
    } finally {
      await live.close();
    }
  });

  it('refuses a bad ID checksum, a missing name and a photo that is not the user’s own upload', async () => {
    const { token } = await registerByEmail(h, 'kyc@example.com');
    const stranger = await registerByEmail(h, 'stranger@example.com');
    const photoUrl = await uploadedPhoto(token);
    const badChecksum = await post(
      h,
      '/user/editRealName',
      { name: 'Li Si', idNumber: '110105194912310021', photoUrl },
      token,
    );
    expect(badChecksum.code).toBe(400);
    expect(badChecksum.msg).not.toMatch(/^rules\./);
    expect(
      (await post(h, '/user/editRealName', { name: '  ', idNumber: VALID_ID, photoUrl }, token)).msg,
    ).toBe('Please enter your name');
    const notMine = await post(
      h,
      '/user/editRealName',
      { name: 'Li Si', idNumber: VALID_ID, photoUrl },
      stranger.token,
    );
    expect(notMine).toMatchObject({ code: 400, msg: 'Please upload a photo of your ID' });
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({ verification: 'none' });
  });

  it('goes under review, can be rejected with a reason, re-submitted and approved', async () => {
    const { token, member } = await registerByEmail(h, 'kyc@example.com');
    const photoUrl = await uploadedPhoto(token);
    const submission = { name: 'Li Si', idNumber: VALID_ID, photoUrl };
    await expectOk(post(h, '/user/editRealName', submission, token));
    expect(await post(h, '/user/editRealName', submission, token)).toMatchObject({
      code: 409,
      msg: 'Your identity verification is under review',
    });

    const [pending] = (await expectOk(get(h, '/admin/identity/kyc?state=review', undefined, admin))).data as {
      id: number;
    }[];
    const id = pending?.id ?? 0;
    const noReason = await post(h, `/admin/identity/kyc/${id}/reject`, {}, undefined, admin);
    expect(noReason.code).toBe(400);
    await expectOk(
      post(h, `/admin/identity/kyc/${id}/reject`, { reason: 'Photo is blurred' }, undefined, admin),
    );
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({
      verification: 'failed',
      verificationReason: 'Photo is blurred',
    });
    // A decided submission cannot be decided again.
    expect((await post(h, `/admin/identity/kyc/${id}/approve`, {}, undefined, admin)).code).toBe(409);

    await expectOk(post(h, '/user/editRealName', submission, token));
    const [again] = (await expectOk(get(h, '/admin/identity/kyc', undefined, admin))).data as {
      id: number;
    }[];
    await expectOk(post(h, `/admin/identity/kyc/${again?.id}/approve`, {}, undefined, admin));
    expect((await h.app.identity.service.getUser(member.id)).kyc).toBe('succeeded');

    const audit = await expectOk(get(h, `/admin/identity/audit?userId=${member.id}`, undefined, admin));
    expect(audit.data).toMatchObject([
      { operator: 'bootstrap', action: 'kyc.approve', userId: member.id },
      {
        operator: 'bootstrap',
        action: 'kyc.reject',
        userId: member.id,
        details: { reason: 'Photo is blurred' },
      },
    ]);
  });
});
