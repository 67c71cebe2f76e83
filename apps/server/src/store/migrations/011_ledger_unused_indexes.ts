import type { HalyardMigration } from '../migrate.ts';

/**
 * Drops two indexes of `ledger_transfers` that no query reads: by
 * `pending_id` and by `reference`. Every transfer paid for them on insert (a
 * quarter of the ledger's write time in the cycle settlement benchmark).
 * Transfers are never updated or deleted, so the foreign key on `pending_id`
 * needs no index on its side either.
 */
export const ledgerUnusedIndexesMigration: HalyardMigration = {
  async up(db) {
    await db.schema.dropIndex('ledger_transfers_pending').ifExists().execute();
    await db.schema.dropIndex('ledger_transfers_reference').ifExists().execute();
  },
};
