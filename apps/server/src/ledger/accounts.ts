/**
 * Who can hold money in Halyard, and which accounts may go below zero.
 *
 * An account is (owner, asset, wallet). The owner is a user id, or
 * `'system'` for the exchange's own accounts; TypeScript keeps user wallets
 * and system wallets apart, so `{ owner: 7, wallet: 'fees' }` does not compile.
 */

export const SYSTEM_OWNER = 'system';

/** The wallets a user has, one per product (spec: spot, futures, c2c/fiat, cycle, IEO). */
export const USER_WALLETS = ['spot', 'futures', 'fiat', 'cycle', 'ieo'] as const;
export type UserWallet = (typeof USER_WALLETS)[number];

/**
 * The exchange's own accounts and whether each may be negative (its balance is
 * credits − debits, the same formula as a user's). Custody mirrors coins held on
 * one chain: a deposit debits it, so it runs negative by nature. The treasury
 * mints play money in demo mode, so it runs negative too. Every other system
 * account holds real value and must stay at or above zero like a user's.
 */
export const NAMED_SYSTEM_WALLETS = {
  treasury: { mayGoNegative: true },
  /**
   * The other side of every manual balance adjustment an operator requested
   * and a second operator approved (modules/approvals): a credit to a user
   * comes out of it, a debit goes into it, so it runs negative by the net
   * given away, and its transfers are the adjustments' whole history.
   */
  operator_adjustments: { mayGoNegative: true },
  fees: { mayGoNegative: false },
  insurance: { mayGoNegative: false },
  market_maker: { mayGoNegative: false },
  /** Where a posted hold lands before it is delivered to the counterparty in the same batch. */
  clearing: { mayGoNegative: false },
  /** The margin of every open futures position and the PnL owed between them (modules/futures). */
  futures_margin: { mayGoNegative: false },
  /** The stakes of open cycle contracts, until their settlement moves them to the treasury (modules/cycle). */
  cycle_stakes: { mayGoNegative: false },
  /** The demo house merchant's coin for fiat orders; its escrow holds are taken from it (modules/fiat). */
  fiat_house: { mayGoNegative: false },
  /** Fiat merchants' security deposits, each a hold from the merchant's fiat wallet while it trades (modules/fiat). */
  fiat_deposits: { mayGoNegative: false },
  /** The other side of the hold on a live sell ad's available amount (modules/fiat); holds only, never posted. */
  fiat_ads: { mayGoNegative: false },
} as const satisfies Record<string, { mayGoNegative: boolean }>;
export type NamedSystemWallet = keyof typeof NAMED_SYSTEM_WALLETS;

/** Custody of one chain's coins, e.g. `custody:bsc`. */
export type CustodyWallet = `custody:${string}`;
/**
 * One token launch's treasury, e.g. `ieo:3` (modules/ieo): it is funded with the
 * project's whole supply and its pay-coin proceeds land in it. It may never go
 * below zero, so the ledger itself refuses to deliver a token the project does not have.
 */
export type IeoProjectWallet = `ieo:${number}`;
export type SystemWallet = NamedSystemWallet | CustodyWallet | IeoProjectWallet;
export type Wallet = UserWallet | SystemWallet;

/** One owner's wallet; with an asset it names one account. */
export type AccountRef =
  | { owner: number; wallet: UserWallet }
  | { owner: typeof SYSTEM_OWNER; wallet: SystemWallet };

/** One account: whose, which asset, which wallet. */
export type AccountKey = AccountRef & { asset: string };

/**
 * The account of `ref` in `asset`. Written field by field, not as
 * `{ ...ref, asset }`: Node 20's V8 copies an object through a slow runtime
 * path when a spread is followed by a field the source does not have (about
 * 1 µs each, against 10 ns; docs/core.md "Replay after issue #19").
 */
export function accountKey(ref: AccountRef, asset: string): AccountKey {
  return { owner: ref.owner, wallet: ref.wallet, asset } as AccountKey;
}

export function userAccount(userId: number, wallet: UserWallet): AccountRef {
  return { owner: userId, wallet };
}

export function systemAccount(wallet: SystemWallet): AccountRef {
  return { owner: SYSTEM_OWNER, wallet };
}

export function custodyWallet(chain: string): CustodyWallet {
  return `custody:${chain}`;
}

export function ieoProjectWallet(projectId: number): IeoProjectWallet {
  return `ieo:${projectId}`;
}

const CUSTODY_PATTERN = /^custody:[a-z0-9_-]{1,32}$/;
const IEO_PROJECT_PATTERN = /^ieo:[1-9][0-9]{0,15}$/;
/** Coin symbols as the spec writes them: upper-case letters and digits. */
const ASSET_PATTERN = /^[A-Z0-9]{1,20}$/;

export function isValidAsset(asset: string): boolean {
  return ASSET_PATTERN.test(asset);
}

/** The name of the field that is wrong, or null when the reference is a real account. */
export function invalidAccountField(ref: AccountRef): 'owner' | 'wallet' | null {
  if (ref.owner === SYSTEM_OWNER) {
    const wallet: string = ref.wallet;
    return Object.hasOwn(NAMED_SYSTEM_WALLETS, wallet) ||
      CUSTODY_PATTERN.test(wallet) ||
      IEO_PROJECT_PATTERN.test(wallet)
      ? null
      : 'wallet';
  }
  if (!Number.isSafeInteger(ref.owner) || ref.owner <= 0) return 'owner';
  return (USER_WALLETS as readonly string[]).includes(ref.wallet) ? null : 'wallet';
}

/** The per-kind overdraft flag: users never, system accounts as the table above says. */
export function mayGoNegative(ref: AccountRef): boolean {
  if (ref.owner !== SYSTEM_OWNER) return false;
  if (ref.wallet.startsWith('custody:')) return true;
  if (ref.wallet.startsWith('ieo:')) return false;
  return NAMED_SYSTEM_WALLETS[ref.wallet as NamedSystemWallet].mayGoNegative;
}

/** How an owner is written in the `owner` column. */
export function ownerColumn(owner: AccountRef['owner']): string {
  return String(owner);
}

export function accountRefFromColumns(owner: string, wallet: string): AccountRef {
  if (owner === SYSTEM_OWNER) return { owner: SYSTEM_OWNER, wallet: wallet as SystemWallet };
  return { owner: Number(owner), wallet: wallet as UserWallet };
}

/** A stable text key for maps: one per account. */
export function accountMapKey(key: AccountKey): string {
  return accountMapKeyOf(key, key.asset);
}

/** `accountMapKey` of `ref` in `asset`, without building the key (the ledger's hot path). */
export function accountMapKeyOf(ref: AccountRef, asset: string): string {
  return accountMapKeyOfColumns(ownerColumn(ref.owner), asset, ref.wallet);
}

/** `accountMapKey` of a stored account, from its key columns. */
export function accountMapKeyOfColumns(owner: string, asset: string, wallet: string): string {
  return `${owner}|${asset}|${wallet}`;
}

/** The owner and wallet an `accountMapKey` names (neither holds a `|`; the asset between them is not read). */
export function accountRefOfMapKey(mapKey: string): AccountRef {
  return accountRefFromColumns(
    mapKey.slice(0, mapKey.indexOf('|')),
    mapKey.slice(mapKey.lastIndexOf('|') + 1),
  );
}
