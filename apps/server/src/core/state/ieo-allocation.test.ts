import { Dec } from '@halyard/money';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { allocate, needOf, settleCommits } from './ieo-allocation.ts';

const amount = (decimals: number) =>
  fc.bigInt({ min: 0n, max: 10n ** 12n }).map((units) => Dec.fromUnits(units * 10n ** BigInt(18 - decimals)));

describe('commit-mode allocation', () => {
  it('for random commits: sums to at most the supply, never beyond what a commit buys or the cap, spent + refund = committed', () => {
    fc.assert(
      fc.property(
        fc.array(amount(8), { minLength: 0, maxLength: 60 }),
        fc.bigInt({ min: 0n, max: 10n ** 10n }),
        fc.bigInt({ min: 1n, max: 10n ** 8n }),
        fc.bigInt({ min: 1n, max: 10n ** 9n }),
        fc.integer({ min: 0, max: 8 }),
        (committed, supplyUnits, priceUnits, capUnits, tokenDecimals) => {
          const step = 10n ** BigInt(18 - tokenDecimals);
          const terms = {
            supply: Dec.fromUnits(supplyUnits * step),
            price: Dec.fromUnits(priceUnits * 10n ** 12n),
            cap: Dec.fromUnits(capUnits * step),
            tokenDecimals,
            payDecimals: 8,
          };
          const { settled, result } = settleCommits(committed, terms);
          expect(Dec.sum(settled.map((row) => row.tokens)).lte(terms.supply)).toBe(true);
          settled.forEach((row, index) => {
            const given = committed[index] as Dec;
            expect(row.tokens.lte(needOf(given, terms))).toBe(true);
            expect(row.tokens.lte(terms.cap)).toBe(true);
            expect(row.tokens.hasAtMostDigits(tokenDecimals)).toBe(true);
            expect(row.spent.lte(given)).toBe(true);
            expect(row.spent.add(row.refund).eq(given)).toBe(true);
            expect(row.refund.isNegative()).toBe(false);
          });
          // Undersubscribed: everyone gets what they asked for.
          if (!result.oversubscribed) {
            settled.forEach((row, index) => {
              expect(row.tokens.eq(needOf(committed[index] as Dec, terms))).toBe(true);
            });
          } else {
            // Oversubscribed: at most one token unit per pro-rata user is left in the treasury.
            const proRata = result.servedInRound.filter((round) => round === null).length;
            expect(BigInt(terms.supply.units / step) - result.allocated <= BigInt(proRata)).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('redistributes in rounds: capped users leave their excess to the rest', () => {
    const result = allocate(1000n, [
      { committed: 2000n, need: 400n },
      { committed: 500n, need: 400n },
      { committed: 500n, need: 400n },
    ]);
    expect(result.allocations).toEqual([400n, 300n, 300n]);
    expect(result.rounds).toEqual([{ round: 1, pool: 1000n, weight: 3000n, served: 1, servedTokens: 400n }]);
    expect(result.servedInRound).toEqual([1, null, null]);
  });

  it('floors shares to the smallest unit and keeps the remainder', () => {
    const result = allocate(10n, [
      { committed: 1n, need: 10n },
      { committed: 1n, need: 10n },
      { committed: 1n, need: 10n },
    ]);
    expect(result.allocations).toEqual([3n, 3n, 3n]);
    expect(result.allocated).toBe(9n);
  });
});
