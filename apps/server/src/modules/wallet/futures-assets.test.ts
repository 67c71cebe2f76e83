import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  balanceOf,
  futuresOf,
  futuresUser,
  mark,
  order,
  placed,
  positionsOf,
  type TestUser,
} from '../futures/test-support.ts';
import {
  expectHealthyLedger,
  expectOk,
  get,
  type Harness,
  post,
  startWalletHarness,
} from './test-support.ts';

let h: Harness;
beforeEach(async () => {
  h = await startWalletHarness(null);
  await mark(h, '100000');
});
afterEach(async () => {
  await expectHealthyLedger(h.store.db);
  await h.close();
});

async function futuresUsdt(user: TestUser) {
  const rows = (await expectOk(get(h, '/account/contractAssets', user.token))).data as Record<
    string,
    string
  >[];
  return rows.find((row) => row.coin === 'USDT');
}

async function totalsOf(user: TestUser) {
  return (await expectOk(get(h, '/account/myAccountCount', user.token))).data as Record<string, unknown>;
}

/** A long of 10 BTC lots (0.01 BTC) at 100000, lever 10: margin 100; the short rests, the long takes. */
async function openPair(): Promise<{ long: TestUser; short: TestUser }> {
  const long = await futuresUser(h);
  const short = await futuresUser(h);
  await placed(order(h, short, 'sell', 'limit', '10', { price: '100000' }));
  await placed(order(h, long, 'buy', 'market', '10'));
  return { long, short };
}

describe('the futures asset and the totals count futures positions and entrusts', () => {
  it('shows position margin under orders and the unrealised PnL at the mark under profit', async () => {
    const { long, short } = await openPair();
    // Each side paid the 0.0005 fee on a 1000 notional; the margin left the account for the margin pool.
    expect(await balanceOf(h, futuresOf(long))).toEqual({ available: '9899.5', locked: '0' });
    expect(await futuresUsdt(long)).toEqual({
      coin: 'USDT',
      usable: '9899.5',
      orders: '100',
      profit: '0',
      entrust: '0',
    });
    // Opening a position costs the user the fee only: the margin still counts as theirs.
    expect(await totalsOf(long)).toMatchObject({
      usdt: '9999.5',
      contract_assets: { USDT: '9999.5' },
      contract_assets_amount: '9999.5',
    });

    await mark(h, '101234.56');
    // 0.01 BTC × 1234.56 = 12.3456 for the long, the same lost by the short.
    expect((await positionsOf(h, long))[0]).toMatchObject({ position: '100', profit: '12.3456' });
    expect(await futuresUsdt(long)).toMatchObject({ orders: '100', profit: '12.3456' });
    expect(await futuresUsdt(short)).toMatchObject({ usable: '9899.5', orders: '100', profit: '-12.3456' });
    expect(await totalsOf(long)).toMatchObject({
      usdt: '10011.8456',
      contract_assets: { USDT: '10011.8456' },
      contract_assets_amount: '10011.8456',
    });
    expect(await totalsOf(short)).toMatchObject({
      usdt: '9987.1544',
      contract_assets: { USDT: '9987.1544' },
      contract_assets_amount: '9987.1544',
    });
  });

  it("shows an open limit entrust's margin and fee hold under entrust, released by its cancel", async () => {
    const { long } = await openPair();
    // 5 lots at 90000: notional 450, margin 45 at lever 10, fee 0.225.
    const entrust = await placed(order(h, long, 'buy', 'limit', '5', { price: '90000' }));
    expect(await balanceOf(h, futuresOf(long))).toEqual({ available: '9854.275', locked: '45.225' });
    expect(await futuresUsdt(long)).toEqual({
      coin: 'USDT',
      usable: '9854.275',
      orders: '100',
      profit: '0',
      entrust: '45.225',
    });
    expect(await totalsOf(long)).toMatchObject({
      usdt: '9999.5',
      contract_assets: { USDT: '9999.5' },
      contract_assets_amount: '9999.5',
    });
    await expectOk(post(h, '/contract/closeEntrust', { id: entrust.autoid }, long.token));
    expect(await futuresUsdt(long)).toMatchObject({ usable: '9899.5', orders: '100', entrust: '0' });
  });

  it('gives zeros to a user without futures and leaves the totals at the ledger balance', async () => {
    const user = await futuresUser(h, '250.75');
    expect(await futuresUsdt(user)).toEqual({
      coin: 'USDT',
      usable: '250.75',
      orders: '0',
      profit: '0',
      entrust: '0',
    });
    expect(await totalsOf(user)).toMatchObject({ usdt: '250.75', contract_assets_amount: '250.75' });
  });
});
