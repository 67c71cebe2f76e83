export { Dec, DecimalError, decOrZero, SCALE } from './decimal.ts';
