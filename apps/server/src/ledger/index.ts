/** The ledger's public face: other modules import from here only. */
export {
  type AccountKey,
  type AccountRef,
  accountKey,
  accountMapKeyOf,
  type CustodyWallet,
  custodyWallet,
  type IeoProjectWallet,
  ieoProjectWallet,
  NAMED_SYSTEM_WALLETS,
  type NamedSystemWallet,
  SYSTEM_OWNER,
  type SystemWallet,
  systemAccount,
  USER_WALLETS,
  type UserWallet,
  userAccount,
  type Wallet,
} from './accounts.ts';
export { type AuditReport, auditLedger, type Breach } from './audit.ts';
export { isLedgerError, LEDGER_ERRORS, LedgerError, type LedgerErrorKey } from './errors.ts';
export {
  type AccountBalance,
  type AccountEntry,
  type Balance,
  createLedger,
  type Ledger,
  type LedgerLimits,
  type TransferPage,
  type TransferQuery,
  type WalletTotal,
} from './ledger.ts';
export {
  BATCH_MAX,
  BULK_MAX,
  type Hold,
  type HoldState,
  type MoveInput,
  type PostInput,
  type Transfer,
  type TransferInput,
  type TransferType,
  type VoidInput,
} from './transfers.ts';
