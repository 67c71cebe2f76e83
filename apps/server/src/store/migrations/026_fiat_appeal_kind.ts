import type { HalyardMigration } from '../migrate.ts';

/**
 * What a fiat appeal is about (issue 16 item 5): `appeal_kind` picks the
 * evidence checklist (rules FIAT_APPEAL_EVIDENCE). Appeals from before read as 'other'.
 */
export const fiatAppealKindMigration: HalyardMigration = {
  async up(db) {
    await db.schema.alterTable('fiat_orders').addColumn('appeal_kind', 'text').execute();
  },
};
