// The engine's in-memory state (core/state/futures-book.ts, `FuturesState`)
// as the engine runs it: rebuilt from the store, and worked on by a group of
// commands in one transaction.
import { type FuturesState, TOP_TRADES } from '../../core/state/futures-book.ts';
import type { GroupEffects } from '../../core/state/futures-commands.ts';
import type { FuturesTradeRow } from '../../core/state/futures-rows.ts';
import type { Ledger } from '../../ledger/index.ts';
import type { Executor, Trx } from '../../store/database.ts';
import type { ReferralFees } from '../referral/index.ts';
import {
  selectActiveTriggers,
  selectContracts,
  selectLastFundingSlot,
  selectLatestTrades,
  selectOpenEntrusts,
  selectOpenPositions,
} from './store.ts';

export { type ContractMarket, FuturesState } from '../../core/state/futures-book.ts';

/**
 * What every stage works with while a group of commands runs: the one
 * state, the group's transaction and effects, and the ledger, referral fees
 * and clock.
 */
export interface GroupContext {
  readonly state: FuturesState;
  readonly ledger: Ledger;
  readonly referral: ReferralFees;
  readonly now: () => number;
  readonly fundingIntervalMs: number;
  readonly trx: Trx;
  readonly effects: GroupEffects;
}

/** (Re)builds the state from the store; `currentSlot` is the funding slot now (a fresh contract's last round). */
export async function restoreFutures(
  state: FuturesState,
  db: Executor,
  currentSlot: () => number,
): Promise<void> {
  const contracts = await selectContracts(db);
  const trades = new Map<number, FuturesTradeRow[]>();
  const lastFunding = new Map<number, number>();
  for (const contract of contracts) {
    trades.set(contract.autoid, await selectLatestTrades(db, contract.autoid, TOP_TRADES));
    // The last round written; a fresh contract's first round settles the interval after the current one.
    const last = await selectLastFundingSlot(db, contract.autoid);
    const fallback = state.lastFunding.get(contract.autoid) ?? currentSlot();
    lastFunding.set(contract.autoid, last ?? fallback);
  }
  state.rebuild({
    contracts,
    orders: await selectOpenEntrusts(db),
    positions: await selectOpenPositions(db),
    triggers: await selectActiveTriggers(db),
    trades,
    lastFunding,
  });
}
