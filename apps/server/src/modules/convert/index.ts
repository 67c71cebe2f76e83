import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { registerConvertRoutes } from './routes.ts';
import { ConvertService, type ConvertServiceOptions } from './service.ts';

export { type ExchangeRecord, FLASH_LIMITS, type FlashPair } from './service.ts';
export { ConvertService };

/** What createApp exposes as `app.convert`. */
export interface ConvertModule {
  service: ConvertService;
  registerRoutes(http: FastifyInstance): void;
}

export function createConvertModule(
  options: ConvertServiceOptions & { requireUser: preHandlerAsyncHookHandler },
): ConvertModule {
  const service = new ConvertService(options);
  return {
    service,
    registerRoutes: (http) =>
      registerConvertRoutes(http, { convert: service, requireUser: options.requireUser }),
  };
}
