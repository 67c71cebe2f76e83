import type { MoneyEvent } from '../core/state/index.ts';
import { workerModule } from '../core/worker-entry.ts';
import { ledgerProjection } from '../ledger/projection.ts';
import { klineProjection } from '../market/kline-writer.ts';
import { approvalsProjection } from '../modules/approvals/projection.ts';
import { convertProjection } from '../modules/convert/projection.ts';
import { cycleProjection } from '../modules/cycle/projection.ts';
import { fiatProjection } from '../modules/fiat/projection.ts';
import { futuresProjection } from '../modules/futures/projection.ts';
import { ieoProjection } from '../modules/ieo/projection.ts';
import { referralProjection } from '../modules/referral/projection.ts';
import { spotProjection } from '../modules/spot/projection.ts';
import { walletProjection } from '../modules/wallet/projection.ts';
import { combinedProjection } from '../projection/writer.ts';
import { MONEY_PROJECTION } from './projection-name.ts';

/**
 * Every table the money state's events become, written as one: each batch of
 * sequences in one transaction under one watermark (`money`), the ledger
 * first, so the accounts a module's rows name exist, and no reader sees a
 * trade's order rows without its balances. A module that moves into the
 * state adds its writer here. The K-lines come last: they read the spot and
 * futures trades and the index prices, events the module writers read too.
 */
export const moneyProjection = combinedProjection<MoneyEvent>(
  MONEY_PROJECTION,
  workerModule(import.meta.url, 'money-writers'),
  'moneyProjection',
  [
    ledgerProjection,
    spotProjection,
    referralProjection,
    cycleProjection,
    convertProjection,
    walletProjection,
    approvalsProjection,
    futuresProjection,
    ieoProjection,
    fiatProjection,
    klineProjection,
  ],
);
