import type { FastifyRequest } from 'fastify';

/** Query parameters that name a person's account or contact. */
const PERSONAL_KEY = /account|mail|phone|tel|mobile|recipient/i;
/**
 * An e-mail address, an international phone number (+ then digits, spaces,
 * dashes) or an 11-digit mainland mobile number, under whatever parameter name.
 */
const PERSONAL_VALUE = /@|^\+[\d\s()-]{6,}$|^1\d{10}$/;
const REDACTED = '[redacted]';

/**
 * What a request log line says of the request. Fastify logs each request's
 * URL, and query strings carry e-mail addresses and phone numbers (GET
 * /user/getCode?account=…): those values are redacted. Bodies are never logged.
 */
export function requestLogFields(request: FastifyRequest): Record<string, unknown> {
  return {
    method: request.method,
    url: redactUrl(request.url),
    remoteAddress: request.ip,
  };
}

export function redactUrl(url: string): string {
  const at = url.indexOf('?');
  const path = redactPath(at < 0 ? url : url.slice(0, at));
  if (at < 0) return path;
  const query = url
    .slice(at + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      if (equals < 0) return pair;
      const key = pair.slice(0, equals);
      const value = decoded(pair.slice(equals + 1));
      return PERSONAL_KEY.test(decoded(key)) || PERSONAL_VALUE.test(value) ? `${key}=${REDACTED}` : pair;
    })
    .join('&');
  return `${path}?${query}`;
}

/** A path segment that is an e-mail address (a user looked up by it) is redacted too. */
function redactPath(path: string): string {
  return path
    .split('/')
    .map((segment) => (decoded(segment).includes('@') ? REDACTED : segment))
    .join('/');
}

function decoded(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    return text;
  }
}
