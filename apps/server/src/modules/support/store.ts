import type { TicketStatus } from '@halyard/protocol';
import type { Generated, Selectable } from 'kysely';
import type { Executor } from '../../store/database.ts';

export type { TicketStatus };

export interface SupportTicketsTable {
  id: Generated<number>;
  user_id: number;
  title: string;
  content: string;
  reply: string | null;
  status: TicketStatus;
  created_at: number;
  updated_at: number;
}

declare module '../../store/database.ts' {
  interface Database {
    support_tickets: SupportTicketsTable;
  }
}

export type TicketRow = Selectable<SupportTicketsTable>;

export async function insertTicket(
  db: Executor,
  ticket: { userId: number; title: string; content: string; now: number },
): Promise<TicketRow> {
  return db
    .insertInto('support_tickets')
    .values({
      user_id: ticket.userId,
      title: ticket.title,
      content: ticket.content,
      reply: null,
      status: 'waiting',
      created_at: ticket.now,
      updated_at: ticket.now,
    })
    .returningAll()
    .executeTakeFirstOrThrow();
}

export interface TicketFilter {
  userId?: number;
  status?: TicketStatus;
}

function filtered(db: Executor, filter: TicketFilter) {
  let query = db.selectFrom('support_tickets');
  if (filter.userId !== undefined) query = query.where('user_id', '=', filter.userId);
  if (filter.status !== undefined) query = query.where('status', '=', filter.status);
  return query;
}

/** A page of tickets, newest first. */
export function selectTickets(db: Executor, filter: TicketFilter, offset: number, limit: number) {
  return filtered(db, filter)
    .selectAll()
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
}

export async function countTickets(db: Executor, filter: TicketFilter): Promise<number> {
  const row = await filtered(db, filter)
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

export function selectTicket(db: Executor, id: number): Promise<TicketRow | undefined> {
  return db.selectFrom('support_tickets').selectAll().where('id', '=', id).executeTakeFirst();
}

/**
 * Moves a ticket that is not closed to `status` (with the reply, if given).
 * Conditional on the ticket still being open, so a reply racing a close
 * cannot reopen it; false when nothing changed.
 */
export async function updateOpenTicket(
  db: Executor,
  id: number,
  change: { status: TicketStatus; reply?: string; now: number },
): Promise<boolean> {
  const result = await db
    .updateTable('support_tickets')
    .set({
      status: change.status,
      updated_at: change.now,
      ...(change.reply === undefined ? {} : { reply: change.reply }),
    })
    .where('id', '=', id)
    .where('status', '!=', 'closed')
    .executeTakeFirst();
  return result.numUpdatedRows > 0n;
}
