/**
 * Fiat buy and sell through merchants (spec §1, §3, §4, §5, §7; AMENDMENTS A4,
 * A6; issue 16). This file is the order state machine and the rules around
 * it (matching, escrow, bans); it is over 500 lines because every transition
 * and its checks belong in one place.
 *
 * Escrow: a live sell ad holds its available amount in the ledger
 * (setAdAmount); when an order is made, its part of the seller's coin is held
 * in the ledger (a pending transfer from the seller to the buyer), taken from
 * the ad's hold in the same batch. Release posts the hold
 * (the coin reaches the buyer); cancel, expiry and a refund void it. Each
 * transition moves the order's state with a conditional update inside the
 * ledger's transaction, so one order is released or refunded at most once,
 * and the ledger refuses to post a hold twice besides.
 *
 * On the sequenced core (options.core) the same checks run here, and each
 * money step is the state's fiat command instead of the ledger transaction
 * (core/state/fiat-escrow.ts applies the same rules; the projection writes
 * the rows).
 */
import { Dec } from '@halyard/money';
import type {
  FiatAd,
  FiatAdAdmin,
  FiatAdInput,
  FiatAppeal,
  FiatAppealKind,
  FiatBan,
  FiatChatMessage,
  FiatCoin,
  FiatMerchantAdmin,
  FiatMerchantView,
  FiatOffer,
  FiatOrder,
  FiatOrderEvent,
  FiatOrderState,
  FiatPayee,
  FiatPayType,
  FiatQuote,
  FiatSide,
  FiatStanding,
  Locale,
} from '@halyard/protocol';
import { translate } from '@halyard/protocol';
import {
  checkFiatAdAvailable,
  checkFiatAdMethods,
  checkFiatAdTerms,
  checkFiatAdTermsText,
  checkFiatAmount,
  checkFiatAppeal,
  checkFiatPayee,
  checkFiatPayWindow,
  checkPayScreenshot,
  EMPTY_FIAT_PAYEE,
  FIAT_APPEAL_BEFORE_EXPIRY_MS,
  FIAT_BAN_LADDER_MINUTES,
  FIAT_CANCELS_BEFORE_BAN,
  fiatAppealEvidence,
  fiatFloatingPrice,
  type RuleError,
} from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import type { FiatAudit, FiatBanCheck, FiatCandidate, FiatCommand } from '../../core/state/fiat-escrow.ts';
import {
  FIAT_MERCHANT_DEPOSIT,
  fiatAdAmountBatch,
  fiatEscrowHold,
  fiatMerchantAccount,
  fiatMerchantDepositHold,
  fiatNumberOf,
  fiatRefundTransfer,
  fiatReleaseTransfer,
} from '../../core/state/fiat-rules.ts';
import type { AuditActor } from '../../http/auth.ts';
import { AppError, badRequest, forbidden, notFound } from '../../http/errors.ts';
import {
  type AccountRef,
  accountKey,
  type Ledger,
  type TransferInput,
  userAccount,
} from '../../ledger/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { submitProjected } from '../../money-core/submit.ts';
import type { Db, Executor, Trx } from '../../store/database.ts';
import { maskAnyPhone, maskEmail } from '../backoffice/masking.ts';
import type { IdentityService } from '../identity/index.ts';
import { formatUtc, type StoredImage } from '../identity/service.ts';
import { banAfterCancels, banUnpaid } from './bans.ts';
import {
  type AdRow,
  type MerchantRow,
  type MessageRow,
  OPEN_STATES,
  type OrderRow,
  fiatStore as sql,
} from './store.ts';

/** Expiries handled per tick, at most: a tick has a bound. */
const EXPIRE_BATCH = 200;
/** The security deposit a merchant's approval holds (issue 16 item 1). */
export const MERCHANT_DEPOSIT = FIAT_MERCHANT_DEPOSIT;
/** An order's chat keeps this many latest messages in view. */
const CHAT_LIMIT = 200;
const CHAT_TEXT_MAX = 500;
/** Demo only: the house merchant confirms receipt (or pays) this long after the user's step. */
export const DEMO_MERCHANT_DELAY_MS = 5_000;

export interface FiatServiceOptions {
  db: Db;
  ledger: Ledger;
  clock: Clock;
  identity: IdentityService;
  demo: boolean;
  /** A coin's index price in a fiat currency (fiat per coin), or null when there is none: floating ads follow it. */
  indexPrice: (coin: string, fiat: string) => Dec | null;
  /**
   * The sequenced core (issue 19's cut-over): with it, the money steps (an
   * ad's amount and liveness, an order's opening and transitions, a
   * merchant's decision) are the state's fiat commands; the checks and the
   * rows that hold no money (ads' terms, merchants, chat) stay here.
   */
  core?: MoneyCoreHandle;
}

/** One payment method of an ad: how the merchant is paid (or how it pays, for a sell ad). */
export interface AdMethod {
  payType: FiatPayType;
  payee: FiatPayee;
}

/** Who acts on an order: the user, the merchant behind it, the clock, or an operator. */
type Party = 'buyer' | 'seller';

interface Loaded {
  order: OrderRow;
  merchant: MerchantRow;
}

function throwIf(error: RuleError | null): void {
  if (error) throw badRequest(error.key, error.params);
}

const MINUTE_MS = 60_000;

/** The payment window an order was made with: its own deadline, counted from its creation. */
export function payWindowMinutes(order: Pick<OrderRow, 'expires_at' | 'created_at'>): number {
  return Math.round((Number(order.expires_at) - Number(order.created_at)) / MINUTE_MS);
}

function parseMethods(json: string): AdMethod[] {
  return JSON.parse(json) as AdMethod[];
}

/** The ledger account a party's coin sits in: a user's fiat (c2c) wallet, or the house's. */
function merchantAccount(merchant: MerchantRow): AccountRef {
  return fiatMerchantAccount(merchant.user_id === null ? null : Number(merchant.user_id));
}

export class FiatService {
  constructor(private readonly options: FiatServiceOptions) {}

  /**
   * On the core: a fiat command submitted, its refusal thrown as the SQL path's error, answered once SQL holds it.
   * Not before (docs/core.md, "Read-your-writes per user"): a step answers with the order's whole history, and a
   * new order's part of its ad must be in SQL before the merchant's next ad command reads the ad's amount there.
   */
  private async submit(command: FiatCommand): Promise<number | undefined> {
    return (await submitProjected(this.options.core!, command)).fiatOrderId;
  }

  /**
   * On the core: an ad's amount and liveness (`fiatAd`); the state holds a live sell ad's amount. `available`
   * null keeps the ad's amount as the state has it when the command is queued, with no await between: SQL's
   * may not show an order taken from the ad a moment ago, and sending it back would undo the order's part.
   */
  private async submitAd(
    ad: AdRow,
    merchant: MerchantRow,
    available: Dec | null,
    online: boolean,
  ): Promise<void> {
    const kept = this.options.core!.state.fiat.ads.get(Number(ad.id))?.available ?? ad.available;
    await this.submit({
      kind: 'fiatAd',
      at: this.options.clock.now(),
      adId: Number(ad.id),
      side: ad.side,
      coin: ad.coin,
      merchantUserId: merchant.user_id === null ? null : Number(merchant.user_id),
      available: available === null ? Dec.canonical(kept) : available.toString(),
      online,
    });
  }

  // ── reading ────────────────────────────────────────────────────────

  /** The ads users can trade with now: online, with coin left (an ad run out shows nowhere until it gets some back). */
  private async liveAds(): Promise<AdRow[]> {
    return (await sql.onlineAds(this.options.db)).filter((ad) => Dec.parse(ad.available).isPositive());
  }

  /** GET /fiat/fiatCoin: every coin with an online ad, and the fiat currencies it trades in. */
  async coins(): Promise<FiatCoin[]> {
    const byCoin = new Map<string, Set<string>>();
    for (const ad of await this.liveAds()) {
      const fiats = byCoin.get(ad.coin) ?? new Set<string>();
      fiats.add(ad.fiat);
      byCoin.set(ad.coin, fiats);
    }
    return [...byCoin].map(([coin, fiats]) => ({ coin, fiats: [...fiats].sort() }));
  }

  /** GET /fiat/payCoinList: per coin, fiat and side, the best price and the widest limits. */
  async offers(coin: string | undefined, side: FiatSide | undefined): Promise<FiatOffer[]> {
    const groups = new Map<string, AdRow[]>();
    for (const ad of await this.liveAds()) {
      if ((coin && ad.coin !== coin) || (side && ad.side !== side)) continue;
      const key = `${ad.coin}|${ad.fiat}|${ad.side}`;
      groups.set(key, [...(groups.get(key) ?? []), ad]);
    }
    return [...groups.values()].map((ads) => {
      const first = ads[0]!;
      const methods = new Set(ads.flatMap((ad) => parseMethods(ad.methods).map((m) => m.payType)));
      const best = ads.reduce((a, b) => {
        const byPrice = Dec.parse(a.price).cmp(Dec.parse(b.price));
        return (first.side === 'buy' ? byPrice <= 0 : byPrice >= 0) ? a : b;
      });
      return {
        coin: first.coin,
        fiat: first.fiat,
        side: first.side,
        price: Dec.canonical(best.price),
        floating: best.price_type === 'floating',
        min: this.widest(ads, 'min'),
        max: this.widest(ads, 'max'),
        methods: [...methods],
      };
    });
  }

  async orders(userId: number, page: number, limit: number): Promise<FiatOrder[]> {
    const { db } = this.options;
    const rows = await sql.userOrders(db, userId, (page - 1) * limit, limit);
    return this.views(rows, userId);
  }

  async order(userId: number, id: number): Promise<FiatOrder> {
    const { order } = await this.loadAsParty(userId, id);
    const [view] = await this.views([order], userId);
    return view!;
  }

  /** The payment screenshot, for the order's two parties (operators read it at /admin/uploads, audited). */
  async payImage(userId: number, id: number): Promise<StoredImage | null> {
    const { order, merchant } = await this.loadAsParty(userId, id);
    const name = uploadName(order.pay_img);
    const payer = this.userOf(order, merchant, 'buyer');
    if (!name || payer === null) return null;
    return this.options.identity.readOwnUpload(payer, name);
  }

  private async views(rows: OrderRow[], viewer: number): Promise<FiatOrder[]> {
    const { db } = this.options;
    const events = await sql.events(
      db,
      rows.map((row) => Number(row.id)),
    );
    const views: FiatOrder[] = [];
    for (const row of rows) {
      const merchant = await this.requireMerchant(Number(row.merchant_id));
      const userIsViewer = Number(row.user_id) === viewer;
      const userRole: Party = row.side === 'buy' ? 'buyer' : 'seller';
      views.push({
        id: Number(row.id),
        side: row.side,
        state: row.state,
        coin: row.coin,
        fiat: row.fiat,
        price: Dec.canonical(row.price),
        amount: Dec.canonical(row.amount),
        number: Dec.canonical(row.number),
        payType: row.pay_type as FiatPayType,
        merchant: { name: merchant.name, demo: merchant.user_id === null },
        payee: { ...EMPTY_FIAT_PAYEE, ...(JSON.parse(row.payee) as Partial<FiatPayee>) },
        payImg: row.pay_img,
        payerName: await this.payerName(row, merchant),
        expiresAt: Number(row.expires_at),
        payWindowMinutes: payWindowMinutes(row),
        terms: row.terms,
        createdAt: Number(row.created_at),
        role: userIsViewer ? userRole : userRole === 'buyer' ? 'seller' : 'buyer',
        appealKind: row.appeal_by === null ? null : (row.appeal_kind ?? 'other'),
        events: events
          .filter((event) => Number(event.order_id) === Number(row.id))
          .map(
            (event): FiatOrderEvent => ({
              state: event.state,
              by: event.by_whom,
              at: Number(event.at),
              reason: event.reason,
            }),
          ),
      });
    }
    return views;
  }

  /** Who the payee should see the fiat come from: the buyer's verified name, or the merchant's payee name. */
  private async payerName(row: OrderRow, merchant: MerchantRow): Promise<string> {
    const payer = this.userOf(row, merchant, 'buyer');
    if (payer !== null) return (await this.options.identity.verifiedName(payer)) ?? '';
    return merchant.name;
  }

  // ── placing (matching a merchant) ──────────────────────────────────

  /** POST /fiat/addFiatPayOrder: buy `coin` for `amount` of `fiat`, matched to the best-priced eligible ad. */
  async buy(
    userId: number,
    input: { coin: string; fiat: string; amount: string; payType: FiatPayType; adId?: number },
    locale: Locale,
  ): Promise<FiatOrder> {
    return this.place(userId, { ...input, side: 'buy', payee: null }, locale);
  }

  /** POST /fiat/sellFiatOrder: sell `coin` for `amount` of `fiat`, paid to the user's own `payee` details. */
  async sell(
    userId: number,
    input: {
      coin: string;
      fiat: string;
      amount: string;
      payType: FiatPayType;
      payee: FiatPayee;
      adId?: number;
    },
    locale: Locale,
  ): Promise<FiatOrder> {
    await this.checkSeller(userId, input);
    return this.place(userId, { ...input, side: 'sell' }, locale);
  }

  /** A sell order's own checks, before matching (the edge makes them before `fiatOpen`). */
  async checkSeller(
    userId: number,
    input: { fiat: string; payType: FiatPayType; payee: FiatPayee },
  ): Promise<void> {
    throwIf(checkFiatPayee(input.payType, input.fiat, input.payee));
    // The merchant pays only an account in the seller's verified name: no paying a third party
    // (triangulation fraud moves a victim's money to an honest counterparty through such accounts).
    const verified = await this.options.identity.verifiedName(userId);
    if (verified === null) throw forbidden('identity.kycRequired');
    if (!sameName(verified, input.payee.payeeName))
      throw badRequest('fiat.payeeNameNotVerified', { name: verified });
  }

  private async place(
    userId: number,
    input: {
      side: FiatSide;
      coin: string;
      fiat: string;
      amount: string;
      payType: FiatPayType;
      payee: FiatPayee | null;
      /** The ad the user was quoted (and read the terms of): the order goes to it or nowhere. */
      adId?: number;
    },
    locale: Locale,
  ): Promise<FiatOrder> {
    const { ledger, core, clock } = this.options;
    const candidates = await this.eligible(userId, input, locale);
    const amount = Dec.parse(input.amount);
    if (core) {
      const orderId = await this.submit({
        kind: 'fiatOpen',
        at: clock.now(),
        userId,
        side: input.side,
        coin: input.coin,
        fiat: input.fiat,
        amount: amount.toString(),
        payType: input.payType,
        candidates: candidates.map((candidate) => candidateOf(candidate, input)),
      });
      return this.order(userId, orderId!);
    }
    const row = await ledger.transaction(async (trx) => {
      // Inside the ledger's lock: one open order per user, and the ad's amount read and written once.
      if (await sql.openOrderOf(trx, userId)) throw badRequest('fiat.openOrderExists');
      for (const { ad, merchant } of candidates) {
        const fresh = await sql.ad(trx, Number(ad.id));
        const number = fiatNumberOf(amount, Dec.parse(ad.price));
        // A sell ad's available amount is held in the ledger while live: the order takes its part of that hold.
        if (fresh?.online !== 1 || Dec.parse(fresh.available).lt(number) || !number.isPositive()) continue;
        return this.open(trx, { userId, input, ad: fresh, merchant, amount, number });
      }
      throw badRequest('fiat.noMerchant');
    });
    return (await this.views([row], userId))[0]!;
  }

  /** The ads an order tries, best first: the pair, the amount's limits and who may trade checked. */
  private async eligible(
    userId: number,
    input: {
      side: FiatSide;
      coin: string;
      fiat: string;
      amount: string;
      payType: FiatPayType;
      adId?: number;
    },
    locale: Locale,
  ): Promise<{ ad: AdRow; merchant: MerchantRow }[]> {
    const ads = await this.matchable(input);
    await this.assertMayTrade(userId, locale);
    const amount = Dec.parse(input.amount);
    const candidates = (await this.rank(ads, input.side, userId, amount)).filter(
      ({ ad }) => input.adId === undefined || Number(ad.id) === input.adId,
    );
    if (candidates.length === 0) throw badRequest('fiat.noMerchant');
    return candidates;
  }

  /**
   * What the edge sends the money state with an order (`fiatOpen`): the ads
   * place() would try, best first, with what the order row copies of each.
   */
  async openCandidates(
    userId: number,
    input: {
      side: FiatSide;
      coin: string;
      fiat: string;
      amount: string;
      payType: FiatPayType;
      payee: FiatPayee | null;
      adId?: number;
    },
    locale: Locale,
  ): Promise<FiatCandidate[]> {
    return (await this.eligible(userId, input, locale)).map((candidate) => candidateOf(candidate, input));
  }

  /** The live ads of a pair and side that take the method, checked: the pair is offered and the amount within the widest limits. */
  private async matchable(input: {
    side: FiatSide;
    coin: string;
    fiat: string;
    amount: string;
    payType: FiatPayType;
  }): Promise<AdRow[]> {
    const ads = (await sql.adsFor(this.options.db, input.coin, input.fiat, input.side)).filter((ad) =>
      parseMethods(ad.methods).some((method) => method.payType === input.payType),
    );
    if (ads.length === 0) throw badRequest('fiat.pairUnavailable', { coin: input.coin, fiat: input.fiat });
    throwIf(checkFiatAmount(input.amount, this.widest(ads, 'min'), this.widest(ads, 'max')));
    return ads;
  }

  /**
   * GET /fiat/quote: the ad an order of this amount and method would be
   * matched to now, so the user reads its merchant, price, payment window and
   * terms before ordering (the order then names the ad: adId).
   */
  async quote(
    userId: number,
    input: { side: FiatSide; coin: string; fiat: string; amount: string; payType: FiatPayType },
  ): Promise<FiatQuote> {
    const ads = await this.matchable(input);
    const amount = Dec.parse(input.amount);
    const best = (await this.rank(ads, input.side, userId, amount)).find(({ ad }) => {
      const number = fiatNumberOf(amount, Dec.parse(ad.price));
      return number.isPositive() && Dec.parse(ad.available).gte(number);
    });
    if (!best) throw badRequest('fiat.noMerchant');
    const { ad, merchant } = best;
    return {
      adId: Number(ad.id),
      price: Dec.canonical(ad.price),
      number: fiatNumberOf(amount, Dec.parse(ad.price)).toString(),
      merchant: { name: merchant.name, demo: merchant.user_id === null },
      payWindowMinutes: Number(ad.window_ms) / MINUTE_MS,
      terms: ad.terms,
    };
  }

  private widest(ads: AdRow[], end: 'min' | 'max'): string {
    const values = ads.map((ad) => Dec.parse(end === 'min' ? ad.min_amount : ad.max_amount));
    return (end === 'min' ? lowest(values) : highest(values)).toString();
  }

  /**
   * "Matching a merchant": the ads whose limits take `amount`, not the user's
   * own, best price first (lowest when the user buys, highest when the user
   * sells), then completion rate, then average release time.
   */
  private async rank(
    ads: AdRow[],
    side: FiatSide,
    userId: number,
    amount: Dec,
  ): Promise<{ ad: AdRow; merchant: MerchantRow }[]> {
    const eligible: { ad: AdRow; merchant: MerchantRow }[] = [];
    for (const ad of ads) {
      if (amount.lt(Dec.parse(ad.min_amount)) || amount.gt(Dec.parse(ad.max_amount))) continue;
      const merchant = await this.requireMerchant(Number(ad.merchant_id));
      if (merchant.user_id !== null && Number(merchant.user_id) === userId) continue;
      eligible.push({ ad, merchant });
    }
    const completion = (m: MerchantRow) =>
      Number(m.orders) === 0 ? 1 : Number(m.completed) / Number(m.orders);
    const releaseMs = (m: MerchantRow) =>
      Number(m.completed) === 0 ? Number.MAX_SAFE_INTEGER : Number(m.release_ms_total) / Number(m.completed);
    return eligible.sort((a, b) => {
      const byPrice = Dec.parse(a.ad.price).cmp(Dec.parse(b.ad.price));
      if (byPrice !== 0) return side === 'buy' ? byPrice : -byPrice;
      const byCompletion = completion(b.merchant) - completion(a.merchant);
      if (byCompletion !== 0) return byCompletion;
      return releaseMs(a.merchant) - releaseMs(b.merchant);
    });
  }

  /** The order row, its escrow hold and its first event, in the ledger transaction. */
  private async open(
    trx: Trx,
    args: {
      userId: number;
      input: { side: FiatSide; coin: string; fiat: string; payType: FiatPayType; payee: FiatPayee | null };
      ad: AdRow;
      merchant: MerchantRow;
      amount: Dec;
      number: Dec;
    },
  ): Promise<OrderRow> {
    const { clock } = this.options;
    const { userId, input, ad, merchant, amount, number } = args;
    const now = clock.now();
    const method = parseMethods(ad.methods).find((entry) => entry.payType === input.payType)!;
    const user = userAccount(userId, 'fiat');
    const [from, to] =
      input.side === 'buy' ? [merchantAccount(merchant), user] : [user, merchantAccount(merchant)];
    if (input.side === 'sell' && !(await this.covers(trx, user, input.coin, number)))
      throw badRequest('rules.insufficientBalance');
    const order = await sql.insertOrder(trx, {
      side: input.side,
      user_id: userId,
      merchant_id: Number(merchant.id),
      ad_id: Number(ad.id),
      coin: input.coin,
      fiat: input.fiat,
      price: Dec.canonical(ad.price),
      amount: amount.toString(),
      number: number.toString(),
      pay_type: input.payType,
      payee: JSON.stringify(input.payee ?? method.payee),
      pay_img: null,
      state: 'to_pay',
      // Named after the order's id, known once the row exists (set just below).
      hold_id: '',
      expires_at: now + Number(ad.window_ms),
      terms: ad.terms,
      paid_at: null,
      appeal_by: null,
      appeal_reason: null,
      appeal_kind: null,
      closed_at: null,
      created_at: now,
    });
    const reference = `fiat:${order.id}`;
    // The ad's hold shrinks by the order's part and the order's own hold takes it, in one batch.
    await this.setAdAmount(trx, ad, merchant, Dec.parse(ad.available).sub(number), Number(ad.online) === 1, {
      after: [fiatEscrowHold(Number(order.id), from, to, input.coin, number)],
    });
    await sql.updateOrderHold(trx, Number(order.id), `${reference}:escrow`);
    await sql.countMerchantOrder(trx, Number(merchant.id));
    await sql.insertEvent(trx, {
      order_id: Number(order.id),
      state: 'to_pay',
      by_whom: 'buyer',
      at: now,
      reason: 'matched',
    });
    return { ...order, hold_id: `${reference}:escrow` };
  }

  /**
   * Sets an ad's amount and whether it is live, with its hold: a live sell ad
   * (side 'buy': the merchant sells coin) holds its whole available amount in
   * the ledger, so what it offers is there when an order takes it. The
   * current hold is voided and the new amount held under a fresh id, in one
   * batch with `around.before` (an order's refund) and `around.after` (an
   * order's hold): the ledger checks the funds in that order. A buy ad (the
   * merchant pays fiat) holds nothing.
   */
  private async setAdAmount(
    trx: Trx,
    ad: AdRow,
    merchant: MerchantRow,
    available: Dec,
    online: boolean,
    around: { before?: TransferInput[]; after?: TransferInput[] } = {},
  ): Promise<void> {
    const { batch, holdId, holdSeq } = fiatAdAmountBatch(
      {
        adId: Number(ad.id),
        side: ad.side,
        coin: ad.coin,
        account: merchantAccount(merchant),
        holdId: ad.hold_id,
        holdSeq: Number(ad.hold_seq),
      },
      available,
      online,
      around,
    );
    if (batch.length > 0) await this.options.ledger.execute(batch, trx);
    await sql.updateAd(trx, Number(ad.id), {
      available: available.toString(),
      online: online ? 1 : 0,
      hold_id: holdId,
      hold_seq: holdSeq,
    });
  }

  /**
   * Puts a hold on every live sell ad that has none (ads from before holds
   * existed); an ad whose merchant no longer has the coin goes offline.
   * Run when the module starts.
   */
  async holdLiveAds(): Promise<void> {
    const { db, ledger, core } = this.options;
    for (const ad of await sql.onlineAds(db)) {
      if (ad.side !== 'buy' || ad.hold_id !== null || !Dec.parse(ad.available).isPositive()) continue;
      const merchant = await this.requireMerchant(Number(ad.merchant_id));
      if (core) {
        // The state refuses the hold when the merchant no longer has the coin: the ad goes offline.
        await this.submitAd(ad, merchant, null, true).catch((error: unknown) => {
          if (!(error instanceof AppError)) throw error;
          return this.submitAd(ad, merchant, null, false);
        });
        continue;
      }
      await ledger.transaction(async (trx) => {
        const fresh = await sql.ad(trx, Number(ad.id));
        if (!fresh || fresh.hold_id !== null || fresh.online !== 1) return;
        const covered = await this.covers(
          trx,
          merchantAccount(merchant),
          fresh.coin,
          Dec.parse(fresh.available),
        );
        await this.setAdAmount(trx, fresh, merchant, Dec.parse(fresh.available), covered);
      });
    }
  }

  /** A floating ad's price now, or null while the pair has no index price. */
  private floatingPrice(coin: string, fiat: string, premium: string): Dec | null {
    const index = this.options.indexPrice(coin, fiat);
    return index === null ? null : fiatFloatingPrice(index, premium);
  }

  /**
   * Floating ads take the index's latest price (matching and the offers
   * read the stored price; an order copies it, so its price stays locked).
   * A pair without an index price keeps its last price.
   */
  async refreshFloatingPrices(): Promise<void> {
    const { db } = this.options;
    for (const ad of await sql.floatingAds(db)) {
      const price = this.floatingPrice(ad.coin, ad.fiat, ad.premium ?? '0');
      if (price !== null && !price.eq(Dec.parse(ad.price))) {
        await sql.updateAd(db, Number(ad.id), { price: price.toString() });
      }
    }
  }

  /** Demo seed: an ad back online with `available`, or what its merchant can still hold if less. */
  async restockAd(adId: number, available: Dec): Promise<void> {
    const { ledger, core, db } = this.options;
    const restock = async (
      trx: Executor | undefined,
      setAmount: (ad: AdRow, merchant: MerchantRow, amount: Dec) => Promise<void>,
    ) => {
      const ad = await sql.ad(trx ?? db, adId);
      if (!ad) return;
      const merchant = await this.requireMerchant(Number(ad.merchant_id), trx ?? db);
      let amount = available;
      if (ad.side === 'buy') {
        const held = ad.hold_id === null ? Dec.ZERO : Dec.parse(ad.available);
        const free = (await ledger.balance(accountKey(merchantAccount(merchant), ad.coin), trx)).available;
        amount = Dec.min(available, free.add(held));
      }
      await setAmount(ad, merchant, amount);
    };
    if (core) await restock(undefined, (ad, merchant, amount) => this.submitAd(ad, merchant, amount, true));
    else
      await ledger.transaction((trx) =>
        restock(trx, (ad, merchant, amount) => this.setAdAmount(trx, ad, merchant, amount, true)),
      );
  }

  /** True when `account` can put `number` of `coin` in escrow now. */
  private async covers(trx: Trx, account: AccountRef, coin: string, number: Dec): Promise<boolean> {
    const balance = await this.options.ledger.balance(accountKey(account, coin), trx);
    return balance.available.gte(number);
  }

  /** Refuses a user who may not trade fiat now: frozen, banned, locked after a password change, no KYC. */
  private async assertMayTrade(userId: number, locale: Locale): Promise<void> {
    const { identity, db, clock } = this.options;
    await identity.assertNotFrozen(userId);
    const now = clock.now();
    const ban = (await sql.bansWithinDay(db, userId, now)).find((row) => Number(row.ends_at) > now);
    if (ban) {
      throw forbidden('fiat.banned', {
        until: formatUtc(Number(ban.ends_at)),
        reason: translate(locale, ban.reason_key, JSON.parse(ban.reason_params) as Record<string, string>),
      });
    }
    await identity.assertNotLocked(userId);
    await identity.assertKycDone(userId);
  }

  // ── transitions ────────────────────────────────────────────────────

  /**
   * "I have paid" (POST /fiat/addFiatPayOrderImg): the payer attaches the
   * payment screenshot, an image it uploaded through /user/img, before the
   * window ends (AMENDMENTS A4: proof of an off-chain payment).
   */
  async markPaid(userId: number, input: { id: number; img: string }): Promise<FiatOrder> {
    throwIf(checkPayScreenshot(input.img));
    const { order } = await this.loadAs(userId, input.id, 'buyer');
    if (!(await this.options.identity.uploadBelongsTo(userId, input.img)))
      throw badRequest('fiat.screenshotRequired');
    await this.pay(order, 'buyer', 'payment sent', input.img);
    return this.order(userId, input.id);
  }

  private async pay(order: OrderRow, by: string, reason: string, img: string | null): Promise<void> {
    const { clock, ledger, core } = this.options;
    const now = clock.now();
    const expired = () => badRequest('fiat.expired', { minutes: payWindowMinutes(order) });
    if (order.state === 'to_pay' && now >= Number(order.expires_at)) throw expired();
    if (core) {
      await this.submit({
        kind: 'fiatPaid',
        at: now,
        orderId: Number(order.id),
        expiresAt: Number(order.expires_at),
        windowMinutes: payWindowMinutes(order),
        by,
        reason,
        img,
      });
      return;
    }
    await ledger.transaction(async (trx) => {
      const moved = await sql.moveState(
        trx,
        Number(order.id),
        ['to_pay'],
        'paid',
        { pay_img: img, paid_at: now },
        now,
      );
      if (!moved) throw now >= Number(order.expires_at) ? expired() : badRequest('fiat.wrongState');
      await sql.insertEvent(trx, { order_id: Number(order.id), state: 'paid', by_whom: by, at: now, reason });
    });
  }

  /** The seller confirms the fiat arrived: the escrow is posted to the buyer. Only after "paid" or by an operator during an appeal. */
  async release(userId: number, id: number): Promise<FiatOrder> {
    const { order, merchant } = await this.loadAs(userId, id, 'seller');
    await this.complete(order, merchant, 'seller', 'payment received', 'paid', null);
    return this.order(userId, id);
  }

  private async complete(
    order: OrderRow,
    merchant: MerchantRow,
    by: string,
    reason: string,
    from: 'paid' | 'appeal',
    /** An operator's ruling: its audit entry, written with it. */
    audit: FiatAudit | null,
  ): Promise<void> {
    const { clock, ledger, core } = this.options;
    const now = clock.now();
    if (core) {
      await this.submit({ kind: 'fiatRelease', at: now, orderId: Number(order.id), from, by, reason, audit });
      return;
    }
    await ledger.transaction(async (trx) => {
      if (!(await sql.moveState(trx, Number(order.id), [from], 'completed', { closed_at: now })))
        throw badRequest('fiat.wrongState');
      await ledger.execute(
        [fiatReleaseTransfer(Number(order.id), order.hold_id, Dec.parse(order.number))],
        trx,
      );
      await sql.countMerchantRelease(trx, Number(merchant.id), now - Number(order.paid_at ?? now));
      await sql.insertEvent(trx, {
        order_id: Number(order.id),
        state: 'completed',
        by_whom: by,
        at: now,
        reason,
      });
      if (audit) await appendAudit(trx, now, audit);
    });
  }

  /** The buyer cancels before "paid": the escrow goes back; the third cancel within a day sets a ban (A6). */
  async cancel(userId: number, id: number): Promise<FiatOrder> {
    const { order } = await this.loadAs(userId, id, 'buyer');
    await this.close(order, 'buyer', 'cancelled by the buyer', 'to_pay', null, { rule: 'cancels', userId });
    return this.order(userId, id);
  }

  /**
   * Closes an order as cancelled (or refunded): the hold is voided, the ad
   * gets its amount back; an operator's audit entry and the ban check follow
   * in the same transaction.
   */
  private async close(
    order: OrderRow,
    by: string,
    reason: string,
    from: 'to_pay' | 'appeal',
    audit: FiatAudit | null,
    ban: FiatBanCheck | null,
  ): Promise<void> {
    const { clock, ledger, core } = this.options;
    const now = clock.now();
    if (core) {
      await this.submit({
        kind: 'fiatRefund',
        at: now,
        orderId: Number(order.id),
        from,
        by,
        reason,
        audit,
        ban,
      });
      return;
    }
    await ledger.transaction(async (trx) => {
      if (!(await sql.moveState(trx, Number(order.id), [from], 'cancelled', { closed_at: now })))
        throw badRequest('fiat.wrongState');
      const refund = fiatRefundTransfer(Number(order.id), order.hold_id);
      // The order's part goes back to its ad: held again if the ad is live, the merchant's to spend if not.
      const ad = await sql.ad(trx, Number(order.ad_id));
      if (ad) {
        const merchant = await this.requireMerchant(Number(ad.merchant_id), trx);
        const available = Dec.parse(ad.available).add(Dec.parse(order.number));
        await this.setAdAmount(trx, ad, merchant, available, Number(ad.online) === 1, { before: [refund] });
      } else {
        await ledger.execute([refund], trx);
      }
      await sql.insertEvent(trx, {
        order_id: Number(order.id),
        state: 'cancelled',
        by_whom: by,
        at: now,
        reason,
      });
      if (audit) await appendAudit(trx, now, audit);
      if (ban?.rule === 'cancels') await banAfterCancels(trx, ban.userId, now);
      if (ban?.rule === 'unpaid') await banUnpaid(trx, ban.userId, Number(order.id), ban.windowMinutes, now);
    });
  }

  /**
   * Either party, after "paid" or near the window's end: the escrow stays
   * frozen until an operator rules. The kind (one the party may file) picks
   * the evidence checklist both the party and support read.
   */
  async appeal(userId: number, input: { id: number; kind: string; reason: string }): Promise<FiatOrder> {
    const reason = input.reason.trim();
    const { order, role } = await this.loadAsParty(userId, input.id);
    throwIf(checkFiatAppeal(role, input.kind, reason));
    const kind = input.kind as FiatAppealKind;
    const { clock, ledger, core } = this.options;
    const now = clock.now();
    if (core) {
      await this.submit({
        kind: 'fiatAppeal',
        at: now,
        orderId: Number(order.id),
        role,
        appealKind: kind,
        reason,
      });
      return this.order(userId, input.id);
    }
    // After "paid", or in the window's last minutes (a payment sent but not yet marked): the escrow stays.
    const from: FiatOrderState[] =
      now >= Number(order.expires_at) - FIAT_APPEAL_BEFORE_EXPIRY_MS && now < Number(order.expires_at)
        ? ['paid', 'to_pay']
        : ['paid'];
    await ledger.transaction(async (trx) => {
      const moved = await sql.moveState(trx, Number(order.id), from, 'appeal', {
        appeal_by: role,
        appeal_reason: reason,
        appeal_kind: kind,
      });
      if (!moved) throw badRequest('fiat.wrongState');
      await sql.insertEvent(trx, {
        order_id: Number(order.id),
        state: 'appeal',
        by_whom: role,
        at: now,
        reason,
      });
    });
    return this.order(userId, input.id);
  }

  /**
   * An operator rules on an appeal: `release` gives the coin to the buyer,
   * `refund` returns it to the seller. The reason goes to the order's events
   * and to the append-only operator audit log, in the same transaction.
   */
  async resolve(
    input: { id: number; decision: 'release' | 'refund'; reason: string },
    by: AuditActor,
  ): Promise<void> {
    const reason = input.reason.trim();
    if (!reason) throw badRequest('identity.reasonRequired');
    const order = await sql.order(this.options.db, input.id);
    if (!order) throw notFound('fiat.orderNotFound');
    if (order.state !== 'appeal') throw badRequest('fiat.wrongState');
    const merchant = await this.requireMerchant(Number(order.merchant_id));
    const byWhom = `operator:${by.name}`;
    const audit: FiatAudit = {
      operator: by.name,
      operatorId: by.id,
      action: `fiat.${input.decision}`,
      userId: Number(order.user_id),
      details: JSON.stringify({ orderId: Number(order.id), reason }),
    };
    if (input.decision === 'release') {
      await this.complete(order, merchant, byWhom, reason, 'appeal', audit);
    } else {
      await this.close(order, byWhom, reason, 'appeal', audit, null);
    }
  }

  /** How many orders are under appeal (the back office's dashboard). */
  openAppealCount(): Promise<number> {
    return sql.appealCount(this.options.db);
  }

  /** The orders under appeal, each with the evidence its kind asks for in the operator's language. */
  async appeals(limit: number, locale: Locale): Promise<FiatAppeal[]> {
    const rows = await sql.appeals(this.options.db, limit);
    const ids = rows.map((row) => Number(row.id));
    const events = await sql.events(this.options.db, ids);
    const messages = await sql.messages(this.options.db, ids, CHAT_LIMIT * Math.max(1, ids.length));
    return rows.map((row) => ({
      id: Number(row.id),
      userId: Number(row.user_id),
      side: row.side,
      coin: row.coin,
      fiat: row.fiat,
      amount: Dec.canonical(row.amount),
      number: Dec.canonical(row.number),
      payImg: row.pay_img,
      appealBy: row.appeal_by ?? '',
      appealKind: row.appeal_kind ?? 'other',
      appealReason: row.appeal_reason ?? '',
      evidence: fiatAppealEvidence(row.appeal_kind ?? 'other').map((item) => ({
        item,
        text: translate(locale, `fiat.evidence.${item}`),
      })),
      events: events
        .filter((event) => Number(event.order_id) === Number(row.id))
        .map((event) => ({
          state: event.state,
          by: event.by_whom,
          at: Number(event.at),
          reason: event.reason,
        })),
      messages: messages
        .filter((message) => Number(message.order_id) === Number(row.id))
        .map((message) => ({ ...chatView(message), img: message.img })),
    }));
  }

  // ── merchants (issue 16 item 1) ──────────────────────────────────

  /** A user with verified identity and the deposit in the c2c wallet applies; an operator decides. */
  async applyMerchant(userId: number): Promise<FiatMerchantView> {
    const { db, ledger, clock, identity } = this.options;
    await identity.assertNotFrozen(userId);
    const name = await identity.verifiedName(userId);
    if (name === null) throw forbidden('identity.kycRequired');
    if (await sql.merchantOfUser(db, userId)) throw badRequest('fiat.merchantExists');
    const balance = await ledger.balance({ ...userAccount(userId, 'fiat'), asset: MERCHANT_DEPOSIT.coin });
    if (balance.available.lt(Dec.parse(MERCHANT_DEPOSIT.amount)))
      throw badRequest('fiat.depositMissing', { ...MERCHANT_DEPOSIT });
    await sql.insertMerchant(db, {
      user_id: userId,
      name,
      demo_key: null,
      completed: 0,
      orders: 0,
      release_ms_total: 0,
      created_at: clock.now(),
      state: 'review',
      deposit_hold: null,
    });
    return this.merchantView(userId);
  }

  /** An operator approves (the deposit is held in the ledger) or rejects an application; audited. */
  async decideMerchant(
    input: { userId: number; approve: boolean; reason: string },
    by: AuditActor,
  ): Promise<void> {
    const { db, ledger, clock } = this.options;
    const reason = input.reason.trim();
    if (!reason) throw badRequest('identity.reasonRequired');
    const merchant = await sql.merchantOfUser(db, input.userId);
    if (merchant?.state !== 'review') throw badRequest('fiat.wrongState');
    const now = clock.now();
    const audit: FiatAudit = {
      operator: by.name,
      operatorId: by.id,
      action: input.approve ? 'fiat.merchant.approve' : 'fiat.merchant.reject',
      userId: input.userId,
      details: JSON.stringify({ merchantId: Number(merchant.id), reason }),
    };
    if (this.options.core) {
      const merchantId = Number(merchant.id);
      await this.submit({ kind: 'fiatMerchantDecided', at: now, merchantId, ...input, audit });
      return;
    }
    await ledger.transaction(async (trx) => {
      const hold = input.approve ? `fiat:merchant-deposit:${merchant.id}` : null;
      if (
        !(await sql.decideMerchant(trx, Number(merchant.id), input.approve ? 'approved' : 'rejected', hold))
      )
        throw badRequest('fiat.wrongState');
      if (hold) {
        await ledger.execute([fiatMerchantDepositHold(Number(merchant.id), input.userId)], trx);
      }
      await appendAudit(trx, now, audit);
    });
  }

  /**
   * The operators' list of applications and merchants, newest first: contact
   * always masked, the verified name only when `withName` (the caller audits
   * that read).
   */
  async merchantsForOperator(
    state: MerchantRow['state'] | undefined,
    withName: boolean,
    limit: number,
  ): Promise<FiatMerchantAdmin[]> {
    const { db, identity } = this.options;
    const rows = await sql.merchants(db, state, limit);
    const userIds = rows.flatMap((row) => (row.user_id === null ? [] : [Number(row.user_id)]));
    const decided = await sql.decidedAt(db, userIds);
    return Promise.all(
      rows.map(async (row): Promise<FiatMerchantAdmin> => {
        const userId = row.user_id === null ? null : Number(row.user_id);
        return {
          merchantId: Number(row.id),
          userId,
          contact: userId === null ? '' : maskedContact(await identity.getUser(userId)),
          kycName: withName ? row.name : null,
          status: row.state,
          deposit: { ...MERCHANT_DEPOSIT, held: row.deposit_hold !== null },
          appliedAt: Number(row.created_at),
          decidedAt: userId === null ? null : (decided.get(userId) ?? null),
        };
      }),
    );
  }

  /** The operators' list of ads, newest first, of one merchant or all, online or offline or both. */
  async adsForOperator(
    filter: { merchantId?: number; online?: boolean },
    limit: number,
  ): Promise<FiatAdAdmin[]> {
    const { db } = this.options;
    const rows = await sql.ads(db, filter, limit);
    const owners = new Map<number, number | null>();
    for (const merchantId of new Set(rows.map((row) => Number(row.merchant_id)))) {
      const merchant = await this.requireMerchant(merchantId);
      owners.set(merchantId, merchant.user_id === null ? null : Number(merchant.user_id));
    }
    return rows.map((row) => ({
      ...adView(row),
      merchantId: Number(row.merchant_id),
      merchantUserId: owners.get(Number(row.merchant_id)) ?? null,
    }));
  }

  /**
   * An operator takes an ad offline: the same path as the merchant's own
   * "away" (a sell ad's hold on its coin is voided), with the reason written
   * to the audit log in the same transaction. Open orders keep going.
   */
  async takeAdOffline(input: { id: number; reason: string }, by: AuditActor): Promise<void> {
    const reason = input.reason.trim();
    if (!reason) throw badRequest('identity.reasonRequired');
    const { ledger, clock, core, db } = this.options;
    const offline = async (trx: Executor, setAmount: (ad: AdRow, merchant: MerchantRow) => Promise<void>) => {
      const ad = await sql.ad(trx, input.id);
      if (!ad) throw notFound('fiat.adNotFound');
      if (Number(ad.online) !== 1) throw badRequest('fiat.wrongState');
      const merchant = await this.requireMerchant(Number(ad.merchant_id), trx);
      await setAmount(ad, merchant);
      await sql.appendAudit(trx, {
        at: clock.now(),
        operator: by.name,
        operator_id: by.id,
        action: 'fiat.ad.offline',
        user_id: merchant.user_id === null ? null : Number(merchant.user_id),
        details: JSON.stringify({ adId: Number(ad.id), merchantId: Number(merchant.id), reason }),
      });
    };
    // On the core the audit entry follows the state's answer (an ad offline is never refused for money).
    if (core) await offline(db, (ad, merchant) => this.submitAd(ad, merchant, null, false));
    else
      await ledger.transaction((trx) =>
        offline(trx, (ad, merchant) => this.setAdAmount(trx, ad, merchant, Dec.parse(ad.available), false)),
      );
  }

  /** An approved merchant publishes an ad: limits, amount and payee details in its own verified name. */
  async publishAd(userId: number, input: FiatAdInput): Promise<FiatMerchantView> {
    const { db, clock, ledger, core } = this.options;
    const merchant = await sql.merchantOfUser(db, userId);
    if (merchant?.state !== 'approved') throw forbidden('fiat.notMerchant');
    throwIf(
      checkFiatAdTerms(input) ??
        checkFiatAdMethods(input.fiat, input.methods) ??
        checkFiatPayWindow(input.payWindowMinutes) ??
        checkFiatAdTermsText(input.terms),
    );
    if (input.methods.some((method) => !sameName(merchant.name, method.payee.payeeName)))
      throw badRequest('fiat.payeeNameNotVerified', { name: merchant.name });
    const floating = input.priceType === 'floating';
    const price = floating
      ? this.floatingPrice(input.coin, input.fiat, input.premium)
      : Dec.parse(input.price);
    if (price === null) throw badRequest('fiat.noIndexPrice', { coin: input.coin, fiat: input.fiat });
    const row = {
      merchant_id: Number(merchant.id),
      side: input.side,
      coin: input.coin,
      fiat: input.fiat,
      price: price.toString(),
      price_type: input.priceType,
      premium: floating ? Dec.canonical(input.premium) : null,
      min_amount: Dec.canonical(input.min),
      max_amount: Dec.canonical(input.max),
      available: '0',
      methods: JSON.stringify(
        input.methods.map((method): AdMethod => ({ payType: method.payType, payee: method.payee })),
      ),
      window_ms: input.payWindowMinutes * MINUTE_MS,
      terms: input.terms,
      online: 0,
      demo_key: null,
      created_at: clock.now(),
      hold_id: null,
    };
    const available = Dec.parse(input.available);
    if (core) {
      // The ad's row first (the state needs its id), taken back if the state refuses its hold.
      const ad = await sql.insertAd(db, row);
      try {
        await this.submitAd(ad, merchant, available, true);
      } catch (error) {
        if (error instanceof AppError) await sql.deleteAd(db, Number(ad.id));
        throw error;
      }
      return this.merchantView(userId);
    }
    // The ad and the hold on its amount (a sell ad) are written together, or neither.
    await ledger.transaction(async (trx) => {
      const ad = await sql.insertAd(trx, row);
      await this.setAdAmount(trx, ad, merchant, available, true);
    });
    return this.merchantView(userId);
  }

  /**
   * A merchant takes an ad offline (away: a sell ad's hold is released) or
   * back online (held again), and may set its available amount (raised or
   * lowered, the hold with it); open orders keep going.
   */
  async setAdOnline(
    userId: number,
    adId: number,
    online: boolean,
    available?: string,
  ): Promise<FiatMerchantView> {
    const { db, ledger, core } = this.options;
    const merchant = await sql.merchantOfUser(db, userId);
    if (available !== undefined) throwIf(checkFiatAdAvailable(available));
    const set = async (
      trx: Executor,
      // null: the amount stays as it is (see submitAd).
      setAmount: (ad: AdRow, merchant: MerchantRow, amount: Dec | null) => Promise<void>,
    ) => {
      const ad = await sql.ad(trx, adId);
      if (!merchant || !ad || Number(ad.merchant_id) !== Number(merchant.id))
        throw notFound('fiat.adNotFound');
      await setAmount(ad, merchant, available === undefined ? null : Dec.parse(available));
    };
    if (core) await set(db, (ad, owner, amount) => this.submitAd(ad, owner, amount, online));
    else
      await ledger.transaction((trx) =>
        set(trx, (ad, owner, amount) =>
          this.setAdAmount(trx, ad, owner, amount ?? Dec.parse(ad.available), online),
        ),
      );
    return this.merchantView(userId);
  }

  /** GET /fiat/myMerchant: the application's state, the deposit, the ads and the latest orders. */
  async merchantView(userId: number): Promise<FiatMerchantView> {
    const { db } = this.options;
    const merchant = await sql.merchantOfUser(db, userId);
    if (!merchant) return { state: 'none', name: '', deposit: { ...MERCHANT_DEPOSIT }, ads: [], orders: [] };
    const ads = await sql.adsOfMerchant(db, Number(merchant.id));
    const orders = await sql.merchantOrders(db, Number(merchant.id), 50);
    return {
      state: merchant.state,
      name: merchant.name,
      deposit: { ...MERCHANT_DEPOSIT },
      ads: ads.map(adView),
      orders: await this.views(orders, userId),
    };
  }

  // ── chat (issue 16 item 5) ─────────────────────────────────────────

  /** The order's chat, for its two parties. */
  async chat(userId: number, id: number): Promise<FiatChatMessage[]> {
    await this.loadAsParty(userId, id);
    return (await sql.messages(this.options.db, [id], CHAT_LIMIT)).map(chatView);
  }

  /** A party writes text, attaches an image of its own upload, or both, while the order is open. */
  async say(userId: number, input: { id: number; text: string; img: string }): Promise<FiatChatMessage[]> {
    const { order, role } = await this.loadAsParty(userId, input.id);
    const text = input.text.trim();
    if (!text && !input.img) throw badRequest('fiat.chatEmpty');
    if (text.length > CHAT_TEXT_MAX) throw badRequest('fiat.chatTooLong', { max: CHAT_TEXT_MAX });
    if (input.img && !(await this.options.identity.uploadBelongsTo(userId, input.img)))
      throw badRequest('fiat.chatImageInvalid');
    if (!OPEN_STATES.includes(order.state)) throw badRequest('fiat.wrongState');
    await sql.insertMessage(this.options.db, {
      order_id: input.id,
      by_whom: role,
      user_id: userId,
      text,
      img: input.img || null,
      at: this.options.clock.now(),
    });
    return this.chat(userId, input.id);
  }

  /** An operator writes into an order's chat during its appeal; written to the audit log too. */
  async operatorSay(input: { id: number; text: string }, by: AuditActor): Promise<void> {
    const text = input.text.trim();
    if (!text) throw badRequest('fiat.chatEmpty');
    const order = await sql.order(this.options.db, input.id);
    if (!order) throw notFound('fiat.orderNotFound');
    if (order.state !== 'appeal') throw badRequest('fiat.wrongState');
    const now = this.options.clock.now();
    await this.options.db.transaction().execute(async (trx) => {
      await sql.insertMessage(trx, {
        order_id: input.id,
        by_whom: 'operator',
        user_id: null,
        text,
        img: null,
        at: now,
      });
      await sql.appendAudit(trx, {
        at: now,
        operator: by.name,
        operator_id: by.id,
        action: 'fiat.chat',
        user_id: Number(order.user_id),
        details: JSON.stringify({ orderId: input.id, text }),
      });
    });
  }

  /** A chat image, for the order's two parties: it is read as its writer's upload. */
  async chatImage(userId: number, id: number, messageId: number): Promise<StoredImage | null> {
    await this.loadAsParty(userId, id);
    const message = await sql.message(this.options.db, messageId);
    if (!message || Number(message.order_id) !== id || message.user_id === null) return null;
    const name = uploadName(message.img);
    return name ? this.options.identity.readOwnUpload(Number(message.user_id), name) : null;
  }

  /** GET /fiat/myBans: the ban in force, the recent ones, the ladder and the day's counts. */
  async standing(userId: number, locale: Locale): Promise<FiatStanding> {
    const { db, clock, identity } = this.options;
    const now = clock.now();
    const view = (row: {
      rule: 'unpaid' | 'cancels';
      reason_key: string;
      reason_params: string;
      starts_at: number;
      ends_at: number;
    }): FiatBan => ({
      rule: row.rule,
      reason: translate(locale, row.reason_key, JSON.parse(row.reason_params) as Record<string, string>),
      startsAt: Number(row.starts_at),
      endsAt: Number(row.ends_at),
    });
    const today = await sql.bansWithinDay(db, userId, now);
    const inForce = today.find((row) => Number(row.ends_at) > now);
    return {
      ban: inForce ? view(inForce) : null,
      history: (await sql.recentBans(db, userId, 20)).map(view),
      ladderMinutes: [...FIAT_BAN_LADDER_MINUTES],
      bansToday: today.length,
      cancelsToday: await sql.cancelsWithinDay(db, userId, now),
      cancelsBeforeBan: FIAT_CANCELS_BEFORE_BAN,
      lockedUntil: (await identity.getUser(userId)).lockedUntil,
    };
  }

  // ── the clock ──────────────────────────────────────────────────────

  /**
   * Run every second (and once at start, so what fell due while the server
   * was down happens now): floating prices follow the index; unpaid orders past their window are cancelled, the
   * escrow voided and the payer banned; in demo mode the house merchant takes
   * its step a few seconds after the user's.
   */
  async tick(): Promise<void> {
    const { db, clock } = this.options;
    await this.refreshFloatingPrices();
    for (const order of await sql.dueForExpiry(db, clock.now(), EXPIRE_BATCH)) await this.expire(order);
    if (this.options.demo) await this.demoMerchantSteps();
  }

  private async expire(order: OrderRow): Promise<void> {
    const merchant = await this.requireMerchant(Number(order.merchant_id));
    const payer = this.userOf(order, merchant, 'buyer');
    const ban: FiatBanCheck | null =
      payer === null ? null : { rule: 'unpaid', userId: payer, windowMinutes: payWindowMinutes(order) };
    await this.close(order, 'system', 'payment window expired', 'to_pay', null, ban).catch(ignoreWrongState);
  }

  private async demoMerchantSteps(): Promise<void> {
    const { db, clock } = this.options;
    const house = await sql.merchantByDemoKey(db, HOUSE_KEY);
    if (!house) return;
    const now = clock.now();
    for (const order of await sql.ordersOfMerchantIn(db, Number(house.id), 'paid')) {
      if (order.side === 'buy' && Number(order.paid_at) + DEMO_MERCHANT_DELAY_MS <= now) {
        await this.complete(order, house, 'seller', 'DEMO merchant confirmed receipt', 'paid', null).catch(
          ignoreWrongState,
        );
      }
    }
    for (const order of await sql.ordersOfMerchantIn(db, Number(house.id), 'to_pay')) {
      if (order.side === 'sell' && Number(order.created_at) + DEMO_MERCHANT_DELAY_MS <= now) {
        await this.pay(order, 'buyer', 'DEMO merchant sent the payment', null).catch(ignoreWrongState);
      }
    }
  }

  // ── parties ────────────────────────────────────────────────────────

  /** The user id behind a party of an order, or null for the house merchant. */
  private userOf(order: OrderRow, merchant: MerchantRow, party: Party): number | null {
    const userParty: Party = order.side === 'buy' ? 'buyer' : 'seller';
    if (party === userParty) return Number(order.user_id);
    return merchant.user_id === null ? null : Number(merchant.user_id);
  }

  private async loadAsParty(userId: number, id: number): Promise<Loaded & { role: Party }> {
    const order = await sql.order(this.options.db, id);
    if (!order) throw notFound('fiat.orderNotFound');
    const merchant = await this.requireMerchant(Number(order.merchant_id));
    for (const role of ['buyer', 'seller'] as const) {
      if (this.userOf(order, merchant, role) === userId) return { order, merchant, role };
    }
    // Someone else's order reads as no order: its existence is the parties' business.
    throw notFound('fiat.orderNotFound');
  }

  private async loadAs(userId: number, id: number, party: Party): Promise<Loaded> {
    const loaded = await this.loadAsParty(userId, id);
    if (loaded.role !== party) throw forbidden('fiat.wrongParty');
    return loaded;
  }

  /** Inside a ledger transaction pass its `trx` (on SQLite, one connection: a read outside it would wait for it). */
  private async requireMerchant(id: number, db: Executor = this.options.db): Promise<MerchantRow> {
    const merchant = await sql.merchant(db, id);
    if (!merchant) throw new Error(`fiat: merchant ${id} missing`);
    return merchant;
  }
}

/** A user's e-mail, else phone, masked: enough to tell applicants apart, not to reach them. */
function maskedContact(user: { email: string | null; phone: string | null }): string {
  if (user.email) return maskEmail(user.email);
  return user.phone ? maskAnyPhone(user.phone) : '';
}

function adView(ad: AdRow): FiatAd {
  return {
    id: Number(ad.id),
    side: ad.side,
    coin: ad.coin,
    fiat: ad.fiat,
    price: Dec.canonical(ad.price),
    priceType: ad.price_type,
    premium: ad.premium === null ? null : Dec.canonical(ad.premium),
    min: Dec.canonical(ad.min_amount),
    max: Dec.canonical(ad.max_amount),
    available: Dec.canonical(ad.available),
    methods: parseMethods(ad.methods).map((method) => method.payType),
    payWindowMinutes: Number(ad.window_ms) / MINUTE_MS,
    terms: ad.terms,
    online: Number(ad.online) === 1,
  };
}

/** The stored name of an upload url (`/uploads/<name>`), or null. */
function uploadName(url: string | null): string | null {
  return /\/uploads\/([\w-]+\.(?:jpg|png|webp))$/.exec(url ?? '')?.[1] ?? null;
}

function chatView(message: MessageRow): FiatChatMessage {
  return {
    id: Number(message.id),
    by: message.by_whom as FiatChatMessage['by'],
    text: message.text,
    hasImg: message.img !== null,
    at: Number(message.at),
  };
}

/** Names compared as people write them: case and runs of spaces aside. */
function sameName(a: string, b: string): boolean {
  const norm = (name: string) => name.trim().replace(/\s+/g, ' ').toLowerCase();
  return norm(a) === norm(b);
}

function lowest(values: readonly Dec[]): Dec {
  return values.reduce((a, b) => Dec.min(a, b));
}

function highest(values: readonly Dec[]): Dec {
  return values.reduce((a, b) => Dec.max(a, b));
}

/** The demo merchant's key: the house account (modules/fiat/demo.ts). */
export const HOUSE_KEY = 'house';

/** Another step moved the order first (the user cancelled, appealed, or paid at the last moment): nothing to do. */
/** An ad the edge matched as `fiatOpen` sends it, with what the order row copies of it. */
function candidateOf(
  { ad, merchant }: { ad: AdRow; merchant: MerchantRow },
  input: { payType: FiatPayType; payee: FiatPayee | null },
): FiatCandidate {
  const method = parseMethods(ad.methods).find((entry) => entry.payType === input.payType)!;
  return {
    adId: Number(ad.id),
    merchantId: Number(merchant.id),
    merchantUserId: merchant.user_id === null ? null : Number(merchant.user_id),
    price: ad.price,
    windowMs: Number(ad.window_ms),
    terms: ad.terms,
    payee: JSON.stringify(input.payee ?? method.payee),
  };
}

/** An operator's audit entry as the SQL path writes it beside the decision (the projection writes the state's). */
function appendAudit(trx: Trx, at: number, audit: FiatAudit): Promise<unknown> {
  return sql.appendAudit(trx, {
    at,
    operator: audit.operator,
    operator_id: audit.operatorId,
    action: audit.action,
    user_id: audit.userId,
    details: audit.details,
  });
}

function ignoreWrongState(error: unknown): void {
  if (!(error instanceof AppError && error.key === 'fiat.wrongState')) throw error;
}
