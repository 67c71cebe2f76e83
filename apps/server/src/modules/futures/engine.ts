// The futures engine, the module's only writer: one state
// (core/state/futures-book.ts) and one command queue (queue.ts), each
// command carried through the stages (see FuturesEngine below).
import { Dec } from '@halyard/money';
import { type ContractMarket, FuturesState } from '../../core/state/futures-book.ts';
import {
  type CommandPlan,
  checkCommand,
  type FuturesRefusal,
  isFuturesRefusal,
  usableAccountOf,
} from '../../core/state/futures-checks.ts';
import type { CommandResult, FuturesCommand, GroupEffects } from '../../core/state/futures-commands.ts';
import type { CrossPosition, IsolatedRiskEntry } from '../../core/state/futures-liquidation.ts';
import type { PositionFigures } from '../../core/state/futures-margin.ts';
import type { EntrustRow, PositionRow, TriggerRow } from '../../core/state/futures-rows.ts';
import { type AppError, badRequest, conflict, notFound } from '../../http/errors.ts';
import { accountKey, type Ledger } from '../../ledger/index.ts';
import type { Executor, Trx } from '../../store/database.ts';
import type { ReferralFees } from '../referral/index.ts';
import { fundingSlot } from './funding.ts';
import { cancelOrder, placeClose, placeOpen } from './matching.ts';
import { endTrigger, writeTrigger } from './positions.ts';
import { refreshSnapshots } from './publish.ts';
import { CommandQueue, type Execution } from './queue.ts';
import { riskPass } from './risk-pass.ts';
import { type GroupContext, restoreFutures } from './state.ts';
import { updateContractSettings } from './store.ts';
import type { FuturesWriter } from './writer.ts';

// The words the engine's callers use with it, from where each is defined.
export type { ContractMarket } from '../../core/state/futures-book.ts';
export {
  type CommandResult,
  type FuturesCommand,
  type GroupEffects,
  HOUSE_OWNER,
  HOUSE_TAKER_TRADER,
  HOUSE_TRADER,
  type OpenCommand,
  userTrader,
} from '../../core/state/futures-commands.ts';

export interface EngineOptions {
  db: Executor;
  ledger: Ledger;
  now: () => number;
  fundingIntervalMs: number;
  /** Referral commissions on each fill's fee, paid in the trade's own ledger batch. */
  referral: ReferralFees;
  onCommitted: (effects: GroupEffects) => void;
  onError: (error: unknown) => void;
}

/**
 * The futures exchange's writer: every contract's book, the open orders,
 * positions and triggers (`FuturesState`), and ONE queue for all of them
 * (queue.ts). One queue (not one per contract as in spot) because cross
 * margin makes a user's positions in every contract one account: a
 * liquidation, a funding round and an order must see the same balances.
 *
 * Each command goes through the stages: the checks (every refusal, the
 * margin check and the hold; core/state/futures-checks.ts, a refusal thrown
 * here as the HTTP layer's error) → matching.ts (the order written, its hold
 * taken, the book) → settlement.ts (fills into ledger legs and rows:
 * positions.ts, fees.ts); a mark tick's risk pass is risk-pass.ts (TP/SL,
 * liquidation, funding). The stages' pure rules are the money state's
 * (core/state/futures-*.ts: orders, fills, positions, legs, margin, risk
 * rules); the files here add the SQL, the SQL ledger and the referral
 * caches. After the group commits, publish.ts refreshes what reads and
 * pushes show. A refusal fails its command alone; any other error rolls the
 * group back and the state is rebuilt from the store.
 */
export class FuturesEngine implements FuturesWriter {
  private readonly state = new FuturesState();
  readonly markets: Map<number, ContractMarket> = this.state.markets;
  readonly open: Map<number, EntrustRow> = this.state.open;
  readonly positions: Map<number, PositionRow> = this.state.positions;
  readonly triggers: Map<number, TriggerRow> = this.state.triggers;
  /** Isolated user positions' liquidation prices, refreshed whenever the position changes. */
  readonly isolatedRisk: Map<number, IsolatedRiskEntry> = this.state.isolatedRisk;
  /** The mark (= index) of each trade coin. */
  readonly marks: Map<string, Dec> = this.state.marks;
  private readonly queue: CommandQueue;
  private readonly riskQueued = new Set<number>();

  constructor(private readonly options: EngineOptions) {
    this.queue = new CommandQueue({
      ledger: options.ledger,
      check: (trx, command, effects) => this.check(trx, command, effects),
      rolledBack: () => this.restore(),
      committed: (effects) => refreshSnapshots(this.state, effects),
      onCommitted: options.onCommitted,
      onError: options.onError,
    });
  }

  /** (Re)builds everything from the store: restart, or after a rolled-back group. */
  restore(): Promise<void> {
    return restoreFutures(this.state, this.options.db, () => this.currentSlot());
  }

  /** Commands waiting in the queue (the back office's dashboard). */
  get queued(): number {
    return this.queue.length;
  }

  market(contractId: number): ContractMarket {
    const market = this.state.markets.get(contractId);
    if (!market) throw notFound('futures.contractNotFound');
    return market;
  }

  /** Queues a command; answers after its transaction commits. */
  submit(command: FuturesCommand): Promise<CommandResult> {
    return this.queue.submit(command);
  }

  /** A new mark for a coin: records it and queues one risk pass per contract of the coin (coalesced). */
  applyMark(coin: string, price: Dec): Promise<void> {
    this.marks.set(coin, price);
    const passes: Promise<unknown>[] = [];
    for (const market of this.markets.values()) {
      const id = market.contract.autoid;
      if (market.contract.tradcoin !== coin || this.riskQueued.has(id)) continue;
      this.riskQueued.add(id);
      passes.push(this.submit({ kind: 'risk', contractId: id }).finally(() => this.riskQueued.delete(id)));
    }
    return Promise.all(passes).then(() => undefined);
  }

  async startMark(coin: string, price: Dec): Promise<void> {
    this.marks.set(coin, price);
  }

  idle(): Promise<void> {
    return this.queue.idle();
  }

  positionFigures(row: PositionRow): PositionFigures {
    return this.state.positionFigures(row);
  }

  markOf(contractId: number): Dec | null {
    return this.state.markOf(contractId);
  }

  /** Last trade price, else the mark; null when neither is known. */
  latestPrice(contractId: number): Dec | null {
    return this.state.latestPrice(contractId);
  }

  /** The user's open cross positions, each with its mark (null mark: left out, it cannot be valued). */
  crossPositionsOf(owner: string, excludeId: number | null = null): CrossPosition[] {
    return this.state.crossPositionsOf(owner, excludeId);
  }

  private currentSlot(): number {
    return fundingSlot(this.options.now(), this.options.fundingIntervalMs);
  }

  private async check(trx: Trx, command: FuturesCommand, effects: GroupEffects): Promise<Execution> {
    const { ledger, referral, now, fundingIntervalMs } = this.options;
    const group: GroupContext = { state: this.state, ledger, referral, now, fundingIntervalMs, trx, effects };
    // The one balance the checks read, read first: the checks themselves are pure (the money state runs them too).
    const read = usableAccountOf(this.state, command);
    const usable = read ? (await ledger.balance(accountKey(read.account, read.asset), trx)).available : null;
    const plan = checkCommand(this.state, command, () => usable ?? Dec.ZERO, now);
    if (isFuturesRefusal(plan)) throw futuresError(plan);
    return () => this.execute(group, plan);
  }

  private async execute(group: GroupContext, plan: CommandPlan): Promise<CommandResult> {
    switch (plan.kind) {
      case 'open':
        return placeOpen(group, plan);
      case 'close':
        return placeClose(group, plan.market, plan.position, plan.lots);
      case 'cancel':
        return cancelOrder(group, plan.market, plan.row);
      case 'setTrigger':
        return writeTrigger(group, plan);
      case 'cancelTrigger':
        await endTrigger(group, plan.trigger, group.now());
        return { orders: [], positions: [], triggers: [{ ...plan.trigger }] };
      case 'risk':
        return riskPass(group, plan.contractId);
      case 'settings':
        if (plan.known) await updateContractSettings(group.trx, plan.contract);
        this.state.putContract(plan.contract, () => this.currentSlot());
        return { orders: [], positions: [], triggers: [] };
    }
  }
}

/** A refusal of the checks (core/state/futures-checks.ts) as the error the HTTP layer answers. */
function futuresError(refusal: FuturesRefusal): AppError {
  switch (refusal.refused) {
    case 'invalid':
      return badRequest(refusal.key, refusal.params);
    case 'notFound':
      return notFound(refusal.key, refusal.params);
    case 'conflict':
      return conflict(refusal.key, refusal.params);
  }
}
