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
  return { ...identityOf(order), type: 'done', status: 'filled', cancelReason: null, remaining: Dec.ZERO };
}

export function cancelledEvent(order: OrderIdentity, remaining: Dec, cancelReason: CancelReason): DoneEvent {
  return { ...identityOf(order), type: 'done', status: 'cancelled', cancelReason, remaining };
}

// Copies only the identity, so a whole order object never leaks into an event.
function identityOf(order: OrderIdentity): OrderIdentity {
  return { orderId: order.orderId, userId: order.userId, side: order.side };
}
