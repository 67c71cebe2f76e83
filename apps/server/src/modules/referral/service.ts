import { Dec } from '@halyard/money';
import type {
  MyTeam,
  ReferralCoinTotal,
  ReferralCommission,
  ReferralCommissionPage,
  ReferralCommissionQuery,
  ReferralDayTotal,
  ReferralExclusion,
  ReferralLevel,
  ReferralProduct,
  ReferralRules,
  ReferralSettings,
  ReferralSummary,
  ReferralTier,
  TeamMember,
} from '@halyard/protocol';
import {
  parseReferralFraction,
  REFERRAL_AMOUNT_DECIMALS,
  REFERRAL_AVERAGE_WINDOW_MS,
  REFERRAL_BIND_WINDOW_DAYS,
  REFERRAL_BIND_WINDOW_MS,
  REFERRAL_HAL_DISCOUNT_MAX,
  REFERRAL_LEVEL_TWO_RATE,
  REFERRAL_PAYOUT_INTERVAL_MS,
  REFERRAL_TIER_TABLE,
  referralNextTier,
} from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { IndexPriceSource } from '../../market/index.ts';
import type { Db } from '../../store/database.ts';
import { ReferralFees } from './fees.ts';
import type { ReferralOnCore } from './on-core.ts';
import { type CommissionEntry, referralStore } from './store.ts';

export interface ReferralServiceOptions {
  db: Db;
  clock: Clock;
  index: IndexPriceSource;
  /** On the sequenced core: profiles and settings are sent to the money state when they change here. */
  onCore?: ReferralOnCore;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** How many days of totals the summary lists. */
const SUMMARY_DAYS = 30;
/** The most rows one CSV export carries (newest first). */
export const CSV_MAX_ROWS = 10_000;
/** Parent links followed, at most, when looking for a cycle (a chain is never this deep). */
const CHAIN_MAX = 1000;

/** A user id with its first and last digits kept ("1***7"). */
export function maskUserId(id: number): string {
  const text = String(id);
  return text.length <= 2 ? `${text[0]}*` : `${text[0]}***${text[text.length - 1]}`;
}

/**
 * Invites, team and commissions (issue 17): binding a code, the user's
 * kickback and HAL fee deduction, the summary with the live tier, the
 * commission ledger and its CSV, the team with what each member earned the
 * user, and the operator's settings. The per-trade path is {@link ReferralFees}.
 */
export class ReferralService {
  readonly fees: ReferralFees;

  constructor(private readonly options: ReferralServiceOptions) {
    this.fees = new ReferralFees(options.db, options.clock, options.index);
  }

  private get db(): Db {
    return this.options.db;
  }

  /** The reward rules as the screens show them. */
  rules(): ReferralRules {
    return {
      tiers: REFERRAL_TIER_TABLE.map((rule) => ({ ...rule })),
      levelTwoRate: REFERRAL_LEVEL_TWO_RATE,
      base: 'fee',
      halDiscount: this.fees.settings.halDiscount.toString(),
      bindWindowDays: REFERRAL_BIND_WINDOW_DAYS,
      averageWindowHours: REFERRAL_AVERAGE_WINDOW_MS / 3_600_000,
      payoutIntervalSeconds: REFERRAL_PAYOUT_INTERVAL_MS / 1000,
    };
  }

  /**
   * Binds an inviter by code: only a user without one, within 14 days of
   * sign-up, never their own code or a code of someone they invited (directly
   * or further down: no cycles).
   */
  async bind(userId: number, rawCode: string): Promise<void> {
    const code = rawCode.trim().toUpperCase();
    if (code === '') throw badRequest('referral.codeRequired');
    const [user] = await referralStore.members(this.db, [userId]);
    if (!user) throw notFound();
    if (user.parent_id !== null) throw conflict('referral.alreadyBound');
    if (this.options.clock.now() - Number(user.created_at) > REFERRAL_BIND_WINDOW_MS)
      throw badRequest('referral.bindWindowClosed', { days: REFERRAL_BIND_WINDOW_DAYS });
    const inviter = await referralStore.memberByCode(this.db, code);
    if (!inviter) throw badRequest('referral.codeUnknown');
    if (Number(inviter.id) === userId) throw badRequest('referral.selfInvite');
    if (await this.isAncestor(userId, inviter.parent_id)) throw badRequest('referral.cycle');
    const now = this.options.clock.now();
    await this.db.transaction().execute(async (trx) => {
      if (!(await referralStore.setParent(trx, userId, Number(inviter.id))))
        throw conflict('referral.alreadyBound');
      const account = await referralStore.account(trx, userId);
      await referralStore.saveAccount(trx, {
        user_id: userId,
        kickback_rate: account?.kickback_rate ?? '0',
        fee_deduction: account?.fee_deduction ?? 0,
        bound_at: now,
        updated_at: now,
      });
    });
    this.fees.forget(userId);
    await this.options.onCore?.sendUser(userId);
  }

  /** True when `userId` is `start` or one of its inviters up the chain. */
  private async isAncestor(userId: number, start: number | null): Promise<boolean> {
    let current = start === null ? null : Number(start);
    for (let step = 0; current !== null && step < CHAIN_MAX; step++) {
      if (current === userId) return true;
      const [member] = await referralStore.members(this.db, [current]);
      current = member?.parent_id == null ? null : Number(member.parent_id);
    }
    return false;
  }

  /** The part of the level-1 rate given back to invitees: a fraction from 0 to the user's current rate. */
  async setKickback(userId: number, text: string): Promise<void> {
    const rate = parseReferralFraction(text, Dec.ONE);
    if (rate === null) throw badRequest('referral.kickbackInvalid');
    const { rate: own } = await this.fees.tierOf(userId, this.options.clock.now());
    if (rate.gt(own)) throw badRequest('referral.kickbackAboveRate', { rate: own.toString() });
    await this.saveChoice(userId, { kickback_rate: rate.toString() });
  }

  async setFeeDeduction(userId: number, enabled: boolean): Promise<void> {
    await this.saveChoice(userId, { fee_deduction: enabled ? 1 : 0 });
  }

  private async saveChoice(userId: number, change: { kickback_rate?: string; fee_deduction?: number }) {
    const account = await referralStore.account(this.db, userId);
    await referralStore.saveAccount(this.db, {
      user_id: userId,
      kickback_rate: change.kickback_rate ?? account?.kickback_rate ?? '0',
      fee_deduction: change.fee_deduction ?? account?.fee_deduction ?? 0,
      bound_at: account?.bound_at ?? null,
      updated_at: this.options.clock.now(),
    });
    this.fees.forget(userId);
    await this.options.onCore?.sendUser(userId);
  }

  async summary(userId: number): Promise<ReferralSummary> {
    const now = this.options.clock.now();
    const profile = await this.fees.profileOf(userId);
    const today = await this.fees.tierOf(userId, now);
    const live = await this.fees.averageHoldings(userId, now - REFERRAL_AVERAGE_WINDOW_MS, now);
    const next = referralNextTier(live);
    const rows = await this.earnedRows(userId);
    const bindUntil = profile.parentId === null ? profile.createdAt + REFERRAL_BIND_WINDOW_MS : null;
    return {
      tier: today.tier,
      rate: today.rate.toString(),
      tierAverageHal: today.average.toFixed(REFERRAL_AMOUNT_DECIMALS),
      tierUntil: today.day + DAY_MS,
      averageHal: live.toFixed(REFERRAL_AMOUNT_DECIMALS),
      holdingHal: (await this.fees.holdingNow(userId)).toString(),
      nextTier: next && {
        tier: next.rule.tier,
        rate: next.rule.rate,
        minHoldings: next.rule.minHoldings,
        missing: next.missing.toFixed(REFERRAL_AMOUNT_DECIMALS),
      },
      kickbackRate: profile.kickbackRate.toString(),
      feeDeduction: profile.feeDeduction,
      byCoin: coinTotals(rows, now),
      byDay: dayTotals(rows, now),
      rules: this.rules(),
      canBind: bindUntil !== null && now <= bindUntil,
      bindUntil,
      inviter: profile.parentId === null ? null : maskUserId(profile.parentId),
    };
  }

  /** What the user earned (not excluded rows): the amount and the coin, by time. */
  private async earnedRows(userId: number) {
    return this.db
      .selectFrom('referral_commission_entries')
      .select(['created_at', 'fee_coin', 'amount', 'friend_id'])
      .where('beneficiary_id', '=', userId)
      .where('excluded', 'is', null)
      .execute();
  }

  private commissionQuery(userId: number, query: ReferralCommissionQuery) {
    let select = this.db.selectFrom('referral_commission_entries').where('beneficiary_id', '=', userId);
    if (query.product !== undefined) select = select.where('product', '=', query.product);
    if (query.coin !== undefined) select = select.where('fee_coin', '=', query.coin.toUpperCase());
    if (query.from !== undefined) select = select.where('created_at', '>=', query.from);
    if (query.to !== undefined) select = select.where('created_at', '<', query.to);
    return select;
  }

  /** A page of the user's commission rows, newest first, filtered. */
  async commissions(userId: number, query: ReferralCommissionQuery): Promise<ReferralCommissionPage> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const rows = await this.commissionQuery(userId, query)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset((page - 1) * limit)
      .limit(limit)
      .execute();
    const counted = await this.commissionQuery(userId, query)
      .select((eb) => eb.fn.countAll<number | string>().as('count'))
      .executeTakeFirstOrThrow();
    return { list: rows.map(commissionView), count: Number(counted.count), page, limit };
  }

  /** The same rows as CSV (newest first, at most CSV_MAX_ROWS). */
  async commissionsCsv(userId: number, query: ReferralCommissionQuery): Promise<string> {
    const rows = await this.commissionQuery(userId, query)
      .selectAll()
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(CSV_MAX_ROWS)
      .execute();
    const header =
      'time,friend,level,product,trade,fee,fee_coin,tier,rate,amount,kickback,excluded,credited_at';
    const lines = rows.map(commissionView).map((row) =>
      [
        new Date(row.time).toISOString(),
        row.friend,
        row.level,
        row.product,
        row.tradeId,
        row.fee,
        row.feeCoin,
        row.tier ?? '',
        row.rate,
        row.amount,
        row.kickback,
        row.excluded ?? '',
        // Empty while pending: the payout sweep has not credited it yet.
        row.paidAt === null ? '' : new Date(row.paidAt).toISOString(),
      ].join(','),
    );
    return `${[header, ...lines].join('\n')}\n`;
  }

  /** Spec §3 "Team member": direct and level-2 members, newest first, with what each earned the user. */
  async team(
    userId: number,
    query: { page?: number; limit?: number; level?: 1 | 2; search?: string },
  ): Promise<MyTeam> {
    const page = query.page ?? 1;
    const limit = query.limit ?? 20;
    const [me] = await referralStore.members(this.db, [userId]);
    if (!me) throw notFound();
    const direct = this.db.selectFrom('users').select('id').where('parent_id', '=', userId);
    const members = () => {
      let select = this.db.selectFrom('users').where((eb) => {
        const levelOne = eb('parent_id', '=', userId);
        const levelTwo = eb('parent_id', 'in', direct);
        if (query.level === 1) return levelOne;
        if (query.level === 2) return levelTwo;
        return eb.or([levelOne, levelTwo]);
      });
      const search = query.search?.trim();
      if (search) {
        const id = Number(search);
        select = select.where('id', '=', Number.isSafeInteger(id) ? id : -1);
      }
      return select;
    };
    const rows = await members()
      .select(['id', 'parent_id', 'created_at'])
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset((page - 1) * limit)
      .limit(limit)
      .execute();
    const count = Number(
      (
        await members()
          .select((eb) => eb.fn.countAll<number | string>().as('c'))
          .executeTakeFirstOrThrow()
      ).c,
    );
    const directCount = await this.countMembers(userId, 1);
    const levelTwoCount = await this.countMembers(userId, 2);
    const ids = rows.map((row) => Number(row.id));
    const bound = new Map(
      (await referralStore.accounts(this.db, ids)).map((row) => [Number(row.user_id), row]),
    );
    const earned =
      ids.length === 0
        ? []
        : (await this.earnedRows(userId)).filter((row) => ids.includes(Number(row.friend_id)));
    const list: TeamMember[] = rows.map((row) => {
      const id = Number(row.id);
      const profit = new Map<string, Dec>();
      for (const entry of earned) {
        if (Number(entry.friend_id) !== id) continue;
        profit.set(
          entry.fee_coin,
          (profit.get(entry.fee_coin) ?? Dec.ZERO).add(Dec.parse(String(entry.amount))),
        );
      }
      return {
        userId: maskUserId(id),
        level: (Number(row.parent_id) === userId ? 1 : 2) as ReferralLevel,
        invitedAt: Number(bound.get(id)?.bound_at ?? row.created_at),
        profit: Object.fromEntries([...profit].map(([coin, amount]) => [coin, amount.toString()])),
        profitUsdt: this.valueInUsdt(profit).toFixed(REFERRAL_AMOUNT_DECIMALS),
      };
    });
    return {
      teamSize: directCount + levelTwoCount,
      directCount,
      levelTwoCount,
      code: me.invitation_code,
      list,
      count,
      page,
      limit,
    };
  }

  private async countMembers(userId: number, level: ReferralLevel): Promise<number> {
    const direct = this.db.selectFrom('users').select('id').where('parent_id', '=', userId);
    const row = await this.db
      .selectFrom('users')
      .where((eb) => (level === 1 ? eb('parent_id', '=', userId) : eb('parent_id', 'in', direct)))
      .select((eb) => eb.fn.countAll<number | string>().as('c'))
      .executeTakeFirstOrThrow();
    return Number(row.c);
  }

  private valueInUsdt(amounts: ReadonlyMap<string, Dec>): Dec {
    let total = Dec.ZERO;
    for (const [coin, amount] of amounts) {
      const price = coin === 'USDT' ? Dec.ONE : this.options.index.current(coin)?.price;
      if (price) total = total.add(amount.mul(price));
    }
    return total;
  }

  settingsView(): ReferralSettings {
    return {
      halDiscount: this.fees.settings.halDiscount.toString(),
      marketMakers: [...this.fees.settings.marketMakers].sort((a, b) => a - b),
    };
  }

  /** The operator's settings: the HAL discount (0 to 50 %) and the market-maker accounts. */
  async saveSettings(input: { halDiscount?: string; marketMakers?: number[] }): Promise<ReferralSettings> {
    if (input.halDiscount !== undefined) {
      const discount = parseReferralFraction(input.halDiscount, Dec.parse(REFERRAL_HAL_DISCOUNT_MAX));
      if (discount === null) throw badRequest('referral.discountInvalid', { max: REFERRAL_HAL_DISCOUNT_MAX });
      await referralStore.saveConfig(this.db, 'hal_discount', discount.toString());
    }
    if (input.marketMakers !== undefined) {
      const ids = [...new Set(input.marketMakers)].sort((a, b) => a - b);
      await referralStore.saveConfig(this.db, 'market_makers', JSON.stringify(ids));
    }
    await this.fees.loadSettings();
    await this.options.onCore?.sendSettings();
    return this.settingsView();
  }
}

function commissionView(row: CommissionEntry): ReferralCommission {
  return {
    id: Number(row.id),
    time: Number(row.created_at),
    friend: maskUserId(Number(row.friend_id)),
    level: Number(row.level) as ReferralLevel,
    product: row.product as ReferralProduct,
    tradeId: row.trade_id,
    fee: Dec.parse(String(row.fee)).toString(),
    feeCoin: row.fee_coin,
    tier: row.tier === null ? null : (Number(row.tier) as ReferralTier),
    rate: Dec.parse(String(row.rate)).toString(),
    amount: Dec.parse(String(row.amount)).toString(),
    kickback: Dec.parse(String(row.kickback)).toString(),
    excluded: row.excluded as ReferralExclusion | null,
    paidAt: row.paid_at === null ? null : Number(row.paid_at),
  };
}

type EarnedRow = { created_at: number; fee_coin: string; amount: string };

function coinTotals(rows: readonly EarnedRow[], now: number): ReferralCoinTotal[] {
  const totals = new Map<string, { total: Dec; last24h: Dec }>();
  for (const row of rows) {
    const entry = totals.get(row.fee_coin) ?? { total: Dec.ZERO, last24h: Dec.ZERO };
    const amount = Dec.parse(String(row.amount));
    entry.total = entry.total.add(amount);
    if (Number(row.created_at) > now - DAY_MS) entry.last24h = entry.last24h.add(amount);
    totals.set(row.fee_coin, entry);
  }
  return [...totals]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([coin, entry]) => ({ coin, total: entry.total.toString(), last24h: entry.last24h.toString() }));
}

function dayTotals(rows: readonly EarnedRow[], now: number): ReferralDayTotal[] {
  const since = Math.floor(now / DAY_MS) * DAY_MS - (SUMMARY_DAYS - 1) * DAY_MS;
  const totals = new Map<string, Dec>();
  for (const row of rows) {
    if (Number(row.created_at) < since) continue;
    const key = `${new Date(Number(row.created_at)).toISOString().slice(0, 10)}|${row.fee_coin}`;
    totals.set(key, (totals.get(key) ?? Dec.ZERO).add(Dec.parse(String(row.amount))));
  }
  return [...totals]
    .map(([key, amount]) => {
      const [day, coin] = key.split('|') as [string, string];
      return { day, coin, amount: amount.toString() };
    })
    .sort((a, b) => b.day.localeCompare(a.day) || a.coin.localeCompare(b.coin));
}
