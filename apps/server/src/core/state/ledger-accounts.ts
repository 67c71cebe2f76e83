/**
 * The money state's ledger accounts: a TrackedMap by map key (what the
 * snapshot, the projector and the audit read), with each owner's accounts
 * also listed apart, so the ledger finds an account without its key.
 *
 * Why the second index: finding an account by its map key means building the
 * key (`owner|asset|wallet`), hashing the new string and probing a table of a
 * million (docs/core.md "Stop 38"). The ledger finds accounts on every leg
 * (`findAccount` in ledger/plan.ts), so:
 * - a user's accounts are one flat list per user id, each as its asset, its
 *   wallet and the account side by side: the scan compares two strings per
 *   account in one array and reads no account object but the one it answers
 *   (docs/core.md "Stop 41");
 * - the exchange's own accounts (few, but on every trade: clearing, fees)
 *   are found by wallet, then asset, in two small maps.
 */
import { type AccountRef, SYSTEM_OWNER } from '../../ledger/accounts.ts';
import { type AccountState, copyAccount } from '../../ledger/plan.ts';
import { TrackedMap } from '../sequencer/index.ts';

/** Per user: asset, wallet, account, asset, wallet, account, … in the order they were created. */
type UserAccounts = (string | AccountState)[];
const STRIDE = 3;

export class LedgerAccounts extends TrackedMap<string, AccountState> {
  private readonly byUser = new Map<number, UserAccounts>();
  /** The exchange's accounts by wallet, then asset; the same objects as the map's. */
  private readonly bySystemWallet = new Map<string, Map<string, AccountState>>();

  constructor() {
    super(copyAccount);
  }

  /** The account of `ref` in `asset`, or undefined: the same answer as `get(accountMapKeyOf(ref, asset))`. */
  find(ref: AccountRef, asset: string): AccountState | undefined {
    if (ref.owner === SYSTEM_OWNER) return this.bySystemWallet.get(ref.wallet)?.get(asset);
    const listed = this.byUser.get(ref.owner);
    if (listed === undefined) return undefined;
    const index = indexIn(listed, asset, ref.wallet);
    return index === -1 ? undefined : (listed[index + 2] as AccountState);
  }

  override set(mapKey: string, account: AccountState): this {
    super.set(mapKey, account);
    const { owner, wallet, asset } = account.key;
    if (owner === SYSTEM_OWNER) {
      const byAsset = this.bySystemWallet.get(wallet);
      if (byAsset === undefined) this.bySystemWallet.set(wallet, new Map([[asset, account]]));
      else byAsset.set(asset, account);
      return this;
    }
    // A user's id as text would be listed apart from the same id as a number, and `find` would miss it.
    if (typeof owner !== 'number') throw new Error(`ledger account ${mapKey}: its owner is not a number`);
    const listed = this.byUser.get(owner);
    if (listed === undefined) this.byUser.set(owner, [asset, wallet, account]);
    else {
      const index = indexIn(listed, asset, wallet);
      if (index === -1) listed.push(asset, wallet, account);
      else listed[index + 2] = account;
    }
    return this;
  }

  override delete(mapKey: string): boolean {
    const account = super.get(mapKey);
    if (!super.delete(mapKey)) return false;
    const { owner, wallet, asset } = account!.key;
    if (owner === SYSTEM_OWNER) {
      const byAsset = this.bySystemWallet.get(wallet)!;
      byAsset.delete(asset);
      if (byAsset.size === 0) this.bySystemWallet.delete(wallet);
      return true;
    }
    const listed = this.byUser.get(owner)!;
    listed.splice(indexIn(listed, asset, wallet), STRIDE);
    if (listed.length === 0) this.byUser.delete(owner);
    return true;
  }

  override clear(): void {
    for (const key of [...this.keys()]) this.delete(key);
  }
}

/** Where `asset` in `wallet` starts in a user's list, or -1. */
function indexIn(listed: UserAccounts, asset: string, wallet: string): number {
  for (let index = 0; index < listed.length; index += STRIDE)
    if (listed[index] === asset && listed[index + 1] === wallet) return index;
  return -1;
}
