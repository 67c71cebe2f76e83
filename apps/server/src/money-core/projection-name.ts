/**
 * The watermark row's name of the one projector that writes every table of
 * the money state (writers.ts). In a module of its own so that a gateway of
 * the cluster, which reads the watermark and never writes, need not load
 * every module's writer to know it.
 */
export const MONEY_PROJECTION = 'money';
