import { CODE, type Envelope } from '@halyard/protocol';

/** A reply whose code is not 200; `msg` is the server's, already in the operator's language. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
  ) {
    super(msg);
    this.name = 'ApiError';
  }
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface CallOptions {
  query?: Query;
  body?: unknown;
  /** A fresh TOTP code: the server asks for one on every money action (header operator-totp). */
  totp?: string;
  /** The one-time bootstrap of the first administrator (header admin-token). */
  adminToken?: string;
  /** A session not yet the console's own: the one a TOTP enrolment confirms. */
  token?: string;
}

/** What the client needs from the console around it: the session and the language. */
export interface ApiContext {
  token(): string | null;
  locale(): string;
  /** Code 401: the session is gone (expired, revoked, signed out elsewhere). */
  signedOut(): void;
}

export function withQuery(url: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null && value !== '') params.append(name, String(value));
  }
  const text = params.toString();
  return text === '' ? url : `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

function headersFor(context: ApiContext, options: CallOptions, hasBody: boolean): Headers {
  const headers = new Headers({ lang: context.locale(), accept: 'application/json' });
  if (hasBody) headers.set('content-type', 'application/json');
  const token = options.token ?? context.token();
  if (token) headers.set('operator-token', token);
  if (options.totp) headers.set('operator-totp', options.totp);
  if (options.adminToken) headers.set('admin-token', options.adminToken);
  return headers;
}

/** The network failed or the answer was no envelope: said in the operator's language by the caller. */
export class NetworkError extends Error {
  constructor(readonly status: number) {
    super(`no answer from the server (${status})`);
    this.name = 'NetworkError';
  }
}

/** The console's HTTP client: every answer is {code, msg, data}; anything but 200 throws ApiError. */
export function createApi(context: ApiContext) {
  /** The whole envelope: for the few answers whose message says something on success (a four-eyes outcome). */
  async function send<T>(method: Method, url: string, options: CallOptions = {}): Promise<Envelope<T>> {
    const hasBody = options.body !== undefined;
    const response = await fetch(withQuery(url, options.query), {
      method,
      headers: headersFor(context, options, hasBody),
      body: hasBody ? JSON.stringify(options.body) : null,
    });
    const envelope = (await response.json().catch(() => null)) as Envelope<T> | null;
    if (!envelope || typeof envelope.code !== 'number') throw new NetworkError(response.status);
    if (envelope.code === CODE.unauthorized) context.signedOut();
    if (envelope.code !== CODE.ok) throw new ApiError(envelope.code, envelope.msg);
    return envelope;
  }

  const call = async <T>(method: Method, url: string, options: CallOptions = {}) =>
    (await send<T>(method, url, options)).data;

  /** A file (an ID photo, the audit CSV) with the session's headers, as a blob for an object URL. */
  async function blob(url: string, query?: Query): Promise<Blob> {
    const response = await fetch(withQuery(url, query), { headers: headersFor(context, {}, false) });
    const type = response.headers.get('content-type') ?? '';
    if (type.includes('application/json')) {
      const envelope = (await response.json()) as Envelope;
      if (envelope.code === CODE.unauthorized) context.signedOut();
      throw new ApiError(envelope.code, envelope.msg);
    }
    if (!response.ok) throw new NetworkError(response.status);
    return response.blob();
  }

  return {
    get: <T>(url: string, query?: Query) => call<T>('GET', url, { query }),
    post: <T>(url: string, body: unknown = {}, options: Omit<CallOptions, 'body'> = {}) =>
      call<T>('POST', url, { ...options, body }),
    put: <T>(url: string, body: unknown = {}, options: Omit<CallOptions, 'body'> = {}) =>
      call<T>('PUT', url, { ...options, body }),
    delete: <T>(url: string, options: CallOptions = {}) => call<T>('DELETE', url, options),
    send,
    blob,
  };
}

export type Api = ReturnType<typeof createApi>;
