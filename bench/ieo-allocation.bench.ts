/**
 * Commit-mode allocation of a token launch (issue 15): 100,000 commitments,
 * oversubscribed, with a per-user cap that serves the largest committers in
 * full so the excess is redistributed in rounds, settled to tokens, spent and
 * refund (apps/server/src/core/state/ieo-allocation.ts, the pure step the
 * scheduler runs when a window ends).
 *
 *   npx tsx bench/ieo-allocation.bench.ts
 *
 * Prints the median of 5 runs and its ratio to the 2 s target.
 */
import { performance } from 'node:perf_hooks';
import { Dec } from '@halyard/money';
import { settleCommits } from '../apps/server/src/core/state/ieo-allocation.ts';

/** The target (issue 15: "allocation time for 100k commits, target under 2 s"), not a measurement. */
const TARGET_MS = 2_000;
const COMMITS = 100_000;
const RUNS = 5;

/** A deterministic spread of commitments: most small, a long tail of whales (xorshift, fixed seed). */
function commitments(): Dec[] {
  let state = 0x2545f491;
  const next = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 2 ** 32;
  };
  return Array.from({ length: COMMITS }, () => {
    const whole = Math.floor(10 * (1 / (1 - next() * 0.999)) ** 2);
    const cents = Math.floor(next() * 100_000_000);
    return Dec.parse(`${whole}.${String(cents).padStart(8, '0')}`);
  });
}

const committed = commitments();
const terms = {
  supply: Dec.parse('2000000'),
  price: Dec.parse('0.1'),
  // Low enough that about a fifth of the commitments are served in full, over several rounds.
  cap: Dec.parse('60'),
  tokenDecimals: 4,
  payDecimals: 8,
};
const times: number[] = [];
let summary = '';
for (let run = 0; run < RUNS; run += 1) {
  const start = performance.now();
  const { settled, result } = settleCommits(committed, terms);
  times.push(performance.now() - start);
  const tokens = Dec.sum(settled.map((row) => row.tokens));
  summary = `${result.rounds.length} rounds, ${result.rounds.reduce((sum, round) => sum + round.served, 0)} served in full, ${tokens} of ${terms.supply} tokens allocated`;
}
times.sort((a, b) => a - b);
const median = times[Math.floor(RUNS / 2)] as number;
console.log(`ieo allocation: ${COMMITS} commitments, ${summary}`);
console.log(
  `median ${median.toFixed(0)} ms (runs ${times.map((time) => time.toFixed(0)).join(', ')} ms); target ${TARGET_MS} ms; ratio to target ${(median / TARGET_MS).toFixed(3)}`,
);
