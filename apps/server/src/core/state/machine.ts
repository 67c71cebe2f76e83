import { LEDGER_ERRORS } from '../../ledger/index.ts';
import type { Applied, Machine } from '../sequencer/index.ts';
import { applyAdjust } from './adjustments.ts';
import {
  decodeCommand,
  encodeCommand,
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type TransferCommand,
} from './commands.ts';
import { applyConvert } from './convert.ts';
import { openCycleOrder, settleCycleOrders } from './cycle.ts';
import {
  applyFiatAd,
  applyFiatAppeal,
  applyFiatMerchantDecided,
  applyFiatOpen,
  applyFiatPaid,
  applyFiatRefund,
  applyFiatRelease,
} from './fiat-escrow.ts';
import { applyFuturesCancel, applyFuturesClose, applyFuturesContract, applyFuturesOpen } from './futures.ts';
import { applyFuturesCancelTrigger, applyFuturesMark, applyFuturesSetTrigger } from './futures-risk.ts';
import { applyIeoAdvance, applyIeoPayRebates, applyIeoRelease } from './ieo-clock.ts';
import { applyIeoCancelSale, applyIeoSale, applyIeoSubscribe } from './ieo-sale.ts';
import { createMoneyState, expireWindows, type MoneyState } from './money-state.ts';
import { setIndexPrices, setReferralSettings, setReferralUser } from './referral.ts';
import { applyReferralPayout } from './referral-payout.ts';
import type { RetentionPolicy } from './retention.ts';
import { captureMoneyState, decodeMoneyState } from './snapshot-codec.ts';
import { cancelAllOrders, cancelOrder, openPair, placeOrder } from './spot.ts';
import {
  applyDepositCredited,
  applyDepositReversed,
  applyWithdrawalOutcome,
  applyWithdrawalRequested,
  applyWithdrawalReviewed,
} from './wallet-flows.ts';
import { applyFaucet, applyLedgerBatch, applyWalletMove } from './wallet-moves.ts';

export type MoneyMachine = Machine<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>;

/** The money state as a sequencer machine; `retention` applies to a state started from nothing. */
export function moneyMachine(retention?: RetentionPolicy): MoneyMachine {
  return {
    apply: applyMoneyCommand,
    idOf: (command) => command.id ?? null,
    recall: (state, id) => state.answers.get(id),
    remember(state, id, result, seq) {
      state.answers.set(id, result);
      state.answerIds.add(id, seq);
    },
    encodeCommand,
    decodeCommand,
    capture: captureMoneyState,
    decodeState: decodeMoneyState,
    initialState: () => createMoneyState(retention),
  };
}

/**
 * One command; a command of a shape the state does not know is refused, never
 * thrown on. Without `emit` no command builds events (Machine.apply).
 */
function applyMoneyCommand(
  state: MoneyState,
  command: MoneyCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  expireWindows(state, seq);
  if (!Number.isSafeInteger(command.at)) return unknownCommand();
  switch (command.kind) {
    case 'transfer':
      return transfer(state, command, seq, emit);
    case 'openPair':
      return openPair(state, command);
    case 'place':
      return placeOrder(state, command, seq, emit);
    case 'cancel':
      return cancelOrder(state, command, seq, emit);
    case 'cancelAll':
      return cancelAllOrders(state, command, seq, emit);
    case 'referralUser':
      return setReferralUser(state.referral, command);
    case 'referralSettings':
      return setReferralSettings(state.referral, command);
    case 'indexPrices':
      return setIndexPrices(state.referral, command, emit);
    case 'referralPayout':
      return applyReferralPayout(state, command, seq, emit);
    case 'cycleOpen':
      return openCycleOrder(state, command, seq, emit);
    case 'cycleSettle':
      return settleCycleOrders(state, command, seq, emit);
    case 'walletMove':
      return applyWalletMove(state, command, seq, emit);
    case 'faucet':
      return applyFaucet(state, command, seq, emit);
    case 'convert':
      return applyConvert(state, command, seq, emit);
    case 'futuresContract':
      return applyFuturesContract(state, command);
    case 'futuresMark':
      return applyFuturesMark(state, command, seq, emit);
    case 'futuresSetTrigger':
      return applyFuturesSetTrigger(state, command, seq, emit);
    case 'futuresCancelTrigger':
      return applyFuturesCancelTrigger(state, command, seq, emit);
    case 'futuresOpen':
      return applyFuturesOpen(state, command, seq, emit);
    case 'futuresClose':
      return applyFuturesClose(state, command, seq, emit);
    case 'futuresCancel':
      return applyFuturesCancel(state, command, seq, emit);
    case 'ieoSale':
      return applyIeoSale(state, command, seq, emit);
    case 'ieoSubscribe':
      return applyIeoSubscribe(state, command, seq, emit);
    case 'ieoAdvance':
      return applyIeoAdvance(state, command, seq, emit);
    case 'ieoPayRebates':
      return applyIeoPayRebates(state, command, seq, emit);
    case 'ieoRelease':
      return applyIeoRelease(state, command, seq, emit);
    case 'ieoCancelSale':
      return applyIeoCancelSale(state, command, seq, emit);
    case 'fiatAd':
      return applyFiatAd(state, command, seq, emit);
    case 'fiatOpen':
      return applyFiatOpen(state, command, seq, emit);
    case 'fiatPaid':
      return applyFiatPaid(state, command, seq, emit);
    case 'fiatAppeal':
      return applyFiatAppeal(state, command, seq, emit);
    case 'fiatRelease':
      return applyFiatRelease(state, command, seq, emit);
    case 'fiatRefund':
      return applyFiatRefund(state, command, seq, emit);
    case 'fiatMerchantDecided':
      return applyFiatMerchantDecided(state, command, seq, emit);
    case 'depositCredited':
      return applyDepositCredited(state, command, seq, emit);
    case 'depositReversed':
      return applyDepositReversed(state, command, seq, emit);
    case 'withdrawalRequested':
      return applyWithdrawalRequested(state, command, seq, emit);
    case 'withdrawalReviewed':
      return applyWithdrawalReviewed(state, command, seq, emit);
    case 'withdrawalOutcome':
      return applyWithdrawalOutcome(state, command, seq, emit);
    case 'adjust':
      return applyAdjust(state, command, seq, emit);
    default:
      return unknownCommand();
  }
}

function transfer(
  state: MoneyState,
  command: TransferCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  if (!Array.isArray(command.batch)) return unknownCommand();
  return applyLedgerBatch(state, command.batch, command.at, seq, emit);
}

function unknownCommand(): Applied<MoneyResult, MoneyEvent> {
  return {
    result: { ok: false, error: LEDGER_ERRORS.invalidTransfer, params: { field: 'command' } },
    events: [],
  };
}
