import type { AdminTicketView, TicketPage, TicketView } from '@halyard/protocol';
import { checkTicket } from '@halyard/rules';
import type { Clock } from '../../clock.ts';
import { badRequest, conflict, notFound } from '../../http/errors.ts';
import type { Db } from '../../store/database.ts';
import {
  countTickets,
  insertTicket,
  selectTicket,
  selectTickets,
  type TicketFilter,
  type TicketRow,
  type TicketStatus,
  updateOpenTicket,
} from './store.ts';

function ticketView(row: TicketRow): TicketView {
  return {
    id: Number(row.id),
    title: row.title,
    content: row.content,
    reply: row.reply ?? '',
    status: row.status,
    wdate: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

/** Help and feedback: users ask, operators answer, either side closes. */
export class SupportService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Spec §5: title required, content required and 10–200 characters; bad input stores nothing. */
  async submit(userId: number, input: { title: string; content: string }): Promise<TicketView> {
    const ticket = { title: input.title.trim(), content: input.content.trim() };
    const error = checkTicket(ticket);
    if (error) throw badRequest(error.key, error.params);
    const row = await insertTicket(this.db, { userId, ...ticket, now: this.clock.now() });
    return ticketView(row);
  }

  async listForUser(userId: number, page: number, limit: number): Promise<TicketPage<TicketView>> {
    const { rows, count } = await this.page({ userId }, page, limit);
    return { list: rows.map(ticketView), count };
  }

  /** The author closes their own ticket; someone else's reads as not found, so ids leak nothing. */
  async closeByUser(userId: number, ticketId: number): Promise<void> {
    const ticket = await selectTicket(this.db, ticketId);
    if (!ticket || Number(ticket.user_id) !== userId) throw notFound('support.ticketNotFound');
    await this.close(ticketId);
  }

  async listForOperator(
    status: TicketStatus | undefined,
    page: number,
    limit: number,
  ): Promise<TicketPage<AdminTicketView>> {
    const { rows, count } = await this.page(status === undefined ? {} : { status }, page, limit);
    return { list: rows.map((row) => ({ ...ticketView(row), userId: Number(row.user_id) })), count };
  }

  /** waiting or responded → responded; a later reply replaces the earlier one. */
  async reply(ticketId: number, reply: string): Promise<void> {
    await this.transition(ticketId, { status: 'responded', reply: reply.trim() });
  }

  async close(ticketId: number): Promise<void> {
    await this.transition(ticketId, { status: 'closed' });
  }

  private async transition(ticketId: number, change: { status: TicketStatus; reply?: string }) {
    const changed = await updateOpenTicket(this.db, ticketId, { ...change, now: this.clock.now() });
    if (changed) return;
    const ticket = await selectTicket(this.db, ticketId);
    if (!ticket) throw notFound('support.ticketNotFound');
    throw conflict('support.ticketClosed');
  }

  private async page(filter: TicketFilter, page: number, limit: number) {
    const [rows, count] = await Promise.all([
      selectTickets(this.db, filter, (page - 1) * limit, limit),
      countTickets(this.db, filter),
    ]);
    return { rows, count };
  }
}
