import type { ReferralUser } from '../../core/state/referral.ts';
import { referralUserOf } from '../../core/state/referral.ts';
import type { IndexPriceSource } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { submitProjected } from '../../money-core/submit.ts';
import type { Executor } from '../../store/database.ts';
import { readReferralSettings } from './fees.ts';
import { readReferralUsers } from './state-from-sql.ts';

/** How long a profile the state holds is trusted before a user's next fee reads SQL again (the SQL path's cache). */
const PROFILE_TTL_MS = 60_000;

export interface ReferralOnCoreOptions {
  db: Executor;
  core: MoneyCoreHandle;
  index: IndexPriceSource;
  now: () => number;
  onError: (error: unknown) => void;
}

/**
 * What the money state reads for fees in HAL and commissions, sent by the
 * edge (issue 19's cut-over; docs/core.md "The cut-over, module by module"):
 * the state reads no table and no index, so a user's referral profile, the
 * operator's settings and the index prices reach it as commands.
 *
 * The payout sweep is the state's `referralPayout` (`payCommissions`).
 *
 * A profile is sent when it changes here (a bind, a choice of kickback or
 * fee deduction: `sendUser`), and checked before a user's fee-bearing
 * command at most once a minute (`beforeFee`), as the SQL path's profile
 * cache reads it: so a registration with an inviter, or a KYC ID number,
 * made elsewhere reaches the state before the user's next order, or within
 * a minute. A profile is sent only when it differs from the state's.
 */
export class ReferralOnCore {
  private readonly checkedAt = new Map<number, number>();

  constructor(private readonly options: ReferralOnCoreOptions) {}

  /** The settings (if they differ from the state's), then the index prices on every tick; answers the unsubscribe. */
  async start(): Promise<() => void> {
    await this.sendSettings();
    const { index } = this.options;
    const prices: Record<string, string> = {};
    for (const coin of index.coins()) {
      const tick = index.current(coin);
      if (tick) prices[coin] = tick.price.toString();
    }
    if (Object.keys(prices).length > 0)
      await this.submit({ kind: 'indexPrices', at: this.options.now(), prices });
    return index.subscribe((tick) => {
      this.submit({ kind: 'indexPrices', at: tick.ts, prices: { [tick.coin]: tick.price.toString() } }).catch(
        this.options.onError,
      );
    });
  }

  /**
   * Before a fee-bearing command of `userId`: the state's profiles of the
   * user and of their inviter (whose own inviter is the fee's level 2, and
   * whose ID numbers an exclusion compares) are SQL's, each read at most once
   * a minute.
   */
  async beforeFee(userId: number): Promise<void> {
    const user = await this.checked(userId);
    if (user?.parentId != null) await this.checked(user.parentId);
  }

  /** Sends the user's profile as SQL holds it, if the state's differs (after a bind or a change of choices). */
  async sendUser(userId: number): Promise<void> {
    await this.send(userId);
  }

  /** The user's profile in the state, read from SQL again (and sent if it changed) once a minute at most. */
  private async checked(userId: number): Promise<ReferralUser | null> {
    const checked = this.checkedAt.get(userId);
    if (checked !== undefined && this.options.now() - checked < PROFILE_TTL_MS)
      return referralUserOf(this.options.core.state.referral, userId);
    return this.send(userId);
  }

  /** Reads the user's profile from SQL and sends it if the state's differs; answers it (null: no such user). */
  private async send(userId: number): Promise<ReferralUser | null> {
    const [user] = await readReferralUsers(this.options.db, [userId]);
    this.checkedAt.set(userId, this.options.now());
    if (!user) return null;
    if (sameUser(user, referralUserOf(this.options.core.state.referral, userId))) return user;
    await this.submit({
      kind: 'referralUser',
      at: this.options.now(),
      userId,
      parentId: user.parentId,
      feeDeduction: user.feeDeduction,
      kickbackRate: user.kickbackRate.toString(),
      idNumbers: [...user.idNumbers].sort(),
    });
    return user;
  }

  /** Sends the operator's settings as SQL holds them, if the state's differ (at start and after each save). */
  async sendSettings(): Promise<void> {
    const settings = await readReferralSettings(this.options.db);
    const state = this.options.core.state.referral;
    const makers = [...settings.marketMakers].sort((a, b) => a - b);
    const same =
      state.halDiscount.eq(settings.halDiscount) &&
      state.marketMakers.size === makers.length &&
      makers.every((id) => state.marketMakers.has(id));
    if (same) return;
    await this.submit({
      kind: 'referralSettings',
      at: this.options.now(),
      halDiscount: settings.halDiscount.toString(),
      marketMakers: makers,
    });
  }

  /** The payout sweep on the core (`referralPayout`): credits every commission accrued; answers the rows credited. */
  async payCommissions(): Promise<number> {
    const result = await submitProjected(this.options.core, {
      kind: 'referralPayout',
      at: this.options.now(),
    });
    return result.commissionsPaid ?? 0;
  }

  private async submit(command: Parameters<typeof submitProjected>[1]): Promise<void> {
    await submitProjected(this.options.core, command);
  }
}

function sameUser(a: ReferralUser, b: ReferralUser): boolean {
  return (
    a.parentId === b.parentId &&
    a.feeDeduction === b.feeDeduction &&
    a.kickbackRate.eq(b.kickbackRate) &&
    a.idNumbers.size === b.idNumbers.size &&
    [...a.idNumbers].every((idNumber) => b.idNumbers.has(idNumber))
  );
}
