import { Dec } from '@halyard/money';
import type { MoneyEvent } from '../core/state/index.ts';
import type { ProjectionWriter, ProjectionWriterSpec } from '../projection/writer.ts';
import type { Trx } from '../store/database.ts';
import type { DialectName } from '../store/dialect.ts';
import { accountRefOfMapKey } from './accounts.ts';
import { readState, Written, writeState } from './apply.ts';
import { applyBatch, isLedgerRefusal, type NewTransfer } from './plan.ts';
import type { TransferInput, TransferType } from './transfers.ts';

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
 * A `transfers` event as it crosses to the worker: each transfer as TRANSFER_VALUES plain values in one array
 * (packTransfers). A clone of the event as it is copies four objects and a dozen named fields a transfer, on
 * the sequencer's thread; this copies one array.
 */
type PackedTransfers = (string | number | bigint | null)[];
const TRANSFER_VALUES = 10;

/**
 * The ledger's writer as a worker builds it (openWorkerProjector): only the
 * `transfers` events cross to the worker, packed, and become `NewTransfer`s
 * with their Decs again there.
 */
export const ledgerProjection: ProjectionWriterSpec<MoneyEvent, PackedTransfers> = {
  name: 'ledger',
  module: import.meta.url,
  exportName: 'ledgerProjection',
  create: ledgerProjectionWriter,
  reads: (event) => event.type === 'transfers',
  pack(event) {
    if (event.type !== 'transfers') throw new Error(`the ledger's projection reads no ${event.type} event`);
    return packTransfers(event.transfers);
  },
  revive: (wire) => ({ type: 'transfers', transfers: unpackTransfers(wire) }),
};

export function packTransfers(transfers: readonly NewTransfer[]): PackedTransfers {
  const values: PackedTransfers = [];
  for (const transfer of transfers)
    values.push(
      transfer.id,
      transfer.type,
      transfer.debitKey,
      transfer.creditKey,
      transfer.asset,
      transfer.code,
      transfer.reference,
      transfer.pendingId,
      transfer.amount.units,
      transfer.timestamp,
    );
  return values;
}

export function unpackTransfers(values: PackedTransfers): NewTransfer[] {
  const transfers: NewTransfer[] = [];
  for (let at = 0; at < values.length; at += TRANSFER_VALUES) {
    const debitKey = values[at + 2] as string;
    const creditKey = values[at + 3] as string;
    transfers.push({
      id: values[at] as string,
      type: values[at + 1] as TransferType,
      debit: accountRefOfMapKey(debitKey),
      credit: accountRefOfMapKey(creditKey),
      asset: values[at + 4] as string,
      amount: Dec.fromUnits(values[at + 8] as bigint),
      code: values[at + 5] as string,
      reference: values[at + 6] as string | null,
      pendingId: values[at + 7] as string | null,
      timestamp: values[at + 9] as number,
      debitKey,
      creditKey,
    });
  }
  return transfers;
}

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
