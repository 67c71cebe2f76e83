import { Dec } from '@halyard/money';

/**
 * Commit-mode allocation of a token launch: pure, deterministic, no I/O, so
 * anyone holding the public list of commits can recompute every allocation
 * (issue 15 "Fairness and proof").
 *
 * The rule: every user wants `need` tokens, what their commit buys capped at
 * the per-user cap. If the supply covers every need, everyone gets their need.
 * Otherwise tokens are shared pro rata to the amount committed ("commit ÷ total
 * commits × supply"); a user whose share would exceed their need gets their
 * need, and what they leave is shared again among the rest, in rounds, until
 * no share exceeds its need. Shares are floored to the token's smallest unit;
 * the remainder stays in the project's treasury.
 *
 * Quantities are bigints: tokens in the token's smallest unit, commitments in
 * any fixed unit of the pay coin (only their ratios matter).
 */

export interface CommitWeight {
  /** The amount committed: the user's weight in the pro-rata share. */
  committed: bigint;
  /** The tokens the user may receive at most: what the commit buys, capped per user. */
  need: bigint;
}

/** One redistribution round: users whose share reached their need were served in full. */
export interface AllocationRound {
  round: number;
  /** Tokens still to share and the commitments sharing them, at the round's start. */
  pool: bigint;
  weight: bigint;
  /** Users served in full in this round and the tokens they took. */
  served: number;
  servedTokens: bigint;
}

export interface AllocationResult {
  /** Per commit, in input order. */
  allocations: bigint[];
  oversubscribed: boolean;
  rounds: AllocationRound[];
  /** What the last, pro-rata step shared and among which weight (the proof's final division). */
  finalPool: bigint;
  finalWeight: bigint;
  /** For each commit: the round it was served in full, or null when it got a floored pro-rata share. */
  servedInRound: (number | null)[];
  allocated: bigint;
}

export function allocate(supply: bigint, commits: readonly CommitWeight[]): AllocationResult {
  if (supply < 0n) throw new RangeError('supply must not be negative');
  const allocations = commits.map(() => 0n);
  const servedInRound: (number | null)[] = commits.map(() => null);
  let totalNeed = 0n;
  let weight = 0n;
  for (const commit of commits) {
    if (commit.committed < 0n || commit.need < 0n) throw new RangeError('commits must not be negative');
    totalNeed += commit.need;
    weight += commit.committed;
  }
  if (totalNeed <= supply) {
    commits.forEach((commit, index) => {
      allocations[index] = commit.need;
    });
    return {
      allocations,
      oversubscribed: false,
      rounds: [],
      finalPool: supply,
      finalWeight: weight,
      servedInRound,
      allocated: totalNeed,
    };
  }

  // Sorted by need per unit committed, lowest first: a round serves a prefix of this order.
  const order = commits
    .map((_, index) => index)
    .filter((index) => (commits[index] as CommitWeight).committed > 0n)
    .sort((a, b) => {
      const left = commits[a] as CommitWeight;
      const right = commits[b] as CommitWeight;
      const diff = left.need * right.committed - right.need * left.committed;
      return diff < 0n ? -1 : diff > 0n ? 1 : a - b;
    });
  let pool = supply;
  let next = 0;
  const rounds: AllocationRound[] = [];
  for (;;) {
    // Served in full: need ≤ pool × committed ÷ weight, compared exactly.
    let end = next;
    while (end < order.length) {
      const commit = commits[order[end] as number] as CommitWeight;
      if (commit.need * weight > pool * commit.committed) break;
      end += 1;
    }
    if (end === next) break;
    const round: AllocationRound = {
      round: rounds.length + 1,
      pool,
      weight,
      served: end - next,
      servedTokens: 0n,
    };
    for (let position = next; position < end; position += 1) {
      const index = order[position] as number;
      const commit = commits[index] as CommitWeight;
      allocations[index] = commit.need;
      servedInRound[index] = round.round;
      round.servedTokens += commit.need;
    }
    for (let position = next; position < end; position += 1) {
      weight -= (commits[order[position] as number] as CommitWeight).committed;
    }
    pool -= round.servedTokens;
    rounds.push(round);
    next = end;
  }
  let allocated = supply - pool;
  for (let position = next; position < order.length; position += 1) {
    const index = order[position] as number;
    const share = (pool * (commits[index] as CommitWeight).committed) / weight;
    allocations[index] = share;
    allocated += share;
  }
  return {
    allocations,
    oversubscribed: true,
    rounds,
    finalPool: pool,
    finalWeight: weight,
    servedInRound,
    allocated,
  };
}

/** The terms a commit-mode settlement needs. */
export interface CommitTerms {
  /** Tokens to share. */
  supply: Dec;
  /** Pay coin per token. */
  price: Dec;
  /** Most tokens one user may receive. */
  cap: Dec;
  tokenDecimals: number;
  payDecimals: number;
}

export interface SettledCommit {
  tokens: Dec;
  /** Pay coin spent: tokens × price, floored to the pay coin's unit. */
  spent: Dec;
  /** committed − spent. */
  refund: Dec;
}

function unitsOf(amount: Dec, decimals: number): bigint {
  return amount.units / 10n ** BigInt(18 - decimals);
}

function decOf(units: bigint, decimals: number): Dec {
  return Dec.fromUnits(units * 10n ** BigInt(18 - decimals));
}

/** What a commit buys at most: floor(committed ÷ price) to the token's unit, capped. */
export function needOf(committed: Dec, terms: CommitTerms): Dec {
  return Dec.min(
    committed.div(terms.price).floorTo(terms.tokenDecimals),
    terms.cap.floorTo(terms.tokenDecimals),
  );
}

/**
 * Settles every commit of a project: tokens, pay coin spent and refunded.
 * tokens ≤ what the commit buys and the cap; spent ≤ committed; spent + refund
 * = committed exactly; the tokens add up to at most the supply.
 */
export function settleCommits(
  committed: readonly Dec[],
  terms: CommitTerms,
): { settled: SettledCommit[]; result: AllocationResult } {
  const weights = committed.map((amount) => ({
    committed: amount.units,
    need: unitsOf(needOf(amount, terms), terms.tokenDecimals),
  }));
  const result = allocate(unitsOf(terms.supply, terms.tokenDecimals), weights);
  const settled = result.allocations.map((units, index) => {
    const tokens = decOf(units, terms.tokenDecimals);
    const amount = committed[index] as Dec;
    // tokens ≤ committed ÷ price, so the floored cost never exceeds the commitment.
    const spent = tokens.mul(terms.price).floorTo(terms.payDecimals);
    return { tokens, spent, refund: amount.sub(spent) };
  });
  return { settled, result };
}

/** What the proofs need of an allocation, as stored (bigints as text). */
export interface AllocationSummary {
  totalCommitted: string;
  participants: number;
  oversubscribed: boolean;
  rounds: { round: number; pool: string; weight: string; served: number; servedTokens: string }[];
  finalPool: string;
  finalWeight: string;
}

/** The allocation's summary as `ieo_allocations` stores it; `committed`: every commit, in the allocation's order. */
export function allocationSummaryOf(result: AllocationResult, committed: readonly Dec[]): AllocationSummary {
  return {
    totalCommitted: Dec.sum(committed).toString(),
    participants: committed.length,
    oversubscribed: result.oversubscribed,
    rounds: result.rounds.map((round) => ({
      round: round.round,
      pool: round.pool.toString(),
      weight: round.weight.toString(),
      served: round.served,
      servedTokens: round.servedTokens.toString(),
    })),
    finalPool: result.finalPool.toString(),
    finalWeight: result.finalWeight.toString(),
  };
}
