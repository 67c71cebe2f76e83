import { Dec } from '@halyard/money';
import { type Address, getAddress } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { systemAccount } from '../../ledger/index.ts';
import { MONEY_PATHS } from '../identity/test-support.ts';
import { operatorSession } from '../operators/test-support.ts';
import { custodyOf } from './chain-watcher.ts';
import { walletStore } from './store.ts';
import {
  ADMIN_TOKEN,
  balanceOf,
  CHAIN,
  expectHealthyLedger,
  expectOk,
  FUND_PASSWORD,
  fund,
  get,
  type Harness,
  post,
  settleWithdrawals,
  spot,
  startTestChain,
  startWalletHarness,
  type TestChain,
  type TestUser,
  verifiedUser,
} from './test-support.ts';

let chain: TestChain;
let h: Harness;

beforeAll(async () => {
  chain = await startTestChain();
}, 60_000);
afterAll(async () => {
  await chain?.close();
});
/** A fresh app per test, on SQL or on the sequenced core, with the ledger audited after each. */
function appPerTest(moneyCore: boolean): void {
  beforeEach(async () => {
    // One operator's approval releases these withdrawals: second approvals are tested in modules/approvals.
    h = await startWalletHarness(chain, { WITHDRAWAL_FOUR_EYES_ABOVE: '50000' }, { moneyCore });
  });
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
    await h.close();
    await chain.reset();
  });
}

const watcher = () => {
  const found = h.app.wallet.service.watchers.get(CHAIN);
  if (!found) throw new Error('no watcher');
  return found;
};

async function depositAddress(user: TestUser, coin = 'USDT'): Promise<Address> {
  const answer = await expectOk(get(h, `/account/getCoinAddress?coin=${coin}&chain=${CHAIN}`, user.token));
  return (answer.data as { address: Address }).address;
}

async function records(user: TestUser) {
  const answer = await expectOk(get(h, '/account/rechargeRecord', user.token));
  return answer.data as { id: string; state: string; reason: string | null; amount: string; coin: string }[];
}

async function usable(user: TestUser, coin: string): Promise<string> {
  return ((await expectOk(get(h, `/account/balance?coin=${coin}`, user.token))).data as { usable: string })
    .usable;
}

describe.each(MONEY_PATHS)('deposits on $on', ({ moneyCore }) => {
  appPerTest(moneyCore);

  describe('deposit addresses', () => {
    it('are unique per user and chain, stable, checksummed, with an EIP-681 URI and the minimum', async () => {
      const alice = await verifiedUser(h);
      const bob = await verifiedUser(h);
      const first = await expectOk(get(h, `/account/getCoinAddress?coin=USDT&chain=${CHAIN}`, alice.token));
      const again = await depositAddress(alice, 'HAL');
      const onEthereum = await expectOk(get(h, '/account/getCoinAddress?coin=USDT&chain=1', alice.token));
      const data = first.data as { address: Address; uri: string; min: string; contract: string };
      expect(again).toBe(data.address);
      expect(getAddress(data.address)).toBe(data.address);
      expect((onEthereum.data as { address: string }).address).not.toBe(data.address);
      expect(await depositAddress(bob)).not.toBe(data.address);
      expect(data).toMatchObject({
        min: '1',
        uri: `ethereum:${data.contract}@56/transfer?address=${data.address}`,
      });
      expect((await get(h, '/account/getCoinAddress?coin=USDT&chain=5', alice.token)).code).toBe(400);
      expect((await get(h, '/account/getCoinAddress?coin=DOGE&chain=56', alice.token)).msg).toBe(
        'DOGE is not available on this chain',
      );
    });
  });

  describe('deposits from the chain', () => {
    it('wait for the confirmations, then credit exactly the amount (18 and 6 decimals)', async () => {
      const user = await verifiedUser(h);
      const address = await depositAddress(user);
      await chain.send('USDT', address, '250.5');
      await chain.send('HAL', address, '12.345678');
      expect(await watcher().poll()).toMatchObject({ found: 2, credited: 0 });
      expect((await records(user)).map((record) => record.state)).toEqual(['waiting', 'waiting']);
      await chain.mine(1);
      expect(await watcher().poll()).toMatchObject({ credited: 1 });
      expect(await usable(user, 'HAL')).toBe('0');
      expect(await usable(user, 'USDT')).toBe('250.5');
      await chain.mine(1);
      expect(await watcher().poll()).toMatchObject({ credited: 1 });
      expect(await usable(user, 'HAL')).toBe('12.345678');
      expect((await records(user)).map((record) => record.state)).toEqual(['completed', 'completed']);
      expect(await balanceOf(h, custodyOf(CHAIN), 'USDT')).toEqual({ available: '-250.5', locked: '0' });
    });

    it('ignore transfers to addresses that are not deposit addresses, and reject ones below the minimum', async () => {
      const user = await verifiedUser(h);
      const address = await depositAddress(user);
      await chain.send('USDT', privateKeyToAddress(generatePrivateKey()), '500');
      await chain.send('USDT', address, '0.5');
      await chain.mine(3);
      expect(await watcher().poll()).toMatchObject({ found: 1, credited: 0, rejected: 1 });
      expect(await records(user)).toMatchObject([
        { state: 'rejected', reason: 'belowMinimum', amount: '0.5' },
      ]);
      expect(await usable(user, 'USDT')).toBe('0');
    });

    it('credit once when the same range is read again (duplicate-log replay)', async () => {
      const user = await verifiedUser(h);
      await chain.send('USDT', await depositAddress(user), '40');
      await chain.mine(3);
      await watcher().poll();
      await watcher().rewind(0);
      await watcher().poll();
      await watcher().rewind(0);
      await Promise.all([watcher().poll(), watcher().poll()]);
      expect(await usable(user, 'USDT')).toBe('40');
      const entries = await h.app.ledger.transfers({ ...spot(user), asset: 'USDT' });
      expect(entries.items.map((entry) => entry.code)).toEqual(['deposit']);
      expect(await records(user)).toHaveLength(1);
    });

    it('reverse a credited deposit that a reorg removed, and credit nothing twice after', async () => {
      const user = await verifiedUser(h);
      const address = await depositAddress(user);
      const before = await chain.snapshot();
      await chain.send('USDT', address, '75');
      await chain.mine(3);
      expect(await watcher().poll()).toMatchObject({ credited: 1 });
      expect(await usable(user, 'USDT')).toBe('75');

      await chain.revert(before);
      await chain.mine(6);
      expect(await watcher().poll()).toMatchObject({ reversed: 1, credited: 0 });
      expect(await usable(user, 'USDT')).toBe('0');
      expect(await records(user)).toMatchObject([{ state: 'rejected', reason: 'reorg' }]);
      expect(await balanceOf(h, custodyOf(CHAIN), 'USDT')).toEqual({ available: '0', locked: '0' });
      expect(await watcher().poll()).toMatchObject({ reversed: 0, credited: 0 });
      const codes = (await h.app.ledger.transfers({ ...spot(user), asset: 'USDT' })).items.map(
        (entry) => entry.code,
      );
      expect(codes).toEqual(['deposit_reversal', 'deposit']);
    });

    it('reject a waiting deposit whose block a reorg removed', async () => {
      const user = await verifiedUser(h);
      const before = await chain.snapshot();
      await chain.send('USDT', await depositAddress(user), '30');
      expect(await watcher().poll()).toMatchObject({ found: 1 });
      await chain.revert(before);
      await chain.mine(4);
      expect(await watcher().poll()).toMatchObject({ rejected: 1, credited: 0 });
      expect(await records(user)).toMatchObject([{ state: 'rejected', reason: 'reorg' }]);
      expect(await usable(user, 'USDT')).toBe('0');
    });

    it('find a deposit that a reorg put into a block height already read', async () => {
      const user = await verifiedUser(h);
      const address = await depositAddress(user);
      const before = await chain.snapshot();
      await chain.mine(1);
      expect(await watcher().poll()).toMatchObject({ found: 0 });
      await chain.revert(before);
      await chain.send('USDT', address, '33');
      expect(await watcher().poll()).toMatchObject({ found: 1 });
      await chain.mine(2);
      await watcher().poll();
      expect(await usable(user, 'USDT')).toBe('33');
    });

    it('freeze the user when a reorged deposit was already moved away, and reverse once the funds are back', async () => {
      const user = await verifiedUser(h);
      const before = await chain.snapshot();
      await chain.send('USDT', await depositAddress(user), '60');
      await chain.mine(3);
      await watcher().poll();
      await expectOk(
        post(
          h,
          '/account/contractTransfer',
          { coin: 'USDT', number: '60', from: 'spot', to: 'futures' },
          user.token,
        ),
      );
      await chain.revert(before);
      await chain.mine(6);
      expect(await watcher().poll()).toMatchObject({ reversed: 0 });
      await expect(h.app.identity.service.assertNotFrozen(user.id)).rejects.toMatchObject({
        key: 'common.frozen',
      });
      expect(await records(user)).toMatchObject([{ state: 'completed', reason: 'reorgUnpaid' }]);

      // The operator moves the funds back (the user is frozen): the next poll takes the deposit back.
      await h.app.ledger.execute([
        {
          id: 'ops-return',
          code: 'transfer',
          debit: { owner: user.id, wallet: 'futures' },
          credit: spot(user),
          asset: 'USDT',
          amount: Dec.parse('60'),
        },
      ]);
      expect(await watcher().poll()).toMatchObject({ reversed: 1 });
      expect(await records(user)).toMatchObject([{ state: 'rejected', reason: 'reorg' }]);
      expect(await usable(user, 'USDT')).toBe('0');
    });
  });

  describe('a chain that outlived its database', () => {
    it('does not pay its old transfers to a new user who gets the same derived address', async () => {
      const first = await verifiedUser(h);
      const address = await depositAddress(first);
      await chain.send('USDT', address, '90');
      await chain.mine(3);
      const wiped = await startWalletHarness(chain, {}, { moneyCore });
      try {
        const newcomer = await verifiedUser(wiped);
        const answer = await expectOk(
          get(wiped, `/account/getCoinAddress?coin=USDT&chain=${CHAIN}`, newcomer.token),
        );
        expect((answer.data as { address: string }).address).toBe(address);
        await wiped.app.wallet.service.watchers.get(CHAIN)?.poll();
        expect(await balanceOf(wiped, spot(newcomer), 'USDT')).toEqual({ available: '0', locked: '0' });
        await chain.send('USDT', address, '15');
        await chain.mine(3);
        await wiped.app.wallet.service.watchers.get(CHAIN)?.poll();
        expect(await balanceOf(wiped, spot(newcomer), 'USDT')).toEqual({ available: '15', locked: '0' });
      } finally {
        await expectHealthyLedger(wiped.store.db);
        await wiped.close();
      }
    });
  });

  describe('demo deposit', () => {
    it('sends play tokens on chain to the deposit address; the watcher credits them like any deposit', async () => {
      const user = await verifiedUser(h);
      const answer = await expectOk(
        post(h, '/account/demoDeposit', { coin: 'USDT', chain: CHAIN, number: '1000' }, user.token),
      );
      expect(answer.data).toMatchObject({ address: await depositAddress(user), amount: '1000' });
      await chain.mine(3);
      await watcher().poll();
      expect(await usable(user, 'USDT')).toBe('1000');
    });
  });
});

describe.each(MONEY_PATHS)('withdrawals on chain on $on', ({ moneyCore }) => {
  appPerTest(moneyCore);
  async function withdraw(user: TestUser, to: Address, number: string, coin = 'USDT') {
    await expectOk(
      post(h, '/account/addAddress', { coin, chain: CHAIN, address: to, remark: 'cold' }, user.token),
    );
    return post(
      h,
      '/account/sendCoinOrder',
      { coin, chain: CHAIN, address: to, number, payPassword: FUND_PASSWORD },
      user.token,
    );
  }

  it('hold amount + fee, send the ERC-20 transfer, land on chain, then post the hold and the fee', async () => {
    const user = await verifiedUser(h);
    await chain.send('USDT', await depositAddress(user), '500');
    await chain.mine(3);
    await watcher().poll();
    const destination = privateKeyToAddress(generatePrivateKey());

    const answer = await expectOk(withdraw(user, destination, '120'));
    expect(answer.data).toMatchObject({ state: 'waiting', step: 'approved', amount: '120', fee: '1' });
    expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '379', locked: '121' });

    await settleWithdrawals(h, chain);
    expect((await chain.tokenBalance('USDT', destination)).toString()).toBe('120');
    const [record] = (await expectOk(get(h, '/account/withdrawRecord', user.token))).data as {
      state: string;
      txHash: string;
    }[];
    expect(record).toMatchObject({ state: 'completed' });
    expect(record?.txHash).toMatch(/^0x[0-9a-f]{64}$/);
    expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '379', locked: '0' });
    expect(await balanceOf(h, systemAccount('fees'), 'USDT')).toEqual({ available: '1', locked: '0' });
    // Custody mirrors the chain: 500 came in, 120 went out.
    expect(await balanceOf(h, custodyOf(CHAIN), 'USDT')).toEqual({ available: '-380', locked: '0' });
  });

  it('above the threshold wait for an operator: approve sends, reject releases; both audited', async () => {
    const user = await verifiedUser(h);
    await fund(h, user.id, { USDT: '50000' });
    const destination = privateKeyToAddress(generatePrivateKey());
    const big = await expectOk(withdraw(user, destination, '20000'));
    const other = await expectOk(
      post(
        h,
        '/account/sendCoinOrder',
        { coin: 'USDT', chain: CHAIN, address: destination, number: '15000', payPassword: FUND_PASSWORD },
        user.token,
      ),
    );
    expect(big.data).toMatchObject({ state: 'waiting', step: 'review' });
    await h.app.wallet.service.sendQueued();
    expect((await chain.tokenBalance('USDT', destination)).toString()).toBe('0');

    const admin = { 'admin-token': ADMIN_TOKEN };
    const queue = await expectOk(get(h, '/admin/wallet/withdrawals?state=review', undefined, admin));
    expect((queue.data as unknown[]).length).toBe(2);
    const bigId = (big.data as { id: number }).id;
    const otherId = (other.data as { id: number }).id;
    // The queue says whose each withdrawal is.
    expect(queue.data).toContainEqual(
      expect.objectContaining({ id: bigId, userId: user.id, step: 'review' }),
    );
    expect((await post(h, `/admin/wallet/withdrawals/${bigId}/approve`, {})).code).toBe(403);
    await expectOk(post(h, `/admin/wallet/withdrawals/${bigId}/approve`, {}, undefined, admin));
    await expectOk(
      post(h, `/admin/wallet/withdrawals/${otherId}/reject`, { reason: 'Unusual pattern' }, undefined, admin),
    );
    expect((await post(h, `/admin/wallet/withdrawals/${otherId}/approve`, {}, undefined, admin)).code).toBe(
      409,
    );
    await settleWithdrawals(h, chain);
    expect((await chain.tokenBalance('USDT', destination)).toString()).toBe('20000');
    expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '29999', locked: '0' });
    const audit = await expectOk(get(h, '/admin/wallet/audit', undefined, admin));
    expect(audit.data).toMatchObject([
      {
        operator: 'bootstrap',
        action: 'withdrawal.reject',
        withdrawalId: otherId,
        details: { reason: 'Unusual pattern' },
      },
      // The acting operator is the session's (here the bootstrap token's).
      { operator: 'bootstrap', action: 'withdrawal.approve', withdrawalId: bigId },
    ]);
    const history = (await expectOk(get(h, '/account/withdrawRecord', user.token))).data as {
      state: string;
    }[];
    expect(history.map((entry) => entry.state)).toEqual(['rejected', 'completed']);
  });

  it('audits a rejection as the signed-in operator, whatever name the body gives', async () => {
    const user = await verifiedUser(h);
    await fund(h, user.id, { USDT: '50000' });
    const id = (
      (await expectOk(withdraw(user, privateKeyToAddress(generatePrivateKey()), '20000'))).data as {
        id: number;
      }
    ).id;
    const finance = await operatorSession(h.app, 'finance', h.clock);
    const body = { operator: 'someone-else', reason: 'Unusual pattern' };
    await expectOk(
      post(h, `/admin/wallet/withdrawals/${id}/reject`, body, undefined, await finance.withTotp()),
    );
    expect(await walletStore.withdrawal(h.store.db, id)).toMatchObject({ decided_by: finance.email });
    expect(await h.app.wallet.service.operatorActions(1)).toMatchObject([
      { operator: finance.email, action: 'withdrawal.reject', withdrawalId: id },
    ]);
  });

  describe('an operator hold (issue 18)', () => {
    async function heldSetup() {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '50000' });
      const destination = privateKeyToAddress(generatePrivateKey());
      const answer = await expectOk(withdraw(user, destination, '20000'));
      const id = (answer.data as { id: number }).id;
      const finance = await operatorSession(h.app, 'finance', h.clock);
      const act = async (action: string, body: object = {}) =>
        post(h, `/admin/wallet/withdrawals/${id}/${action}`, body, undefined, {
          ...(await finance.withTotp()),
          lang: 'en',
        });
      await expectOk(act('hold', { reason: 'Source of funds unclear' }));
      return { user, destination, id, finance, act };
    }

    async function queueRow(id: number) {
      const finance = await operatorSession(h.app, 'auditor', h.clock);
      const queue = await expectOk(
        get(h, '/admin/wallet/withdrawals?state=review', undefined, finance.headers),
      );
      return (queue.data as { id: number; hold: unknown }[]).find((row) => row.id === id);
    }

    it('keeps it in review with its funds held, refuses approval until released, then approves', async () => {
      const { user, destination, id, finance, act } = await heldSetup();
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '29999', locked: '20001' });
      expect(await queueRow(id)).toMatchObject({
        step: 'review',
        hold: { reason: 'Source of funds unclear', by: finance.email, at: h.clock.now() },
      });
      // Its owner sees it waiting, and nothing of the hold.
      const [record] = (await expectOk(get(h, '/account/withdrawRecord', user.token))).data as object[];
      expect(record).toMatchObject({ state: 'waiting', step: 'review', reason: null });
      expect(record).not.toHaveProperty('hold');

      const refused = await act('approve');
      expect(refused).toMatchObject({
        code: 409,
        msg: 'This withdrawal is on hold (Source of funds unclear); release the hold before approving it',
      });
      expect((await act('hold', { reason: 'again' })).code).toBe(409);
      expect((await act('release-hold', { reason: ' ' })).code).toBe(400);
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '29999', locked: '20001' });

      await expectOk(act('release-hold', { reason: 'Documents received' }));
      expect(await queueRow(id)).toMatchObject({ hold: null });
      expect((await act('release-hold', { reason: 'again' })).code).toBe(409);
      await expectOk(act('approve'));
      await settleWithdrawals(h, chain);
      expect((await chain.tokenBalance('USDT', destination)).toString()).toBe('20000');
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '29999', locked: '0' });
      expect(await h.app.wallet.service.operatorActions(3)).toMatchObject([
        { operator: finance.email, action: 'withdrawal.approve', withdrawalId: id },
        {
          operator: finance.email,
          action: 'withdrawal.releaseHold',
          withdrawalId: id,
          details: { reason: 'Documents received' },
        },
        {
          operator: finance.email,
          action: 'withdrawal.hold',
          withdrawalId: id,
          details: { reason: 'Source of funds unclear' },
        },
      ]);
    });

    it('can still be rejected: the held funds go back to the user', async () => {
      const { user, id, finance, act } = await heldSetup();
      await expectOk(act('reject', { reason: 'Unusual pattern' }));
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '50000', locked: '0' });
      const [record] = (await expectOk(get(h, '/account/withdrawRecord', user.token))).data as object[];
      expect(record).toMatchObject({ state: 'rejected', reason: 'Unusual pattern' });
      expect((await act('release-hold', { reason: 'late' })).code).toBe(409);
      expect(await h.app.wallet.service.operatorActions(1)).toMatchObject([
        { operator: finance.email, action: 'withdrawal.reject', withdrawalId: id },
      ]);
    });

    it('is refused to a role without withdrawals.review, and changes nothing', async () => {
      const { id } = await heldSetup();
      const support = await operatorSession(h.app, 'support', h.clock);
      const headers = await support.withTotp();
      const answer = await post(
        h,
        `/admin/wallet/withdrawals/${id}/release-hold`,
        { reason: 'x' },
        undefined,
        headers,
      );
      expect(answer.code).toBe(403);
      expect(await queueRow(id)).toMatchObject({ hold: { reason: 'Source of funds unclear' } });
    });
  });

  it('a send the chain refuses is rejected and the hold released', async () => {
    const user = await verifiedUser(h);
    const hal = chain.coin('HAL');
    // More than the hot wallet holds: the transfer would revert, so it is never sent.
    await walletStore.upsertCoins(h.store.db, [
      {
        ...hal,
        withdrawMax: Dec.parse('10000000000'),
        withdrawDailyMax: Dec.parse('10000000000'),
        approvalThreshold: Dec.parse('10000000000'),
      },
    ]);
    await fund(h, user.id, { HAL: '3000000000' });
    await expectOk(withdraw(user, privateKeyToAddress(generatePrivateKey()), '2000000000', 'HAL'));
    await h.app.wallet.service.sendQueued();
    const [record] = (await expectOk(get(h, '/account/withdrawRecord', user.token))).data as {
      state: string;
      reason: string;
    }[];
    expect(record).toMatchObject({ state: 'rejected', reason: 'sendFailed' });
    expect(await balanceOf(h, spot(user), 'HAL')).toEqual({ available: '3000000000', locked: '0' });
  });
});
