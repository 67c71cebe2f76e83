import { CODE } from '@halyard/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppError } from '../../http/errors.ts';
import { MONEY_PATHS } from '../identity/test-support.ts';
import { futuresSettingsOf } from './settings.ts';
import {
  BTC,
  balanceOf,
  type Envelope,
  expectAuditClean,
  expectOk,
  expectRefused,
  futuresOf,
  futuresUser,
  get,
  type Harness,
  mark,
  order,
  placed,
  positionsOf,
  post,
  startHarness,
  type TestUser,
} from './test-support.ts';

describe.each(MONEY_PATHS)('futures refusals on $on', ({ moneyCore }) => {
  let h: Harness;
  let user: TestUser;
  let other: TestUser;
  let positionId: number;

  /** One shared app: each refusal must leave balances, entrusts and positions exactly as they were. */
  beforeAll(async () => {
    h = await startHarness({ moneyCore });
    await mark(h, '100000');
    user = await futuresUser(h);
    other = await futuresUser(h);
    await placed(order(h, other, 'sell', 'limit', '5', { price: '100000' }));
    await placed(order(h, user, 'buy', 'market', '5'));
    positionId = (await positionsOf(h, user))[0]!.autoid;
  });

  afterAll(async () => {
    await expectAuditClean(h);
    await h.close();
  });

  async function snapshot() {
    const engine = h.app.futures.service.engine;
    return {
      user: await balanceOf(h, futuresOf(user)),
      other: await balanceOf(h, futuresOf(other)),
      open: engine.open.size,
      positions: [...engine.positions.values()].map((row) => `${row.autoid}:${row.number}:${row.margin}`),
      triggers: engine.triggers.size,
    };
  }

  async function expectNothingChanged(
    pending: Promise<Envelope>,
    key: string,
    params: Record<string, string | number> = {},
  ) {
    const before = await snapshot();
    expectRefused(await pending, key, params);
    expect(await snapshot()).toEqual(before);
  }

  describe('spec §5 futures order refusals', () => {
    it('limit: price required and a correct number', async () => {
      await expectNothingChanged(order(h, user, 'buy', 'limit', '1'), 'rules.priceRequired');
      await expectNothingChanged(order(h, user, 'buy', 'limit', '1', { price: 'abc' }), 'rules.priceInvalid');
      await expectNothingChanged(
        order(h, user, 'buy', 'limit', '1', { price: '0' }),
        'rules.priceNotPositive',
      );
      await expectNothingChanged(
        order(h, user, 'buy', 'limit', '1', { price: '100.001' }),
        'rules.tooManyDecimals',
        { digits: 2 },
      );
    });

    it('quantity required, whole, within minnumber and maxnumber per side', async () => {
      await expectNothingChanged(order(h, user, 'buy', 'market', ''), 'rules.quantityRequired');
      await expectNothingChanged(order(h, user, 'buy', 'market', '1.5'), 'rules.quantityNotInteger');
      await expectNothingChanged(order(h, user, 'sell', 'market', '0'), 'rules.quantityNotPositive');
      await expectNothingChanged(
        order(h, user, 'buy', 'limit', '10001', { price: '90000' }),
        'rules.maxBuy',
        {
          max: '10000',
        },
      );
      await expectNothingChanged(
        order(h, user, 'sell', 'limit', '10001', { price: '90000' }),
        'rules.maxSell',
        { max: '10000' },
      );
    });

    it('TP/SL against the reference price: buy wants TP above and SL below, sell the reverse', async () => {
      await expectNothingChanged(
        order(h, user, 'buy', 'limit', '1', { price: '90000', profitPrice: '89000' }),
        'rules.takeProfitMustBeAbove',
        { price: '90000' },
      );
      await expectNothingChanged(
        order(h, user, 'buy', 'limit', '1', { price: '90000', lossPrice: '91000' }),
        'rules.stopLossMustBeBelow',
        { price: '90000' },
      );
      await expectNothingChanged(
        order(h, user, 'sell', 'limit', '1', { price: '110000', profitPrice: '111000' }),
        'rules.takeProfitMustBeBelow',
        { price: '110000' },
      );
      // Market: the reference is the latest price (the last trade, 100000).
      await expectNothingChanged(
        order(h, user, 'sell', 'market', '1', { lossPrice: '99000' }),
        'rules.stopLossMustBeAbove',
        {
          price: '100000',
        },
      );
    });

    it('leverage from the list, one leverage per position, margin plus fee within the usable balance', async () => {
      await expectNothingChanged(
        order(h, user, 'buy', 'limit', '1', { price: '90000', lever: 7 }),
        'futures.leverNotAllowed',
        {
          levers: '1, 2, 3, 5, 10, 20, 25, 50, 75, 100',
        },
      );
      await expectNothingChanged(
        order(h, user, 'buy', 'limit', '1', { price: '90000', lever: 20 }),
        'futures.leverMismatch',
        {
          lever: 10,
        },
      );
      await expectNothingChanged(
        order(h, user, 'sell', 'limit', '9999', { price: '110000', lever: 1 }),
        'rules.insufficientBalance',
      );
      // A JSON true is no leverage (it used to be read as 1).
      await expectNothingChanged(
        post(h, '/contract/buyLimit', { ...BTC, number: '1', price: '90000', lever: true }, user.token),
        'common.invalidParams',
        { field: 'lever' },
      );
    });

    it('no counterparty for a market order, unknown contract, unknown entrust', async () => {
      await expectNothingChanged(order(h, user, 'sell', 'market', '1'), 'futures.noLiquidity');
      await expectNothingChanged(
        post(
          h,
          '/contract/buyMarket',
          { tradcoin: 'XYZ', maincoin: 'USDT', number: '1', lever: 10 },
          user.token,
        ),
        'futures.contractNotFound',
      );
      await expectNothingChanged(
        post(h, '/contract/closeEntrust', { id: 999_999 }, user.token),
        'futures.entrustNotOpen',
      );
    });
  });

  describe('position refusals', () => {
    it('partial close: required, whole, positive, at most the position; another user’s position is not found', async () => {
      await expectNothingChanged(
        post(h, '/contract/closePosition', { autoid: positionId, number: '' }, user.token),
        'rules.quantityRequired',
      );
      await expectNothingChanged(
        post(h, '/contract/closePosition', { autoid: positionId, number: '1.5' }, user.token),
        'rules.quantityNotInteger',
      );
      await expectNothingChanged(
        post(h, '/contract/closePosition', { autoid: positionId, number: '6' }, user.token),
        'rules.closeQuantityTooLarge',
        {
          max: '5',
        },
      );
      await expectNothingChanged(
        post(h, '/contract/closePosition', { autoid: positionId, number: '1' }, other.token),
        'futures.positionNotFound',
      );
      // Valid, but nobody bids: the long cannot be sold now.
      await expectNothingChanged(
        post(h, '/contract/closePosition', { autoid: positionId, number: '1' }, user.token),
        'futures.noLiquidity',
      );
      await expectNothingChanged(
        post(h, '/contract/closeAllPosition', { type: 'sell' }, user.token),
        'futures.noPositions',
      );
    });

    it('TP/SL on a position: one required; a long’s TP not below the open price and SL not above', async () => {
      await expectNothingChanged(
        post(h, '/contract/profitLoss', { autoid: positionId }, user.token),
        'rules.tpSlRequired',
      );
      await expectNothingChanged(
        post(h, '/contract/profitLoss', { autoid: positionId, profitPrice: '99999' }, user.token),
        'rules.takeProfitCannotBeBelow',
        { price: '100000' },
      );
      await expectNothingChanged(
        post(h, '/contract/profitLoss', { autoid: positionId, lossPrice: '100001' }, user.token),
        'rules.stopLossCannotBeAbove',
        { price: '100000' },
      );
      // Prices of the contract (BTC: 2 decimals, at most 13 integer digits), not any decimal text.
      await expectNothingChanged(
        post(h, '/contract/profitLoss', { autoid: positionId, profitPrice: '9'.repeat(38) }, user.token),
        'rules.tooManyIntegerDigits',
        { digits: 13 },
      );
      await expectNothingChanged(
        post(
          h,
          '/contract/profitLoss',
          { autoid: positionId, lossPrice: `90000.${'1'.repeat(30)}` },
          user.token,
        ),
        'rules.tooManyDecimals',
        { digits: 2 },
      );
      await expectNothingChanged(
        order(h, user, 'buy', 'limit', '1', { price: '90000', profitPrice: '9'.repeat(38) }),
        'rules.tooManyIntegerDigits',
        { digits: 13 },
      );
      await expectNothingChanged(
        post(h, '/contract/editProfitLoss', { id: 999_999, lossPrice: '1' }, user.token),
        'futures.triggerNotFound',
      );
      await expectNothingChanged(
        post(h, '/contract/closeProfitLoss', { id: 999_999 }, user.token),
        'futures.triggerNotFound',
      );
    });

    it('reads need a session', async () => {
      const answer = await get(
        h,
        `/contract/contractAccount?tradcoin=${BTC.tradcoin}&maincoin=${BTC.maincoin}`,
      );
      expect(answer.code).not.toBe(200);
    });
  });

  describe('the kind of a refusal', () => {
    // The checks answer a refusal as a value (core/state/futures-checks.ts); the engine throws it with its code.
    it('is its code: a bad request, something not found, a conflict with the state', async () => {
      const lever = await order(h, user, 'buy', 'limit', '1', { price: '90000', lever: 7 });
      expect(lever.code, lever.msg).toBe(CODE.badRequest);
      const entrust = await post(h, '/contract/closeEntrust', { id: 999_999 }, user.token);
      expect(entrust.code, entrust.msg).toBe(CODE.notFound);
      const resting = await placed(order(h, other, 'buy', 'limit', '1', { price: '90000' }));
      const { service } = h.app.futures;
      const contract = service.contract(BTC).contract;
      const settings = { ...futuresSettingsOf(contract), priceAccuracy: contract.price_accuracy + 1 };
      const refused = await service.changeContractSettings(contract.autoid, settings).catch((error) => error);
      expect(refused).toBeInstanceOf(AppError);
      expect(refused).toMatchObject({ key: 'markets.precisionWithOpenOrders', code: CODE.conflict });
      await expectOk(post(h, '/contract/closeEntrust', { id: resting.autoid }, other.token));
    });
  });
});
