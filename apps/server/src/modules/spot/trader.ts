import { type AccountRef, systemAccount, userAccount } from '../../ledger/index.ts';

/**
 * Who places an order: a user, or one of the house's two roles. The house is
 * the built-in market maker (DESIGN §6); it trades from the ledger's
 * `market_maker` system wallet, which the treasury funds at the demo seed.
 * Its quoting role and its crossing role have different owners, so the book's
 * self-trade prevention keeps the quotes from cancelling the crossing orders;
 * both settle into the same ledger account.
 */
export interface Trader {
  /** The order book's user id: the user id as text, or a house role. */
  owner: string;
  /** The user id stored with the order; 0 for the house. */
  userId: number;
  /** The ledger account that pays and receives. */
  account: AccountRef;
}

export const HOUSE_USER_ID = 0;
export const HOUSE_QUOTER = 'house';
export const HOUSE_TAKER = 'house-taker';
const HOUSE_OWNERS = new Set([HOUSE_QUOTER, HOUSE_TAKER]);

export function userTrader(userId: number): Trader {
  return { owner: String(userId), userId, account: userAccount(userId, 'spot') };
}

export function houseTrader(role: typeof HOUSE_QUOTER | typeof HOUSE_TAKER): Trader {
  return { owner: role, userId: HOUSE_USER_ID, account: systemAccount('market_maker') };
}

/** The trader behind a stored order's owner column. */
export function traderOf(owner: string): Trader {
  if (HOUSE_OWNERS.has(owner)) return houseTrader(owner as typeof HOUSE_QUOTER);
  const userId = Number(owner);
  if (!Number.isSafeInteger(userId) || userId <= 0) throw new Error(`spot: unknown order owner ${owner}`);
  return userTrader(userId);
}
