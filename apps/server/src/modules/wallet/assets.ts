import { randomUUID } from 'node:crypto';
import { Dec } from '@halyard/money';
import { type Locale, messages, translate } from '@halyard/protocol';
import type { RuleError } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import {
  TRANSFER_ROUTES,
  type TransferRoute,
  walletMoveAmountRefusal,
  walletMoveTransfer,
  walletRouteRefusal,
} from '../../core/state/wallet-moves.ts';
import { badRequest } from '../../http/errors.ts';
import { type AccountBalance, type Ledger, type UserWallet, userAccount } from '../../ledger/index.ts';
import type { IndexPriceSource } from '../../market/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { submitAhead } from '../../money-core/submit.ts';
import type { IdentityService } from '../identity/index.ts';
import { CHAIN_NAMES, DEFAULT_CHAIN } from './config.ts';
import type { WalletService } from './service.ts';

/** Spec §9: totals are shown with 8 decimals, floored. */
const USDT_DIGITS = 8;

/**
 * DEMO RATES, not market data: what one USDT is worth in each local currency,
 * for the Balances page's local-currency estimate (spec §2). A live deployment
 * replaces them with a feed.
 */
export const DEMO_FIAT_RATES: Record<string, { symbol: string; price: string }> = {
  USD: { symbol: '$', price: '1' },
  CNY: { symbol: '¥', price: '7.2' },
  TWD: { symbol: 'NT$', price: '32.4' },
  JPY: { symbol: '¥', price: '151' },
  KRW: { symbol: '₩', price: '1390' },
  TRY: { symbol: '₺', price: '34.2' },
  VND: { symbol: '₫', price: '25400' },
  IDR: { symbol: 'Rp', price: '15900' },
  RUB: { symbol: '₽', price: '96' },
  EUR: { symbol: '€', price: '0.92' },
};

export { TRANSFER_ROUTES, type TransferRoute };

export interface TransferRequest {
  coin: string;
  amount: string;
  from: UserWallet;
  to: UserWallet;
}

function throwIf(error: RuleError | null): void {
  if (error) throw badRequest(error.key, error.params);
}

/**
 * What a user's futures hold beyond their futures wallet, per settlement
 * coin, as the futures module reports it (the wallet never reads futures
 * tables): open positions' margin, which lives in the system margin pool,
 * their unrealised PnL at the mark, and the margin + fee open entrusts hold.
 */
export interface FuturesExposure {
  coin: string;
  margin: Dec;
  profit: Dec;
  entrust: Dec;
}
export type FuturesExposureSource = (userId: number) => Promise<FuturesExposure[]>;

interface AssetRow {
  coin: string;
  usable: Dec;
  disable: Dec;
  usdt: Dec;
}

/**
 * What a user holds, read from the ledger and valued at index prices:
 * the spec's Balances, Spot/Futures asset, Totals, Rate and the balance
 * record; and transfers between the user's own wallets.
 */
export class AssetsService {
  constructor(
    private readonly options: {
      ledger: Ledger;
      /** Stamps a move's time on the core (the state never reads a clock). */
      clock: Clock;
      index: IndexPriceSource;
      identity: IdentityService;
      wallet: WalletService;
      futuresExposure: FuturesExposureSource;
      listedCoins: () => Promise<string[]>;
      /**
       * The sequenced core, when the moves between a user's wallets run on it
       * (issue 19's cut-over): a move is the state's `walletMove` command.
       */
      core?: MoneyCoreHandle;
    },
  ) {}

  private async exposureByCoin(userId: number): Promise<Map<string, FuturesExposure>> {
    const exposures = await this.options.futuresExposure(userId);
    return new Map(exposures.map((exposure) => [exposure.coin, exposure]));
  }

  /** Every coin the exchange knows: the wallet's coins, the priced coins, the quote coin and the listed coins. */
  async knownCoins(): Promise<string[]> {
    const { wallet, index, listedCoins } = this.options;
    const coins = new Set<string>([
      index.quote,
      ...(await wallet.coins()).map((entry) => entry.coin),
      ...index.coins(),
      ...(await listedCoins()),
    ]);
    return [...coins];
  }

  private async requireCoin(coin: string): Promise<void> {
    if (!(await this.knownCoins()).includes(coin)) throw badRequest('wallet.unknownCoin', { coin });
  }

  /** The coin's index price in USDT, or null while it has none. */
  priceOf(coin: string): Dec | null {
    const { index } = this.options;
    if (coin === index.quote) return Dec.ONE;
    return index.current(coin)?.price ?? null;
  }

  private usdtOf(coin: string, amount: Dec): Dec {
    const price = this.priceOf(coin);
    return price ? amount.mul(price).floorTo(USDT_DIGITS) : Dec.ZERO;
  }

  /** One row per known coin (zero balances included, for the hide-zero checkbox), then any other held coin. */
  private async rows(userId: number, wallet: UserWallet): Promise<AssetRow[]> {
    const held = (await this.options.ledger.balances(userId)).filter((balance) => balance.wallet === wallet);
    const byCoin = new Map<string, AccountBalance>(held.map((balance) => [balance.asset, balance]));
    const coins = [...new Set([...(await this.knownCoins()), ...byCoin.keys()])];
    return coins.map((coin) => {
      const balance = byCoin.get(coin);
      const usable = balance?.available ?? Dec.ZERO;
      const disable = balance?.locked ?? Dec.ZERO;
      return { coin, usable, disable, usdt: this.usdtOf(coin, usable.add(disable)) };
    });
  }

  /** Spec §3 Spot asset: coin, blockname, usable, disable, usdt. */
  async spotAssets(userId: number) {
    const chains = new Map<string, string>();
    for (const entry of await this.options.wallet.coins()) {
      if (!chains.has(entry.coin) || entry.chainId === DEFAULT_CHAIN)
        chains.set(entry.coin, CHAIN_NAMES[entry.chainId]);
    }
    return (await this.rows(userId, 'spot')).map((row) => ({
      coin: row.coin,
      blockname: chains.get(row.coin) ?? '',
      usable: row.usable.toString(),
      disable: row.disable.toString(),
      usdt: row.usdt.toString(),
    }));
  }

  /**
   * Spec §3 Futures asset: `usable` is the free futures balance, `orders` the
   * margin of open positions, `profit` their unrealised PnL at the mark and
   * `entrust` what open entrusts hold for margin and fee.
   */
  async futuresAssets(userId: number) {
    const exposures = await this.exposureByCoin(userId);
    return (await this.rows(userId, 'futures')).map((row) => {
      const exposure = exposures.get(row.coin);
      return {
        coin: row.coin,
        usable: row.usable.toString(),
        orders: (exposure?.margin ?? Dec.ZERO).toString(),
        profit: (exposure?.profit ?? Dec.ZERO).toString(),
        entrust: (exposure?.entrust ?? Dec.ZERO).toString(),
      };
    });
  }

  /** The fiat (c2c) wallet, shaped like the spot list. */
  async fiatAssets(userId: number) {
    return (await this.rows(userId, 'fiat')).map((row) => ({
      coin: row.coin,
      usable: row.usable.toString(),
      disable: row.disable.toString(),
      usdt: row.usdt.toString(),
    }));
  }

  /**
   * Spec §3 Totals: per wallet a map coin → total held and its USDT value;
   * `usdt` values everything the user holds (every wallet, cycle and IEO
   * included). The futures wallet counts its equity: the ledger balance plus
   * the margin of open positions (held in the system margin pool) and their
   * unrealised PnL, so opening a position does not lower the totals.
   */
  async totals(userId: number) {
    const balances = await this.options.ledger.balances(userId);
    const heldIn = (wallet: UserWallet) =>
      new Map(balances.filter((entry) => entry.wallet === wallet).map((entry) => [entry.asset, entry.total]));
    const futuresHeld = heldIn('futures');
    for (const exposure of await this.options.futuresExposure(userId)) {
      const total = futuresHeld.get(exposure.coin) ?? Dec.ZERO;
      futuresHeld.set(exposure.coin, total.add(exposure.margin).add(exposure.profit));
    }
    const summary = (held: Map<string, Dec>) => ({
      map: Object.fromEntries([...held].map(([coin, total]) => [coin, total.toString()])),
      usdt: Dec.sum([...held].map(([coin, total]) => this.usdtOf(coin, total))),
    });
    const spot = summary(heldIn('spot'));
    const futures = summary(futuresHeld);
    const fiat = summary(heldIn('fiat'));
    const outsideFutures = balances.filter((balance) => balance.wallet !== 'futures');
    const all = Dec.sum(outsideFutures.map((balance) => this.usdtOf(balance.asset, balance.total))).add(
      futures.usdt,
    );
    return {
      usdt: all.toString(),
      assets: spot.map,
      assets_amount: spot.usdt.toString(),
      contract_assets: futures.map,
      contract_assets_amount: futures.usdt.toString(),
      c2c_assets: fiat.map,
      c2c_assets_amount: fiat.usdt.toString(),
    };
  }

  /** One coin's balance in one wallet: `usable` is what can be spent now. */
  async balance(userId: number, wallet: UserWallet, coin: string) {
    await this.requireCoin(coin);
    const balance = await this.options.ledger.balance({ ...userAccount(userId, wallet), asset: coin });
    return { coin, usable: balance.available.toString(), disable: balance.locked.toString() };
  }

  /**
   * Spec §5 "Transfer": an amount covered by the source wallet; refused while
   * the funds are frozen. The checks run here on both paths, on what SQL
   * holds, so a refusal is the same in the same order (the freeze after the
   * money checks); on the core the state checks the route and the amount
   * again on its own balances, and its answer decides.
   */
  async transfer(userId: number, route: TransferRoute, input: TransferRequest) {
    const move = { userId, route, ...input };
    throwIf(walletRouteRefusal(move));
    await this.requireCoin(input.coin);
    const { ledger, identity, clock, core } = this.options;
    const source = await ledger.balance({ ...userAccount(userId, input.from), asset: input.coin });
    throwIf(walletMoveAmountRefusal(move, source.available));
    await identity.assertNotFrozen(userId);
    const transferId = `transfer:${randomUUID()}`;
    // On the core, answered once durable: the user's next request waits until SQL holds the move.
    if (core) await submitAhead(core, userId, { kind: 'walletMove', ...move, transferId, at: clock.now() });
    else await ledger.execute([walletMoveTransfer(transferId, move)]);
    return {
      id: transferId,
      coin: input.coin,
      amount: Dec.canonical(input.amount),
      from: input.from,
      to: input.to,
    };
  }

  /**
   * The balance record (spec §2 /balanceRecord): one wallet's ledger entries
   * for a coin, newest first, with a signed amount and a human type.
   */
  async records(
    userId: number,
    query: { coin: string; wallet: UserWallet; before: number | null; limit: number; locale: Locale },
  ) {
    await this.requireCoin(query.coin);
    const page = await this.options.ledger.transfers(
      { ...userAccount(userId, query.wallet), asset: query.coin },
      // A hold and its void only reserve and release; what moved money is listed (posts of holds included).
      { limit: query.limit, before: query.before, types: ['posted', 'post_pending'] },
    );
    return {
      items: page.items.map((entry) => ({
        id: entry.id,
        coin: entry.asset,
        wallet: query.wallet,
        type: entry.code,
        typeName: typeName(query.locale, entry.code),
        kind: entry.type,
        amount: (entry.side === 'debit' ? entry.amount.neg() : entry.amount).toString(),
        reference: entry.reference,
        time: entry.timestamp,
      })),
      next: page.next,
    };
  }

  /** What one `coin` is worth in local currency `fiat`: its index price × the fiat's rate per USDT; null when either is unknown. */
  fiatPriceOf(coin: string, fiat: string): Dec | null {
    const rate = Object.hasOwn(DEMO_FIAT_RATES, fiat) ? DEMO_FIAT_RATES[fiat] : undefined;
    const price = this.priceOf(coin);
    return rate && price ? price.mul(Dec.parse(rate.price)) : null;
  }

  /**
   * Spec §3 Rate {symbol, price, coin}: for a local currency, what one USDT
   * is worth in it (DEMO_FIAT_RATES); for a coin, its index price in USDT.
   */
  rate(coin: string) {
    // Own entries only: a coin named like an Object.prototype member is no currency.
    const fiat = Object.hasOwn(DEMO_FIAT_RATES, coin) ? DEMO_FIAT_RATES[coin] : undefined;
    if (fiat) return { symbol: fiat.symbol, price: fiat.price, coin };
    const price = this.priceOf(coin);
    if (!price) throw badRequest('wallet.noPrice', { coin });
    return { symbol: this.options.index.quote, price: price.toString(), coin };
  }
}

/** The record type in the user's language; codes without a name of their own read "Other". */
function typeName(locale: Locale, code: string): string {
  const key = `wallet.type.${code}`;
  return key in messages.en ? translate(locale, key) : translate(locale, 'wallet.type.other');
}
