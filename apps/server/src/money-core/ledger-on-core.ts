import type { Ledger, Transfer, TransferInput } from '../ledger/index.ts';
import type { Trx } from '../store/database.ts';
import type { MoneyCoreHandle } from './handle.ts';
import { submitProjected } from './submit.ts';

/**
 * The ledger as the modules see it once the money state owns the balances
 * (issue 19's cut-over): a batch written alone becomes a `transfer` command
 * of the core, answered once it is durable and SQL holds it (`readable`), so
 * the caller's next read sees it; every read is the SQL ledger's, which the
 * projector keeps equal to the state.
 *
 * The state remembers transfer ids for its retry window only (docs/core.md,
 * "The retry window"); SQL keeps every one. A batch whose transfers SQL
 * holds already (a demo seed's fixed ids on every start, a retry older than
 * the window) is answered by the SQL ledger, as a retry (the same answer, or
 * the conflict of an id reused for another transfer; nothing is written),
 * and not sent: a state that forgot the ids would take it as new, and credit
 * it twice.
 *
 * A batch joined to a module's own SQL transaction cannot go to the core:
 * the state would never see it, and the balances would part. Such a write
 * (a module not yet cut over) throws instead of writing.
 */
export function ledgerOnCore(sql: Ledger, core: MoneyCoreHandle, now: () => number): Ledger {
  async function submitBatch(batch: readonly TransferInput[]): Promise<void> {
    await submitProjected(core, { kind: 'transfer', at: now(), batch: [...batch] });
  }
  /** Whether SQL holds every transfer of the batch already (a part of one is the state's to refuse: a conflict). */
  async function writtenBefore(batch: readonly TransferInput[]): Promise<boolean> {
    if (batch.length === 0) return false;
    const stored = await Promise.all(batch.map((input) => sql.transfer(input.id)));
    return stored.every((transfer) => transfer !== null);
  }
  function notOnTheCore(): never {
    throw new Error(
      'ledger: this write joins a module transaction, which the sequenced core cannot take yet',
    );
  }
  return {
    ...sql,
    async execute(batch, trx?: Trx) {
      if (trx) notOnTheCore();
      if (await writtenBefore(batch)) return sql.execute(batch);
      await submitBatch(batch);
      const written = await Promise.all(batch.map((input) => sql.transfer(input.id)));
      return written.filter((transfer): transfer is Transfer => transfer !== null);
    },
    async executeBulk(transfers, trx?: Trx) {
      if (trx) notOnTheCore();
      if (await writtenBefore(transfers)) return sql.executeBulk(transfers);
      await submitBatch(transfers);
    },
    transaction: () => notOnTheCore(),
    queued: () => core.sequencer.queued(),
  };
}
