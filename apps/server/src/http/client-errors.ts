import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import { CODE, DEFAULT_LOCALE, type Envelope, translate } from '@halyard/protocol';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { requestLocale } from './locale.ts';

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (headers or
 * request line over the size limit, malformed request, timeout) still get a
 * {code,msg,data} envelope, written to the socket itself. The headers were
 * not read, so the message is in English.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [code, key] = clientErrorOf(error.code);
  this.log.debug({ err: error }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify({ code, msg: translate(DEFAULT_LOCALE, key), data: null } satisfies Envelope);
    socket.write(
      `HTTP/1.1 ${code} ${STATUS_CODES[code]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

function clientErrorOf(code: string | undefined): [number, string] {
  if (code === 'HPE_HEADER_OVERFLOW') return [CODE.headersTooLarge, 'common.headersTooLarge'];
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return [CODE.requestTimeout, 'common.requestTimeout'];
  return [CODE.badRequest, 'common.badRequest'];
}

/**
 * Fastify's router refusals before any hook runs: a malformed percent-encoding
 * in the path (400) and a path parameter over `maxParamLength` (414). Hooks did
 * not run, so the language is worked out here.
 */
export function frameworkErrors(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const [code, key] =
    error.code === 'FST_ERR_MAX_PARAM_LENGTH'
      ? [CODE.uriTooLong, 'common.urlTooLong']
      : error.code === 'FST_ERR_BAD_URL'
        ? [CODE.badRequest, 'common.badUrl']
        : [CODE.serverError, 'common.unknownError'];
  if (code === CODE.serverError) request.log.error({ err: error }, 'router error');
  const envelope: Envelope<null> = { code, msg: translate(requestLocale(request), key), data: null };
  reply.status(code).send(envelope);
}
