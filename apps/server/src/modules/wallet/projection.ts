import type { MoneyEvent, WithdrawalMove, WithdrawalRecord } from '../../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../../projection/writer.ts';
import type { Trx } from '../../store/database.ts';
import { walletStore as sql } from './store.ts';

/**
 * The wallet's deposit and withdrawal rows behind the money state, written
 * with the module's own store functions as WalletService, the chain watcher
 * and the sender write them: a credited deposit marked completed in its
 * round, a reversed one rejected by the reorg; a new withdrawal inserted under the state's id; a withdrawal moved
 * on from the step it was in (an operator's hold put on or lifted), with
 * the wallet's audit entry when an operator did it. The money itself is in
 * the ledger's writer (the same commands' `transfers`).
 */
export function walletProjectionWriter(): ProjectionWriter<MoneyEvent> {
  return {
    name: 'wallet',
    async write(trx: Trx, published) {
      for (const { events } of published)
        for (const event of events) {
          if (event.type === 'depositCredited') {
            const { id, round, at } = event.deposit;
            await sql.updateDeposit(trx, id, {
              state: 'completed',
              reason: null,
              credit_round: round,
              updated_at: at,
            });
          } else if (event.type === 'depositReversed') {
            const { id, at } = event.deposit;
            await sql.updateDeposit(trx, id, { state: 'rejected', reason: 'reorg', updated_at: at });
          } else if (event.type === 'withdrawalRequested') await insertWithdrawal(trx, event.withdrawal);
          else if (event.type === 'withdrawalMoved') await moveWithdrawal(trx, event.move);
        }
    },
  };
}

async function insertWithdrawal(trx: Trx, w: WithdrawalRecord): Promise<void> {
  await sql.insertWithdrawal(trx, {
    id: w.id,
    user_id: w.userId,
    coin: w.coin,
    chain_id: w.chainId,
    address: w.address,
    amount: w.amount,
    fee: w.fee,
    state: w.state,
    created_at: w.at,
    updated_at: w.at,
  });
}

async function moveWithdrawal(trx: Trx, move: WithdrawalMove): Promise<void> {
  const { id, at } = move;
  // The state moved it from `from`: a row elsewhere means the tables and the state disagree.
  const written =
    move.hold === undefined
      ? await sql.moveWithdrawal(trx, id, move.from, { ...move.patch, updated_at: at })
      : await sql.setWithdrawalHold(trx, id, move.hold, at);
  if (!written) throw new Error(`withdrawal ${id}: its row is not ${move.from} as the money state says`);
  if (move.audit)
    await sql.appendOperatorAction(trx, {
      at,
      operator: move.audit.operator,
      action: move.audit.action,
      withdrawalId: id,
      details: move.audit.details,
    });
}

/** The wallet writer as a worker builds it: its events are plain data already. */
export const walletProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'wallet',
  module: import.meta.url,
  exportName: 'walletProjection',
  create: () => walletProjectionWriter(),
  reads: (event) =>
    event.type === 'depositCredited' ||
    event.type === 'depositReversed' ||
    event.type === 'withdrawalRequested' ||
    event.type === 'withdrawalMoved',
  revive: (event) => event,
};
