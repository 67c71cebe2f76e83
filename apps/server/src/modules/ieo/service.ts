/**
 * Token launches (spec §1, §3 "IEO project", §4, §7 IEO; issue 15). Over 500
 * lines because the two allocation modes share one ledger story (fund the
 * project's treasury, pay or hold, deliver locked tokens, vest, cancel and
 * refund) that reads best in one place; the pure parts are in allocation.ts
 * and, shared with the web app, packages/rules/src/ieo.ts (tranches, vesting).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { Dec } from '@halyard/money';
import type {
  IeoAllocationProof,
  IeoMode,
  IeoOrder,
  IeoOrderState,
  IeoPayCoin,
  IeoPayCoinBalance,
  IeoProject,
  IeoProjectInput,
  IeoPublicCommit,
  IeoState,
  IeoTexts,
  IeoVesting,
  Locale,
} from '@halyard/protocol';
import { checkIeoProjectTerms, checkIeoSubscription, IEO_PAY_DECIMALS, type RuleError } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import {
  type AllocationSummary,
  allocationSummaryOf,
  needOf,
  settleCommits,
} from '../../core/state/ieo-allocation.ts';
import {
  IEO_DISTRIBUTE_BATCH,
  type IeoSaleTerms,
  type IeoVestingOf,
  ieoAnonIdOf,
  ieoCancellable,
  ieoCommitHold,
  ieoCommitHoldId,
  ieoDeliveryTransfers,
  ieoFundingOf,
  ieoFundTransfer,
  ieoGiftOf,
  ieoPayTransfer,
  ieoPurchaseOf,
  ieoRebateOf,
  ieoRebateTransfer,
  ieoRefundTransfers,
  ieoReleaseOf,
  ieoSettlementTransfers,
  ieoTranchesOf,
} from '../../core/state/ieo-rules.ts';
import { badRequest, conflict, forbidden, notFound } from '../../http/errors.ts';
import { BULK_MAX, type Ledger, type TransferInput, userAccount } from '../../ledger/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import type { Db, Executor, Trx } from '../../store/database.ts';
import { sanitizeHtml } from '../content/sanitize.ts';
import type { IdentityService } from '../identity/index.ts';
import { insertCommissions, promotionRebateRow } from '../referral/index.ts';
import { CoreSales } from './core-sales.ts';
import {
  type CommitTotalRow,
  type DueTrancheRow,
  type OrderRow,
  type ProjectRow,
  ieoStore as sql,
  type TrancheRow,
} from './store.ts';

export interface IeoServiceOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  /** Commit-mode orders settled per ledger transaction (tests make it small; the state's batch is fixed). */
  distributeBatch?: number;
  /**
   * The sequenced core (issue 19's cut-over): the sales' money, the
   * subscriptions and the clock's work are the state's commands
   * (core-sales.ts); the checks and the project rows stay here.
   */
  core?: MoneyCoreHandle;
  /** On the core: before a subscription, the subscriber's inviter (who earns its rebate) reaches the state (ReferralOnCore.beforeFee). */
  beforeFee?: (userId: number) => Promise<void>;
}

/** Tranches released, and commit-mode orders settled, per ledger transaction (each holds the ledger's lock: keep it short). */
const RELEASE_BATCH = 500;
/** Owed promotion rebates paid per ledger transaction. */
const REBATE_BATCH = 500;

function throwIf(error: RuleError | null): void {
  if (error) throw badRequest(error.key, error.params);
}

interface Terms {
  coin: string;
  mode: IeoMode;
  total: Dec;
  tokenDecimals: number;
  payCoins: IeoPayCoin[];
  min: Dec;
  max: Dec;
  gift: Dec;
  rebate: Dec;
  vesting: IeoVesting;
}

function termsOf(row: ProjectRow): Terms {
  return {
    coin: row.coin,
    mode: row.mode as IeoMode,
    total: Dec.parse(row.total),
    tokenDecimals: Number(row.token_decimals),
    payCoins: JSON.parse(row.pay_coins) as IeoPayCoin[],
    min: Dec.parse(row.min_number),
    max: Dec.parse(row.max_number),
    gift: Dec.parse(row.gift),
    rebate: Dec.parse(row.rebate),
    vesting: vestingOf(JSON.parse(row.vesting) as LooseVesting),
  };
}

/** A project row's money terms, as the edge sends them to the money state (`ieoSale`). */
export function ieoSaleTermsOf(row: ProjectRow): IeoSaleTerms {
  const terms = termsOf(row);
  return {
    coin: row.coin,
    mode: terms.mode,
    total: terms.total.toString(),
    tokenDecimals: terms.tokenDecimals,
    payCoins: terms.payCoins,
    minNumber: terms.min.toString(),
    maxNumber: terms.max.toString(),
    gift: terms.gift.toString(),
    rebate: terms.rebate.toString(),
    vesting: terms.vesting,
    startAt: Number(row.start_at),
    endAt: Number(row.end_at),
  };
}

/** A schedule as the operator route sends it (defaults filled) or as stored (rows from before linear vesting have no kind). */
type LooseVesting = {
  kind?: string;
  cliffDays: number;
  tranches?: number;
  intervalDays?: number;
  durationDays?: number;
};

function vestingOf(raw: LooseVesting): IeoVesting {
  if (raw.kind === 'linear')
    return { kind: 'linear', cliffDays: raw.cliffDays, durationDays: raw.durationDays ?? 0 };
  return {
    kind: 'tranches',
    cliffDays: raw.cliffDays,
    tranches: raw.tranches ?? 1,
    intervalDays: raw.intervalDays ?? 0,
  };
}

/** What the project's treasury is funded with: the supply and the most the gift rule can give on it. */
function fundingOf(terms: Terms): Dec {
  return ieoFundingOf(terms.total, terms.gift, terms.tokenDecimals);
}

/** Where a project's tokens vest (ieo-rules.ts). */
function vestingOfProject(project: ProjectRow, terms: Terms): IeoVestingOf {
  return {
    projectId: Number(project.id),
    coin: project.coin,
    tokenDecimals: terms.tokenDecimals,
    vesting: terms.vesting,
    endAt: Number(project.end_at),
  };
}

function textIn(texts: IeoTexts, locale: Locale): string {
  return (Object.hasOwn(texts, locale) ? texts[locale] : undefined) ?? texts.en ?? '';
}

function sanitizeTexts(texts: IeoTexts): IeoTexts {
  const clean: IeoTexts = {};
  for (const [locale, html] of Object.entries(texts))
    if (typeof html === 'string') clean[locale] = sanitizeHtml(html);
  return clean;
}

export class IeoService {
  /** The money's commands when the server runs on the core; null on the SQL path. */
  private readonly onCore: CoreSales | null;

  constructor(private readonly options: IeoServiceOptions) {
    this.onCore = options.core ? new CoreSales(options.core, options.clock) : null;
  }

  private get db(): Db {
    return this.options.db;
  }

  // ── operator ──────────────────────────────────────────────────────────

  /** Creates a project and funds its treasury account with its supply (and gift reserve) from the exchange treasury. */
  async createProject(input: IeoProjectInput, demoKey: string | null = null): Promise<IeoProject> {
    this.checkTerms(input);
    const { ledger, clock } = this.options;
    const now = clock.now();
    const columns = {
      ...this.termColumns(input),
      state: 'not_open',
      sold: '0',
      salt: randomBytes(16).toString('hex'),
      demo_key: demoKey,
      created_at: now,
      updated_at: now,
    };
    const { onCore } = this;
    if (onCore) {
      // The row first (no money), then its terms to the state, which funds and advances the sale.
      const row = await sql.insertProject(this.db, columns);
      await onCore.sale(this.saleOf(row), { fundWhy: 'create', defundWhy: '' });
      return this.view(await this.requireProject(Number(row.id)), 'en');
    }
    const row = await ledger.transaction(async (trx) => {
      const project = await sql.insertProject(trx, columns);
      await ledger.execute([this.fundTransfer(project, 'create')], trx);
      return project;
    });
    await this.advance(Number(row.id));
    return this.view(await this.requireProject(Number(row.id)), 'en');
  }

  /**
   * Terms freeze when the window opens (issue 15): before, an edit replaces
   * them (the treasury is funded anew); once open, an edit cancels the
   * project and refunds everyone; after the window, nothing changes.
   */
  async editProject(
    id: number,
    input: IeoProjectInput,
  ): Promise<{ project: IeoProject; cancelled: boolean }> {
    this.checkTerms(input);
    await this.advance(id);
    const { ledger, clock } = this.options;
    const current = await this.requireProject(id);
    if (current.state === 'open') {
      await this.cancelProject(id);
      return { project: this.view(await this.requireProject(id), 'en'), cancelled: true };
    }
    if (current.state !== 'not_open') throw conflict('ieo.termsFrozen');
    const now = clock.now();
    if (this.onCore) return this.editOnCore(current, { ...this.termColumns(input), updated_at: now });
    await ledger.transaction(async (trx) => {
      const project = await sql.project(trx, id);
      if (project?.state !== 'not_open') throw conflict('ieo.termsFrozen');
      const columns = { ...this.termColumns(input), updated_at: now };
      await sql.updateProject(trx, id, columns);
      await ledger.execute(
        // Written in the same transaction as the new terms: a fresh id per edit, no retry to recognise.
        [
          this.defundTransfer(project, randomUUID()),
          this.fundTransfer({ ...project, ...columns }, randomUUID()),
        ],
        trx,
      );
    });
    await this.advance(id);
    return { project: this.view(await this.requireProject(id), 'en'), cancelled: false };
  }

  /**
   * On the core, new terms for a sale not open yet: the state replaces its
   * funding first (or cancels it, should it have opened meanwhile), then the
   * row takes the terms (CoreSales.edit).
   */
  private async editOnCore(
    current: ProjectRow,
    columns: ReturnType<IeoService['termColumns']> & { updated_at: number },
  ): Promise<{ project: IeoProject; cancelled: boolean }> {
    const id = Number(current.id);
    const sale = this.saleOf({ ...current, ...columns });
    const { cancelled } = await this.onCore!.edit(sale, () => sql.updateProject(this.db, id, columns));
    return { project: this.view(await this.requireProject(id), 'en'), cancelled };
  }

  /** A project row's sale as the state takes it. */
  private saleOf(row: ProjectRow) {
    return { projectId: Number(row.id), terms: ieoSaleTermsOf(row), salt: row.salt };
  }

  private checkTerms(input: IeoProjectInput): void {
    throwIf(
      checkIeoProjectTerms({
        ...input,
        vesting: vestingOf(input.vesting),
        prices: input.payCoins.map((pay) => pay.price),
      }),
    );
    const coins = new Set(input.payCoins.map((pay) => pay.paycoin));
    if (coins.size !== input.payCoins.length || coins.has(input.coin))
      throw badRequest('ieo.termsInvalid', { field: 'payCoins' });
  }

  private termColumns(input: IeoProjectInput) {
    return {
      coin: input.coin,
      name: input.name,
      mode: input.mode,
      start_at: input.startTime,
      end_at: input.endTime,
      total: Dec.canonical(input.total),
      token_decimals: input.tokenDecimals,
      min_number: Dec.canonical(input.minNumber),
      max_number: Dec.canonical(input.maxNumber),
      gift: Dec.canonical(input.gift),
      rebate: Dec.canonical(input.rebate),
      require_kyc: input.kycLevel === 'identity' ? 1 : 0,
      pay_coins: JSON.stringify(
        input.payCoins.map((pay) => ({ paycoin: pay.paycoin, price: Dec.canonical(pay.price) })),
      ),
      vesting: JSON.stringify(vestingOf(input.vesting)),
      refused_area_codes: JSON.stringify(input.refusedAreaCodes),
      intro: JSON.stringify(sanitizeTexts(input.intro)),
      announcement: JSON.stringify(sanitizeTexts(input.announcement)),
    };
  }

  /** The project's supply (and gift reserve) from the exchange treasury (`why` makes the transfer's id unique). */
  private fundTransfer(project: ProjectRow, why: string): TransferInput {
    return ieoFundTransfer(
      { id: Number(project.id), coin: project.coin },
      fundingOf(termsOf(project)),
      why,
      'fund',
    );
  }

  /** The project's unsold tokens back to the exchange treasury (`why` makes the transfer's id unique). */
  private defundTransfer(project: ProjectRow, why: string): TransferInput {
    return ieoFundTransfer(
      { id: Number(project.id), coin: project.coin },
      fundingOf(termsOf(project)).sub(Dec.parse(project.sold)),
      why,
      'defund',
    );
  }

  /**
   * Cancels a project that has not been allocated: every payment and
   * commitment goes back to its subscriber's spot wallet, every token
   * delivered goes back to the project, the project's tokens to the treasury.
   */
  async cancelProject(id: number): Promise<void> {
    if (this.onCore) return this.onCore.cancel(id);
    const { ledger, clock } = this.options;
    const now = clock.now();
    await ledger.transaction(async (trx) => {
      const project = await sql.project(trx, id);
      if (!project) throw notFound('ieo.projectNotFound');
      if (!ieoCancellable(project.state)) throw conflict('ieo.termsFrozen');
      const orders = await sql.projectOrders(trx, id);
      const transfers: TransferInput[] = [];
      for (const order of orders)
        transfers.push(
          ...this.refundTransfers(project, order, await sql.tranchesOf(trx, [Number(order.id)])),
        );
      for (const order of orders) {
        await sql.deleteUnreleasedTranches(trx, Number(order.id));
        await sql.updateOrder(trx, Number(order.id), {
          state: 'cancelled',
          refund: order.amount,
          spent: '0',
          tokens: '0',
          gift: '0',
        });
      }
      await sql.cancelOwedRebates(
        trx,
        orders.map((order) => Number(order.id)),
      );
      transfers.push(this.defundTransfer({ ...project, sold: '0' }, 'cancel'));
      await this.executeAll(transfers, trx);
      await sql.updateProject(trx, id, { state: 'cancelled', sold: '0', updated_at: now });
    });
  }

  private refundTransfers(project: ProjectRow, order: OrderRow, tranches: TrancheRow[]): TransferInput[] {
    return ieoRefundTransfers(
      { id: Number(project.id), coin: project.coin },
      {
        orderId: Number(order.id),
        userId: Number(order.user_id),
        paycoin: order.paycoin,
        amount: Dec.parse(order.amount),
        state: order.state,
        holds: Number(order.holds),
        delivered: Dec.parse(order.tokens).add(Dec.parse(order.gift)),
        trancheSeqs: tranches.map((tranche) => Number(tranche.seq)),
      },
    );
  }

  /**
   * A project's promotion rebates: owed (an FCFS sale until it ends), paid
   * (with the transfer that paid it and when) or cancelled with the project.
   */
  async rebates(projectId: number) {
    return (await sql.rebatesOfProject(this.db, projectId)).map((row) => ({
      orderId: Number(row.order_id),
      inviterId: Number(row.inviter_id),
      coin: row.coin,
      amount: Dec.canonical(row.amount),
      state: row.state,
      paidBy: row.paid_by,
      paidAt: row.paid_at === null ? null : Number(row.paid_at),
    }));
  }

  // ── reads ─────────────────────────────────────────────────────────────

  /** The tokens users may hold from a launch (the wallet lists them beside its own coins). */
  launchedCoins(): Promise<string[]> {
    return sql.launchedCoins(this.db);
  }

  async list(locale: Locale, state: IeoState | null): Promise<IeoProject[]> {
    const rows = await sql.projects(this.db, state ? [state] : null);
    const totals = await sql.commitTotals(
      this.db,
      rows.filter((row) => row.mode === 'commit').map((row) => Number(row.id)),
    );
    return rows.map((row) =>
      this.view(
        row,
        locale,
        totals.filter((total) => Number(total.project_id) === Number(row.id)),
      ),
    );
  }

  async project(id: number, locale: Locale): Promise<IeoProject> {
    const row = await this.requireProject(id);
    return this.view(row, locale, await sql.commitTotals(this.db, [id]));
  }

  private async requireProject(id: number, db: Executor = this.db): Promise<ProjectRow> {
    const row = await sql.project(db, id);
    if (!row) throw notFound('ieo.projectNotFound');
    return row;
  }

  /** `totals`: the project's running commit totals (commit mode; one pay coin). */
  private view(row: ProjectRow, locale: Locale, totals: CommitTotalRow[] = []): IeoProject {
    const terms = termsOf(row);
    const committed = Dec.sum(totals.map((total) => Dec.parse(total.committed)));
    const participants = totals.reduce((sum, total) => sum + Number(total.participants), 0);
    const price = Dec.parse(terms.payCoins[0]?.price ?? '0');
    const worth = terms.total.mul(price);
    return {
      id: Number(row.id),
      coin: row.coin,
      name: row.name,
      mode: terms.mode,
      state: row.state as IeoState,
      startTime: Number(row.start_at),
      endTime: Number(row.end_at),
      total: terms.total.toString(),
      remaining: terms.total.sub(Dec.parse(row.sold)).toString(),
      tokenDecimals: terms.tokenDecimals,
      lockDays: terms.vesting.cliffDays,
      vesting: terms.vesting,
      payCoins: terms.payCoins,
      minNumber: terms.min.toString(),
      maxNumber: terms.max.toString(),
      gift: terms.gift.toString(),
      rebate: terms.rebate.toString(),
      kycLevel: Number(row.require_kyc) === 1 ? 'identity' : 'none',
      refusedAreaCodes: JSON.parse(row.refused_area_codes) as string[],
      intro: textIn(JSON.parse(row.intro) as IeoTexts, locale),
      announcement: textIn(JSON.parse(row.announcement) as IeoTexts, locale),
      committed: committed.toString(),
      participants,
      ratio: worth.isPositive() ? committed.div(worth).floorTo(4).toString() : '0',
      now: this.options.clock.now(),
    };
  }

  /** Spec §7 findPayCoinByCoin: the pay coins of the token's open (or next) project, with the user's balances. */
  async payCoins(coin: string, userId: number | null): Promise<IeoPayCoinBalance[]> {
    const rows = (await sql.projects(this.db, ['open', 'not_open'])).filter((row) => row.coin === coin);
    const row = rows.find((candidate) => candidate.state === 'open') ?? rows[0];
    if (!row) throw notFound('ieo.projectNotFound');
    const payCoins = termsOf(row).payCoins;
    const balances = userId
      ? await this.options.ledger.balancesOf(
          payCoins.map((pay) => ({ ...userAccount(userId, 'spot'), asset: pay.paycoin })),
        )
      : [];
    return payCoins.map((pay, index) => ({
      ...pay,
      projectId: Number(row.id),
      balance: balances[index]?.available.toString() ?? '0',
    }));
  }

  async orders(userId: number, page: number, limit: number): Promise<IeoOrder[]> {
    const rows = await sql.userOrders(this.db, userId, (page - 1) * limit, limit);
    const tranches = await sql.tranchesOf(
      this.db,
      rows.map((row) => Number(row.id)),
    );
    const projects = new Map<number, ProjectRow>();
    for (const row of rows) {
      const id = Number(row.project_id);
      if (!projects.has(id)) projects.set(id, await this.requireProject(id));
    }
    return rows.map((row) =>
      this.orderView(
        row,
        projects.get(Number(row.project_id)) as ProjectRow,
        tranches.filter((tranche) => Number(tranche.order_id) === Number(row.id)),
      ),
    );
  }

  private orderView(row: OrderRow, project: ProjectRow, tranches: TrancheRow[]): IeoOrder {
    let locked = Dec.ZERO;
    let released = Dec.ZERO;
    let next: IeoOrder['nextRelease'] = null;
    for (const tranche of tranches) {
      const out = Dec.parse(tranche.released_amount);
      const left = Dec.parse(tranche.amount).sub(out);
      released = released.add(out);
      locked = locked.add(left);
      if (next === null && left.isPositive())
        next = { releaseAt: Number(tranche.release_at), until: untilOf(tranche), amount: left.toString() };
    }
    const stateOf = (): IeoOrderState => {
      if (row.state === 'committed') return 'committed';
      if (row.state === 'cancelled' || tranches.length === 0) return 'refunded';
      return locked.isPositive() ? 'locked' : 'released';
    };
    return {
      id: Number(row.id),
      projectId: Number(project.id),
      coin: project.coin,
      name: project.name,
      mode: project.mode as IeoMode,
      paycoin: row.paycoin,
      price: Dec.canonical(row.price),
      amount: Dec.canonical(row.amount),
      spent: Dec.canonical(row.spent),
      refund: Dec.canonical(row.refund),
      tokens: Dec.canonical(row.tokens),
      gift: Dec.canonical(row.gift),
      locked: locked.toString(),
      released: released.toString(),
      nextRelease: next,
      tranches: tranches.map((tranche) => ({
        seq: Number(tranche.seq),
        releaseAt: Number(tranche.release_at),
        until: untilOf(tranche),
        amount: Dec.canonical(tranche.amount),
        releasedAmount: Dec.canonical(tranche.released_amount),
        released: tranche.released_at !== null,
      })),
      state: stateOf(),
      time: Number(row.created_at),
    };
  }

  /** Commit mode: every commitment by anonymised id, with its allocation once made (issue 15: anyone can recompute). */
  async publicCommits(projectId: number): Promise<IeoPublicCommit[]> {
    const project = await this.requireProject(projectId);
    if (project.mode !== 'commit') throw badRequest('ieo.notCommitMode');
    const allocated = project.state === 'ended' || project.state === 'distributing';
    return (await sql.projectOrders(this.db, projectId)).map((order) => ({
      anonId: order.anon_id,
      committed: Dec.canonical(order.amount),
      tokens: allocated ? Dec.canonical(order.tokens) : null,
    }));
  }

  /** The signed-in user's allocation proof for a commit-mode project, once allocated. */
  async proof(userId: number, projectId: number): Promise<IeoAllocationProof> {
    const project = await this.requireProject(projectId);
    const summary = await sql.allocation(this.db, projectId);
    const order = await sql.userOrderOfProject(this.db, userId, projectId);
    if (!summary || !order) throw notFound('ieo.proofNotFound');
    const saved = JSON.parse(summary) as AllocationSummary;
    const terms = termsOf(project);
    const price = Dec.parse(terms.payCoins[0]?.price ?? '0');
    const committed = Dec.parse(order.amount);
    return {
      projectId,
      anonId: order.anon_id,
      supply: terms.total.toString(),
      price: price.toString(),
      cap: terms.max.toString(),
      tokenDecimals: terms.tokenDecimals,
      totalCommitted: saved.totalCommitted,
      participants: saved.participants,
      oversubscribed: saved.oversubscribed,
      committed: committed.toString(),
      need: needOf(committed, this.commitTerms(terms)).toString(),
      rounds: saved.rounds,
      servedInRound: order.served_round === null ? null : Number(order.served_round),
      finalPool: saved.finalPool,
      finalWeight: saved.finalWeight,
      tokens: Dec.canonical(order.tokens),
      spent: Dec.canonical(order.spent),
      refund: Dec.canonical(order.refund),
    };
  }

  // ── subscribing ───────────────────────────────────────────────────────

  /**
   * POST /ieo/addIeoOrder. FCFS pays and receives locked tokens at once;
   * commit mode holds the amount until the window ends. Both run inside one
   * ledger transaction (the ledger's lock serialises them), which re-reads
   * what is left: a burst for the last units never oversells, and the
   * project's treasury account, which may not go negative, could not deliver
   * a token it does not have anyway.
   */
  async subscribe(
    userId: number,
    input: { projectId: number; paycoin: string; amount: string },
  ): Promise<IeoOrder> {
    const { ledger, clock } = this.options;
    const project = await this.requireProject(input.projectId);
    const terms = termsOf(project);
    const pay = terms.payCoins.find((candidate) => candidate.paycoin === input.paycoin);
    if (!pay) throw badRequest('ieo.payCoinNotAccepted', { coin: input.paycoin });
    const inviterId = await this.checkEligible(userId, project);
    // On the core the state checks the window, the amount and the balance, in this order, and decides.
    if (this.onCore) {
      await this.options.beforeFee?.(userId);
      const { order, tranches } = await this.onCore.subscribe(userId, input);
      return this.orderView(order, project, tranches);
    }
    const usable = (await ledger.balance({ ...userAccount(userId, 'spot'), asset: pay.paycoin })).available;
    const order = await ledger.transaction(async (trx) => {
      const live = await this.requireProject(input.projectId, trx);
      const now = clock.now();
      if (live.state === 'cancelled') throw conflict('ieo.projectCancelled');
      if (now < Number(live.start_at)) throw conflict('ieo.notOpen');
      if (now >= Number(live.end_at) || (live.state !== 'open' && live.state !== 'not_open'))
        throw conflict('ieo.ended');
      const bought = Dec.sum(
        (await sql.userTokens(trx, userId, input.projectId)).map((text) => Dec.parse(text)),
      );
      throwIf(
        checkIeoSubscription({
          amount: input.amount,
          price: pay.price,
          tokenDecimals: terms.tokenDecimals,
          usable: usable.toString(),
          minNumber: terms.min.toString(),
          maxNumber: terms.max.toString(),
          remaining: terms.mode === 'fcfs' ? terms.total.sub(Dec.parse(live.sold)).toString() : null,
          bought: bought.toString(),
        }),
      );
      return terms.mode === 'fcfs'
        ? this.buyFcfs(trx, live, terms, { userId, inviterId }, pay, input, now)
        : this.commit(trx, live, userId, pay, input, now);
    });
    return this.orderOf(order);
  }

  private async orderOf(row: OrderRow): Promise<IeoOrder> {
    const project = await this.requireProject(Number(row.project_id));
    return this.orderView(row, project, await sql.tranchesOf(this.db, [Number(row.id)]));
  }

  /** Refuses a frozen, unverified (when required) or refused-region user; answers their inviter. */
  private async checkEligible(userId: number, project: ProjectRow): Promise<number | null> {
    const { identity } = this.options;
    await identity.assertNotFrozen(userId);
    const user = await identity.getUser(userId);
    if (Number(project.require_kyc) === 1 && user.kyc !== 'succeeded') throw forbidden('ieo.kycRequired');
    const refused = JSON.parse(project.refused_area_codes) as string[];
    if (user.areaCode !== null && refused.includes(user.areaCode)) throw forbidden('ieo.regionRefused');
    return user.parentId;
  }

  private async buyFcfs(
    trx: Trx,
    project: ProjectRow,
    terms: Terms,
    { userId, inviterId }: { userId: number; inviterId: number | null },
    pay: IeoPayCoin,
    input: { amount: string },
    now: number,
  ): Promise<OrderRow> {
    const price = Dec.parse(pay.price);
    const { tokens, cost, gift } = ieoPurchaseOf(
      Dec.parse(input.amount),
      price,
      terms.gift,
      terms.tokenDecimals,
    );
    const projectId = Number(project.id);
    const order = await sql.insertOrder(trx, {
      project_id: projectId,
      user_id: userId,
      paycoin: pay.paycoin,
      price: price.toString(),
      amount: cost.toString(),
      holds: 0,
      spent: cost.toString(),
      refund: '0',
      tokens: tokens.toString(),
      gift: gift.toString(),
      state: 'paid',
      anon_id: ieoAnonIdOf(project.salt, userId),
      served_round: null,
      created_at: now,
    });
    await this.options.ledger.execute(
      [
        ieoPayTransfer({ orderId: Number(order.id), userId, projectId }, pay.paycoin, cost),
        ...this.deliveryTransfers(project, terms, order, tokens.add(gift)),
      ],
      trx,
    );
    // Owed until the sale ends: a cancel refunds every payment from the proceeds the rebate would come from.
    await this.recordDelivery(trx, project, terms, order, tokens.add(gift), {
      spent: cost,
      inviterId,
      payNow: false,
    });
    await sql.updateProject(trx, projectId, { sold: Dec.parse(project.sold).add(tokens).toString() });
    return order;
  }

  /** Tokens from the project's treasury into the user's IEO wallet, each tranche held there until it vests. */
  private deliveryTransfers(
    project: ProjectRow,
    terms: Terms,
    order: OrderRow,
    delivered: Dec,
  ): TransferInput[] {
    return ieoDeliveryTransfers(
      vestingOfProject(project, terms),
      { orderId: Number(order.id), userId: Number(order.user_id) },
      delivered,
    );
  }

  /**
   * The tranche rows of a delivery and the inviter's promotion rebate:
   * `payNow` (a commit-mode sale being distributed, which can no longer be
   * cancelled) pays it in this transaction and answers its transfer, to be
   * written after the payments it comes from; otherwise it is owed until the
   * sale ends ({@link payOwedRebates}).
   */
  private async recordDelivery(
    trx: Trx,
    project: ProjectRow,
    terms: Terms,
    order: OrderRow,
    delivered: Dec,
    { spent, inviterId, payNow }: { spent: Dec; inviterId: number | null; payNow: boolean },
  ): Promise<TransferInput[]> {
    const orderId = Number(order.id);
    const userId = Number(order.user_id);
    if (delivered.isPositive()) {
      await sql.insertTranches(
        trx,
        ieoTranchesOf(vestingOfProject(project, terms), delivered).map((tranche) => ({
          order_id: orderId,
          seq: tranche.seq,
          user_id: userId,
          coin: project.coin,
          release_at: tranche.releaseAt,
          until: tranche.until,
          amount: tranche.amount.toString(),
          released_amount: '0',
          next_release_at: tranche.releaseAt,
          released_at: null,
        })),
      );
    }
    const rebate = ieoRebateOf(spent, terms.rebate);
    if (inviterId === null || !rebate.isPositive()) return [];
    const now = this.options.clock.now();
    await sql.insertRebate(trx, {
      order_id: orderId,
      inviter_id: inviterId,
      coin: order.paycoin,
      amount: rebate.toString(),
      state: 'owed',
      created_at: now,
      paid_by: null,
      paid_at: null,
    });
    if (!payNow) return [];
    return [
      await this.payRebate(
        trx,
        { orderId, projectId: Number(project.id), inviterId, buyerId: userId, coin: order.paycoin },
        { amount: rebate, spent, rate: terms.rebate },
        now,
      ),
    ];
  }

  /**
   * Pays one owed rebate: marks it paid, adds it to the inviter's commission
   * records (product `ieo`) and answers the transfer that pays it, from the
   * project's account (its proceeds in the pay coin) to the inviter's spot
   * wallet, to run in the same transaction. The transfer's id is the order's:
   * the ledger refuses a second one.
   */
  private async payRebate(
    trx: Trx,
    who: { orderId: number; projectId: number; inviterId: number; buyerId: number; coin: string },
    what: { amount: Dec; spent: Dec; rate: Dec },
    now: number,
  ): Promise<TransferInput> {
    const reference = `ieo:order:${who.orderId}`;
    const transferId = `${reference}:rebate`;
    if (!(await sql.markRebatePaid(trx, who.orderId, transferId, now)))
      throw new Error(`ieo: rebate of order ${who.orderId} is not owed`);
    await insertCommissions(trx, [
      promotionRebateRow({
        transferId,
        orderReference: reference,
        inviterId: who.inviterId,
        buyerId: who.buyerId,
        coin: who.coin,
        paid: what.spent.toString(),
        rate: what.rate.toString(),
        amount: what.amount.toString(),
        time: now,
      }),
    ]);
    return ieoRebateTransfer(who, what.amount);
  }

  /**
   * Pays the rebates still owed on sales that can no longer be cancelled (an
   * FCFS sale once it has ended; rows owed from before rebates were paid), a
   * batch per ledger transaction, each marked paid in the transaction that
   * pays it: a restart carries on with what is still owed, and nothing is
   * paid twice. Answers how many were paid.
   */
  async payOwedRebates(): Promise<number> {
    const { ledger, clock } = this.options;
    let paid = 0;
    for (;;) {
      // Looked for before taking the ledger's lock, which trading waits for: most ticks find nothing.
      if ((await sql.payableRebates(this.db, 1)).length === 0) return paid;
      const count = await ledger.transaction(async (trx) => {
        const due = await sql.payableRebates(trx, REBATE_BATCH);
        const now = clock.now();
        const transfers: TransferInput[] = [];
        for (const row of due) {
          transfers.push(
            await this.payRebate(
              trx,
              {
                orderId: Number(row.order_id),
                projectId: Number(row.project_id),
                inviterId: Number(row.inviter_id),
                buyerId: Number(row.user_id),
                coin: row.coin,
              },
              { amount: Dec.parse(row.amount), spent: Dec.parse(row.spent), rate: Dec.parse(row.rate) },
              now,
            ),
          );
        }
        await this.executeAll(transfers, trx);
        return due.length;
      });
      paid += count;
      if (count < REBATE_BATCH) return paid;
    }
  }

  private async commit(
    trx: Trx,
    project: ProjectRow,
    userId: number,
    pay: IeoPayCoin,
    input: { amount: string },
    now: number,
  ): Promise<OrderRow> {
    const amount = Dec.parse(input.amount);
    const projectId = Number(project.id);
    const existing = await sql.userOrderOfProject(trx, userId, projectId);
    const order =
      existing ??
      (await sql.insertOrder(trx, {
        project_id: projectId,
        user_id: userId,
        paycoin: pay.paycoin,
        price: Dec.canonical(pay.price),
        amount: '0',
        holds: 0,
        spent: '0',
        refund: '0',
        tokens: '0',
        gift: '0',
        state: 'committed',
        anon_id: ieoAnonIdOf(project.salt, userId),
        served_round: null,
        created_at: now,
      }));
    const holds = Number(order.holds) + 1;
    const orderId = Number(order.id);
    // One order per user and project, each commitment a further hold.
    await this.options.ledger.execute(
      [ieoCommitHold({ orderId, userId, projectId }, holds, pay.paycoin, amount)],
      trx,
    );
    const total = Dec.parse(order.amount).add(amount).toString();
    await sql.updateOrder(trx, orderId, { amount: total, holds });
    await sql.addCommit(trx, projectId, pay.paycoin, {
      committed: (before) => Dec.parse(before).add(amount).toString(),
      participants: existing ? 0 : 1,
    });
    return { ...order, amount: total, holds };
  }

  // ── the clock's work ─────────────────────────────────────────────────

  /** Moves every project the clock has passed, pays the rebates that became payable, releases the tranches that are due. Idempotent. */
  async tick(): Promise<void> {
    if (this.onCore) return this.onCore.tick();
    for (const project of await sql.liveProjects(this.db)) await this.advance(Number(project.id));
    await this.payOwedRebates();
    await this.releaseDue();
  }

  /**
   * Brings one project to the state its window says: not open → open at the
   * start; at the end, FCFS → ended, commit → calculating → distributing →
   * ended. Each step is a conditional update, so a step interrupted by a
   * restart is taken again and a step already taken is not.
   */
  async advance(id: number): Promise<void> {
    if (this.onCore) return this.onCore.advance(id);
    const { clock } = this.options;
    let project = await this.requireProject(id);
    const now = clock.now();
    if (project.state === 'not_open' && now >= Number(project.start_at)) {
      await sql.moveState(this.db, id, 'not_open', 'open', now);
      project = await this.requireProject(id);
    }
    if (project.state === 'open' && now >= Number(project.end_at)) {
      // Through the ledger's lock: a subscription in flight finishes before the window closes behind it.
      await this.options.ledger.transaction((trx) =>
        sql.moveState(trx, id, 'open', project.mode === 'fcfs' ? 'ended' : 'calculating', now),
      );
      project = await this.requireProject(id);
    }
    if (project.state === 'calculating') await this.allocate(project);
    project = await this.requireProject(id);
    if (project.state === 'distributing') await this.distribute(project);
  }

  private commitTerms(terms: Terms) {
    return {
      supply: terms.total,
      price: Dec.parse(terms.payCoins[0]?.price ?? '0'),
      cap: terms.max,
      tokenDecimals: terms.tokenDecimals,
      payDecimals: IEO_PAY_DECIMALS,
    };
  }

  /** Commit mode, calculating: the pure allocation of every commitment, recorded with its rounds. */
  private async allocate(project: ProjectRow): Promise<void> {
    const id = Number(project.id);
    const orders = await sql.projectOrders(this.db, id);
    const terms = termsOf(project);
    const { settled, result } = settleCommits(
      orders.map((order) => Dec.parse(order.amount)),
      this.commitTerms(terms),
    );
    const now = this.options.clock.now();
    await this.db.transaction().execute(async (trx) => {
      if (!(await sql.moveState(trx, id, 'calculating', 'distributing', now))) return;
      await sql.insertAllocation(
        trx,
        id,
        JSON.stringify(
          allocationSummaryOf(
            result,
            orders.map((order) => Dec.parse(order.amount)),
          ),
        ),
        now,
      );
      let sold = Dec.ZERO;
      for (const [index, order] of orders.entries()) {
        const outcome = settled[index];
        if (!outcome) continue;
        sold = sold.add(outcome.tokens);
        await sql.updateOrder(trx, Number(order.id), {
          tokens: outcome.tokens.toString(),
          gift: ieoGiftOf(outcome.tokens, terms.gift, terms.tokenDecimals).toString(),
          spent: outcome.spent.toString(),
          refund: outcome.refund.toString(),
          served_round: result.servedInRound[index] ?? null,
        });
      }
      await sql.updateProject(trx, id, { sold: sold.toString() });
    });
  }

  /**
   * Commit mode, distributing: post what each commitment spent, void the
   * rest, deliver locked tokens. A batch of orders per ledger transaction
   * (each holds the ledger's lock: trading waits for it), each batch marking
   * its orders allocated, so a restart carries on where it stopped.
   */
  private async distribute(project: ProjectRow): Promise<void> {
    const id = Number(project.id);
    const terms = termsOf(project);
    const { ledger, clock, identity, distributeBatch = IEO_DISTRIBUTE_BATCH } = this.options;
    for (;;) {
      // Read before the ledger's transaction: on SQLite its one connection is taken until commit.
      const inviters = new Map<number, number | null>();
      for (const order of await sql.committedOrders(this.db, id, distributeBatch)) {
        const userId = Number(order.user_id);
        if (!inviters.has(userId)) inviters.set(userId, (await identity.getUser(userId)).parentId);
      }
      const finished = await ledger.transaction(async (trx) => {
        const live = await this.requireProject(id, trx);
        if (live.state !== 'distributing') return true;
        const pending = await sql.committedOrders(trx, id, distributeBatch);
        if (pending.length === 0) return sql.moveState(trx, id, 'distributing', 'ended', clock.now());
        // Orders read after the inviters were looked up wait for the next batch.
        const orders = pending.filter((order) => inviters.has(Number(order.user_id)));
        const transfers: TransferInput[] = [];
        const rebates: TransferInput[] = [];
        for (const order of orders) {
          transfers.push(...(await this.settlementTransfers(trx, order)));
          const delivered = Dec.parse(order.tokens).add(Dec.parse(order.gift));
          transfers.push(...this.deliveryTransfers(live, terms, order, delivered));
          rebates.push(
            ...(await this.recordDelivery(trx, live, terms, order, delivered, {
              spent: Dec.parse(order.spent),
              inviterId: inviters.get(Number(order.user_id)) ?? null,
              payNow: true,
            })),
          );
          await sql.updateOrder(trx, Number(order.id), { state: 'allocated' });
        }
        // The rebates last: paid from the proceeds the posts above have just moved into the project's account.
        await this.executeAll([...transfers, ...rebates], trx);
        return false;
      });
      if (finished) return;
    }
  }

  /** Posts what an order spent from its commitment holds, in order, and voids what each still holds beyond that. */
  private async settlementTransfers(trx: Trx, order: OrderRow): Promise<TransferInput[]> {
    const orderId = Number(order.id);
    const held: Dec[] = [];
    for (let n = 1; n <= Number(order.holds); n += 1)
      held.push((await this.options.ledger.hold(ieoCommitHoldId(orderId, n), trx))?.remaining ?? Dec.ZERO);
    return ieoSettlementTransfers(orderId, held, Dec.parse(order.spent));
  }

  private async executeAll(transfers: TransferInput[], trx: Trx): Promise<void> {
    for (let start = 0; start < transfers.length; start += BULK_MAX)
      await this.options.ledger.executeBulk(transfers.slice(start, start + BULK_MAX), trx);
  }

  /**
   * Posts what has vested of every tranche whose release has begun: a whole
   * tranche at its time, a linear one by what vested since the last tick
   * (ieoVestedOf, floored; the last release takes the remainder). Each
   * release is recorded in its ledger transaction and only if the tranche
   * still stood where it was read, so a restart or a second tick never
   * releases twice. Answers the number of releases.
   */
  async releaseDue(): Promise<number> {
    const { ledger, clock } = this.options;
    const now = clock.now();
    let releases = 0;
    let after = { orderId: 0, seq: 0 };
    for (;;) {
      const due = await sql.dueTranches(this.db, now, after, RELEASE_BATCH);
      const last = due.at(-1);
      if (!last) return releases;
      releases += await ledger.transaction(async (trx) => {
        const transfers: TransferInput[] = [];
        for (const tranche of due) {
          const transfer = await this.release(trx, tranche, now);
          if (transfer) transfers.push(transfer);
        }
        await this.executeAll(transfers, trx);
        return transfers.length;
      });
      after = { orderId: Number(last.order_id), seq: Number(last.seq) };
      if (due.length < RELEASE_BATCH) return releases;
    }
  }

  /** Records a tranche's release up to what has vested at `now`; the transfer that makes it, or null when nothing is due. */
  private async release(trx: Trx, tranche: DueTrancheRow, now: number): Promise<TransferInput | null> {
    const orderId = Number(tranche.order_id);
    const seq = Number(tranche.seq);
    const release = ieoReleaseOf(
      {
        orderId,
        seq,
        releaseAt: Number(tranche.release_at),
        until: untilOf(tranche),
        amount: Dec.parse(tranche.amount),
        released: Dec.parse(tranche.released_amount),
      },
      now,
      Number(tranche.token_decimals),
    );
    if (!release) return null;
    const recorded = await sql.markReleased(
      trx,
      { orderId, seq, before: tranche.released_amount },
      release.vested.toString(),
      release.releasedAt,
      release.nextReleaseAt,
    );
    return recorded ? release.transfer : null;
  }
}

const untilOf = (tranche: TrancheRow): number | null =>
  tranche.until === null ? null : Number(tranche.until);
