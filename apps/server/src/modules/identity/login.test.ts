import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  expectOk,
  get,
  type Harness,
  HOUR_MS,
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

const EMAIL = 'erin@example.com';

function login(password: string, account = EMAIL) {
  return post(h, '/member/login', { account, password });
}

describe('register', () => {
  it('refuses a weak password, mismatched passwords and unagreed terms, creating nothing', async () => {
    const code = await requestCode(h, EMAIL, 'register');
    const base = { account: EMAIL, code, agreed: true };
    const weak = await post(h, '/member/register', {
      ...base,
      password: 'abcdef',
      confirmPassword: 'abcdef',
    });
    expect(weak.code).toBe(400);
    const mismatch = await post(h, '/member/register', {
      ...base,
      password: PASSWORD,
      confirmPassword: 'secret124',
    });
    expect(mismatch.code).toBe(400);
    const terms = await post(h, '/member/register', {
      ...base,
      agreed: false,
      password: PASSWORD,
      confirmPassword: PASSWORD,
    });
    expect(terms.code).toBe(400);
    // None of those used the code up.
    await expectOk(post(h, '/member/register', { ...base, password: PASSWORD, confirmPassword: PASSWORD }));
  });

  it('refuses a duplicate email', async () => {
    await registerByEmail(h, EMAIL);
    const code = await requestCode(h, 'x@example.com', 'register');
    const duplicate = await post(h, '/member/register', {
      account: EMAIL.toUpperCase(),
      code,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      agreed: true,
    });
    expect(duplicate).toMatchObject({ code: 409, msg: 'This email or phone number is already registered' });
  });

  it('registers by phone with an area code and logs in with it', async () => {
    const code = await requestCode(h, '13700001111', 'register');
    const registered = await expectOk(
      post(h, '/member/register', {
        account: '13700001111',
        areaCode: '86',
        code,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        agreed: true,
      }),
    );
    expect(registered.data).toMatchObject({ member: { phone: '137****1111', email: null } });
    await expectOk(post(h, '/member/login', { account: '13700001111', areaCode: '86', password: PASSWORD }));
  });

  it('refuses an unknown invitation code', async () => {
    const code = await requestCode(h, EMAIL, 'register');
    const answer = await post(h, '/member/register', {
      account: EMAIL,
      code,
      password: PASSWORD,
      confirmPassword: PASSWORD,
      agreed: true,
      invitationCode: 'NOPE2345',
    });
    expect(answer).toMatchObject({ code: 400, msg: 'The invitation code does not exist' });
  });
});

describe('login', () => {
  it('refuses a wrong password and an unknown account alike', async () => {
    await registerByEmail(h, EMAIL);
    expect(await login('wrongpass1')).toMatchObject({ code: 400, msg: 'Incorrect account or password' });
    expect(await login(PASSWORD, 'ghost@example.com')).toMatchObject({
      code: 400,
      msg: 'Incorrect account or password',
    });
  });

  it('locks an account for 15 minutes after 5 failures within 15 minutes', async () => {
    await registerByEmail(h, EMAIL);
    for (let i = 0; i < 5; i++) {
      expect((await login('wrongpass1')).msg).toBe('Incorrect account or password');
      h.clock.advance(MINUTE_MS);
    }
    // Even the right password is refused while locked; the message names the minutes left.
    expect(await login(PASSWORD)).toMatchObject({
      code: 403,
      msg: 'Too many failed attempts. Please try again in 14 minutes',
    });
    expect((await login(PASSWORD, EMAIL)).code).toBe(403);
    h.clock.advance(14 * MINUTE_MS);
    await expectOk(login(PASSWORD));
  });

  it('counts parallel guesses: at most 5 passwords are tried', async () => {
    await registerByEmail(h, EMAIL);
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => login(`wrongpass${i}`)));
    expect(answers.filter((answer) => answer.code === 400)).toHaveLength(5);
    expect(answers.filter((answer) => answer.code === 403)).toHaveLength(5);
    expect((await login(PASSWORD)).code).toBe(403);
  });

  it('forgets failures older than 15 minutes', async () => {
    await registerByEmail(h, EMAIL);
    for (let i = 0; i < 4; i++) await login('wrongpass1');
    h.clock.advance(15 * MINUTE_MS);
    expect((await login('wrongpass1')).code).toBe(400);
    await expectOk(login(PASSWORD));
  });
});

describe('password change and reset', () => {
  it('refuses a wrong old password and keeps the password', async () => {
    const { token } = await registerByEmail(h, EMAIL);
    const answer = await post(
      h,
      '/user/editPassword',
      { oldPassword: 'wrongpass1', password: 'newpass456', confirmPassword: 'newpass456' },
      token,
    );
    expect(answer).toMatchObject({ code: 400, msg: 'The current password is incorrect' });
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({ lockedUntil: null });
    await expectOk(login(PASSWORD));
  });

  it('locks the password change after 5 wrong old passwords', async () => {
    const { token } = await registerByEmail(h, EMAIL);
    const change = (oldPassword: string) =>
      post(
        h,
        '/user/editPassword',
        { oldPassword, password: 'newpass456', confirmPassword: 'newpass456' },
        token,
      );
    for (let i = 0; i < 5; i++) expect((await change('wrongpass1')).code).toBe(400);
    expect(await change(PASSWORD)).toMatchObject({
      code: 403,
      msg: 'Too many failed attempts. Please try again in 15 minutes',
    });
    h.clock.advance(15 * MINUTE_MS);
    await expectOk(change(PASSWORD));
  });

  it('revokes the other sessions on a password change and keeps this one', async () => {
    const { token: current } = await registerByEmail(h, EMAIL);
    const other = ((await expectOk(login(PASSWORD))).data as { token: string }).token;
    await expectOk(
      post(
        h,
        '/user/editPassword',
        { oldPassword: PASSWORD, password: 'newpass456', confirmPassword: 'newpass456' },
        current,
      ),
    );
    await expectOk(get(h, '/user/userInfo', current));
    expect(await get(h, '/user/userInfo', other)).toMatchObject({ code: 401 });
    expect((await login(PASSWORD)).code).toBe(400);
  });

  it('resets a forgotten password by email: new password, every session ended, 24 h lock', async () => {
    const { token, member } = await registerByEmail(h, EMAIL);
    // Demo mode shows a reset code only to the account's owner, signed in.
    const code = await requestCode(h, EMAIL, 'reset', { token });
    await expectOk(
      post(h, '/member/forgetByEmail', {
        email: EMAIL,
        code,
        password: 'reset789x',
        confirmPassword: 'reset789x',
      }),
    );
    expect(await get(h, '/user/userInfo', token)).toMatchObject({ code: 401 });
    const fresh = ((await expectOk(login('reset789x'))).data as { token: string }).token;
    expect((await get(h, '/user/userInfo', fresh)).data).toMatchObject({
      lockedUntil: h.clock.now() + 24 * HOUR_MS,
    });
    await expect(h.app.identity.service.assertNotLocked(member.id)).rejects.toMatchObject({ code: 403 });
  });

  it('resets by phone at /member/forgetByTel and refuses a wrong code there', async () => {
    const code = await requestCode(h, '13600002222', 'register');
    const registered = await expectOk(
      post(h, '/member/register', {
        account: '13600002222',
        code,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        agreed: true,
      }),
    );
    const { token } = registered.data as { token: string };
    const resetCode = await requestCode(h, '13600002222', 'reset', { token });
    const body = {
      phone: '13600002222',
      areaCode: '86',
      password: 'reset789x',
      confirmPassword: 'reset789x',
    };
    const bad = await post(h, '/member/forgetByTel', {
      ...body,
      code: resetCode === '000000' ? '111111' : '000000',
    });
    expect(bad.code).toBe(400);
    await expectOk(post(h, '/member/forgetByTel', { ...body, code: resetCode }));
    await expectOk(post(h, '/member/login', { account: '13600002222', password: 'reset789x' }));
  });
});

describe('fund password', () => {
  it('needs a code sent to the bound email to change it', async () => {
    const { token, member } = await registerByEmail(h, EMAIL);
    await expectOk(
      post(h, '/user/updatePassword', { payPassword: '111111', confirmPayPassword: '111111' }, token),
    );
    const noCode = await post(
      h,
      '/user/updatePassword',
      { payPassword: '222222', confirmPayPassword: '222222' },
      token,
    );
    expect(noCode).toMatchObject({ code: 400, msg: 'Please enter the verification code' });
    const code = await requestCode(h, EMAIL, 'fund', { token });
    await expectOk(
      post(h, '/user/updatePassword', { payPassword: '222222', confirmPayPassword: '222222', code }, token),
    );
    await expect(h.app.identity.service.assertFundPassword(member.id, '222222')).resolves.toBeUndefined();
  });

  it('refuses a fund password that is not 6 digits or does not match', async () => {
    const { token } = await registerByEmail(h, EMAIL);
    expect(
      (await post(h, '/user/updatePassword', { payPassword: '12345a', confirmPayPassword: '12345a' }, token))
        .code,
    ).toBe(400);
    expect(
      (await post(h, '/user/updatePassword', { payPassword: '123456', confirmPayPassword: '123457' }, token))
        .code,
    ).toBe(400);
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({ hasFundPassword: false });
  });

  it('refuses a missing fund password and locks after 5 wrong ones', async () => {
    const { token, member } = await registerByEmail(h, EMAIL);
    const service = h.app.identity.service;
    await expect(service.assertFundPassword(member.id, '123456')).rejects.toMatchObject({
      key: 'identity.fundPasswordMissing',
    });
    await expectOk(
      post(h, '/user/updatePassword', { payPassword: '123456', confirmPayPassword: '123456' }, token),
    );
    for (let i = 0; i < 5; i++) {
      await expect(service.assertFundPassword(member.id, '000000')).rejects.toMatchObject({
        key: 'identity.fundPasswordWrong',
      });
    }
    await expect(service.assertFundPassword(member.id, '123456')).rejects.toMatchObject({
      key: 'identity.tooManyAttempts',
    });
  });

  it('counts only failures: parallel right fund passwords never lock, parallel wrong ones stop at 5', async () => {
    const { token, member } = await registerByEmail(h, EMAIL);
    const service = h.app.identity.service;
    await expectOk(
      post(h, '/user/updatePassword', { payPassword: '123456', confirmPayPassword: '123456' }, token),
    );
    const outcome = (password: string) =>
      service.assertFundPassword(member.id, password).then(
        () => 'ok',
        (error: { key?: string }) => error.key,
      );
    const right = await Promise.all(Array.from({ length: 12 }, () => outcome('123456')));
    expect(right).toEqual(Array(12).fill('ok'));
    // Each call reads the user first, so they reach the guard in any order: count the answers.
    const wrong = (await Promise.all(Array.from({ length: 8 }, () => outcome('000000')))).sort();
    expect(wrong).toEqual([
      ...Array(5).fill('identity.fundPasswordWrong'),
      ...Array(3).fill('identity.tooManyAttempts'),
    ]);
  });
});
