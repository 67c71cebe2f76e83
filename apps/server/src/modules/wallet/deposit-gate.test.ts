import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, MONEY_PATHS, requestCode } from '../identity/test-support.ts';
import {
  CHAIN,
  expectOk,
  FUND_PASSWORD,
  get,
  plainUser,
  post,
  startWalletHarness,
  verifyIdentity,
} from './test-support.ts';

let h: Harness;

const address = (token: string, lang = 'en') =>
  get(h, `/account/getCoinAddress?coin=USDT&chain=${CHAIN}`, token, { lang });

describe.each(MONEY_PATHS)('the deposit address (spec §5 "Deposit", §6) on $on', ({ moneyCore }) => {
  beforeAll(async () => {
    h = await startWalletHarness(null, {}, { moneyCore });
  });
  afterAll(async () => {
    await h.close();
  });

  it('needs identity verification, a fund password and a bound email, in that order', async () => {
    // A phone user: no email bound.
    const code = await requestCode(h, '13800138000', 'register');
    const registered = await expectOk(
      post(h, '/member/register', {
        account: '13800138000',
        code,
        password: 'secret123',
        confirmPassword: 'secret123',
        agreed: true,
      }),
    );
    const { token, member } = registered.data as { token: string; member: { id: number } };

    expect(await address(token)).toMatchObject({
      code: 403,
      msg: 'Please complete identity verification first',
      data: null,
    });
    expect((await address(token, 'cn')).msg).toBe('请先完成身份认证');
    await verifyIdentity(h, member.id);
    expect(await address(token)).toMatchObject({ code: 403, msg: 'Please set a fund password first' });
    await expectOk(
      post(
        h,
        '/user/updatePassword',
        { payPassword: FUND_PASSWORD, confirmPayPassword: FUND_PASSWORD },
        token,
      ),
    );
    expect(await address(token)).toMatchObject({ code: 403, msg: 'Please bind an email address first' });
    const bind = await requestCode(h, 'depositor@example.com', 'bind');
    await expectOk(
      post(h, '/user/setNewTelOrEmail', { account: 'depositor@example.com', code: bind }, token),
    );
    const answer = await expectOk(address(token));
    expect((answer.data as { address: string }).address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  });

  it('the demo chain faucet is refused the same way: it would credit the user', async () => {
    const user = await plainUser(h);
    const answer = await post(
      h,
      '/account/demoDeposit',
      { coin: 'USDT', chain: CHAIN, number: '10' },
      user.token,
    );
    expect(answer).toMatchObject({ code: 403, msg: 'Please complete identity verification first' });
  });
});
