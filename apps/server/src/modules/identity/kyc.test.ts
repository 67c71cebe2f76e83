import { IMAGE_MAX_BYTES } from '@halyard/rules';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
    const jpeg = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46]);
    const webp = Buffer.concat([Buffer.from('RIFF'), Buffer.alloc(4), Buffer.from('WEBPVP8 ')]);
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
    const response = await h.app.http.inject({ method: 'GET', url: `/uploads/${'a'.repeat(32)}.png` });
    expect(response.json()).toMatchObject({ code: 404 });
  });
});

describe('identity verification', () => {
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
    const noReason = await post(
      h,
      `/admin/identity/kyc/${id}/reject`,
      { operator: 'ops-bo' },
      undefined,
      admin,
    );
    expect(noReason.code).toBe(400);
    await expectOk(
      post(
        h,
        `/admin/identity/kyc/${id}/reject`,
        { operator: 'ops-bo', reason: 'Photo is blurred' },
        undefined,
        admin,
      ),
    );
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({
      verification: 'failed',
      verificationReason: 'Photo is blurred',
    });
    // A decided submission cannot be decided again.
    expect(
      (await post(h, `/admin/identity/kyc/${id}/approve`, { operator: 'ops-bo' }, undefined, admin)).code,
    ).toBe(409);

    await expectOk(post(h, '/user/editRealName', submission, token));
    const [again] = (await expectOk(get(h, '/admin/identity/kyc', undefined, admin))).data as {
      id: number;
    }[];
    await expectOk(
      post(h, `/admin/identity/kyc/${again?.id}/approve`, { operator: 'ops-cy' }, undefined, admin),
    );
    expect((await h.app.identity.service.getUser(member.id)).kyc).toBe('succeeded');

    const audit = await expectOk(get(h, `/admin/identity/audit?userId=${member.id}`, undefined, admin));
    expect(audit.data).toMatchObject([
      { operator: 'ops-cy', action: 'kyc.approve', userId: member.id },
      {
        operator: 'ops-bo',
        action: 'kyc.reject',
        userId: member.id,
        details: { reason: 'Photo is blurred' },
      },
    ]);
  });
});
