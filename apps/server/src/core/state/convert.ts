import { Dec } from '@halyard/money';
import { checkConvert, type RuleError } from '@halyard/rules';
import { systemAccount, type TransferInput, userAccount } from '../../ledger/index.ts';
import type { Applied } from '../sequencer/index.ts';
import type { ConvertCommand, ConvertOrderRecord, MoneyEvent, MoneyResult } from './commands.ts';
import { available, type MoneyState } from './money-state.ts';
import { applyLedgerBatch } from './wallet-moves.ts';

/**
 * Flash convert at a quote (spec §5 "Transfer and exchange", §7 Flash): the
 * rules modules/convert and the money state share, so both make the same
 * checks in the same order and write the same order and transfers.
 */

/** Per consumed coin, the smallest and largest amount one exchange may consume (spec §5, §9; demo figures). */
export const FLASH_LIMITS: Record<string, { min: string; max: string }> = {
  USDT: { min: '10', max: '100000' },
  BTC: { min: '0.0001', max: '2' },
  ETH: { min: '0.005', max: '50' },
  BNB: { min: '0.02', max: '200' },
  SOL: { min: '0.1', max: '1000' },
  HAL: { min: '10', max: '1000000' },
};

/** What the user receives keeps 8 decimals (spec §9). */
const RECEIVED_DIGITS = 8;

/** A quote as the convert tables keep it: a rate locked for one user and one pair until `expiresAt`. */
export interface ConvertQuote {
  id: string;
  userId: number;
  from: string;
  to: string;
  rate: string;
  expiresAt: number;
}

/** What a convert consumes and receives, once every check passed. */
export interface ConvertPlan {
  consumed: Dec;
  received: Dec;
  rate: Dec;
}

/**
 * The checks, in the module's order: a quote of this user (`wallet.quoteNotFound`),
 * neither used nor expired at `at` (`wallet.quoteExpired`), a pair with limits
 * (`wallet.pairUnavailable`), the amount (`checkConvert`: a number, covered by
 * `usable`, within the limits), and something received at the rate.
 * `used` says whether the quote was already used.
 */
export function planConvert(input: {
  quote: ConvertQuote | null;
  userId: number;
  at: number;
  used: boolean;
  amount: string;
  usable: Dec;
}): ConvertPlan | RuleError {
  const { quote } = input;
  if (!quote || quote.userId !== input.userId) return { key: 'wallet.quoteNotFound' };
  if (input.used || input.at > quote.expiresAt) return { key: 'wallet.quoteExpired' };
  const limits = Object.hasOwn(FLASH_LIMITS, quote.from) ? FLASH_LIMITS[quote.from] : undefined;
  if (!limits) return { key: 'wallet.pairUnavailable' };
  const refusal = checkConvert({ amount: input.amount, usable: input.usable.toString(), ...limits });
  if (refusal) return refusal;
  const consumed = Dec.parse(input.amount);
  const rate = Dec.parse(quote.rate);
  const received = consumed.mul(rate).floorTo(RECEIVED_DIGITS);
  if (!received.isPositive()) return { key: 'rules.amountNotPositive' };
  return { consumed, received, rate };
}

export function isConvertRefusal(planned: ConvertPlan | RuleError): planned is RuleError {
  return 'key' in planned;
}

/** The two legs through the treasury: the user's coin in, the other coin out, named after the order. */
export function convertTransfers(orderId: number, quote: ConvertQuote, plan: ConvertPlan): TransferInput[] {
  const reference = `convert:${orderId}`;
  return [
    {
      id: `${reference}:in`,
      code: 'convert',
      reference,
      debit: userAccount(quote.userId, 'spot'),
      credit: systemAccount('treasury'),
      asset: quote.from,
      amount: plan.consumed,
    },
    {
      id: `${reference}:out`,
      code: 'convert',
      reference,
      debit: systemAccount('treasury'),
      credit: userAccount(quote.userId, 'spot'),
      asset: quote.to,
      amount: plan.received,
    },
  ];
}

/**
 * `convert`: the checks, then the quote used and the two legs, and the order
 * published (`convertOrder`) for modules/convert/projection.ts. The state
 * numbers the orders, and remembers a used quote until it expires: a quote
 * lives seconds, so the used ones are few. They are forgotten once a convert
 * comes after their expiry, which refuses them anyway (the edge stamps `at`
 * in sequence order).
 */
export function applyConvert(
  state: MoneyState,
  command: ConvertCommand,
  seq: number,
  emit: boolean,
): Applied<MoneyResult, MoneyEvent> {
  const { convert } = state;
  for (const [id, expiresAt] of convert.usedQuotes) if (expiresAt < command.at) convert.usedQuotes.delete(id);
  const { quote } = command;
  const planned = planConvert({
    quote,
    userId: command.userId,
    at: command.at,
    used: quote !== null && convert.usedQuotes.has(quote.id),
    amount: command.amount,
    usable: quote ? available(state, userAccount(command.userId, 'spot'), quote.from) : Dec.ZERO,
  });
  if (isConvertRefusal(planned)) {
    const result: MoneyResult =
      planned.params === undefined
        ? { ok: false, error: planned.key }
        : { ok: false, error: planned.key, params: planned.params };
    return { result, events: [] };
  }
  // Checked above: a refusal returned.
  const used = quote!;
  const orderId = convert.nextOrderId;
  const applied = applyLedgerBatch(state, convertTransfers(orderId, used, planned), command.at, seq, emit);
  if (!applied.result.ok) return applied;
  convert.nextOrderId += 1;
  convert.usedQuotes.set(used.id, used.expiresAt);
  const order: ConvertOrderRecord = {
    orderId,
    userId: used.userId,
    quoteId: used.id,
    from: used.from,
    to: used.to,
    consumed: planned.consumed.toString(),
    received: planned.received.toString(),
    rate: planned.rate.toString(),
    at: command.at,
  };
  return {
    result: { ok: true, transfers: applied.result.transfers, convertOrderId: orderId },
    events: emit ? [...applied.events, { type: 'convertOrder', order }] : [],
  };
}
