export * from './constants.ts';
export type { RuleError } from './error.ts';
export * from './format.ts';
