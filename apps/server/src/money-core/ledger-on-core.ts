import type { Ledger, Transfer, TransferInput } from '../ledger/index.ts';
import type { Trx } from '../store/database.ts';
import type { MoneyCore } from './start.ts';
import { submitProjected } from './submit.ts';

/**
 * The ledger as the modules see it once the money state owns the balances
 * (issue 19's cut-over): a batch written alone becomes a `transfer` command
 * of the core, answered once it is durable and SQL holds it (`readable`), so
 * the caller's next read sees it; every read is the SQL ledger's, which the
 * projector keeps equal to the state.
 *
 * A batch joined to a module's own SQL transaction cannot go to the core:
 * the state would never see it, and the balances would part. Such a write
 * (a module not yet cut over) throws instead of writing.
 */
export function ledgerOnCore(sql: Ledger, core: MoneyCore, now: () => number): Ledger {
  async function submitBatch(batch: readonly TransferInput[]): Promise<void> {
    await submitProjected(core, { kind: 'transfer', at: now(), batch: [...batch] });
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
      await submitBatch(batch);
      const written = await Promise.all(batch.map((input) => sql.transfer(input.id)));
      return written.filter((transfer): transfer is Transfer => transfer !== null);
    },
    async executeBulk(transfers, trx?: Trx) {
      if (trx) notOnTheCore();
      await submitBatch(transfers);
    },
    transaction: () => notOnTheCore(),
    queued: () => core.sequencer.queued(),
  };
}
