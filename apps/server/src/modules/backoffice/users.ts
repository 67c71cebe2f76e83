import { Dec } from '@halyard/money';
import type {
  AdminBalance,
  AdminOrder,
  AdminPosition,
  AdminUserDetail,
  AdminUserPage,
  CyclePosition,
} from '@halyard/protocol';
import type { Ledger } from '../../ledger/index.ts';
import type { CycleService } from '../cycle/index.ts';
import type { FuturesService } from '../futures/index.ts';
import type { IdentityService, UserSearch } from '../identity/index.ts';
import type { SpotService } from '../spot/index.ts';
import type { WalletOperatorReads } from '../wallet/index.ts';
import { contactFields } from './masking.ts';

/** How much of a user's history their page shows: the newest of each. */
export const OPEN_ORDERS_SHOWN = 50;
export const RECENT_ORDERS_SHOWN = 20;
export const LOGINS_SHOWN = 50;

type SpotOrder = Awaited<ReturnType<SpotService['orderPage']>>['list'][number];
type FuturesEntrust = Awaited<ReturnType<FuturesService['entrustPage']>>['list'][number];
type FuturesPosition = Awaited<ReturnType<FuturesService['positions']>>[number];

export interface UserDirectoryOptions {
  identity: IdentityService;
  wallet: WalletOperatorReads;
  ledger: Ledger;
  spot: SpotService;
  futures: FuturesService;
  cycle: CycleService;
}

/**
 * What one search text may be: an id (digits), a part of an email or phone,
 * an invitation code, a wallet address the user signed in with, or a deposit
 * address handed to them. Every reading is tried; any match counts.
 */
async function readSearch(text: string, wallet: WalletOperatorReads): Promise<UserSearch> {
  const q = text.trim();
  return {
    id: /^\d{1,15}$/.test(q) ? Number(q) : null,
    contains: q,
    invitationCode: q.toUpperCase(),
    walletAddress: q.toLowerCase(),
    userIds: await wallet.depositAddressUsers(q),
  };
}

function spotOrder(order: SpotOrder): AdminOrder {
  return {
    market: 'spot',
    id: order.autoid,
    symbol: `${order.tradcoin}/${order.maincoin}`,
    side: order.type,
    style: order.style,
    price: order.price,
    amount: order.number,
    filled: order.deal_amount,
    state: order.state,
    time: order.wdate,
  };
}

function futuresOrder(entrust: FuturesEntrust): AdminOrder {
  return {
    market: 'futures',
    id: entrust.autoid,
    symbol: `${entrust.tradcoin}/${entrust.maincoin}`,
    side: `${entrust.type} ${entrust.action}`,
    style: entrust.style,
    price: entrust.entrust_price,
    amount: entrust.number,
    filled: Dec.parse(entrust.number).sub(Dec.parse(entrust.unfilled)).toString(),
    state: entrust.state,
    time: entrust.wdate,
  };
}

function futuresPosition(position: FuturesPosition): AdminPosition {
  return {
    product: 'futures',
    id: position.autoid,
    symbol: `${position.tradcoin}/${position.maincoin}`,
    side: position.type,
    amount: position.number,
    price: position.price,
    margin: position.position,
    openedAt: position.wdate,
    endsAt: null,
  };
}

function cyclePosition(position: CyclePosition): AdminPosition {
  return {
    product: 'cycle',
    id: position.autoid,
    symbol: `${position.tradcoin}/${position.maincoin}`,
    side: position.type,
    amount: position.number,
    price: position.price,
    margin: position.number,
    openedAt: position.wdate,
    endsAt: position.expires_at,
  };
}

/** Newest first, across both markets. */
function newestFirst(orders: AdminOrder[]): AdminOrder[] {
  return orders.sort((a, b) => b.time - a.time || b.id - a.id);
}

/**
 * The users screen's reads (issue 18): the search and a user's page, put
 * together from the modules that own each part. Masking is decided by the
 * caller (`unmasked`: the operator holds pii.read); auditing the views that
 * show personal data is the route's.
 */
export class UserDirectory {
  constructor(private readonly options: UserDirectoryOptions) {}

  async search(text: string, page: number, limit: number, unmasked: boolean): Promise<AdminUserPage> {
    const search = await readSearch(text, this.options.wallet);
    const { rows, total } = await this.options.identity.searchUsers(search, page, limit);
    return { items: rows.map((row) => contactFields(row, unmasked)), total, page, limit, unmasked };
  }

  async detail(userId: number, unmasked: boolean): Promise<AdminUserDetail> {
    const { identity, spot, futures, cycle } = this.options;
    const { kyc, kycSubmission, ...profile } = await identity.operatorProfile(userId);
    const [balances, spotOpen, spotDone, futuresOpen, futuresDone, positions, logins, sessions] =
      await Promise.all([
        this.balances(userId),
        spot.orderPage(userId, true, null, 1, OPEN_ORDERS_SHOWN),
        spot.orderPage(userId, false, null, 1, RECENT_ORDERS_SHOWN),
        futures.entrustPage(userId, true, null, 1, OPEN_ORDERS_SHOWN),
        futures.entrustPage(userId, false, null, 1, RECENT_ORDERS_SHOWN),
        futures.positions(userId, null),
        identity.loginHistory(userId, LOGINS_SHOWN),
        identity.liveSessions(userId),
      ]);
    return {
      profile: contactFields(profile, unmasked),
      unmasked,
      kyc,
      kycSubmission: unmasked ? kycSubmission : null,
      balances,
      openOrders: newestFirst([...spotOpen.list.map(spotOrder), ...futuresOpen.list.map(futuresOrder)]),
      recentOrders: newestFirst([
        ...spotDone.list.map(spotOrder),
        ...futuresDone.list.map(futuresOrder),
      ]).slice(0, RECENT_ORDERS_SHOWN),
      positions: [...positions.map(futuresPosition), ...cycle.positions(userId, null).map(cyclePosition)],
      logins,
      sessions,
    };
  }

  /** Every account the user has in the ledger, by wallet then coin. */
  private async balances(userId: number): Promise<AdminBalance[]> {
    const accounts = await this.options.ledger.balances(userId);
    return accounts.map((account) => ({
      wallet: account.wallet,
      coin: account.asset,
      available: account.available.toString(),
      locked: account.locked.toString(),
      total: account.total.toString(),
    }));
  }
}
