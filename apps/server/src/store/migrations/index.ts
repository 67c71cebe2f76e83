import type { HalyardMigration } from '../migrate.ts';
import { ledgerMigration } from './001_ledger.ts';
import { identityMigration } from './002_identity.ts';
import { contentMigration } from './003_content.ts';
import { supportMigration } from './004_support.ts';
import { marketMigration } from './005_market.ts';
import { spotMigration } from './006_spot.ts';
import { walletMigration } from './007_wallet.ts';
import { convertMigration } from './008_convert.ts';
import { cycleMigration } from './009_cycle.ts';
import { futuresMigration } from './010_futures.ts';
import { ledgerUnusedIndexesMigration } from './011_ledger_unused_indexes.ts';
import { cycleOpenInMemoryMigration } from './012_cycle_open_in_memory.ts';
import { cycleClosesMigration } from './013_cycle_closes.ts';
import { walletSenderMigration } from './014_wallet_sender.ts';
import { identityKycIdNumberMigration } from './015_identity_kyc_id_number.ts';
import { marketHistoryMigration } from './016_market_history.ts';
import { cycleVoidMigration } from './017_cycle_void.ts';
import { ieoMigration } from './018_ieo.ts';
import { idempotencyMigration } from './019_idempotency.ts';
import { fiatMigration } from './020_fiat.ts';
import { fiatChatMigration } from './021_fiat_chat.ts';
import { fiatMerchantsMigration } from './022_fiat_merchants.ts';
import { fiatAdHoldsMigration } from './023_fiat_ad_holds.ts';
import { ieoLinearVestingCommitTotalsMigration } from './024_ieo_linear_vesting_commit_totals.ts';
import { fiatFloatingPricesMigration } from './025_fiat_floating_prices.ts';
import { fiatAppealKindMigration } from './026_fiat_appeal_kind.ts';
import { fiatAdTermsMigration } from './027_fiat_ad_terms.ts';
import { approvalsMigration } from './028_approvals.ts';
import { loginHistoryMigration } from './029_login_history.ts';
import { operatorsMigration } from './030_operators.ts';
import { referralMigration } from './031_referral.ts';
import { referralPayoutsMigration } from './032_referral_payouts.ts';
import { referralCommissionsOneIndexMigration } from './033_referral_commissions_one_index.ts';
import { futuresFeeHalMigration } from './034_futures_fee_hal.ts';
import { withdrawalHoldsMigration } from './035_withdrawal_holds.ts';
import { referralCommissionLevelsMigration } from './036_referral_commission_levels.ts';
import { ieoRebatePayoutsMigration } from './037_ieo_rebate_payouts.ts';
import { projectionWatermarksMigration } from './038_projection_watermarks.ts';
import { referralPayoutSweepMigration } from './039_referral_payout_sweep.ts';
import { referralPayoutHighWaterMigration } from './040_referral_payout_high_water.ts';
import { httpRateLimitsMigration } from './041_http_rate_limits.ts';

/**
 * Every migration, by name; Kysely runs them in name order. Names start with
 * a number so the order is the order of this list.
 */
export const migrations: Record<string, HalyardMigration> = {
  '001_ledger': ledgerMigration,
  '002_identity': identityMigration,
  '003_content': contentMigration,
  '004_support': supportMigration,
  '005_market': marketMigration,
  '006_spot': spotMigration,
  '007_wallet': walletMigration,
  '008_convert': convertMigration,
  '009_cycle': cycleMigration,
  '010_futures': futuresMigration,
  '011_ledger_unused_indexes': ledgerUnusedIndexesMigration,
  '012_cycle_open_in_memory': cycleOpenInMemoryMigration,
  '013_cycle_closes': cycleClosesMigration,
  '014_wallet_sender': walletSenderMigration,
  '015_identity_kyc_id_number': identityKycIdNumberMigration,
  '016_market_history': marketHistoryMigration,
  '017_cycle_void': cycleVoidMigration,
  '018_ieo': ieoMigration,
  '019_idempotency': idempotencyMigration,
  '020_fiat': fiatMigration,
  '021_fiat_chat': fiatChatMigration,
  '022_fiat_merchants': fiatMerchantsMigration,
  '023_fiat_ad_holds': fiatAdHoldsMigration,
  '024_ieo_linear_vesting_commit_totals': ieoLinearVestingCommitTotalsMigration,
  '025_fiat_floating_prices': fiatFloatingPricesMigration,
  '026_fiat_appeal_kind': fiatAppealKindMigration,
  '027_fiat_ad_terms': fiatAdTermsMigration,
  '028_approvals': approvalsMigration,
  '029_login_history': loginHistoryMigration,
  '030_operators': operatorsMigration,
  '031_referral': referralMigration,
  '032_referral_payouts': referralPayoutsMigration,
  '033_referral_commissions_one_index': referralCommissionsOneIndexMigration,
  '034_futures_fee_hal': futuresFeeHalMigration,
  '035_withdrawal_holds': withdrawalHoldsMigration,
  '036_referral_commission_levels': referralCommissionLevelsMigration,
  '037_ieo_rebate_payouts': ieoRebatePayoutsMigration,
  '038_projection_watermarks': projectionWatermarksMigration,
  '039_referral_payout_sweep': referralPayoutSweepMigration,
  '040_referral_payout_high_water': referralPayoutHighWaterMigration,
  '041_http_rate_limits': httpRateLimitsMigration,
};
