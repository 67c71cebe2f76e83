import { Dec } from '@halyard/money';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLedger } from '../../ledger/index.ts';
import { MONEY_PATHS } from '../identity/test-support.ts';
import {
  balanceOf,
  type Envelope,
  futuresOf,
  futuresUser,
  type Harness,
  INSURANCE,
  mark,
  order,
  POOL,
  post,
  startHarness,
  type TestUser,
} from './test-support.ts';

type Step =
  | {
      kind: 'open';
      user: number;
      side: 'buy' | 'sell';
      style: 'limit' | 'market';
      lots: number;
      lever: number;
      tdMode: 'lsolate' | 'cross';
      offsetBp: number;
    }
  | { kind: 'close'; user: number; lots: number }
  | { kind: 'cancel'; user: number }
  | { kind: 'mark'; moveBp: number };

const USERS = 3;
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    kind: fc.constant('open' as const),
    user: fc.integer({ min: 0, max: USERS - 1 }),
    side: fc.constantFrom('buy' as const, 'sell' as const),
    style: fc.constantFrom('limit' as const, 'market' as const),
    lots: fc.integer({ min: 1, max: 40 }),
    lever: fc.constantFrom(1, 5, 10, 20, 50, 100),
    tdMode: fc.constantFrom('lsolate' as const, 'cross' as const),
    offsetBp: fc.integer({ min: -200, max: 200 }),
  }),
  fc.record({
    kind: fc.constant('close' as const),
    user: fc.integer({ min: 0, max: USERS - 1 }),
    lots: fc.integer({ min: 1, max: 40 }),
  }),
  fc.record({ kind: fc.constant('cancel' as const), user: fc.integer({ min: 0, max: USERS - 1 }) }),
  fc.record({ kind: fc.constant('mark' as const), moveBp: fc.integer({ min: -600, max: 600 }) }),
);

describe.each(MONEY_PATHS)('futures property on $on', ({ moneyCore }) => {
  let h: Harness;

  beforeAll(async () => {
    h = await startHarness({ moneyCore });
  });

  afterAll(async () => {
    const trades = await h.store.db.selectFrom('futures_trades').select('autoid').execute();
    // The streams must actually trade, or the property says little.
    expect(trades.length).toBeGreaterThan(20);
    await h.close();
  });

  /** A well-funded user who quotes both sides 10 bp around each new mark, so random market orders meet someone. */
  async function quote(liquidity: TestUser, price: Dec): Promise<void> {
    for (const [side, bp] of [
      ['buy', -10],
      ['sell', 10],
    ] as const) {
      const limit = price.add(price.mul(Dec.fromInt(bp)).div(Dec.fromInt(10_000))).floorTo(2);
      expectAnswered(await order(h, liquidity, side, 'limit', '20', { price: limit.toString(), lever: 20 }));
    }
  }

  /** A refusal (4xx, a spec rule) is a fine answer to a random command; anything else is a bug. */
  function expectAnswered(answer: Envelope): void {
    expect(answer.code === 200 || (answer.code >= 400 && answer.code < 500), answer.msg).toBe(true);
  }

  it('random prices and orders never leave a futures balance negative and keep the ledger audit clean', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 5, maxLength: 30 }), async (steps) => {
        let price = Dec.parse('100000');
        await mark(h, price.toString());
        const users: TestUser[] = [];
        for (let index = 0; index < USERS; index++) users.push(await futuresUser(h, '2000'));
        const liquidity = await futuresUser(h, '100000');
        await quote(liquidity, price);
        for (const next of steps) {
          if (next.kind === 'mark') {
            price = price.add(price.mul(Dec.fromInt(next.moveBp)).div(Dec.fromInt(10_000))).floorTo(2);
            await mark(h, price.toString());
            await quote(liquidity, price);
            continue;
          }
          const user = users[next.user]!;
          if (next.kind === 'open') {
            const limit = price
              .add(price.mul(Dec.fromInt(next.offsetBp)).div(Dec.fromInt(10_000)))
              .floorTo(2);
            expectAnswered(
              await order(h, user, next.side, next.style, String(next.lots), {
                lever: next.lever,
                tdMode: next.tdMode,
                ...(next.style === 'limit' ? { price: limit.toString() } : {}),
              }),
            );
          } else if (next.kind === 'close') {
            const position = [...h.app.futures.service.engine.positions.values()].find(
              (row) => row.owner === String(user.id),
            );
            if (position)
              expectAnswered(
                await post(
                  h,
                  '/contract/closePosition',
                  { autoid: position.autoid, number: String(next.lots) },
                  user.token,
                ),
              );
          } else {
            const entrust = [...h.app.futures.service.engine.open.values()].find(
              (row) => row.owner === String(user.id),
            );
            if (entrust)
              expectAnswered(await post(h, '/contract/closeEntrust', { id: entrust.autoid }, user.token));
          }
          for (const each of users)
            expect(Dec.parse((await balanceOf(h, futuresOf(each))).available).isNegative()).toBe(false);
        }
        expect(Dec.parse((await balanceOf(h, POOL)).available).isNegative()).toBe(false);
        expect(Dec.parse((await balanceOf(h, INSURANCE)).available).isNegative()).toBe(false);
        expect((await auditLedger(h.store.db)).breaches).toEqual([]);
      }),
      // A fixed seed: the afterAll check that the streams traded must not depend on the draw (it failed ~1 run in 10).
      { numRuns: 8, seed: 20261126 },
    );
  }, 180_000);
});
