/**
 * Support tickets on the wire (spec §3 Ticket, §4), shared by the server's
 * /user/ticket and /admin/support routes and the operator console. Times are
 * epoch milliseconds.
 */

/** Spec §4 Ticket: waiting for staff, responded by staff, closed (by staff or by its author). */
export const TICKET_STATUSES = ['waiting', 'responded', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** One ticket as its author and the operator see it. */
export interface TicketView {
  id: number;
  title: string;
  content: string;
  /** The operator's answer; empty until responded. */
  reply: string;
  status: TicketStatus;
  /** Submission time, ms. */
  wdate: number;
  updatedAt: number;
}

/** The operator's view adds who wrote it. */
export interface AdminTicketView extends TicketView {
  userId: number;
}

export interface TicketPage<T> {
  list: T[];
  count: number;
}
