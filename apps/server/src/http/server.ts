import zlib from 'node:zlib';
import compress from '@fastify/compress';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { CODE, type Envelope, translate } from '@halyard/protocol';
import Fastify, { type FastifyError, type FastifyInstance, type FastifyRequest } from 'fastify';
import type { Db } from '../store/database.ts';
import { clientErrorHandler, frameworkErrors } from './client-errors.ts';
import { refuseMisreadCoercions } from './coercion-guards.ts';
import { Ok } from './envelope.ts';
import { AppError } from './errors.ts';
import { requestLocale } from './locale.ts';
import { requestLogFields } from './log-redaction.ts';
import { sqlRateLimitStore } from './rate-limit-store.ts';
import { registerSecurityHeaders } from './security-headers.ts';
import { sharedValidatorCompilers } from './shared-validators.ts';

/** Spec §5/§9: an image is at most 10 MB; a request body may carry one plus its fields. */
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;

/** On-the-fly brotli level: fast enough per request, close to the best ratio. */
const BROTLI_QUALITY = 5;

export interface HttpOptions {
  logLevel: string;
  /** Tests turn rate limits off except where a test is about them. */
  rateLimits?: boolean;
  /**
   * Cluster mode: the rate limits counted in this database, shared by every
   * gateway (rate-limit-store.ts), so a client is limited as a whole however
   * its requests are spread. One process counts in memory (none given).
   */
  sharedRateLimits?: Db;
  /** Where log lines go (standard output by default); tests read them. */
  logStream?: { write(line: string): void };
  /**
   * The proxies (IPs or CIDRs) whose X-Forwarded-For is believed; none by
   * default, so `request.ip` (and every per-IP limit) is the connecting peer
   * and a client cannot pick its own address with the header.
   */
  trustedProxies?: string[];
}

/**
 * The Fastify instance with Halyard's conventions: the {code,msg,data}
 * envelope, localised messages, security headers, upload cap, rate limits
 * and the OpenAPI document at /docs. Modules add their routes to it.
 */
export async function createHttpServer(options: HttpOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: options.logLevel,
      serializers: { req: requestLogFields },
      ...(options.logStream ? { stream: options.logStream } : {}),
    },
    clientErrorHandler,
    frameworkErrors,
    bodyLimit: UPLOAD_LIMIT_BYTES + 1024 * 1024,
    trustProxy: options.trustedProxies?.length ? options.trustedProxies : false,
    ajv: { customOptions: { coerceTypes: 'array', removeAdditional: false, allErrors: false } },
    schemaController: { compilersFactory: { buildValidator: sharedValidatorCompilers } },
  });

  app.decorateRequest('user', null);
  app.decorateRequest('operator', null);
  app.decorateRequest('locale', 'en');
  // Hooks on every request take a callback, not a promise: one allocation less per hook and request.
  app.addHook('onRequest', (request, _reply, done) => {
    request.locale = requestLocale(request);
    done();
  });
  refuseMisreadCoercions(app);

  await registerSecurityHeaders(app);
  // Brotli/gzip for every answer over 1 KiB (the web app's bundle above all):
  // a phone on a slow link downloads a fraction of the bytes. Brotli at its
  // default quality (11) takes ~1 s per 400 KB bundle on the fly; quality 5
  // compresses nearly as well in a few milliseconds.
  await app.register(compress, {
    global: true,
    threshold: 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY } },
  });
  await app.register(rateLimit, {
    global: false,
    enableDraftSpec: true,
    errorResponseBuilder: () => new AppError('common.tooManyRequests', {}, CODE.tooManyRequests),
    ...(options.sharedRateLimits ? { store: sqlRateLimitStore(options.sharedRateLimits) } : {}),
    ...(options.rateLimits === false ? { allowList: () => true } : {}),
  });
  await app.register(multipart, { limits: { fileSize: UPLOAD_LIMIT_BYTES, files: 1 } });
  await app.register(swagger, {
    openapi: {
      info: { title: 'Halyard API', version: '0.1.0', description: 'Every route answers {code, msg, data}.' },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'token' },
          admin: { type: 'apiKey', in: 'header', name: 'admin-token' },
          operator: { type: 'apiKey', in: 'header', name: 'operator-token' },
          operatorTotp: { type: 'apiKey', in: 'header', name: 'operator-totp' },
        },
      },
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  app.addHook('preSerialization', (request, _reply, payload, done) => {
    if (!(payload instanceof Ok)) return done(null, payload);
    const envelope: Envelope = {
      code: CODE.ok,
      msg: translate(request.locale, payload.key, payload.params),
      data: payload.data,
    };
    done(null, envelope);
  });

  // The answer of a command that ran is never turned into a failure by its writing.
  app.setReplySerializer((payload) => serializeAnswer(app, payload));

  app.setErrorHandler((error: FastifyError | AppError, request, reply) => {
    const envelope = toErrorEnvelope(error, request);
    if (envelope.code === CODE.serverError) request.log.error({ err: error }, 'unhandled error');
    // The envelope code carries the outcome; the HTTP status mirrors it for
    // tools (curl -f, proxies, logs) that only look at the status line.
    return reply.status(envelope.code).send(envelope);
  });

  app.setNotFoundHandler((request, reply) => {
    const envelope: Envelope = {
      code: CODE.notFound,
      msg: translate(request.locale, 'common.notFound'),
      data: null,
    };
    return reply.status(404).send(envelope);
  });

  return app;
}

/**
 * JSON of an answer. Data that cannot be written (a bug: a BigInt, a cycle)
 * is logged and left out; a success stays a success, since what the handler
 * did is done and a client told otherwise would retry it.
 */
function serializeAnswer(app: FastifyInstance, payload: unknown): string {
  try {
    return JSON.stringify(payload);
  } catch (error) {
    app.log.error({ err: error }, 'answer not serialisable');
    const { code, msg } = payload as Partial<Envelope>;
    return JSON.stringify(
      code === CODE.ok
        ? { code, msg: String(msg), data: null }
        : { code: CODE.serverError, msg: translate('en', 'common.unknownError'), data: null },
    );
  }
}

function toErrorEnvelope(error: FastifyError | AppError, request: FastifyRequest): Envelope<null> {
  const { locale } = request;
  if (error instanceof AppError) {
    return { code: error.code, msg: translate(locale, error.key, error.params), data: null };
  }
  if (error.validation) {
    const first = error.validation[0];
    const field =
      (first?.params as { missingProperty?: string } | undefined)?.missingProperty ??
      first?.instancePath.replace(/^\//, '') ??
      '';
    return {
      code: CODE.badRequest,
      msg: translate(locale, 'common.invalidParams', { field: field || (error.validationContext ?? '') }),
      data: null,
    };
  }
  if (error.statusCode === 413) {
    // An upload's limit is the image's; any other body's is the request's.
    const upload = request.headers['content-type']?.startsWith('multipart/') === true;
    const key = upload ? 'common.fileTooLarge' : 'common.bodyTooLarge';
    return { code: CODE.payloadTooLarge, msg: translate(locale, key), data: null };
  }
  if (error.statusCode === 429) {
    return { code: CODE.tooManyRequests, msg: translate(locale, 'common.tooManyRequests'), data: null };
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    return {
      code: error.statusCode,
      msg: translate(locale, 'common.badRequest'),
      data: null,
    };
  }
  return { code: CODE.serverError, msg: translate(locale, 'common.unknownError'), data: null };
}
