import type {
  CycleOptionSettings,
  CyclePairSettings,
  FuturesContractSettings,
  MarketCoins,
  MarketListingRequest,
  SpotPairSettings,
} from '@halyard/protocol';
import { badRequest } from '../../http/errors.ts';
import type { ApprovalHandler } from '../approvals/index.ts';
import type { CycleService } from '../cycle/index.ts';
import type { FuturesService } from '../futures/index.ts';
import type { SpotService } from '../spot/index.ts';
import type { MarketChange } from './changes.ts';

export const MARKET_LISTING = 'market_listing';

/** A validated listing as stored in the request (its reason is the request's). */
export type MarketListing = WithoutReason<MarketListingRequest>;
/** Omit over each member of a union (Omit of the union itself would lose the members' own fields). */
type WithoutReason<T> = T extends unknown ? Omit<T, 'reason'> : never;

export interface ListingServices {
  spot: SpotService;
  futures: FuturesService;
  cycle: CycleService;
  /** Tells the other gateways of a change they must read from the store (changes.ts), after it committed. */
  changed: (change: MarketChange) => void;
}

/**
 * A new spot pair, futures contract or cycle pair: requested by one operator
 * with `markets.list`, listed when a second one approves. The row is written
 * in the approval's transaction; the market opens (its book, its funding
 * clock) right after the commit.
 */
export function marketListingHandler(services: ListingServices): ApprovalHandler<MarketListing> {
  return {
    permissionToRequest: 'markets.list',
    permissionToApprove: 'markets.list',
    validate(payload) {
      const listing = listingOf(payload);
      checkListing(services, listing);
      return listing;
    },
    describe: (listing) => ({
      summary: `list ${listing.kind} ${listing.tradcoin}/${listing.maincoin}`,
      subject: `${listing.kind}:${listing.tradcoin}/${listing.maincoin}`,
    }),
    async execute(listing, { trx, afterCommit }) {
      const coins = { tradcoin: listing.tradcoin, maincoin: listing.maincoin };
      switch (listing.kind) {
        case 'spot': {
          const id = await services.spot.insertListing(trx, coins, spotSettings(listing));
          afterCommit(() => services.spot.load());
          return { id };
        }
        case 'futures': {
          const id = await services.futures.insertListing(trx, listing, futuresSettings(listing));
          afterCommit(() => services.futures.openListed(id));
          return { id };
        }
        case 'cycle': {
          const id = await services.cycle.insertListing(trx, coins, cycleSettings(listing));
          afterCommit(async () => {
            await services.cycle.load();
            services.changed({ kind: 'cycle', id });
          });
          return { id };
        }
      }
    },
  };
}

function checkListing(services: ListingServices, listing: MarketListing): void {
  const coins = { tradcoin: listing.tradcoin, maincoin: listing.maincoin };
  if (listing.kind === 'spot') services.spot.checkListing(coins, spotSettings(listing));
  else if (listing.kind === 'futures') services.futures.checkListing(listing, futuresSettings(listing));
  else services.cycle.checkListing(coins, cycleSettings(listing));
}

export function spotSettings(input: SpotPairSettings): SpotPairSettings {
  return {
    priceAccuracy: input.priceAccuracy,
    amountAccuracy: input.amountAccuracy,
    minNumber: input.minNumber,
    maxNumber: input.maxNumber,
    makerFee: input.makerFee,
    takerFee: input.takerFee,
    enabled: input.enabled,
    sort: input.sort,
  };
}

export function futuresSettings(input: FuturesContractSettings): FuturesContractSettings {
  return {
    priceAccuracy: input.priceAccuracy,
    minNumber: input.minNumber,
    maxNumber: input.maxNumber,
    maxLever: input.maxLever,
    fee: input.fee,
    maintenanceMarginRate: input.maintenanceMarginRate,
    enabled: input.enabled,
    sort: input.sort,
  };
}

export function cycleSettings(input: CyclePairSettings): CyclePairSettings {
  return {
    priceAccuracy: input.priceAccuracy,
    payCoins: [...input.payCoins],
    options: input.options.map(
      (option): CycleOptionSettings => ({
        seconds: option.seconds,
        minNumber: option.minNumber,
        maxNumber: option.maxNumber,
        profitRate: option.profitRate,
        lossRate: option.lossRate,
        fee: option.fee,
      }),
    ),
    sort: input.sort,
  };
}

/**
 * The listing fields of a payload, each of its JSON type (the route's schema
 * checked them on the way in; a stored payload is read back through here).
 */
function listingOf(payload: unknown): MarketListing {
  const body = record(payload, 'kind');
  const coins: MarketCoins = { tradcoin: text(body, 'tradcoin'), maincoin: text(body, 'maincoin') };
  switch (own(body, 'kind')) {
    case 'spot':
      return {
        kind: 'spot',
        ...coins,
        ...spotSettings({
          priceAccuracy: integer(body, 'priceAccuracy'),
          amountAccuracy: integer(body, 'amountAccuracy'),
          minNumber: text(body, 'minNumber'),
          maxNumber: text(body, 'maxNumber'),
          makerFee: text(body, 'makerFee'),
          takerFee: text(body, 'takerFee'),
          enabled: flag(body, 'enabled'),
          sort: integer(body, 'sort'),
        }),
      };
    case 'futures':
      return {
        kind: 'futures',
        ...coins,
        name: text(body, 'name'),
        unit: text(body, 'unit'),
        ...futuresSettings({
          priceAccuracy: integer(body, 'priceAccuracy'),
          minNumber: text(body, 'minNumber'),
          maxNumber: text(body, 'maxNumber'),
          maxLever: integer(body, 'maxLever'),
          fee: text(body, 'fee'),
          maintenanceMarginRate: text(body, 'maintenanceMarginRate'),
          enabled: flag(body, 'enabled'),
          sort: integer(body, 'sort'),
        }),
      };
    case 'cycle':
      return {
        kind: 'cycle',
        ...coins,
        priceAccuracy: integer(body, 'priceAccuracy'),
        payCoins: list(body, 'payCoins').map((coin) =>
          typeof coin === 'string' ? coin : invalid('payCoins'),
        ),
        options: list(body, 'options').map((entry) => {
          const option = record(entry, 'options');
          return {
            seconds: integer(option, 'seconds'),
            minNumber: text(option, 'minNumber'),
            maxNumber: text(option, 'maxNumber'),
            profitRate: text(option, 'profitRate'),
            lossRate: text(option, 'lossRate'),
            fee: text(option, 'fee'),
          };
        }),
        sort: integer(body, 'sort'),
      };
    default:
      return invalid('kind');
  }
}

function invalid(field: string): never {
  throw badRequest('markets.valueInvalid', { field });
}

function record(value: unknown, field: string): Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return invalid(field);
  return value as Record<string, unknown>;
}

function own(body: Record<string, unknown>, field: string): unknown {
  return Object.hasOwn(body, field) ? body[field] : undefined;
}

function text(body: Record<string, unknown>, field: string): string {
  const value = own(body, field);
  return typeof value === 'string' ? value : invalid(field);
}

function integer(body: Record<string, unknown>, field: string): number {
  const value = own(body, field);
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : invalid(field);
}

function flag(body: Record<string, unknown>, field: string): boolean {
  const value = own(body, field);
  return typeof value === 'boolean' ? value : invalid(field);
}

function list(body: Record<string, unknown>, field: string): unknown[] {
  const value = own(body, field);
  return Array.isArray(value) ? value : invalid(field);
}
