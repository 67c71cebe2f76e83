import type { MoneyState } from '../../core/state/index.ts';
import type { Executor } from '../../store/database.ts';

/**
 * The convert part of the money state built from SQL (projection/initial-state.ts):
 * the next order id after the highest ever given, and the quotes already used
 * that have not expired at `at` (an expired one is refused as expired
 * anyway, so the state forgets it).
 */
export async function loadConvertState(db: Executor, state: MoneyState, at: number): Promise<void> {
  const highest = await db
    .selectFrom('convert_orders')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  state.convert.nextOrderId = Number(highest?.id ?? 0) + 1;
  const used = await db
    .selectFrom('convert_quotes')
    .select(['id', 'expires_at'])
    .where('used_at', 'is not', null)
    .where('expires_at', '>=', at)
    .execute();
  for (const quote of used) state.convert.usedQuotes.set(quote.id, Number(quote.expires_at));
}
