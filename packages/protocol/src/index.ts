export * from './cycle.ts';
export * from './envelope.ts';
export * from './fiat.ts';
export * from './ieo.ts';
export * from './locales.ts';
export * from './messages/index.ts';
export * from './realtime.ts';
export * from './version.ts';
