import { Dec } from '@halyard/money';
import type { MoneyEvent } from '../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../projection/writer.ts';
import type { Trx } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import { readState, Written, writeState } from './apply.ts';
import { applyBatch, isLedgerRefusal, type NewTransfer } from './plan.ts';
import type { TransferInput } from './transfers.ts';

/** The SQL ledger disagrees with the money state it follows: the projector stops on it rather than write a guess. */
export class LedgerProjectionDivergedError extends Error {
  override readonly name = 'LedgerProjectionDivergedError';
}

/**
 * The ledger's projection writer: the money state's `transfers` events
 * (each one ledger batch the state accepted, as `NewTransfer`s) written into
 * ledger_accounts, ledger_transfers and ledger_holds exactly as the SQL
 * ledger writes a batch, by the same steps: read what the batches touch,
 * apply them with the ledger's own `applyBatch`, each at its command's time,
 * write the accounts, transfers and holds in a few statements.
 *
 * Applying again is the check: the state accepted each batch, so SQL must
 * accept it too and derive the same transfers. A refusal, a transfer id SQL
 * already holds (the state had forgotten it: a retry older than its window),
 * or a different amount or account means the two diverged, and the batch
 * throws LedgerProjectionDivergedError instead of writing.
 */
export function ledgerProjectionWriter(dialect: DialectName): ProjectionWriter<MoneyEvent> {
  return {
    name: 'ledger',
    async write(trx, published) {
      const batches: NewTransfer[][] = [];
      for (const { events } of published)
        for (const event of events) if (event.type === 'transfers') batches.push(event.transfers);
      if (batches.length > 0) await writeAcceptedBatches(trx, dialect, batches);
    },
  };
}

/**
 * The ledger's writer as a worker builds it (openWorkerProjector): only the
 * `transfers` events cross to the worker, and their amounts, which arrive
 * as the plain `{ units }` a structured clone makes of a Dec, become Decs
 * again.
 */
export const ledgerProjection: ProjectionWriterSpec<MoneyEvent> = {
  name: 'ledger',
  module: import.meta.url,
  exportName: 'ledgerProjection',
  create: ledgerProjectionWriter,
  reads: (event) => event.type === 'transfers',
  revive(event) {
    if (event.type !== 'transfers') return event;
    for (const transfer of event.transfers) transfer.amount = Dec.fromUnits(transfer.amount.units);
    return event;
  },
};

/** Batches the state accepted, in order, into the ledger's tables (see ledgerProjectionWriter). */
export async function writeAcceptedBatches(
  trx: Trx,
  dialect: DialectName,
  batches: readonly (readonly NewTransfer[])[],
): Promise<void> {
  const inputs = batches.map((accepted) => accepted.map(inputOf));
  const { state } = await readState(trx, dialect, inputs);
  const written = new Written();
  batches.forEach((accepted, index) => {
    // A batch's transfers share its command's time (`at`), which the state stamped on them.
    const plan = applyBatch(state, inputs[index]!, accepted[0]!.timestamp);
    if (isLedgerRefusal(plan))
      throw new LedgerProjectionDivergedError(
        `SQL refuses transfer ${plan.transferId ?? accepted[0]!.id} (${plan.refused}), which the state accepted`,
      );
    assertSameTransfers(accepted, plan.newTransfers);
    written.add(plan, state);
  });
  await writeState(trx, written, 'silent');
}

/** The request that made `transfer`: applied to the same balances, it makes the same transfer. */
function inputOf(transfer: NewTransfer): TransferInput {
  const { id, code, reference } = transfer;
  switch (transfer.type) {
    case 'post_pending':
      return {
        id,
        code,
        reference,
        type: 'post_pending',
        pendingId: transfer.pendingId!,
        amount: transfer.amount,
      };
    case 'void_pending':
      return { id, code, reference, type: 'void_pending', pendingId: transfer.pendingId! };
    default:
      return {
        id,
        code,
        reference,
        type: transfer.type,
        debit: transfer.debit,
        credit: transfer.credit,
        asset: transfer.asset,
        amount: transfer.amount,
      };
  }
}

function assertSameTransfers(accepted: readonly NewTransfer[], derived: readonly NewTransfer[]): void {
  if (derived.length !== accepted.length) {
    const known = accepted.find((transfer) => !derived.some((other) => other.id === transfer.id));
    throw new LedgerProjectionDivergedError(`transfer ${known?.id ?? accepted[0]!.id} is in SQL already`);
  }
  accepted.forEach((transfer, index) => {
    const other = derived[index]!;
    if (
      other.id !== transfer.id ||
      !other.amount.eq(transfer.amount) ||
      other.debitKey !== transfer.debitKey ||
      other.creditKey !== transfer.creditKey
    )
      throw new LedgerProjectionDivergedError(
        `transfer ${transfer.id}: the state moved ${transfer.amount} ${transfer.debitKey} → ${transfer.creditKey}, SQL ${other.amount} ${other.debitKey} → ${other.creditKey}`,
      );
  });
}
