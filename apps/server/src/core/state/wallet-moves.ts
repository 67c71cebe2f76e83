import { Dec } from '@halyard/money';
import { checkTransfer, type RuleError } from '@halyard/rules';
import { systemAccount, type TransferInput, type UserWallet, userAccount } from '../../ledger/index.ts';
import { isLedgerRefusal, type LedgerRefusal } from '../../ledger/plan.ts';
import type { Applied } from '../sequencer/index.ts';
import type { FaucetCommand, MoneyEvent, MoneyResult, WalletMoveCommand } from './commands.ts';
import { available, type MoneyState, tryApplyTransfers } from './money-state.ts';

/**
 * The simplest money moves, as rules both modules/wallet and modules/faucet
 * and the money state use (docs/core.md "Wallet moves and the faucet"): the
 * same checks in the same order, the same ledger transfers, so both paths
 * write the same ids, codes and references by construction.
 */

/** The two transfer routes of spec §7: spot ⇄ futures and spot ⇄ fiat (c2c). */
export const TRANSFER_ROUTES = {
  contract: ['spot', 'futures'],
  c2c: ['spot', 'fiat'],
} as const satisfies Record<string, readonly [UserWallet, UserWallet]>;
export type TransferRoute = keyof typeof TRANSFER_ROUTES;

export interface WalletMove {
  userId: number;
  route: TransferRoute;
  coin: string;
  amount: string;
  from: UserWallet;
  to: UserWallet;
}

/** The route's check: two different wallets, both on the route. */
export function walletRouteRefusal(move: Pick<WalletMove, 'route' | 'from' | 'to'>): RuleError | null {
  // Own keys only: a route named like an Object.prototype member is no route.
  const allowed: readonly UserWallet[] | undefined = Object.hasOwn(TRANSFER_ROUTES, move.route)
    ? TRANSFER_ROUTES[move.route]
    : undefined;
  if (!allowed || move.from === move.to || !allowed.includes(move.from) || !allowed.includes(move.to))
    return { key: 'wallet.sameWallet' };
  return null;
}

/** Spec §5 "Transfer": an amount covered by what the source wallet can spend now. */
export function walletMoveAmountRefusal(move: Pick<WalletMove, 'amount'>, usable: Dec): RuleError | null {
  return checkTransfer({ amount: move.amount, usable: usable.toString() });
}

/** The one ledger transfer of a move between a user's own wallets; `transferId` is `transfer:<uuid>`. */
export function walletMoveTransfer(transferId: string, move: WalletMove): TransferInput {
  return {
    id: transferId,
    code: 'transfer',
    reference: `${move.from}>${move.to}`,
    debit: userAccount(move.userId, move.from),
    credit: userAccount(move.userId, move.to),
    asset: move.coin,
    amount: Dec.parse(move.amount),
  };
}

/** What one faucet call credits (AMENDMENTS A5: play money, demo mode only). */
export const FAUCET_GRANT: readonly { asset: string; amount: Dec }[] = [
  { asset: 'USDT', amount: Dec.parse('10000') },
  { asset: 'BTC', amount: Dec.parse('1') },
];

/** The grant's batch: play money minted by the treasury (which may run negative for exactly this). */
export function faucetGrantTransfers(grantId: string, userId: number, wallet: UserWallet): TransferInput[] {
  return FAUCET_GRANT.map(({ asset, amount }) => ({
    id: `faucet:${grantId}:${asset}`,
    debit: systemAccount('treasury'),
    credit: userAccount(userId, wallet),
    asset,
    amount,
    code: 'demo_faucet',
  }));
}

type Outcome = Applied<MoneyResult, MoneyEvent>;

/** `walletMove`: the route, then the amount against the source wallet, then the transfer; a refusal changes nothing. */
export function applyWalletMove(
  state: MoneyState,
  command: WalletMoveCommand,
  seq: number,
  emit: boolean,
): Outcome {
  const refusal =
    walletRouteRefusal(command) ??
    walletMoveAmountRefusal(
      command,
      available(state, userAccount(command.userId, command.from), command.coin),
    );
  if (refusal) return refused(refusal);
  return applyLedgerBatch(state, [walletMoveTransfer(command.transferId, command)], command.at, seq, emit);
}

/** `faucet`: the grant, in one batch. */
export function applyFaucet(state: MoneyState, command: FaucetCommand, seq: number, emit: boolean): Outcome {
  const batch = faucetGrantTransfers(command.grantId, command.userId, command.wallet);
  return applyLedgerBatch(state, batch, command.at, seq, emit);
}

/**
 * A ledger batch, checked and applied (the `transfer` command and these
 * moves): its transfer ids, or the ledger's refusal with the id it names.
 */
export function applyLedgerBatch(
  state: MoneyState,
  batch: readonly TransferInput[],
  at: number,
  seq: number,
  emit: boolean,
): Outcome {
  const plan = tryApplyTransfers(state, batch, at, seq);
  if (isLedgerRefusal(plan)) return { result: ledgerRefusal(plan), events: [] };
  return {
    result: { ok: true, transfers: plan.results },
    events: emit && plan.newTransfers.length > 0 ? [{ type: 'transfers', transfers: plan.newTransfers }] : [],
  };
}

function ledgerRefusal(plan: LedgerRefusal): MoneyResult {
  return plan.transferId === null
    ? { ok: false, error: plan.refused }
    : { ok: false, error: plan.refused, params: { transferId: plan.transferId } };
}

function refused(error: RuleError): Outcome {
  const result: MoneyResult =
    error.params === undefined
      ? { ok: false, error: error.key }
      : { ok: false, error: error.key, params: error.params };
  return { result, events: [] };
}
