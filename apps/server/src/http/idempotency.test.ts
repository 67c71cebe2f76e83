import { Dec } from '@halyard/money';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type AccountRef, userAccount } from '../ledger/index.ts';
import { expectHealthyLedger } from '../ledger/test-support.ts';
import {
  order as futuresOrder,
  futuresUser,
  mark,
  placed,
  positionsOf,
} from '../modules/futures/test-support.ts';
import { type Envelope, expectOk, get, type Harness, post } from '../modules/identity/test-support.ts';
import {
  CHAIN,
  FUND_PASSWORD,
  fund,
  plainUser,
  startWalletHarness,
  type TestUser,
  verifiedUser,
} from '../modules/wallet/test-support.ts';

/**
 * Issue 13 item 10: every money-moving POST takes an optional clientOid; a
 * retry with the same one (same user, same route) answers the first result
 * and moves nothing. One app for the file: each test has users of its own.
 */
let h: Harness;
beforeAll(async () => {
  h = await startWalletHarness(null);
  // Cycle orders need a fresh index tick; futures orders a mark price.
  await h.app.market.simulator.tick();
});
afterAll(async () => {
  await expectHealthyLedger(h.store.db);
  await h.close();
});

const GOOD_ADDRESS = '0x5aAeb6053F3E94C9b9A09f33669435E7Ef1BeAed';
const BTC = { tradcoin: 'BTC', maincoin: 'USDT' } as const;

/** A user with USDT in spot, able to withdraw. */
async function trader(usdt = '1000'): Promise<TestUser> {
  const user = await verifiedUser(h);
  await fund(h, user.id, { USDT: usdt });
  return user;
}

async function usdt(ref: AccountRef): Promise<{ available: string; locked: string }> {
  const balance = await h.app.ledger.balance({ ...ref, asset: 'USDT' });
  return { available: balance.available.toString(), locked: balance.locked.toString() };
}

/** Every wallet of the user's USDT: what a command moved shows here. */
async function wallets(user: TestUser) {
  return {
    spot: await usdt(userAccount(user.id, 'spot')),
    futures: await usdt(userAccount(user.id, 'futures')),
  };
}

/**
 * Sends the command, then the same again: the second answers the first's data
 * and moves nothing (the user's wallets as after the first).
 */
async function expectOnce(user: TestUser, path: string, body: Record<string, unknown>): Promise<Envelope> {
  const before = await wallets(user);
  const first = await expectOk(post(h, path, body, user.token));
  const afterFirst = await wallets(user);
  expect(afterFirst, `${path} moved money`).not.toEqual(before);
  const second = await expectOk(post(h, path, body, user.token));
  expect(second.data).toEqual(first.data);
  expect(second.msg).toBe(first.msg);
  expect(await wallets(user)).toEqual(afterFirst);
  return first;
}

const spotOrder = (clientOid: string, number = '1') => ({ ...BTC, price: '100', number, clientOid });

describe('clientOid on every money route', () => {
  it('spot order: the same clientOid twice places one order and answers the same', async () => {
    const user = await trader();
    await expectOnce(user, '/trad/buyLimit', spotOrder('spot-1'));
    expect(await usdt(userAccount(user.id, 'spot'))).toEqual({ available: '900', locked: '100' });
    // A new clientOid is a new order.
    await expectOk(post(h, '/trad/buyLimit', spotOrder('spot-2'), user.token));
    expect(await usdt(userAccount(user.id, 'spot'))).toEqual({ available: '800', locked: '200' });
  });

  it('futures order: the same clientOid twice opens one entrust', async () => {
    const user = await trader();
    await expectOk(
      post(
        h,
        '/account/contractTransfer',
        { coin: 'USDT', number: '500', from: 'spot', to: 'futures' },
        user.token,
      ),
    );
    // 10 % below the index: it rests on the book, its margin held.
    const below = h.app.market.index.current('BTC')!.price.mul(Dec.parse('0.9')).floorTo(1).toString();
    await expectOnce(user, '/contract/buyLimit', {
      ...BTC,
      price: below,
      number: '1',
      lever: 10,
      clientOid: 'fut-1',
    });
    const open = (await expectOk(get(h, '/contract/tradEntrust?page=1&limit=10', user.token))).data as {
      list: unknown[];
    };
    expect(open.list).toHaveLength(1);
  });

  it('futures close: the same clientOid twice closes the lots once', async () => {
    await mark(h, '100000');
    const [long, short, bidder] = [await futuresUser(h), await futuresUser(h), await futuresUser(h)];
    await placed(futuresOrder(h, short, 'sell', 'limit', '10', { price: '100000' }));
    await placed(futuresOrder(h, long, 'buy', 'market', '10'));
    const [position] = await positionsOf(h, long);
    await placed(futuresOrder(h, bidder, 'buy', 'limit', '8', { price: '100000' }));
    await expectOnce(long, '/contract/closePosition', {
      autoid: position!.autoid,
      number: '4',
      clientOid: 'close-1',
    });
    expect(await positionsOf(h, long)).toMatchObject([{ autoid: position!.autoid, number: '6' }]);
  });

  it('transfer: the same clientOid twice moves once', async () => {
    const user = await trader();
    const body = { coin: 'USDT', number: '10', from: 'spot', to: 'futures', clientOid: 'move-1' };
    await expectOnce(user, '/account/contractTransfer', body);
    expect(await wallets(user)).toEqual({
      spot: { available: '990', locked: '0' },
      futures: { available: '10', locked: '0' },
    });
  });

  it('withdrawal: the same clientOid twice holds and records one withdrawal', async () => {
    const user = await trader();
    await expectOk(
      post(
        h,
        '/account/addAddress',
        { coin: 'USDT', chain: CHAIN, address: GOOD_ADDRESS, remark: 'cold' },
        user.token,
      ),
    );
    const body = {
      coin: 'USDT',
      chain: CHAIN,
      address: GOOD_ADDRESS,
      number: '100',
      payPassword: FUND_PASSWORD,
      clientOid: 'out-1',
    };
    await expectOnce(user, '/account/sendCoinOrder', body);
    const records = (await expectOk(get(h, '/account/withdrawRecord', user.token))).data as unknown[];
    expect(records).toHaveLength(1);
  });

  it('convert: the same clientOid twice exchanges once (the quote is not spent twice)', async () => {
    const user = await trader();
    const pairs = (await expectOk(get(h, '/flash/flashCoin', user.token))).data as {
      from: string;
      to: string;
      quoteId: string;
    }[];
    const quote = pairs.find((pair) => pair.from === 'USDT' && pair.to === 'BTC')!;
    await expectOnce(user, '/flash/addFlash', { quoteId: quote.quoteId, number: '50', clientOid: 'swap-1' });
    expect(await usdt(userAccount(user.id, 'spot'))).toEqual({ available: '950', locked: '0' });
  });

  it('cycle order: the same clientOid twice opens one contract', async () => {
    const user = await trader();
    const body = { ...BTC, paycoin: 'USDT', number: '100', lever: 30, clientOid: 'cyc-1' };
    const first = await expectOnce(user, '/cycle/buyMarket', body);
    const open = (await expectOk(get(h, '/cycle/positionByCoin?tradcoin=BTC&maincoin=USDT', user.token)))
      .data as { orderid: string }[];
    expect(open.map(({ orderid }) => orderid)).toEqual([(first.data as { orderid: string }).orderid]);
  });

  it('is declared on every money route: a malformed one is refused there by the schema', async () => {
    const user = await trader();
    const moneyRoutes = [
      '/trad/buyLimit',
      '/trad/sellLimit',
      '/trad/buyMarket',
      '/trad/sellMarket',
      '/contract/buyLimit',
      '/contract/sellLimit',
      '/contract/buyMarket',
      '/contract/sellMarket',
      '/contract/closePosition',
      '/contract/closeCoinPosition',
      '/contract/closeAllPosition',
      '/contract/profitLoss',
      '/account/contractTransfer',
      '/account/c2cTransfer',
      '/account/sendCoinOrder',
      '/flash/addFlash',
      '/cycle/buyMarket',
      '/cycle/sellMarket',
    ];
    // The fields these routes require, each valid, so the schema's only complaint can be the clientOid.
    const everyRequiredField = {
      ...BTC,
      paycoin: 'USDT',
      lever: 30,
      coin: 'USDT',
      chain: CHAIN,
      from: 'spot',
      to: 'spot',
      quoteId: 'q',
      autoid: 1,
      type: 'all',
    };
    for (const path of moneyRoutes) {
      // Before the handler and any other field's rule: nothing runs, the answer names the field.
      const answer = await post(h, path, { ...everyRequiredField, clientOid: 'not valid!' }, user.token);
      expect(answer, path).toMatchObject({ code: 400, msg: expect.stringContaining('clientOid') });
    }
    expect(await wallets(user)).toEqual({
      spot: { available: '1000', locked: '0' },
      futures: { available: '0', locked: '0' },
    });
  });
});

describe('clientOid rules', () => {
  it('runs parallel duplicates once: every answer is the first one', async () => {
    const user = await trader();
    const answers = await Promise.all(
      [1, 2, 3].map(() => post(h, '/trad/buyLimit', spotOrder('burst'), user.token)),
    );
    for (const answer of answers) expect(answer).toMatchObject({ code: 200, data: answers[0]!.data });
    expect(await usdt(userAccount(user.id, 'spot'))).toEqual({ available: '900', locked: '100' });
  });

  it('keeps users apart: two users may use the same clientOid', async () => {
    const [alice, bob] = [await trader(), await trader()];
    const a = await expectOk(post(h, '/trad/buyLimit', spotOrder('shared'), alice.token));
    const b = await expectOk(post(h, '/trad/buyLimit', spotOrder('shared'), bob.token));
    expect((a.data as { autoid: number }).autoid).not.toBe((b.data as { autoid: number }).autoid);
    expect(await usdt(userAccount(bob.id, 'spot'))).toEqual({ available: '900', locked: '100' });
  });

  it('keeps routes apart: the same clientOid on another route is another command', async () => {
    const user = await trader();
    await expectOk(post(h, '/trad/buyLimit', spotOrder('same'), user.token));
    await expectOk(
      post(
        h,
        '/account/contractTransfer',
        { coin: 'USDT', number: '10', from: 'spot', to: 'futures', clientOid: 'same' },
        user.token,
      ),
    );
    expect(await wallets(user)).toEqual({
      spot: { available: '890', locked: '100' },
      futures: { available: '10', locked: '0' },
    });
  });

  it('does not store a refusal: a corrected retry with the same clientOid runs', async () => {
    const user = await trader();
    const refused = await post(h, '/trad/buyLimit', spotOrder('fix-me', '100000'), user.token);
    expect(refused.code).toBe(400);
    expect(await usdt(userAccount(user.id, 'spot'))).toEqual({ available: '1000', locked: '0' });
    await expectOk(post(h, '/trad/buyLimit', spotOrder('fix-me', '1'), user.token));
    expect(await usdt(userAccount(user.id, 'spot'))).toEqual({ available: '900', locked: '100' });
  });

  it('refuses a malformed clientOid and moves nothing', async () => {
    const user = await trader();
    for (const clientOid of ['', 'x'.repeat(65), 'a b', 'ä', 'a.b']) {
      const answer = await post(h, '/trad/buyLimit', { ...spotOrder('x'), clientOid }, user.token);
      expect(answer, String(clientOid)).toMatchObject({ code: 400 });
    }
    expect(await usdt(userAccount(user.id, 'spot'))).toEqual({ available: '1000', locked: '0' });
  });

  it('answers 409 "in progress" while another process holds the claim, and runs nothing', async () => {
    const user = await trader();
    // What a second server sharing the store (or one that died mid-command) leaves behind.
    await h.store.db
      .insertInto('http_idempotency')
      .values({
        user_id: user.id,
        route: '/trad/buyLimit',
        client_oid: 'elsewhere',
        state: 'running',
        answer: null,
        created_at: h.clock.now(),
      })
      .execute();
    const answer = await post(h, '/trad/buyLimit', spotOrder('elsewhere'), user.token);
    expect(answer).toMatchObject({
      code: 409,
      msg: 'The same request (clientOid) is still being processed; ask again in a moment',
    });
    expect(await usdt(userAccount(user.id, 'spot'))).toEqual({ available: '1000', locked: '0' });
  });

  it('replays the answer in the retry’s language', async () => {
    const user = await trader();
    const first = await expectOk(post(h, '/trad/buyLimit', spotOrder('lang'), user.token));
    const again = await expectOk(post(h, '/trad/buyLimit', spotOrder('lang'), user.token, { lang: 'cn' }));
    expect(again.data).toEqual(first.data);
    expect(again.msg).not.toBe(first.msg);
  });

  it('runs a command without clientOid every time', async () => {
    const user = await plainUser(h);
    await fund(h, user.id, { USDT: '1000' });
    const body = { ...BTC, price: '100', number: '1' };
    await expectOk(post(h, '/trad/buyLimit', body, user.token));
    await expectOk(post(h, '/trad/buyLimit', body, user.token));
    expect(await usdt(userAccount(user.id, 'spot'))).toEqual({ available: '800', locked: '200' });
  });
});
