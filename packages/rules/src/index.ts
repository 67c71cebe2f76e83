export * from './account.ts';
export * from './constants.ts';
export * from './cycle.ts';
export { firstError, type RuleError } from './error.ts';
export * from './format.ts';
export * from './funds.ts';
export * from './futures.ts';
export type { OrderSide, OrderStyle } from './order.ts';
export * from './spot.ts';
