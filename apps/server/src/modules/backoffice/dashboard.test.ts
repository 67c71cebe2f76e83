import { Dec } from '@halyard/money';
import type { AdminDepositPage, BooksCheck, Dashboard, FiatOrder } from '@halyard/protocol';
import type { Address } from 'viem';
import { generatePrivateKey, privateKeyToAddress } from 'viem/accounts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { userAccount } from '../../ledger/index.ts';
import { TINY_PNG, uniqueIdNumber } from '../identity/test-support.ts';
import { operatorSession } from '../operators/test-support.ts';
import {
  CHAIN,
  expectHealthyLedger,
  expectOk,
  FUND_PASSWORD,
  get,
  type Harness,
  plainUser,
  post,
  settleWithdrawals,
  startTestChain,
  startWalletHarness,
  type TestChain,
  type TestUser,
  verifiedUser,
} from '../wallet/test-support.ts';

const DAY_MS = 86_400_000;

let chain: TestChain;
let h: Harness;
let finance: Record<string, string>;
let content: Record<string, string>;

/**
 * One seeded day, every figure below counted by hand from it: a user who
 * registered yesterday, then today a depositor (20,000 USDT from the chain)
 * who withdraws 100 (fee 1; sent and mined), asks to withdraw 12,000 (above
 * the 10,000 review threshold) and rests a 0.5 BTC buy at 1,000, a buyer whose
 * fiat order is under appeal, and a user whose identity submission waits for
 * review.
 */
let depositor: TestUser;
let hotAddress: Address;

beforeAll(async () => {
  chain = await startTestChain();
  h = await startWalletHarness(chain);
  await plainUser(h);
  h.clock.advance(DAY_MS);
  // Signed in after the day passed: an operator session ends when idle.
  finance = (await operatorSession(h.app, 'finance', h.clock)).headers;
  content = (await operatorSession(h.app, 'content', h.clock)).headers;

  depositor = await verifiedUser(h);
  const { address } = await h.app.wallet.service.depositAddress(depositor.id, 'USDT', CHAIN);
  await chain.send('USDT', address, '20000');
  await chain.mine(3);
  await h.app.wallet.service.pollAll();
  const outside = privateKeyToAddress(generatePrivateKey());
  const saved = await expectOk(
    post(
      h,
      '/account/addAddress',
      { coin: 'USDT', chain: CHAIN, address: outside, remark: 'cold' },
      depositor.token,
    ),
  );
  const withdraw = (number: string) =>
    expectOk(
      post(
        h,
        '/account/sendCoinOrder',
        {
          coin: 'USDT',
          chain: CHAIN,
          address: (saved.data as { address: string }).address,
          number,
          payPassword: FUND_PASSWORD,
        },
        depositor.token,
      ),
    );
  await withdraw('100');
  await settleWithdrawals(h, chain);
  await withdraw('12000');
  await h.app.spot.service.placeForUser(depositor.id, {
    tradcoin: 'BTC',
    maincoin: 'USDT',
    side: 'buy',
    style: 'limit',
    price: '1000',
    number: '0.5',
  });

  const buyer = await verifiedUser(h);
  const order = (
    await expectOk(
      post(
        h,
        '/fiat/addFiatPayOrder',
        { coin: 'USDT', fiat: 'CNY', amount: '725', payType: 'bank' },
        buyer.token,
      ),
    )
  ).data as FiatOrder;
  const screenshot = await h.app.identity.service.saveUpload(buyer.id, TINY_PNG);
  await expectOk(post(h, '/fiat/addFiatPayOrderImg', { id: order.id, img: screenshot.url }, buyer.token));
  await expectOk(
    post(
      h,
      '/fiat/appealFiatOrder',
      { id: order.id, kind: 'paidNotReleased', reason: 'Paid at 10:02' },
      buyer.token,
    ),
  );

  const applicant = await plainUser(h);
  const photo = await h.app.identity.service.saveUpload(applicant.id, TINY_PNG);
  await h.app.identity.service.submitKyc(applicant.id, {
    name: 'Wang Wu',
    idNumber: uniqueIdNumber(),
    photoUrl: photo.url,
  });
  hotAddress = h.app.wallet.service.hotAddress() ?? ('' as Address);
  // The watchers' last poll sees the blocks the withdrawal was mined in.
  await h.app.wallet.service.pollAll();
}, 120_000);

afterAll(async () => {
  await expectHealthyLedger(h.store.db);
  await h?.close();
  await chain?.close();
});

async function dashboard(headers = finance): Promise<Dashboard> {
  return (await expectOk(get(h, '/admin/dashboard', undefined, headers))).data as Dashboard;
}

describe('the dashboard', () => {
  it('counts the seeded day', async () => {
    const today = await dashboard();
    expect(today.dayStart).toBe(Math.floor(h.clock.now() / DAY_MS) * DAY_MS);
    expect(today.users).toEqual({ total: 4, newToday: 3 });
    expect(today.depositsToday).toEqual({ count: 1, byCoin: [{ coin: 'USDT', count: 1, amount: '20000' }] });
    expect(today.withdrawalsToday).toEqual({
      count: 2,
      byCoin: [{ coin: 'USDT', count: 2, amount: '12100' }],
    });
    expect(today.withdrawals).toEqual({ review: 1, flagged: 0 });
    expect(today.openAppeals).toBe(1);
    expect(today.kycQueue).toBe(1);
  });

  it('shows the ledger audit, the hot wallet against what users are owed, and withdrawals against the chain', async () => {
    const { books } = await dashboard();
    expect(books.ledger).toMatchObject({ ok: true, breaches: [], checkedAt: h.clock.now() });
    const usdt = books.solvency.find((entry) => entry.coin === 'USDT');
    const hot = (await chain.tokenBalance('USDT', hotAddress)).toString();
    // Users hold the depositor's 20,000 less the 101 withdrawn with its fee (12,001 and 500 of
    // the rest held); the buyer's coin is still in escrow. Custody: 20,000 in, 100 out on chain.
    expect(usdt).toEqual({
      coin: 'USDT',
      liabilities: '19899',
      custody: '19900',
      hot: [
        { chainId: 1, chain: 'ETH', address: hotAddress, balance: null, unavailable: 'noNode' },
        { chainId: 56, chain: 'BNB', address: hotAddress, balance: hot, unavailable: null },
      ],
      hotTotal: hot,
      hotCoverage: Dec.parse(hot).sub(Dec.parse('19899')).toString(),
    });
    expect(books.withdrawals).toEqual([
      {
        chainId: 56,
        chain: 'BNB',
        unavailable: null,
        coins: [
          {
            coin: 'USDT',
            withdrawals: 1,
            completed: '100',
            transactions: 1,
            onChain: '100',
            missing: 0,
            ok: true,
          },
        ],
      },
      { chainId: 1, chain: 'ETH', unavailable: 'noNode', coins: [] },
    ]);
  });

  it('keeps the books check until it is run again', async () => {
    const first = (await dashboard()).books.ledger.checkedAt;
    h.clock.advance(60_000);
    expect((await dashboard()).books.ledger.checkedAt).toBe(first);
    const rerun = (await expectOk(post(h, '/admin/dashboard/audit', {}, undefined, finance)))
      .data as BooksCheck;
    expect(rerun.ledger.checkedAt).toBe(h.clock.now());
    expect((await dashboard()).books.ledger.checkedAt).toBe(h.clock.now());
  });

  it('reports a broken ledger in words, and healthy again once mended', async () => {
    const account = userAccount(depositor.id, 'spot');
    const row = await h.store.db
      .selectFrom('ledger_accounts')
      .select(['id', 'credits_posted'])
      .where('owner', '=', String(account.owner))
      .where('wallet', '=', account.wallet)
      .where('asset', '=', 'USDT')
      .executeTakeFirstOrThrow();
    const tamper = (credits: string) =>
      h.store.db
        .updateTable('ledger_accounts')
        .set({ credits_posted: credits })
        .where('id', '=', row.id)
        .execute();
    await tamper('20001');
    try {
      const broken = (await expectOk(post(h, '/admin/dashboard/audit', {}, undefined, finance)))
        .data as BooksCheck;
      expect(broken.ledger.ok).toBe(false);
      expect(broken.ledger.breaches).toContainEqual({
        rule: 'account-totals',
        detail: expect.stringContaining('creditsPosted is 20001 but its transfers add up to 20000'),
      });
      expect((await dashboard()).books.ledger.ok).toBe(false);
    } finally {
      await tamper(row.credits_posted);
    }
    const mended = (await expectOk(post(h, '/admin/dashboard/audit', {}, undefined, finance)))
      .data as BooksCheck;
    expect(mended.ledger).toMatchObject({ ok: true, breaches: [] });
  });

  it("shows each chain watcher's height and lag, and the engines' queues", async () => {
    const { chains, engines } = await dashboard();
    const polled = h.app.wallet.service.watchers.get(CHAIN)?.lastPoll;
    expect(chains).toEqual([
      {
        chainId: 56,
        chain: 'BNB',
        connected: true,
        head: polled?.head,
        polledAt: polled?.at,
        nextBlock: (polled?.head ?? 0) + 1,
        lagBlocks: 0,
      },
      {
        chainId: 1,
        chain: 'ETH',
        connected: false,
        head: null,
        polledAt: null,
        nextBlock: null,
        lagBlocks: null,
      },
    ]);
    await chain.mine(2);
    await h.app.wallet.service.pollAll();
    expect((await dashboard()).chains[0]).toMatchObject({ head: (polled?.head ?? 0) + 2, lagBlocks: 0 });

    expect(engines.spot.find((pair) => pair.pair === 'BTC/USDT')).toEqual({
      pair: 'BTC/USDT',
      queued: 0,
      openOrders: 1,
    });
    expect(engines.spot.every((pair) => pair.queued === 0)).toBe(true);
    expect(engines.futures).toEqual({ queued: 0, openOrders: 0, openPositions: 0, triggers: 0 });
    expect(engines.cycle).toEqual({ openOrders: 0, full: false });
    expect(engines.ledger).toEqual({ queued: 0 });
  });

  it('is refused to a role without dashboard.read', async () => {
    expect((await get(h, '/admin/dashboard', undefined, content)).code).toBe(403);
    expect((await post(h, '/admin/dashboard/audit', {}, undefined, content)).code).toBe(403);
  });
});

describe('the deposits list', () => {
  it('lists deposits newest first, by coin and state', async () => {
    const all = (await expectOk(get(h, '/admin/deposits', undefined, finance))).data as AdminDepositPage;
    expect(all).toMatchObject({ total: 1, page: 1, limit: 20 });
    expect(all.items).toMatchObject([
      { userId: depositor.id, coin: 'USDT', chainId: 56, chain: 'BNB', amount: '20000', state: 'completed' },
    ]);
    const byState = (await expectOk(get(h, '/admin/deposits?coin=USDT&status=waiting', undefined, finance)))
      .data as AdminDepositPage;
    expect(byState).toMatchObject({ items: [], total: 0 });
    expect((await get(h, '/admin/deposits?status=lost', undefined, finance)).code).toBe(400);
    expect((await get(h, '/admin/deposits', undefined, content)).code).toBe(403);
  });
});
