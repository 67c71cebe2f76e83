import type { Kysely, Transaction } from 'kysely';

/**
 * The whole schema as Kysely sees it: each module declares its own tables in
 * its `store.ts` and they meet only here. A module's service still never
 * reads another module's tables; it calls that module's service.
 */
// biome-ignore lint/suspicious/noEmptyInterface: modules extend this through declaration merging.
export interface Database {}

export type Db = Kysely<Database>;
export type Trx = Transaction<Database>;
/** Either the root handle or an open transaction: store functions accept both. */
export type Executor = Db | Trx;
