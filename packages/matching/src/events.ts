import { Dec } from '@halyard/money';
import type {
  AcceptedEvent,
  CancelReason,
  DoneEvent,
  PlaceCommand,
  RejectedEvent,
  RejectReason,
  Side,
  TradeEvent,
} from './types.ts';

/** Builders for the events every book emits, so both books word them the same way. */

export function acceptedEvent(command: PlaceCommand): AcceptedEvent {
  return {
    type: 'accepted',
    orderId: command.orderId,
    userId: command.userId,
    side: command.side,
    orderType: command.kind,
    price: command.kind === 'limit' ? command.price : null,
    amount: command.amount,
    quoteBudget: command.kind === 'market' ? (command.quoteBudget ?? null) : null,
    sequence: command.sequence,
  };
}

export function rejectedEvent(orderId: string, userId: string, reason: RejectReason): RejectedEvent {
  return { type: 'rejected', orderId, userId, reason };
}

interface OrderIdentity {
  orderId: string;
  userId: string;
  side: Side;
}

/** A fill at the maker's price. */
export function tradeEvent(
  maker: OrderIdentity & { price: Dec },
  taker: OrderIdentity,
  amount: Dec,
): TradeEvent {
  return {
    type: 'trade',
    makerOrderId: maker.orderId,
    takerOrderId: taker.orderId,
    makerUserId: maker.userId,
    takerUserId: taker.userId,
    price: maker.price,
    amount,
    quoteAmount: maker.price.mul(amount),
    takerSide: taker.side,
  };
}

export function filledEvent(order: OrderIdentity): DoneEvent {
  return doneEvent(order, 'filled', null, Dec.ZERO);
}

export function cancelledEvent(order: OrderIdentity, remaining: Dec, cancelReason: CancelReason): DoneEvent {
  return doneEvent(order, 'cancelled', cancelReason, remaining);
}

// One literal with a fixed shape (no spread): V8 keeps these events fast, and
// only the identity is copied, so a whole order object never leaks into an event.
function doneEvent(
  order: OrderIdentity,
  status: DoneEvent['status'],
  cancelReason: CancelReason | null,
  remaining: Dec,
): DoneEvent {
  return {
    type: 'done',
    orderId: order.orderId,
    userId: order.userId,
    side: order.side,
    status,
    cancelReason,
    remaining,
  };
}
