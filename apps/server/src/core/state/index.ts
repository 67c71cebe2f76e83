/**
 * The money state (docs/core.md): the ledger's accounts, holds and retry
 * window and the spot books in memory, applied by the sequencer.
 */
export {
  adjustmentDebitRefusal,
  adjustmentTransfer,
  type BalanceAdjustment,
} from './adjustments.ts';
export type {
  AdjustCommand,
  CancelAllCommand,
  CancelCommand,
  ConvertCommand,
  ConvertOrderRecord,
  DepositCreditedCommand,
  DepositReversedCommand,
  FaucetCommand,
  IndexPricesCommand,
  MoneyCommand,
  MoneyEvent,
  MoneyResult,
  OpenPairCommand,
  OperatorAudit,
  OrderOutcome,
  PairConfig,
  PlaceCommand,
  ReferralPayoutCommand,
  ReferralSettingsCommand,
  ReferralUserCommand,
  SpotOrderRecord,
  SpotOrderState,
  SpotTradeRecord,
  TransferCommand,
  WalletMoveCommand,
  WithdrawalMove,
  WithdrawalOutcomeCommand,
  WithdrawalRecord,
  WithdrawalRequestedCommand,
  WithdrawalReviewedCommand,
} from './commands.ts';
export { type ConvertQuote, FLASH_LIMITS } from './convert.ts';
export type { CycleOpenCommand, CycleSettleCommand } from './cycle.ts';
export type {
  CycleCloseRecord,
  CycleOrderRecord,
  CycleSettledAtClose,
  CycleSettlementRecord,
} from './cycle-rules.ts';
export type {
  FiatAdCommand,
  FiatAppealCommand,
  FiatAudit,
  FiatBanCheck,
  FiatCandidate,
  FiatCommand,
  FiatMerchantDecidedCommand,
  FiatOpenCommand,
  FiatOrderRecord,
  FiatPaidCommand,
  FiatRefundCommand,
  FiatReleaseCommand,
  FiatRowOp,
} from './fiat-escrow.ts';
export type {
  FundingRecord,
  FuturesCancelCommand,
  FuturesCancelTriggerCommand,
  FuturesCloseCommand,
  FuturesContractCommand,
  FuturesMarkCommand,
  FuturesMoneyCommand,
  FuturesOpenCommand,
  FuturesOutcome,
  FuturesRowChange,
  FuturesRowsEvent,
  FuturesSetTriggerCommand,
} from './futures.ts';
export type {
  IeoAdvanceCommand,
  IeoCancelSaleCommand,
  IeoCommand,
  IeoOrderRecord,
  IeoPayRebatesCommand,
  IeoRebateRecord,
  IeoReleaseCommand,
  IeoRowOp,
  IeoSaleCommand,
  IeoSubscribeCommand,
  IeoTrancheRecord,
} from './ieo.ts';
export type { IeoSaleTerms } from './ieo-rules.ts';
export { type MoneyMachine, moneyMachine } from './machine.ts';
export type { MoneyState, OpenOrder, PairState } from './money-state.ts';
export type { CommissionRow } from './referral-rules.ts';
export type { RetentionPolicy } from './retention.ts';
export { moneyStateHash } from './snapshot-codec.ts';
export { recordOf as spotOrderRecordOf, restorePair } from './spot.ts';
export {
  type DailyWithdrawn,
  type DepositCredit,
  dailyKey,
  dayOf,
  depositCreditTransfer,
  depositReversalTransfer,
  firstWithdrawalStep,
  type OpenWithdrawal,
  type WithdrawalChecks,
  type WithdrawalStep,
  type WithdrawalTerms,
  withdrawalHoldId,
  withdrawalHoldTransfer,
  withdrawalRequestRefusal,
  withdrawalSettleTransfers,
  withdrawalVoidTransfer,
} from './wallet-flows.ts';
export {
  FAUCET_GRANT,
  faucetGrantTransfers,
  TRANSFER_ROUTES,
  type TransferRoute,
  type WalletMove,
  walletMoveAmountRefusal,
  walletMoveTransfer,
  walletRouteRefusal,
} from './wallet-moves.ts';
