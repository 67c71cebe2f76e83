/**
 * The money state's ledger accounts: a TrackedMap by map key (what the
 * snapshot, the projector and the audit read), with each user's accounts
 * also listed under the user's id.
 *
 * Why the second index: finding an account by its map key means building the
 * key (`owner|asset|wallet`), hashing the new string and probing a table of a
 * million; by the user's id it is a number's probe and a scan of the user's
 * few accounts, less than half the time (docs/core.md "Stop 38"). The ledger
 * finds accounts that way (`findAccount` in ledger/plan.ts) on every leg.
 * The exchange's own accounts are few and each holds many assets and
 * wallets: they are found by their key.
 */
import { type AccountRef, accountMapKeyOf, SYSTEM_OWNER } from '../../ledger/accounts.ts';
import { type AccountState, copyAccount } from '../../ledger/plan.ts';
import { TrackedMap } from '../sequencer/index.ts';

export class LedgerAccounts extends TrackedMap<string, AccountState> {
  /** Users' accounts by owner, in the order they were created; the same objects as the map's. */
  private readonly byUser = new Map<number, AccountState[]>();

  constructor() {
    super(copyAccount);
  }

  /** The account of `ref` in `asset`, or undefined: the same answer as `get(accountMapKeyOf(ref, asset))`. */
  find(ref: AccountRef, asset: string): AccountState | undefined {
    if (ref.owner === SYSTEM_OWNER) return super.get(accountMapKeyOf(ref, asset));
    const accounts = this.byUser.get(ref.owner);
    if (accounts === undefined) return undefined;
    const wallet = ref.wallet;
    for (const account of accounts)
      if (account.key.asset === asset && account.key.wallet === wallet) return account;
    return undefined;
  }

  override set(mapKey: string, account: AccountState): this {
    super.set(mapKey, account);
    const owner = account.key.owner;
    if (owner === SYSTEM_OWNER) return this;
    // A user's id as text would be listed apart from the same id as a number, and `find` would miss it.
    if (typeof owner !== 'number') throw new Error(`ledger account ${mapKey}: its owner is not a number`);
    const accounts = this.byUser.get(owner);
    if (accounts === undefined) this.byUser.set(owner, [account]);
    else {
      const index = accounts.findIndex((listed) => listed.mapKey === mapKey);
      if (index === -1) accounts.push(account);
      else accounts[index] = account;
    }
    return this;
  }

  override delete(mapKey: string): boolean {
    const account = super.get(mapKey);
    if (!super.delete(mapKey)) return false;
    const owner = account!.key.owner;
    if (owner === SYSTEM_OWNER) return true;
    const accounts = this.byUser.get(owner)!;
    accounts.splice(accounts.indexOf(account!), 1);
    if (accounts.length === 0) this.byUser.delete(owner);
    return true;
  }

  override clear(): void {
    for (const key of [...this.keys()]) this.delete(key);
  }
}
