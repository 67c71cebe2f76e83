import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IdentityService } from './service.ts';
import {
  demoCodeOf,
  expectOk,
  get,
  type Harness,
  MINUTE_MS,
  PASSWORD,
  post,
  registerByEmail,
  requestCode,
  startHarness,
} from './test-support.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const EMAIL = 'bob@example.com';

function register(code: string, extra: Record<string, unknown> = {}) {
  return post(h, '/member/register', {
    account: EMAIL,
    code,
    password: PASSWORD,
    confirmPassword: PASSWORD,
    agreed: true,
    ...extra,
  });
}

/** A 6-digit code that is certainly not `code`. */
function wrong(code: string): string {
  return code === '000000' ? '111111' : '000000';
}

describe('verification codes', () => {
  it('in demo mode without a mailer, answers the code, marked DEMO, to the one who asked only', async () => {
    const answer = await expectOk(get(h, `/user/getCode?account=${EMAIL}&purpose=register`));
    const code = demoCodeOf(answer);
    expect(answer.msg).toBe(`DEMO: nothing is sent by email or SMS. Your code is ${code}`);
    // Nothing lists codes: the old outbox route is gone.
    expect((await get(h, '/dev/outbox')).code).toBe(404);
    expect((await get(h, `/dev/outbox?recipient=${EMAIL}`)).code).toBe(404);
    await expectOk(register(code));
  });

  it('shows phone codes in demo mode too', async () => {
    expect(await requestCode(h, '51234567', 'register', { areaCode: '852' })).toMatch(/^\d{6}$/);
  });

  it('with a real channel, sends the code in the language it was requested in and never answers it', async () => {
    const sent: { to: string; subject?: string; text: string }[] = [];
    const service = new IdentityService({
      store: h.store,
      clock: h.clock,
      config: h.config,
      messengers: {
        mailer: { send: async (to, subject, text) => void sent.push({ to, subject, text }) },
        sms: { send: async (to, text) => void sent.push({ to, text }) },
      },
    });
    expect(await service.sendCode({ account: EMAIL, purpose: 'register' }, 'cn', null)).toEqual({
      cooldownSeconds: 60,
    });
    expect(
      await service.sendCode({ account: '51234567', areaCode: '852', purpose: 'register' }, 'en', null),
    ).toEqual({
      cooldownSeconds: 60,
    });
    expect(sent[0]).toMatchObject({ to: EMAIL, subject: 'Halyard 验证码' });
    expect(sent[0]?.text).toMatch(/^您的 Halyard 验证码是 \d{6}，10 分钟内有效/);
    expect(sent[1]).toMatchObject({ to: '+852 51234567' });
    expect(sent[1]?.text).toMatch(/^Your Halyard verification code is \d{6}\./);
  });

  it('in demo mode, shows a code for an existing account only to its owner, signed in', async () => {
    const owner = await registerByEmail(h, EMAIL);
    const stranger = await registerByEmail(h, 'mallory@example.com');
    const ownerOnly =
      'Demo mode sends no email or SMS, so a code for an existing account is shown only to that account, signed in';
    for (const purpose of ['reset', 'fund']) {
      const url = `/user/getCode?account=${EMAIL}&purpose=${purpose}`;
      expect(await get(h, url)).toMatchObject({ code: 403, msg: ownerOnly, data: null });
      expect(await get(h, url, stranger.token)).toMatchObject({ code: 403, msg: ownerOnly, data: null });
      expect(demoCodeOf(await expectOk(get(h, url, owner.token)))).toMatch(/^\d{6}$/);
    }
  });

  it('refuses a resend within 60 seconds, then sends a new code that replaces the old one', async () => {
    const first = await requestCode(h, EMAIL, 'register');
    h.clock.advance(30_000);
    const again = await get(h, `/user/getCode?account=${EMAIL}&purpose=register`);
    expect(again).toMatchObject({ code: 400, msg: 'Please wait 30 seconds before requesting another code' });
    h.clock.advance(30_000);
    const second = await requestCode(h, EMAIL, 'register');
    // Only the newest code counts: the first is now simply wrong (unless both drew the same digits).
    if (first !== second) expect((await register(first)).msg).toMatch(/^Incorrect verification code/);
    await expectOk(register(second));
  });

  it('refuses a wrong code, counting the tries left', async () => {
    const code = await requestCode(h, EMAIL, 'register');
    expect(await register(wrong(code))).toMatchObject({
      code: 400,
      msg: 'Incorrect verification code, 4 attempts left',
    });
    // The right code still works after one wrong try.
    await expectOk(register(code));
  });

  it('closes a code after 5 wrong tries, even the right code is refused then', async () => {
    const code = await requestCode(h, EMAIL, 'register');
    for (let i = 0; i < 4; i++) expect((await register(wrong(code))).code).toBe(400);
    expect(await register(wrong(code))).toMatchObject({
      msg: 'Too many wrong attempts, please request a new code',
    });
    expect(await register(code)).toMatchObject({ msg: 'Too many wrong attempts, please request a new code' });
    expect(await get(h, '/user/userInfo')).toMatchObject({ code: 401 });
  });

  it('counts parallel wrong guesses too: never more than 5 comparisons', async () => {
    const code = await requestCode(h, EMAIL, 'register');
    const answers = await Promise.all(Array.from({ length: 10 }, () => register(wrong(code))));
    const messages = answers.map((answer) => answer.msg);
    expect(messages.filter((msg) => msg.startsWith('Incorrect verification code'))).toHaveLength(4);
    expect(messages.filter((msg) => msg.startsWith('Too many wrong attempts'))).toHaveLength(6);
    expect((await register(code)).msg).toMatch(/^Too many wrong attempts/);
  });

  it('refuses an expired code (10 minutes)', async () => {
    const code = await requestCode(h, EMAIL, 'register');
    h.clock.advance(10 * MINUTE_MS);
    expect(await register(code)).toMatchObject({
      code: 400,
      msg: 'The verification code has expired, please request a new one',
    });
  });

  it('uses a code once', async () => {
    const code = await requestCode(h, 'dave@example.com', 'bind');
    const { token } = await registerByEmail(h, EMAIL);
    await expectOk(post(h, '/user/setNewTelOrEmail', { account: 'dave@example.com', code }, token));
    const reused = await post(h, '/user/setNewTelOrEmail', { account: 'dave@example.com', code }, token);
    expect(reused.code).toBe(409);
    const again = await post(h, '/member/codeVerification', {
      account: 'dave@example.com',
      purpose: 'bind',
      code,
    });
    expect(again).toMatchObject({
      code: 400,
      msg: 'The verification code is invalid or already used, please request a new one',
    });
  });

  it('checks a code at /member/codeVerification without using it up', async () => {
    const code = await requestCode(h, EMAIL, 'register');
    await expectOk(post(h, '/member/codeVerification', { account: EMAIL, purpose: 'register', code }));
    const bad = await post(h, '/member/codeVerification', {
      account: EMAIL,
      purpose: 'register',
      code: wrong(code),
    });
    expect(bad).toMatchObject({ code: 400, msg: 'Incorrect verification code, 4 attempts left' });
    await expectOk(register(code));
  });

  it('does not accept a code sent for another purpose or account', async () => {
    const code = await requestCode(h, 'other@example.com', 'register');
    expect((await register(code)).msg).toMatch(/invalid/);
  });

  it('refuses a register code for a taken account and a reset code for an unknown one', async () => {
    await registerByEmail(h, EMAIL);
    expect(await get(h, `/user/getCode?account=${EMAIL}&purpose=register`)).toMatchObject({
      code: 409,
      msg: 'This email or phone number is already registered',
    });
    expect(await get(h, '/user/getCode?account=nobody@example.com&purpose=reset')).toMatchObject({
      code: 404,
    });
  });

  it('validates the account with the shared rules, localised', async () => {
    const badEmail = await get(h, '/user/getCode?account=not@mail&purpose=register');
    expect(badEmail.code).toBe(400);
    const badPhone = await get(h, '/user/getCode?account=12345&purpose=register', undefined, { lang: 'cn' });
    expect(badPhone.code).toBe(400);
    expect(badPhone.msg).not.toMatch(/^rules\./);
    expect((await get(h, '/user/getCode?account=a@b.com&purpose=steal')).code).toBe(400);
  });

  it('rate-limits /user/getCode per client', async () => {
    const limited = await startHarness({ rateLimits: true });
    try {
      for (let i = 0; i < 5; i++) {
        await expectOk(get(limited, `/user/getCode?account=user${i}@example.com&purpose=register`));
      }
      const sixth = await get(limited, '/user/getCode?account=user9@example.com&purpose=register');
      expect(sixth).toMatchObject({ code: 429, msg: 'Too many requests, please try again later' });
    } finally {
      await limited.close();
    }
  });

  it('outside demo mode without a channel, refuses to send and never shows a code', async () => {
    const live = await startHarness({ demo: false });
    try {
      const answer = await get(live, `/user/getCode?account=${EMAIL}&purpose=register`);
      expect(answer).toMatchObject({
        code: 503,
        msg: 'Codes cannot be sent to this kind of account: no email or SMS service is set up',
        data: null,
      });
      expect((await get(live, '/dev/outbox')).code).toBe(404);
    } finally {
      await live.close();
    }
  });
});
