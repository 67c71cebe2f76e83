/** The commit-mode allocation is the money state's (core/state/ieo-allocation.ts), shared with this module. */
export * from '../../core/state/ieo-allocation.ts';
