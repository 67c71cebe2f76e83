export { OrderBook } from './book.ts';
export { ReferenceBook } from './reference-book.ts';
export type {
  AcceptedEvent,
  BookCommand,
  BookEvent,
  CancelAllCommand,
  CancelCommand,
  CancelReason,
  DepthLevel,
  DepthSnapshot,
  DoneEvent,
  LimitCommand,
  MarketCommand,
  MatchingBook,
  PairPrecision,
  PlaceCommand,
  RejectedEvent,
  RejectReason,
  RestingOrder,
  Side,
  TradeEvent,
} from './types.ts';
export { MatchingError } from './types.ts';
export { assertPairPrecision, PairRules } from './validate.ts';
