import { Dec } from '@halyard/money';
import {
  REFERRAL_AVERAGE_WINDOW_MS,
  REFERRAL_HAL_DISCOUNT_DEFAULT,
  REFERRAL_TOKEN,
  referralTierOf,
  timeWeightedAverage,
} from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import {
  commissionExclusion,
  type FeeCharge,
  halFeeQuote,
  normalizedIdNumber,
  type PlannedCommission,
  planCommission,
} from '../../core/state/referral-rules.ts';
import type { IndexPriceSource } from '../../market/index.ts';
import type { Db, Executor } from '../../store/database.ts';
import { referralStore } from './store.ts';

/** Who invited whom and what each chose, as the commission path needs it; refreshed after this long. */
const PROFILE_TTL_MS = 60_000;
/** User ids per read when loading many profiles (well under every engine's bound on variables). */
const PRELOAD_CHUNK = 1000;
const DAY_MS = 24 * 60 * 60 * 1000;

/** A user's tier for one UTC day, its rate (also as stored) and the average it came from. */
interface TierEntry {
  tier: 1 | 2 | 3;
  rate: Dec;
  rateText: string;
  average: Dec;
}

/** A user as the commission path sees them. */
export interface ReferralProfile {
  userId: number;
  parentId: number | null;
  grandparentId: number | null;
  createdAt: number;
  feeDeduction: boolean;
  kickbackRate: Dec;
  boundAt: number | null;
  /** Every ID number the user ever submitted for KYC. */
  idNumbers: ReadonlySet<string>;
  loadedAt: number;
}

export interface ReferralSettingsState {
  halDiscount: Dec;
  /** User accounts run as market makers: they neither earn nor bring commissions. */
  marketMakers: ReadonlySet<number>;
}

/** The operator's settings as stored (the defaults where none is). */
export async function readReferralSettings(db: Executor): Promise<ReferralSettingsState> {
  const discount = await referralStore.config(db, 'hal_discount');
  const makers = await referralStore.config(db, 'market_makers');
  return {
    halDiscount: Dec.parse(discount ?? REFERRAL_HAL_DISCOUNT_DEFAULT),
    marketMakers: new Set(makers ? (JSON.parse(makers) as number[]) : []),
  };
}

/**
 * The hot path of referral commissions: what a fee pays to whom. Profiles
 * (inviter chain, kickback, fee deduction, KYC ID numbers) are cached for a
 * minute and tiers per inviter and UTC day, so a trade whose payer has no
 * inviter costs one map lookup, and one with inviters a few multiplications.
 */
export class ReferralFees {
  private readonly profiles = new Map<number, ReferralProfile>();
  /** Tiers by user, then by UTC day (numbers all the way: the per-fee lookup builds no string). */
  private readonly tiers = new Map<number, Map<number, TierEntry>>();
  private tierCount = 0;
  settings: ReferralSettingsState = {
    halDiscount: Dec.parse(REFERRAL_HAL_DISCOUNT_DEFAULT),
    marketMakers: new Set(),
  };

  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly index: IndexPriceSource,
  ) {}

  /** Reads the operator's settings (at start and after each change). */
  async loadSettings(db: Executor = this.db): Promise<void> {
    this.settings = await readReferralSettings(db);
  }

  /**
   * Drops a user's cached profile (after they bind, change kickback or fee
   * deduction), and those of the users they invited: each of those caches
   * this user's inviter as its level 2, which a late bind has just set.
   */
  forget(userId: number): void {
    this.profiles.delete(userId);
    for (const [id, profile] of this.profiles) if (profile.parentId === userId) this.profiles.delete(id);
  }

  /**
   * A user's profile if the cache holds a fresh one, without waiting: the
   * per-fee path reads it first, so a trade of users without an inviter or
   * fee deduction costs no await at all.
   */
  cachedProfile(userId: number): ReferralProfile | undefined {
    const cached = this.profiles.get(userId);
    return cached && this.clock.now() - cached.loadedAt < PROFILE_TTL_MS ? cached : undefined;
  }

  /** A user's profile, from the cache while fresh (an id unknown to the store reads as a user without inviter). */
  async profileOf(userId: number, db: Executor = this.db): Promise<ReferralProfile> {
    const cached = this.cachedProfile(userId);
    if (cached) return cached;
    await this.preload([userId], db);
    return this.cachedProfile(userId)!;
  }

  /**
   * Loads the profiles of many users at once (a cycle settlement chunk's
   * winners): four reads for the lot instead of four per user. A user id
   * unknown to the store is cached as having no inviter.
   */
  async preload(userIds: readonly number[], db: Executor = this.db): Promise<void> {
    const missing = [...new Set(userIds)].filter((id) => !this.cachedProfile(id));
    for (let start = 0; start < missing.length; start += PRELOAD_CHUNK) {
      const ids = missing.slice(start, start + PRELOAD_CHUNK);
      const users = await referralStore.members(db, ids);
      const parentIds = [
        ...new Set(users.flatMap((user) => (user.parent_id === null ? [] : [Number(user.parent_id)]))),
      ];
      const parents = new Map(
        (await referralStore.members(db, parentIds)).map((row) => [Number(row.id), row]),
      );
      const accounts = new Map(
        (await referralStore.accounts(db, ids)).map((row) => [Number(row.user_id), row]),
      );
      const idNumbers = new Map<number, Set<string>>();
      for (const row of await referralStore.idNumbers(db, ids)) {
        const set = idNumbers.get(Number(row.user_id)) ?? new Set<string>();
        set.add(normalizedIdNumber(row.id_number));
        idNumbers.set(Number(row.user_id), set);
      }
      const byId = new Map(users.map((user) => [Number(user.id), user]));
      const now = this.clock.now();
      for (const id of ids) {
        const user = byId.get(id);
        const parentId = user?.parent_id == null ? null : Number(user.parent_id);
        const grand = parentId === null ? null : (parents.get(parentId)?.parent_id ?? null);
        const account = accounts.get(id);
        this.profiles.set(id, {
          userId: id,
          parentId,
          grandparentId: grand === null ? null : Number(grand),
          createdAt: Number(user?.created_at ?? 0),
          feeDeduction: account?.fee_deduction === 1,
          kickbackRate: Dec.parse(account?.kickback_rate ?? '0'),
          boundAt: account?.bound_at == null ? null : Number(account.bound_at),
          idNumbers: idNumbers.get(id) ?? new Set(),
          loadedAt: now,
        });
      }
    }
  }

  /** The tier of `at`'s day if it is cached, without waiting (the per-fee path: no copy, no await). */
  cachedTier(userId: number, at: number): TierEntry | undefined {
    return this.tiers.get(userId)?.get(Math.floor(at / DAY_MS) * DAY_MS);
  }

  /**
   * The tier of a user for the UTC day of `at`: fixed from the time-weighted
   * average of their HAL holdings over the 24 h before that day's midnight,
   * computed once from the ledger's transfers and kept (a snapshot per user
   * per day), so HAL moved in during the day changes nothing today.
   */
  async tierOf(userId: number, at: number, db: Executor = this.db) {
    const day = Math.floor(at / DAY_MS) * DAY_MS;
    const cached = this.tiers.get(userId)?.get(day);
    if (cached) return { ...cached, day };
    const stored = await referralStore.tierDay(db, userId, day);
    const average = stored
      ? Dec.parse(stored.average)
      : await this.averageHoldings(userId, day - REFERRAL_AVERAGE_WINDOW_MS, day, db);
    const rule = referralTierOf(average);
    if (!stored)
      await referralStore.saveTierDay(db, {
        user_id: userId,
        day,
        average: average.toString(),
        tier: rule.tier,
      });
    const tier: TierEntry = { tier: rule.tier, rate: Dec.parse(rule.rate), rateText: rule.rate, average };
    if (++this.tierCount > 100_000) {
      this.tiers.clear();
      this.tierCount = 1;
    }
    const days = this.tiers.get(userId) ?? new Map<number, TierEntry>();
    days.set(day, tier);
    this.tiers.set(userId, days);
    return { ...tier, day };
  }

  /** Time-weighted average of a user's HAL (every wallet) over [from, to), from the ledger's history. */
  async averageHoldings(userId: number, from: number, to: number, db: Executor = this.db): Promise<Dec> {
    const { ids, transfers } = await referralStore.holdingChanges(db, userId, REFERRAL_TOKEN, from);
    if (ids.length === 0) return Dec.ZERO;
    const owned = new Set(ids);
    const deltas = transfers.map((row) => {
      const amount = Dec.parse(String(row.amount));
      const inflow = owned.has(Number(row.credit_account_id)) ? amount : Dec.ZERO;
      const outflow = owned.has(Number(row.debit_account_id)) ? amount : Dec.ZERO;
      return { at: Number(row.timestamp), delta: inflow.sub(outflow) };
    });
    const now = await this.holdingNow(userId, db);
    let balance = now.sub(Dec.sum(deltas.map((entry) => entry.delta)));
    const opening = balance;
    const changes = deltas.map((entry) => {
      balance = balance.add(entry.delta);
      return { at: entry.at, balance };
    });
    return timeWeightedAverage(opening, changes, from, to);
  }

  /** HAL held now in all of a user's wallets (available and locked). */
  async holdingNow(userId: number, db: Executor = this.db): Promise<Dec> {
    const rows = await db
      .selectFrom('ledger_accounts')
      .select(['credits_posted', 'debits_posted'])
      .where('owner', '=', String(userId))
      .where('asset', '=', REFERRAL_TOKEN)
      .execute();
    return Dec.sum(
      rows.map((row) => Dec.parse(String(row.credits_posted)).sub(Dec.parse(String(row.debits_posted)))),
    );
  }

  /**
   * What a fee of `fee` in `coin` costs in HAL when the payer has fee
   * deduction on and holds enough (`halAvailable`), or null: deduction off,
   * no index price for either coin, a fee too small for a HAL unit, or HAL short.
   */
  async halFee(payerId: number, coin: string, fee: Dec, halAvailable: () => Promise<Dec>, db?: Executor) {
    if (!fee.isPositive() || coin === REFERRAL_TOKEN) return null;
    const profile = await this.profileOf(payerId, db);
    if (!profile.feeDeduction) return null;
    const hal = halFeeQuote(
      fee,
      coin,
      (priced) => this.index.current(priced)?.price,
      this.settings.halDiscount,
    );
    if (hal === null || hal.gt(await halAvailable())) return null;
    return hal;
  }

  /**
   * What one fee pays to whom, or nothing when the payer has no inviter:
   * level 1 (the payer's inviter) earns its tier's rate of the fee less the
   * kickback it gives the payer, level 2 (the inviter's inviter) 10 %. An
   * excluded level earns nothing and says why. A {@link CommissionBatch}
   * turns it into the fee's commission row and the transfers that pay it,
   * written after the fee's own in the same transaction. (An array of none or
   * one, so a caller adds it to its batch as it is.)
   */
  async plan(charge: FeeCharge, db?: Executor): Promise<PlannedCommission[]> {
    if (!charge.fee.isPositive()) return [];
    const payer = this.cachedProfile(charge.payerId) ?? (await this.profileOf(charge.payerId, db));
    if (payer.parentId === null) return [];
    const inviter = this.cachedProfile(payer.parentId) ?? (await this.profileOf(payer.parentId, db));
    const grandId = payer.grandparentId;
    const grand =
      grandId === null ? null : (this.cachedProfile(grandId) ?? (await this.profileOf(grandId, db)));
    const makers = this.settings.marketMakers;
    // The tier is read (and its day stored) only for an inviter who earns.
    const tier = commissionExclusion(charge, payer, inviter, makers)
      ? null
      : (this.cachedTier(inviter.userId, charge.time) ??
        (await this.tierOf(inviter.userId, charge.time, db)));
    return [planCommission(charge, payer, inviter, grand, makers, tier)];
  }
}

export { CommissionBatch, type FeeCharge, type PlannedCommission } from '../../core/state/referral-rules.ts';
