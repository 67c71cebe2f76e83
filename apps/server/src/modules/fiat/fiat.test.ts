import type {
  FiatAd,
  FiatAdAdmin,
  FiatMerchantAdmin,
  FiatOffer,
  FiatOrder,
  FiatStanding,
} from '@halyard/protocol';
import { translate } from '@halyard/protocol';
import { fiatFloatingPrice } from '@halyard/rules';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { systemAccount, userAccount } from '../../ledger/index.ts';
import { MONEY_PATHS, restartApp, TINY_PNG } from '../identity/test-support.ts';
import { operatorSession } from '../operators/test-support.ts';
import {
  ADMIN_TOKEN,
  balanceOf,
  expectHealthyLedger,
  expectOk,
  get,
  type Harness,
  plainUser,
  post,
  startWalletHarness,
  type TestUser,
  verifiedUser,
} from '../wallet/test-support.ts';
import { DEMO_MERCHANT_DELAY_MS } from './index.ts';

const MINUTE = 60_000;
const admin = { 'admin-token': ADMIN_TOKEN };
const en = (key: string, params: Record<string, string | number> = {}) => translate('en', key, params);

let h: Harness;

const fiatWallet = (user: TestUser) => userAccount(user.id, 'fiat');

function buy(user: TestUser, amount: string, extra: object = {}) {
  return post(
    h,
    '/fiat/addFiatPayOrder',
    { coin: 'USDT', fiat: 'CNY', amount, payType: 'bank', ...extra },
    user.token,
  );
}

async function bought(user: TestUser, amount = '725'): Promise<FiatOrder> {
  return (await expectOk(buy(user, amount))).data as FiatOrder;
}

async function screenshot(user: TestUser): Promise<string> {
  return (await h.app.identity.service.saveUpload(user.id, TINY_PNG)).url;
}

async function markPaid(user: TestUser, id: number) {
  return post(h, '/fiat/addFiatPayOrderImg', { id, img: await screenshot(user) }, user.token);
}

async function orderOf(user: TestUser, id: number): Promise<FiatOrder> {
  return (await expectOk(get(h, `/fiat/fiatOrderById?id=${id}`, user.token))).data as FiatOrder;
}

async function standing(user: TestUser): Promise<FiatStanding> {
  return (await expectOk(get(h, '/fiat/myBans', user.token))).data as FiatStanding;
}

/** Moves the clock and runs the scheduler once, as the module's timer does every second. */
async function after(ms: number): Promise<void> {
  h.clock.advance(ms);
  await h.app.fiat.service.tick();
}

/** A KYC-verified user with USDT in the fiat (c2c) wallet, for sell orders. */
async function seller(usdt = '1000'): Promise<TestUser> {
  const user = await verifiedUser(h);
  await h.app.ledger.execute([
    {
      id: `test-fiat-fund:${user.id}`,
      code: 'test_funding',
      debit: systemAccount('treasury'),
      credit: fiatWallet(user),
      asset: 'USDT',
      amount: (await import('@halyard/money')).Dec.parse(usdt),
    },
  ]);
  return user;
}

const BANK_CNY = { payeeName: 'Li Si', cardNumber: '6222020000001111', bank: 'ICBC' };

describe.each(MONEY_PATHS)('fiat on $on', ({ moneyCore }) => {
  beforeAll(async () => {
    h = await startWalletHarness(null, {}, { moneyCore });
  });
  afterAll(async () => {
    await h.close();
  });
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
  });

  describe('offers', () => {
    it('lists the demo merchant coins and its best prices with the single-order limits', async () => {
      const coins = (await expectOk(get(h, '/fiat/fiatCoin'))).data;
      expect(coins).toEqual(
        expect.arrayContaining([
          { coin: 'USDT', fiats: ['CNY', 'USD'] },
          { coin: 'BTC', fiats: ['EUR'] },
        ]),
      );
      const offers = (await expectOk(get(h, '/fiat/payCoinList?coin=USDT&side=buy'))).data;
      expect(offers).toEqual(
        expect.arrayContaining([
          {
            coin: 'USDT',
            fiat: 'CNY',
            side: 'buy',
            price: '7.25',
            floating: true,
            min: '100',
            max: '50000',
            methods: ['bank'],
          },
        ]),
      );
    });
  });

  describe('buying from the demo merchant', () => {
    it('escrows the coin, takes the screenshot, and the DEMO merchant releases a few seconds after "paid"', async () => {
      const user = await verifiedUser(h);
      const houseBefore = await balanceOf(h, systemAccount('fiat_house'), 'USDT');
      const order = await bought(user, '725');
      expect(order).toMatchObject({ state: 'to_pay', number: '100', price: '7.25', role: 'buyer' });
      expect(order.merchant).toEqual({ name: 'Halyard DEMO merchant', demo: true });
      expect(order.payerName).toBe('Li Si');
      expect(order.payee).toMatchObject({ payeeName: 'Halyard Demo Ltd', bank: 'Demo Bank of China' });
      expect(order.expiresAt - order.createdAt).toBe(20 * MINUTE);
      // The order's escrow is taken from the ad's hold: the house's locked total stays, the order holds 100.
      const houseLocked = await balanceOf(h, systemAccount('fiat_house'), 'USDT');
      expect(houseLocked.locked).toBe(houseBefore.locked);
      const escrow = await h.app.ledger.hold(`fiat:${order.id}:escrow`);
      expect({ state: escrow?.state, remaining: escrow?.remaining.toString() }).toEqual({
        state: 'open',
        remaining: '100',
      });

      const paid = await expectOk(markPaid(user, order.id));
      expect(paid.msg).toBe(en('fiat.markedPaid'));
      expect((paid.data as FiatOrder).state).toBe('paid');
      const image = await h.app.http.inject({
        url: `/fiat/payImg?id=${order.id}`,
        headers: { token: user.token },
      });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toMatch(/^image\//);

      await after(DEMO_MERCHANT_DELAY_MS - 1);
      expect((await orderOf(user, order.id)).state).toBe('paid');
      await after(1);
      const done = await orderOf(user, order.id);
      expect(done.state).toBe('completed');
      expect(done.events.map((event) => `${event.state}:${event.by}`)).toEqual([
        'to_pay:buyer',
        'paid:buyer',
        'completed:seller',
      ]);
      expect(await balanceOf(h, fiatWallet(user), 'USDT')).toEqual({ available: '100', locked: '0' });
      const list = (await expectOk(get(h, '/fiat/fiatOrderList', user.token))).data as FiatOrder[];
      expect(list[0]?.id).toBe(order.id);
    });

    it('answers a retried order with the same clientOid with the first order, placing one', async () => {
      const user = await verifiedUser(h);
      const [first, retry] = await Promise.all([
        expectOk(buy(user, '725', { clientOid: 'fiat-retry-1' })),
        expectOk(buy(user, '725', { clientOid: 'fiat-retry-1' })),
      ]);
      expect((retry.data as FiatOrder).id).toBe((first.data as FiatOrder).id);
      const list = (await expectOk(get(h, '/fiat/fiatOrderList', user.token))).data as FiatOrder[];
      expect(list).toHaveLength(1);
      await expectOk(post(h, '/fiat/cancelFiatOrder', { id: list[0]!.id }, user.token));
    });

    it('refuses amounts out of the limits, unknown pairs, users without KYC, a second open order', async () => {
      const user = await verifiedUser(h);
      expect((await buy(user, '99.99')).msg).toBe(en('rules.belowMinimum', { min: '100' }));
      expect((await buy(user, '50000.01')).msg).toBe(en('rules.aboveMaximum', { max: '50000' }));
      expect((await buy(user, '100.001')).msg).toBe(en('rules.tooManyDecimals', { digits: 2 }));
      expect((await buy(user, '200', { fiat: 'JPY' })).msg).toBe(
        en('fiat.pairUnavailable', { coin: 'USDT', fiat: 'JPY' }),
      );
      expect((await buy(user, '200', { payType: 'wechat' })).msg).toBe(
        en('fiat.pairUnavailable', { coin: 'USDT', fiat: 'CNY' }),
      );
      const noKyc = await plainUser(h);
      expect((await buy(noKyc, '200')).msg).toBe(en('identity.kycRequired'));
      const order = await bought(user);
      expect((await buy(user, '200')).msg).toBe(en('fiat.openOrderExists'));
      await expectOk(post(h, '/fiat/cancelFiatOrder', { id: order.id }, user.token));
    });

    it('lets only the right party act, in the right state, and refuses a missing or foreign screenshot', async () => {
      const user = await verifiedUser(h);
      const stranger = await verifiedUser(h);
      const order = await bought(user);
      expect((await get(h, `/fiat/fiatOrderById?id=${order.id}`, stranger.token)).msg).toBe(
        en('fiat.orderNotFound'),
      );
      expect((await markPaid(stranger, order.id)).msg).toBe(en('fiat.orderNotFound'));
      const released = await post(h, '/fiat/releaseFiatOrder', { id: order.id }, user.token);
      expect(released.msg).toBe(en('fiat.wrongParty'));
      expect((await post(h, '/fiat/addFiatPayOrderImg', { id: order.id }, user.token)).msg).toBe(
        en('fiat.screenshotRequired'),
      );
      const foreign = await screenshot(stranger);
      expect(
        (await post(h, '/fiat/addFiatPayOrderImg', { id: order.id, img: foreign }, user.token)).msg,
      ).toBe(en('fiat.screenshotRequired'));
      const appealTooEarly = await post(
        h,
        '/fiat/appealFiatOrder',
        { id: order.id, kind: 'paidNotReleased', reason: 'x' },
        user.token,
      );
      expect(appealTooEarly.msg).toBe(en('fiat.wrongState'));
      await expectOk(markPaid(user, order.id));
      expect((await markPaid(user, order.id)).msg).toBe(en('fiat.wrongState'));
      // A buyer cannot take the coin back after saying it paid.
      expect((await post(h, '/fiat/cancelFiatOrder', { id: order.id }, user.token)).msg).toBe(
        en('fiat.wrongState'),
      );
      expect((await orderOf(user, order.id)).state).toBe('paid');
      await after(DEMO_MERCHANT_DELAY_MS);
    });
  });

  describe('expiry and bans (AMENDMENTS A6)', () => {
    it('cancels an unpaid order when the window ends, returns the escrow and bans on the ladder', async () => {
      const user = await verifiedUser(h);
      const before = await balanceOf(h, systemAccount('fiat_house'), 'USDT');
      const order = await bought(user);
      await after(20 * MINUTE - 1);
      expect((await orderOf(user, order.id)).state).toBe('to_pay');
      h.clock.advance(1);
      expect((await markPaid(user, order.id)).msg).toBe(en('fiat.expired', { minutes: 20 }));
      await h.app.fiat.service.tick();
      const expired = await orderOf(user, order.id);
      expect(expired.state).toBe('cancelled');
      expect(expired.events.at(-1)).toMatchObject({
        state: 'cancelled',
        by: 'system',
        reason: 'payment window expired',
      });
      expect(await balanceOf(h, systemAccount('fiat_house'), 'USDT')).toEqual(before);

      const first = await standing(user);
      const now = h.clock.now();
      expect(first.ban).toEqual({
        rule: 'unpaid',
        reason: en('fiat.banReasonUnpaid', { id: order.id, minutes: 20 }),
        startsAt: now,
        endsAt: now + 15 * MINUTE,
      });
      expect(first.ladderMinutes).toEqual([15, 30, 60, 240]);
      const refused = await buy(user, '725');
      expect(refused.code).toBe(403);
      expect(refused.msg).toContain(en('fiat.banReasonUnpaid', { id: order.id, minutes: 20 }));

      await after(15 * MINUTE);
      const second = await bought(user);
      await after(20 * MINUTE);
      expect((await orderOf(user, second.id)).state).toBe('cancelled');
      const next = await standing(user);
      expect(next.ban!.endsAt - next.ban!.startsAt).toBe(30 * MINUTE);
      expect(next.bansToday).toBe(2);
    });

    it('bans the third cancellation within a day', async () => {
      const user = await verifiedUser(h);
      for (let n = 1; n <= 3; n += 1) {
        const order = await bought(user);
        await expectOk(post(h, '/fiat/cancelFiatOrder', { id: order.id }, user.token));
      }
      const view = await standing(user);
      expect(view.cancelsToday).toBe(3);
      expect(view.ban).toMatchObject({ rule: 'cancels', reason: en('fiat.banReasonCancels', { count: 3 }) });
      expect((await buy(user, '725')).code).toBe(403);
      await after(15 * MINUTE);
    });

    it('refuses fiat orders for 24 h after a password change (spec §6)', async () => {
      const user = await verifiedUser(h);
      await h.store.db
        .updateTable('users')
        .set({ locked_until: h.clock.now() + 86_400_000 })
        .where('id', '=', user.id)
        .execute();
      const refused = await buy(user, '725');
      expect(refused.code).toBe(403);
      expect((await standing(user)).lockedUntil).toBe(h.clock.now() + 86_400_000);
    });
  });

  describe('selling to the demo merchant', () => {
    it('checks the per-method payee fields and the IBAN', async () => {
      const user = await seller();
      const sell = (body: object) =>
        post(
          h,
          '/fiat/sellFiatOrder',
          { coin: 'USDT', fiat: 'CNY', amount: '715', payType: 'bank', ...body },
          user.token,
        );
      expect((await sell({})).msg).toBe(en('fiat.payeeNameRequired'));
      expect((await sell({ payeeName: 'Li Si' })).msg).toBe(en('fiat.cardNumberRequired'));
      expect((await sell({ payeeName: 'Li Si', cardNumber: '6222020000001111' })).msg).toBe(
        en('fiat.bankRequired'),
      );
      expect((await sell({ payType: 'wechat', payeeName: 'Li Si' })).msg).toBe(
        en('fiat.wechatAccountRequired'),
      );
      const eur = { coin: 'BTC', fiat: 'EUR', amount: '100', payeeName: 'Li Si', bank: 'N26' };
      // Only an account in the seller's verified name is paid (no third-party accounts).
      expect((await sell({ ...BANK_CNY, payeeName: 'Zhang San' })).msg).toBe(
        en('fiat.payeeNameNotVerified', { name: 'Li Si' }),
      );
      expect((await sell(eur)).msg).toBe(en('fiat.ibanRequired'));
      expect((await sell({ ...eur, iban: 'DE89 3704 0044 0532 0130 01' })).msg).toBe(en('fiat.ibanInvalid'));
      expect(await balanceOf(h, fiatWallet(user), 'USDT')).toEqual({ available: '1000', locked: '0' });
    });

    it('escrows the user coin; the DEMO merchant pays; 20 parallel releases deliver it once', async () => {
      const user = await seller('1000');
      const order = (
        await expectOk(
          post(
            h,
            '/fiat/sellFiatOrder',
            { coin: 'USDT', fiat: 'CNY', amount: '715', payType: 'bank', ...BANK_CNY },
            user.token,
          ),
        )
      ).data as FiatOrder;
      expect(order).toMatchObject({ side: 'sell', role: 'seller', number: '100', payee: BANK_CNY });
      expect(await balanceOf(h, fiatWallet(user), 'USDT')).toEqual({ available: '900', locked: '100' });
      expect((await post(h, '/fiat/releaseFiatOrder', { id: order.id }, user.token)).msg).toBe(
        en('fiat.wrongState'),
      );
      expect((await post(h, '/fiat/cancelFiatOrder', { id: order.id }, user.token)).msg).toBe(
        en('fiat.wrongParty'),
      );
      await after(DEMO_MERCHANT_DELAY_MS);
      expect((await orderOf(user, order.id)).state).toBe('paid');
      const houseBefore = await balanceOf(h, systemAccount('fiat_house'), 'USDT');

      const answers = await Promise.all(
        Array.from({ length: 20 }, () => post(h, '/fiat/releaseFiatOrder', { id: order.id }, user.token)),
      );
      expect(answers.filter((answer) => answer.code === 200)).toHaveLength(1);
      expect(answers.filter((answer) => answer.msg === en('fiat.wrongState'))).toHaveLength(19);
      expect(await balanceOf(h, fiatWallet(user), 'USDT')).toEqual({ available: '900', locked: '0' });
      const houseAfter = await balanceOf(h, systemAccount('fiat_house'), 'USDT');
      expect(Number(houseAfter.available) - Number(houseBefore.available)).toBe(100);
    });
  });

  describe('appeals', () => {
    async function appealed(): Promise<{ user: TestUser; order: FiatOrder }> {
      const user = await verifiedUser(h);
      const order = await bought(user);
      await expectOk(markPaid(user, order.id));
      const answer = await expectOk(
        post(
          h,
          '/fiat/appealFiatOrder',
          { id: order.id, kind: 'paidNotReleased', reason: 'Paid but not released' },
          user.token,
        ),
      );
      expect(answer.data as FiatOrder).toMatchObject({ state: 'appeal', appealKind: 'paidNotReleased' });
      return { user, order };
    }

    it("takes only a kind the party may file, and shows that kind's evidence checklist to support in its language", async () => {
      const user = await verifiedUser(h);
      const order = await bought(user);
      await expectOk(markPaid(user, order.id));
      const appeal = (kind: string) =>
        post(h, '/fiat/appealFiatOrder', { id: order.id, kind, reason: 'Paid at 10:02' }, user.token);
      // A seller's kinds, an unknown one and a prototype member are refused, and change nothing.
      for (const kind of ['wrongAmount', 'lost', '__proto__', 'toString']) {
        expect((await appeal(kind)).msg).toBe(en('fiat.appealKindInvalid'));
      }
      expect((await orderOf(user, order.id)).state).toBe('paid');
      await expectOk(appeal('paidNotReleased'));

      type Queue = { id: number; appealKind: string; evidence: { item: string; text: string }[] }[];
      const queue = (await expectOk(get(h, '/admin/fiat/appeals', undefined, admin))).data as Queue;
      expect(queue.find((entry) => entry.id === order.id)).toMatchObject({
        appealKind: 'paidNotReleased',
        evidence: [
          { item: 'paymentScreenshot', text: 'Screenshot of the payment' },
          { item: 'payerAccountName', text: 'Name on the account that paid' },
          { item: 'paymentTime', text: 'Date and time of the payment' },
          { item: 'transactionReference', text: "The bank's transaction reference" },
        ],
      });
      const inChinese = (await expectOk(get(h, '/admin/fiat/appeals', undefined, { ...admin, lang: 'cn' })))
        .data as Queue;
      expect(inChinese.find((entry) => entry.id === order.id)?.evidence[0]?.text).toBe('付款截图');
      await expectOk(
        post(
          h,
          '/admin/fiat/resolve',
          { id: order.id, decision: 'release', reason: 'Statement shows the payment' },
          undefined,
          admin,
        ),
      );
    });

    it('keeps the escrow frozen (the demo merchant does not release) until an operator releases, audited', async () => {
      const { user, order } = await appealed();
      await after(DEMO_MERCHANT_DELAY_MS * 2);
      expect((await orderOf(user, order.id)).state).toBe('appeal');
      expect(await balanceOf(h, fiatWallet(user), 'USDT')).toEqual({ available: '0', locked: '0' });
      const queue = (await expectOk(get(h, '/admin/fiat/appeals', undefined, admin))).data as {
        id: number;
      }[];
      expect(queue.map((entry) => entry.id)).toContain(order.id);
      expect(
        (
          await post(h, '/admin/fiat/resolve', {
            id: order.id,
            decision: 'release',
            reason: 'x',
          })
        ).code,
      ).toBe(403);
      const resolve = {
        id: order.id,
        decision: 'release',
        reason: 'Bank statement shows the payment',
      };
      await expectOk(post(h, '/admin/fiat/resolve', resolve, undefined, admin));
      expect((await post(h, '/admin/fiat/resolve', resolve, undefined, admin)).msg).toBe(
        en('fiat.wrongState'),
      );
      expect(await balanceOf(h, fiatWallet(user), 'USDT')).toEqual({ available: '100', locked: '0' });
      const done = await orderOf(user, order.id);
      expect(done.events.at(-1)).toMatchObject({
        state: 'completed',
        by: 'operator:bootstrap',
        reason: resolve.reason,
      });
      const audit = await h.app.identity.service.auditLog(user.id, 10);
      expect(audit[0]).toMatchObject({
        operator: 'bootstrap',
        action: 'fiat.release',
        details: { orderId: order.id, reason: resolve.reason },
      });
    });

    it('may be filed in the last 5 minutes of an unpaid window, and then the order does not expire', async () => {
      const user = await verifiedUser(h);
      const order = await bought(user);
      const appeal = () =>
        post(
          h,
          '/fiat/appealFiatOrder',
          { id: order.id, kind: 'paidNotReleased', reason: 'Paid, forgot the screenshot' },
          user.token,
        );
      await after(15 * MINUTE - 1);
      expect((await appeal()).msg).toBe(en('fiat.wrongState'));
      h.clock.advance(1);
      await expectOk(appeal());
      await after(10 * MINUTE);
      expect((await orderOf(user, order.id)).state).toBe('appeal');
      expect((await standing(user)).ban).toBeNull();
      await expectOk(
        post(
          h,
          '/admin/fiat/resolve',
          { id: order.id, decision: 'release', reason: 'Payment found' },
          undefined,
          admin,
        ),
      );
      expect(await balanceOf(h, fiatWallet(user), 'USDT')).toEqual({ available: '100', locked: '0' });
    });

    it('refunds the seller on an operator refund', async () => {
      const { user, order } = await appealed();
      const before = await balanceOf(h, systemAccount('fiat_house'), 'USDT');
      await expectOk(
        post(
          h,
          '/admin/fiat/resolve',
          { id: order.id, decision: 'refund', reason: 'No payment arrived' },
          undefined,
          admin,
        ),
      );
      // The refund goes back to the live ad's hold: the house's locked total stays, the order's hold is void.
      const afterRefund = await balanceOf(h, systemAccount('fiat_house'), 'USDT');
      expect(afterRefund).toEqual(before);
      expect((await h.app.ledger.hold(`fiat:${order.id}:escrow`))?.state).toBe('voided');
      expect((await orderOf(user, order.id)).state).toBe('cancelled');
      expect(await balanceOf(h, fiatWallet(user), 'USDT')).toEqual({ available: '0', locked: '0' });
    });

    it('audits the chat, the ruling and a merchant decision as the signed-in operator, whatever name the body gives', async () => {
      const support = await operatorSession(h.app, 'support', h.clock);
      const compliance = await operatorSession(h.app, 'compliance', h.clock);
      const someoneElse = { operator: 'someone-else' };
      const { user, order } = await appealed();
      const chat = { ...someoneElse, id: order.id, text: 'Please send the statement' };
      await expectOk(post(h, '/admin/fiat/chat', chat, undefined, support.headers));
      const ruling = { ...someoneElse, id: order.id, decision: 'release', reason: 'Statement checked' };
      await expectOk(post(h, '/admin/fiat/resolve', ruling, undefined, await support.withTotp()));
      expect((await orderOf(user, order.id)).events.at(-1)).toMatchObject({
        by: `operator:${support.email}`,
      });
      const merchant = await seller();
      await expectOk(post(h, '/fiat/applyMerchant', {}, merchant.token));
      const decision = { ...someoneElse, userId: merchant.id, approve: false, reason: 'Not now' };
      await expectOk(post(h, '/admin/fiat/merchants/decide', decision, undefined, compliance.headers));

      const entries = await h.store.db
        .selectFrom('operator_audit_log')
        .select(['action', 'operator', 'operator_id'])
        .where('status', 'is', null)
        .where('user_id', 'in', [user.id, merchant.id])
        .where('action', 'like', 'fiat.%')
        .orderBy('id')
        .execute();
      expect(entries.map((entry) => ({ ...entry, operator_id: Number(entry.operator_id) }))).toEqual([
        { action: 'fiat.chat', operator: support.email, operator_id: support.id },
        { action: 'fiat.release', operator: support.email, operator_id: support.id },
        { action: 'fiat.merchant.reject', operator: compliance.email, operator_id: compliance.id },
      ]);
    });
  });

  describe('merchants by operator approval', () => {
    it('applies with the deposit, is approved (deposit held, audited), publishes the best ad, is matched and releases', async () => {
      const merchant = await seller('1000');
      expect((await post(h, '/fiat/publishAd', {}, merchant.token)).code).toBe(400);
      const applied = await expectOk(post(h, '/fiat/applyMerchant', {}, merchant.token));
      expect(applied.data).toMatchObject({ state: 'review', name: 'Li Si' });
      expect((await post(h, '/fiat/applyMerchant', {}, merchant.token)).msg).toBe(en('fiat.merchantExists'));
      const poor = await verifiedUser(h);
      expect((await post(h, '/fiat/applyMerchant', {}, poor.token)).msg).toBe(
        en('fiat.depositMissing', { coin: 'USDT', amount: '500' }),
      );
      const ad = {
        side: 'buy',
        coin: 'USDT',
        fiat: 'CNY',
        price: '7.2',
        min: '100',
        max: '1000',
        available: '200',
        payType: 'bank',
        ...BANK_CNY,
      };
      expect((await post(h, '/fiat/publishAd', ad, merchant.token)).msg).toBe(en('fiat.notMerchant'));
      const decide = {
        userId: merchant.id,
        approve: true,
        reason: 'KYC and deposit checked',
      };
      await expectOk(post(h, '/admin/fiat/merchants/decide', decide, undefined, admin));
      expect((await post(h, '/admin/fiat/merchants/decide', decide, undefined, admin)).msg).toBe(
        en('fiat.wrongState'),
      );
      expect(await balanceOf(h, fiatWallet(merchant), 'USDT')).toEqual({ available: '500', locked: '500' });
      expect((await h.app.identity.service.auditLog(merchant.id, 1))[0]).toMatchObject({
        action: 'fiat.merchant.approve',
      });

      expect((await post(h, '/fiat/publishAd', { ...ad, min: '2000' }, merchant.token)).msg).toBe(
        en('fiat.limitsInverted'),
      );
      expect((await post(h, '/fiat/publishAd', { ...ad, payeeName: 'Zhang San' }, merchant.token)).msg).toBe(
        en('fiat.payeeNameNotVerified', { name: 'Li Si' }),
      );
      await expectOk(post(h, '/fiat/publishAd', ad, merchant.token));
      // The ad's 200 USDT are held while it is live.
      expect(await balanceOf(h, fiatWallet(merchant), 'USDT')).toEqual({ available: '300', locked: '700' });

      // The merchant's 7.2 beats the house's 7.25: the buyer is matched to it and pays the merchant.
      const buyer = await verifiedUser(h);
      const order = await bought(buyer, '720');
      expect(order).toMatchObject({ price: '7.2', number: '100', merchant: { name: 'Li Si', demo: false } });
      // The order took its 100 from the ad's hold: nothing more is locked.
      expect(await balanceOf(h, fiatWallet(merchant), 'USDT')).toEqual({ available: '300', locked: '700' });
      const view = (await expectOk(get(h, '/fiat/myMerchant', merchant.token))).data as {
        ads: { available: string }[];
        orders: FiatOrder[];
      };
      expect(view.ads[0]?.available).toBe('100');
      expect(view.orders[0]).toMatchObject({ id: order.id, role: 'seller', state: 'to_pay' });
      expect((await post(h, '/fiat/releaseFiatOrder', { id: order.id }, merchant.token)).msg).toBe(
        en('fiat.wrongState'),
      );
      expect((await post(h, '/fiat/cancelFiatOrder', { id: order.id }, merchant.token)).msg).toBe(
        en('fiat.wrongParty'),
      );
      await expectOk(markPaid(buyer, order.id));
      const image = await h.app.http.inject({
        url: `/fiat/payImg?id=${order.id}`,
        headers: { token: merchant.token },
      });
      expect(image.statusCode).toBe(200);
      await expectOk(post(h, '/fiat/releaseFiatOrder', { id: order.id }, merchant.token));
      expect(await balanceOf(h, fiatWallet(buyer), 'USDT')).toEqual({ available: '100', locked: '0' });
      expect(await balanceOf(h, fiatWallet(merchant), 'USDT')).toEqual({ available: '300', locked: '600' });

      // The coin a live ad offers cannot leave the merchant's wallet: the ledger refuses it.
      await expect(
        h.app.ledger.execute([
          {
            id: `test-fiat-drain:${merchant.id}`,
            code: 'test_funding',
            debit: fiatWallet(merchant),
            credit: systemAccount('treasury'),
            asset: 'USDT',
            amount: (await import('@halyard/money')).Dec.parse('350'),
          },
        ]),
      ).rejects.toMatchObject({ key: 'ledger.insufficientBalance' });

      // Away: the ad goes offline and the house takes the next order.
      const adId = (
        (await expectOk(get(h, '/fiat/myMerchant', merchant.token))).data as { ads: { id: number }[] }
      ).ads[0]!.id;
      await expectOk(post(h, '/fiat/adOnline', { id: adId, online: false }, merchant.token));
      // Offline, the ad's hold is released to the merchant.
      expect(await balanceOf(h, fiatWallet(merchant), 'USDT')).toEqual({ available: '400', locked: '500' });
      const next = await bought(await verifiedUser(h), '725');
      expect(next.merchant.demo).toBe(true);
      await expectOk(post(h, '/fiat/adOnline', { id: adId, online: false }, merchant.token));
    });
  });

  /** An approved merchant (its 500 USDT deposit held) with a live USDT/CNY sell ad at `price`; answers the ad's id. */
  async function merchantWithAd(usdt: string, price: string, available: string) {
    const merchant = await seller(usdt);
    await expectOk(post(h, '/fiat/applyMerchant', {}, merchant.token));
    await expectOk(
      post(
        h,
        '/admin/fiat/merchants/decide',
        { userId: merchant.id, approve: true, reason: 'checked' },
        undefined,
        admin,
      ),
    );
    const ad = { side: 'buy', coin: 'USDT', fiat: 'CNY', price, min: '100', max: '100000', available };
    await expectOk(post(h, '/fiat/publishAd', { ...ad, payType: 'bank', ...BANK_CNY }, merchant.token));
    const view = (await expectOk(get(h, '/fiat/myMerchant', merchant.token))).data as {
      ads: { id: number; available: string }[];
    };
    return { merchant, adId: view.ads[0]!.id };
  }

  async function adAvailable(merchant: TestUser): Promise<string> {
    const view = (await expectOk(get(h, '/fiat/myMerchant', merchant.token))).data as {
      ads: { available: string }[];
    };
    return view.ads[0]!.available;
  }

  describe("an ad's own payment window, terms and payment methods (issue 16 item 1)", () => {
    it('a 45-minute ad: its order expires and bans by 45 minutes; terms and the chosen method travel with the order', async () => {
      const { merchant } = await merchantWithAd('1000', '9', '1');
      await expectOk(
        post(
          h,
          '/fiat/adOnline',
          { id: (await merchantAds(merchant))[0]!.id, online: false },
          merchant.token,
        ),
      );
      const wechat = {
        payeeName: 'Li Si',
        wechatAccount: 'lisi-pay',
        wechatCode: await screenshot(merchant),
      };
      const ad = {
        side: 'buy',
        coin: 'USDT',
        fiat: 'CNY',
        price: '7.1',
        min: '100',
        max: '1000',
        available: '300',
        methods: [
          { payType: 'bank', ...BANK_CNY },
          { payType: 'wechat', ...wechat },
        ],
        payWindowMinutes: 45,
        terms: '<b>No third-party payments.</b> Reference: order number.',
      };
      for (const minutes of [9, 61]) {
        expect(
          (await post(h, '/fiat/publishAd', { ...ad, payWindowMinutes: minutes }, merchant.token)).msg,
        ).toBe(en('fiat.payWindowInvalid', { min: 10, max: 60 }));
      }
      expect((await post(h, '/fiat/publishAd', { ...ad, terms: 'x'.repeat(501) }, merchant.token)).msg).toBe(
        en('fiat.adTermsTooLong', { max: 500 }),
      );
      expect((await post(h, '/fiat/publishAd', { ...ad, methods: [] }, merchant.token)).msg).toBe(
        en('fiat.adMethodRequired'),
      );
      const twice = [ad.methods[0], ad.methods[0]];
      expect((await post(h, '/fiat/publishAd', { ...ad, methods: twice }, merchant.token)).msg).toBe(
        en('fiat.adMethodRepeated'),
      );
      const noCode = [ad.methods[0], { ...ad.methods[1], wechatCode: '' }];
      expect((await post(h, '/fiat/publishAd', { ...ad, methods: noCode }, merchant.token)).msg).toBe(
        en('fiat.wechatCodeRequired'),
      );
      const foreign = [ad.methods[0], { ...ad.methods[1], payeeName: 'Zhang San' }];
      expect((await post(h, '/fiat/publishAd', { ...ad, methods: foreign }, merchant.token)).msg).toBe(
        en('fiat.payeeNameNotVerified', { name: 'Li Si' }),
      );
      await expectOk(post(h, '/fiat/publishAd', ad, merchant.token));
      const published = (await merchantAds(merchant)).at(-1)!;
      expect(published).toMatchObject({ methods: ['bank', 'wechat'], payWindowMinutes: 45, terms: ad.terms });

      // Before ordering, the user reads the ad the order would go to: its window and terms.
      const user = await verifiedUser(h);
      const quoted = await expectOk(
        get(h, '/fiat/quote?side=buy&coin=USDT&fiat=CNY&amount=710&payType=wechat', user.token),
      );
      expect(quoted.data).toEqual({
        adId: published.id,
        price: '7.1',
        number: '100',
        merchant: { name: 'Li Si', demo: false },
        payWindowMinutes: 45,
        terms: ad.terms,
      });
      // The merchant's own view of the market skips its own ad.
      const own = await expectOk(
        get(h, '/fiat/quote?side=buy&coin=USDT&fiat=CNY&amount=710&payType=bank', merchant.token),
      );
      expect(own.data).toMatchObject({ merchant: { demo: true } });
      // An order naming another ad than the quoted one goes to that ad or nowhere.
      expect((await buy(user, '710', { payType: 'wechat', adId: published.id + 1000 })).msg).toBe(
        en('fiat.noMerchant'),
      );

      // The user picks WeChat: matched to this ad (7.1 beats the house), shown its WeChat payee and its terms.
      const placed = await expectOk(buy(user, '710', { payType: 'wechat', adId: published.id }));
      expect(placed.msg).toBe(en('fiat.created', { minutes: 45 }));
      const order = placed.data as FiatOrder;
      expect(order).toMatchObject({ price: '7.1', payType: 'wechat', payWindowMinutes: 45, terms: ad.terms });
      expect(order.payee).toMatchObject({ ...wechat, cardNumber: '' });
      expect(order.expiresAt - order.createdAt).toBe(45 * MINUTE);

      // A default ad's window (20 minutes) has passed, this one's has not.
      await after(20 * MINUTE);
      expect((await orderOf(user, order.id)).state).toBe('to_pay');
      await after(25 * MINUTE - 1);
      expect((await orderOf(user, order.id)).state).toBe('to_pay');
      h.clock.advance(1);
      expect((await markPaid(user, order.id)).msg).toBe(en('fiat.expired', { minutes: 45 }));
      await h.app.fiat.service.tick();
      expect((await orderOf(user, order.id)).state).toBe('cancelled');
      const ban = await standing(user);
      expect(ban.ban).toMatchObject({
        rule: 'unpaid',
        reason: en('fiat.banReasonUnpaid', { id: order.id, minutes: 45 }),
      });
      expect(ban.ban!.reason).toContain('45 minutes');

      // The bank method of the same ad shows the bank payee.
      const other = await verifiedUser(h);
      const byBank = (await expectOk(buy(other, '710'))).data as FiatOrder;
      expect(byBank).toMatchObject({
        price: '7.1',
        payType: 'bank',
        payee: { ...BANK_CNY, wechatAccount: '' },
      });
      await expectOk(post(h, '/fiat/cancelFiatOrder', { id: byBank.id }, other.token));
      await expectOk(post(h, '/fiat/adOnline', { id: published.id, online: false }, merchant.token));
    });

    it('an ad published without a window gets the default 20 minutes and empty terms', async () => {
      const { merchant, adId } = await merchantWithAd('1000', '9', '1');
      expect((await merchantAds(merchant))[0]).toMatchObject({ payWindowMinutes: 20, terms: '' });
      await expectOk(post(h, '/fiat/adOnline', { id: adId, online: false }, merchant.token));
    });
  });

  async function merchantAds(merchant: TestUser): Promise<FiatAd[]> {
    return ((await expectOk(get(h, '/fiat/myMerchant', merchant.token))).data as { ads: FiatAd[] }).ads;
  }

  describe("a live sell ad's amount is held in escrow", () => {
    it('is held when published, orders take their part of the hold, a cancelled part returns, offline releases, lowering and raising follow', async () => {
      const { merchant, adId } = await merchantWithAd('2000', '7.1', '300');
      const wallet = () => balanceOf(h, fiatWallet(merchant), 'USDT');
      expect(await wallet()).toEqual({ available: '1200', locked: '800' });

      const buyer = await verifiedUser(h);
      const order = await bought(buyer, '710');
      expect(order).toMatchObject({ number: '100', merchant: { name: 'Li Si' } });
      expect(await wallet()).toEqual({ available: '1200', locked: '800' });
      expect(await adAvailable(merchant)).toBe('200');
      await expectOk(post(h, '/fiat/cancelFiatOrder', { id: order.id }, buyer.token));
      expect(await adAvailable(merchant)).toBe('300');
      expect(await wallet()).toEqual({ available: '1200', locked: '800' });

      // Lowered: the rest is released. Raised beyond the wallet: refused, nothing changes.
      await expectOk(post(h, '/fiat/adOnline', { id: adId, online: true, available: '150' }, merchant.token));
      expect(await wallet()).toEqual({ available: '1350', locked: '650' });
      const raised = await post(
        h,
        '/fiat/adOnline',
        { id: adId, online: true, available: '5000' },
        merchant.token,
      );
      expect(raised.msg).toBe(en('ledger.insufficientBalance'));
      expect(await wallet()).toEqual({ available: '1350', locked: '650' });
      expect(await adAvailable(merchant)).toBe('150');

      // An order open while the ad goes offline: the ad's hold is released, the order's stays;
      // when it expires its part goes back to the merchant (the ad is not live), and online holds it again.
      const late = await bought(await verifiedUser(h), '710');
      await expectOk(post(h, '/fiat/adOnline', { id: adId, online: false }, merchant.token));
      expect(await wallet()).toEqual({ available: '1400', locked: '600' });
      await after(20 * MINUTE);
      expect(late.id).toBeGreaterThan(0);
      expect(await wallet()).toEqual({ available: '1500', locked: '500' });
      await expectOk(post(h, '/fiat/adOnline', { id: adId, online: true }, merchant.token));
      expect(await wallet()).toEqual({ available: '1350', locked: '650' });
      await expectOk(post(h, '/fiat/adOnline', { id: adId, online: false }, merchant.token));
    });

    it('20 parallel orders against one ad never take more than it holds', async () => {
      const { merchant, adId } = await merchantWithAd('1500', '7', '1000');
      const buyers = await Promise.all(Array.from({ length: 20 }, () => verifiedUser(h)));
      const orders = (await Promise.all(buyers.map((buyer) => bought(buyer, '700')))).map((order, index) => ({
        order,
        buyer: buyers[index]!,
      }));
      const fromAd = orders.filter(({ order }) => order.merchant.name === 'Li Si');
      expect(fromAd).toHaveLength(10);
      expect(await adAvailable(merchant)).toBe('0');
      expect(await balanceOf(h, fiatWallet(merchant), 'USDT')).toEqual({ available: '0', locked: '1500' });
      // Run out, the ad is offered nowhere: the best CNY price is the house's again.
      const offers = (await expectOk(get(h, '/fiat/payCoinList?coin=USDT&side=buy'))).data as FiatOffer[];
      expect(offers.find((offer) => offer.fiat === 'CNY')?.price).toBe('7.25');
      await expectHealthyLedger(h.store.db);
      for (const { order, buyer } of orders) {
        await expectOk(post(h, '/fiat/cancelFiatOrder', { id: order.id }, buyer.token));
      }
      expect(await adAvailable(merchant)).toBe('1000');
      expect(await balanceOf(h, fiatWallet(merchant), 'USDT')).toEqual({ available: '0', locked: '1500' });
      await expectOk(post(h, '/fiat/adOnline', { id: adId, online: false }, merchant.token));
    });
  });

  describe('floating prices', () => {
    it('the demo USDT/CNY ad floats; a floating ad follows the index and an order locks the price it was made at', async () => {
      const offers = (await expectOk(get(h, '/fiat/payCoinList?coin=USDT&side=buy'))).data as FiatOffer[];
      expect(offers.find((offer) => offer.fiat === 'CNY')).toMatchObject({ price: '7.25', floating: true });
      expect(offers.find((offer) => offer.fiat === 'USD')).toMatchObject({ floating: false });

      // A merchant (its first ad fixed and never the best) publishes a floating ad buying BTC for EUR.
      const { merchant } = await merchantWithAd('1000', '9', '100');
      const ad = {
        side: 'sell',
        coin: 'BTC',
        fiat: 'EUR',
        priceType: 'floating',
        premium: '1',
        min: '50',
        max: '100000',
        available: '1',
        payType: 'bank',
        payeeName: 'Li Si',
        iban: 'DE89 3704 0044 0532 0130 00',
        bank: 'N26',
      };
      expect((await post(h, '/fiat/publishAd', { ...ad, premium: '25' }, merchant.token)).msg).toBe(
        en('fiat.premiumOutOfRange', { max: '20' }),
      );
      expect((await post(h, '/fiat/publishAd', { ...ad, premium: '' }, merchant.token)).msg).toBe(
        en('fiat.premiumRequired'),
      );
      // Before the index's first tick there is no price to float on.
      expect((await post(h, '/fiat/publishAd', ad, merchant.token)).msg).toBe(
        en('fiat.noIndexPrice', { coin: 'BTC', fiat: 'EUR' }),
      );
      await h.app.market.simulator.tick();
      await expectOk(post(h, '/fiat/publishAd', ad, merchant.token));
      const expected = () =>
        fiatFloatingPrice(h.app.wallet.assets.fiatPriceOf('BTC', 'EUR')!, '1').toString();
      const floatingAd = async () =>
        ((await expectOk(get(h, '/fiat/myMerchant', merchant.token))).data as { ads: FiatAd[] }).ads[1]!;
      expect(await floatingAd()).toMatchObject({ priceType: 'floating', premium: '1', price: expected() });

      const user = await verifiedUser(h);
      await h.app.ledger.execute([
        {
          id: `test-fiat-fund-btc:${user.id}`,
          code: 'test_funding',
          debit: systemAccount('treasury'),
          credit: fiatWallet(user),
          asset: 'BTC',
          amount: (await import('@halyard/money')).Dec.parse('1'),
        },
      ]);
      const { premium: _, priceType: __, side: ___, min: ____, max: _____, available: ______, ...payee } = ad;
      const order = (await expectOk(post(h, '/fiat/sellFiatOrder', { ...payee, amount: '1000' }, user.token)))
        .data as FiatOrder;
      expect(order).toMatchObject({ price: expected(), merchant: { demo: false } });

      // The index moves: the ad's price follows on the next tick, the order keeps its price.
      for (let step = 0; step < 100 && expected() === order.price; step++) {
        h.clock.advance(h.app.market.index.tickMs);
        await h.app.market.simulator.tick();
      }
      expect(expected()).not.toBe(order.price);
      await h.app.fiat.service.tick();
      expect((await floatingAd()).price).toBe(expected());
      expect((await orderOf(user, order.id)).price).toBe(order.price);
      // The house's BTC/EUR offer floats too: never a play price far from the index.
      const btcOffers = (await expectOk(get(h, '/fiat/payCoinList?coin=BTC&side=buy'))).data as FiatOffer[];
      expect(btcOffers.find((offer) => offer.fiat === 'EUR')).toMatchObject({
        floating: true,
        price: fiatFloatingPrice(h.app.wallet.assets.fiatPriceOf('BTC', 'EUR')!, '0.5').toString(),
      });

      await expectOk(post(h, '/fiat/cancelFiatOrder', { id: order.id }, merchant.token));
      for (const { id } of (
        (await expectOk(get(h, '/fiat/myMerchant', merchant.token))).data as { ads: FiatAd[] }
      ).ads) {
        await expectOk(post(h, '/fiat/adOnline', { id, online: false }, merchant.token));
      }
    });
  });

  describe('the order chat', () => {
    it("is read and written by the two parties and, during an appeal, an operator (audited); images must be one's own", async () => {
      const user = await verifiedUser(h);
      const stranger = await verifiedUser(h);
      const order = await bought(user);
      const say = (who: TestUser, body: object) =>
        post(h, '/fiat/chatSend', { id: order.id, ...body }, who.token);
      expect((await say(user, { text: '  ' })).msg).toBe(en('fiat.chatEmpty'));
      expect((await say(user, { text: 'x'.repeat(501) })).msg).toBe(en('fiat.chatTooLong', { max: 500 }));
      expect((await say(user, { img: await screenshot(stranger) })).msg).toBe(en('fiat.chatImageInvalid'));
      expect((await say(stranger, { text: 'hi' })).msg).toBe(en('fiat.orderNotFound'));
      const chat = (await expectOk(say(user, { text: 'Sent from ICBC', img: await screenshot(user) })))
        .data as {
        id: number;
        by: string;
        text: string;
        hasImg: boolean;
      }[];
      expect(chat).toEqual([expect.objectContaining({ by: 'buyer', text: 'Sent from ICBC', hasImg: true })]);
      const image = await h.app.http.inject({
        url: `/fiat/chatImg?id=${order.id}&message=${chat[0]!.id}`,
        headers: { token: user.token },
      });
      expect(image.statusCode).toBe(200);
      const peek = await h.app.http.inject({
        url: `/fiat/chatImg?id=${order.id}&message=${chat[0]!.id}`,
        headers: { token: stranger.token },
      });
      expect(peek.statusCode).toBe(404);

      const operator = { id: order.id, text: 'Please send the bank statement' };
      expect((await post(h, '/admin/fiat/chat', operator, undefined, admin)).msg).toBe(en('fiat.wrongState'));
      await expectOk(markPaid(user, order.id));
      await expectOk(
        post(
          h,
          '/fiat/appealFiatOrder',
          { id: order.id, kind: 'paidNotReleased', reason: 'Not released' },
          user.token,
        ),
      );
      await expectOk(post(h, '/admin/fiat/chat', operator, undefined, admin));
      const read = (await expectOk(get(h, `/fiat/chatList?id=${order.id}`, user.token))).data as {
        by: string;
      }[];
      expect(read.map((message) => message.by)).toEqual(['buyer', 'operator']);
      const queue = (await expectOk(get(h, '/admin/fiat/appeals', undefined, admin))).data as {
        id: number;
        messages: { text: string; img: string | null }[];
      }[];
      const appeal = queue.find((entry) => entry.id === order.id)!;
      expect(appeal.messages.map((message) => message.text)).toEqual(['Sent from ICBC', operator.text]);
      expect(appeal.messages[0]!.img).toMatch(/^\/uploads\//);
      expect((await h.app.identity.service.auditLog(user.id, 1))[0]).toMatchObject({ action: 'fiat.chat' });
      await expectOk(
        post(
          h,
          '/admin/fiat/resolve',
          { id: order.id, decision: 'refund', reason: 'No payment' },
          undefined,
          admin,
        ),
      );
      expect((await say(user, { text: 'late' })).msg).toBe(en('fiat.wrongState'));
    });
  });

  describe("the operators' merchant and ad lists (issue 18)", () => {
    it('lists a pending application and a live ad, takes the ad offline (its hold released, audited), refuses other roles', async () => {
      const compliance = await operatorSession(h.app, 'compliance', h.clock);
      const support = await operatorSession(h.app, 'support', h.clock);
      const applicant = await seller();
      await expectOk(post(h, '/fiat/applyMerchant', {}, applicant.token));
      // 7.3 is dearer than the house's 7.25: the ad takes no other test's order.
      const { merchant, adId } = await merchantWithAd('1000', '7.3', '200');

      const pending = (
        await expectOk(get(h, '/admin/fiat/merchants?status=review', undefined, compliance.headers))
      ).data as FiatMerchantAdmin[];
      expect(pending.every((row) => row.status === 'review')).toBe(true);
      expect(pending.find((row) => row.userId === applicant.id)).toMatchObject({
        contact: expect.stringMatching(/^w\*\*\*@example\.com$/),
        kycName: 'Li Si',
        deposit: { coin: 'USDT', amount: '500', held: false },
        appliedAt: h.clock.now(),
        decidedAt: null,
      });
      const approved = (
        await expectOk(get(h, '/admin/fiat/merchants?status=approved', undefined, compliance.headers))
      ).data as FiatMerchantAdmin[];
      expect(approved.find((row) => row.userId === merchant.id)).toMatchObject({
        deposit: { held: true },
        decidedAt: h.clock.now(),
      });
      // Without pii.read the verified name stays out (no role holds fiat.merchants without it).
      const masked = await h.app.fiat.service.merchantsForOperator('review', false, 10);
      expect(masked.every((row) => row.kycName === null)).toBe(true);
      const views = await h.store.db
        .selectFrom('operator_audit_log')
        .select('operator')
        .where('action', '=', 'fiat.merchants.view')
        .execute();
      expect(views.map((view) => view.operator)).toEqual([compliance.email, compliance.email]);

      const merchantId = approved.find((row) => row.userId === merchant.id)?.merchantId;
      const ads = (
        await expectOk(
          get(h, `/admin/fiat/ads?merchantId=${merchantId}&status=online`, undefined, compliance.headers),
        )
      ).data as FiatAdAdmin[];
      expect(ads).toEqual([
        expect.objectContaining({
          id: adId,
          merchantId,
          merchantUserId: merchant.id,
          side: 'buy',
          price: '7.3',
          priceType: 'fixed',
          min: '100',
          max: '100000',
          available: '200',
          methods: ['bank'],
          payWindowMinutes: 20,
          online: true,
        }),
      ]);

      const offline = (reason: string, headers: Record<string, string>) =>
        post(h, `/admin/fiat/ads/${adId}/offline`, { reason }, undefined, headers);
      expect((await offline('  ', compliance.headers)).msg).toBe(en('identity.reasonRequired'));
      for (const [url, body] of [
        ['/admin/fiat/merchants', null],
        ['/admin/fiat/ads', null],
        [`/admin/fiat/ads/${adId}/offline`, { reason: 'Spam' }],
      ] as const) {
        const response = await h.app.http.inject({
          method: body ? 'POST' : 'GET',
          url,
          headers: support.headers,
          ...(body ? { payload: body } : {}),
        });
        expect(response.statusCode).toBe(403);
      }
      expect(await balanceOf(h, fiatWallet(merchant), 'USDT')).toEqual({ available: '300', locked: '700' });

      await expectOk(offline('Misleading terms', compliance.headers));
      expect(await balanceOf(h, fiatWallet(merchant), 'USDT')).toEqual({ available: '500', locked: '500' });
      expect((await offline('Again', compliance.headers)).msg).toBe(en('fiat.wrongState'));
      const after = (
        await expectOk(get(h, `/admin/fiat/ads?merchantId=${merchantId}`, undefined, compliance.headers))
      ).data as FiatAdAdmin[];
      expect(after[0]).toMatchObject({ id: adId, online: false, available: '200' });
      expect((await h.app.identity.service.auditLog(merchant.id, 1))[0]).toMatchObject({
        action: 'fiat.ad.offline',
      });
    });
  });

  describe('expiry across a restart', () => {
    it('cancels on start what expired while the server was down', async () => {
      // Its own app and store; on the core the restarted app recovers the state from the first one's journal.
      const own = await startWalletHarness(null, {}, { moneyCore });
      try {
        const user = await verifiedUser(own);
        const placed = await post(
          own,
          '/fiat/addFiatPayOrder',
          { coin: 'USDT', fiat: 'CNY', amount: '725', payType: 'bank' },
          user.token,
        );
        const id = (placed.data as FiatOrder).id;
        await restartApp(own, () => own.clock.advance(21 * MINUTE));
        const row = await own.store.db
          .selectFrom('fiat_orders')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row.state).toBe('cancelled');
        expect((await own.app.ledger.hold(row.hold_id))?.state).toBe('voided');
        await expectHealthyLedger(own.store.db);
      } finally {
        await own.close();
      }
    });
  });
});
