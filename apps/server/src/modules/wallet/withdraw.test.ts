import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HOUR_MS, MONEY_PATHS, PASSWORD } from '../identity/test-support.ts';
import { walletStore } from './store.ts';
import {
  balanceOf,
  CHAIN,
  expectHealthyLedger,
  expectOk,
  FUND_PASSWORD,
  fund,
  get,
  type Harness,
  plainUser,
  post,
  spot,
  startWalletHarness,
  type TestUser,
  verifiedUser,
  verifyIdentity,
} from './test-support.ts';

let h: Harness;

/** A checksummed address (EIP-55) and the same address with one letter's case flipped. */
const GOOD = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BAD_CHECKSUM = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAeD';

async function saveAddress(user: TestUser, address = GOOD, coin = 'USDT') {
  return post(
    h,
    '/account/addAddress',
    { coin, chain: CHAIN, address, remark: 'my cold wallet' },
    user.token,
  );
}

function withdraw(user: TestUser, body: Record<string, unknown> = {}) {
  return post(
    h,
    '/account/sendCoinOrder',
    { coin: 'USDT', chain: CHAIN, address: GOOD, number: '100', payPassword: FUND_PASSWORD, ...body },
    user.token,
  );
}

/** The refusal's message, and proof that nothing moved: the balance is whole and no withdrawal exists. */
async function expectRefused(user: TestUser, answer: Promise<{ code: number; msg: string }>, msg: string) {
  const before = await balanceOf(h, spot(user), 'USDT');
  const refused = await answer;
  expect(refused.msg).toBe(msg);
  expect(refused.code).not.toBe(200);
  expect(await balanceOf(h, spot(user), 'USDT')).toEqual(before);
  expect((await expectOk(get(h, '/account/withdrawRecord', user.token))).data).toEqual([]);
}

// Every test on both paths: on the core the request is the state's `withdrawalRequested`.
describe.each(MONEY_PATHS)('withdrawals on $on', ({ moneyCore }) => {
  beforeEach(async () => {
    h = await startWalletHarness(null, {}, { moneyCore });
  });
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
    await h.close();
  });

  describe('the withdrawal address book', () => {
    it('saves a checksummed address with a remark, lists it per coin, refuses duplicates, deletes it', async () => {
      const user = await plainUser(h);
      const saved = await expectOk(saveAddress(user, GOOD.toLowerCase()));
      expect(saved).toMatchObject({
        msg: 'Address saved',
        data: { address: GOOD, remark: 'my cold wallet', blockname: 'BNB' },
      });
      expect((await saveAddress(user)).msg).toBe('This address is already in your address book');
      await expectOk(saveAddress(user, GOOD, 'BTC'));
      const usdt = await expectOk(get(h, '/account/addressList?coin=USDT', user.token));
      expect(usdt.data).toHaveLength(1);
      const id = (saved.data as { id: number }).id;
      const other = await plainUser(h);
      expect((await post(h, '/account/deleteAddress', { id }, other.token)).msg).toBe(
        'This address does not exist',
      );
      await expectOk(post(h, '/account/deleteAddress', { id }, user.token));
      expect((await expectOk(get(h, '/account/addressList', user.token))).data).toHaveLength(1);
    });

    it('refuses a bad checksum, a malformed address, a missing remark or address, and an unknown chain', async () => {
      const user = await plainUser(h);
      const invalid = 'This is not a valid address; please check it, including upper and lower case';
      expect((await saveAddress(user, BAD_CHECKSUM)).msg).toBe(invalid);
      expect((await saveAddress(user, '0x1234')).msg).toBe(invalid);
      expect((await saveAddress(user, '')).msg).toBe('Please enter an address');
      const noRemark = await post(
        h,
        '/account/addAddress',
        { coin: 'USDT', chain: CHAIN, address: GOOD, remark: ' ' },
        user.token,
      );
      expect(noRemark.msg).toBe('Please enter a remark');
      expect(
        (
          await post(
            h,
            '/account/addAddress',
            { coin: 'USDT', chain: 5, address: GOOD, remark: 'x' },
            user.token,
          )
        ).code,
      ).toBe(400);
      expect((await expectOk(get(h, '/account/addressList', user.token))).data).toEqual([]);
    });
  });

  describe('withdrawal refusals (spec §5 "Withdrawal", §6): each changes nothing', () => {
    it('without identity verification', async () => {
      const user = await plainUser(h);
      await fund(h, user.id, { USDT: '1000' });
      await expectRefused(user, withdraw(user), 'Please complete identity verification first');
    });

    it('without a fund password', async () => {
      const user = await plainUser(h);
      await verifyIdentity(h, user.id);
      await fund(h, user.id, { USDT: '1000' });
      await saveAddress(user);
      await expectRefused(user, withdraw(user), 'Please set a fund password first');
    });

    it('with a wrong fund password, or none entered', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      await saveAddress(user);
      await expectRefused(user, withdraw(user, { payPassword: '654321' }), 'The fund password is incorrect');
      await expectRefused(user, withdraw(user, { payPassword: '' }), 'Please enter the fund password');
    });

    it('within 24 hours of a login-password change, then allowed', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      await saveAddress(user);
      await expectOk(
        post(
          h,
          '/user/editPassword',
          { oldPassword: PASSWORD, password: 'secret456', confirmPassword: 'secret456' },
          user.token,
        ),
      );
      const refused = await withdraw(user);
      expect(refused.msg).toMatch(/24|locked/i);
      expect(refused.code).toBe(403);
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '1000', locked: '0' });
      h.clock.advance(24 * HOUR_MS + 1);
      await expectOk(withdraw(user));
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '899', locked: '101' });
    });

    it('while the funds are frozen', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      await saveAddress(user);
      await h.app.identity.service.freeze({
        userId: user.id,
        reason: 'Chargeback under investigation',
        setBy: 'ops',
        endsAt: h.clock.now() + HOUR_MS,
      });
      const refused = withdraw(user);
      const before = await balanceOf(h, spot(user), 'USDT');
      expect((await refused).msg).toContain('Chargeback under investigation');
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual(before);
    });

    it('below the minimum, above the maximum, with too many decimals', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '500000' });
      await saveAddress(user);
      await expectRefused(user, withdraw(user, { number: '9.99' }), 'The minimum is 10');
      await expectRefused(user, withdraw(user, { number: '100000.01' }), 'The maximum is 100000');
      await expectRefused(user, withdraw(user, { number: '' }), 'Please enter an amount');
      await expectRefused(
        user,
        withdraw(user, { number: '12.123456789' }),
        'At most 8 decimal places are allowed',
      );
    });

    it("above the daily maximum, counting today's withdrawals (pending included); a new UTC day starts afresh", async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '500000' });
      await saveAddress(user);
      await expectOk(withdraw(user, { number: '100000' }));
      await expectOk(withdraw(user, { number: '99990' }));
      const refused = await withdraw(user, { number: '11' });
      expect(refused.msg).toBe('The daily limit is 200000; you can withdraw 10 more today');
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '300008', locked: '199992' });
      h.clock.advance(24 * HOUR_MS);
      await expectOk(withdraw(user, { number: '11' }));
    });

    it('to an address that is not in the address book, or with a bad checksum', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      await expectRefused(user, withdraw(user), 'Please choose an address from your address book');
      await expectRefused(
        user,
        withdraw(user, { address: BAD_CHECKSUM }),
        'This is not a valid address; please check it, including upper and lower case',
      );
      await expectRefused(user, withdraw(user, { address: '' }), 'Please enter an address');
    });

    it('beyond the balance: the fee counts', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '100.5' });
      await saveAddress(user);
      await expectRefused(user, withdraw(user, { number: '100' }), 'Insufficient balance');
      await expectOk(withdraw(user, { number: '99.5' }));
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '0', locked: '100.5' });
    });

    it('for an unknown coin or a closed one', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      await saveAddress(user);
      await expectRefused(user, withdraw(user, { coin: 'DOGE' }), 'DOGE is not available on this chain');
      const usdt = (await h.app.wallet.service.coins()).find(
        (coin) => coin.coin === 'USDT' && coin.chainId === CHAIN,
      );
      if (!usdt) throw new Error('no USDT row');
      await walletStore.upsertCoins(h.store.db, [{ ...usdt, isout: false }]);
      await expectRefused(user, withdraw(user), 'Withdrawals of USDT are paused');
    });
  });

  describe('without a signer', () => {
    it('an approved withdrawal waits with its funds held', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      await saveAddress(user);
      await expectOk(withdraw(user));
      await h.app.wallet.service.sendQueued();
      const [record] = (await expectOk(get(h, '/account/withdrawRecord', user.token))).data as object[];
      expect(record).toMatchObject({ state: 'waiting', step: 'approved', txHash: null });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '899', locked: '101' });
    });
  });
});
