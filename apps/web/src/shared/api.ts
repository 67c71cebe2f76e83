import { CODE, type Envelope } from '@halyard/protocol';

/** Spec §7/§9: every request gives up after 10 s. */
export const REQUEST_TIMEOUT_MS = 10_000;

/** A reply whose code is not 200; `msg` is already in the user's language. */
export class ApiError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly data: unknown = null,
  ) {
    super(msg);
    this.name = 'ApiError';
  }
}

/** The request was replaced by an identical newer one (spec §7); nobody needs to hear about it. */
export class RequestCancelled extends Error {
  constructor() {
    super('request replaced by a newer identical one');
    this.name = 'RequestCancelled';
  }
}

export type Query = Record<string, string | number | boolean | null | undefined>;

export interface RequestOptions {
  /** Show the global spinner; write calls do by default (spec §7). */
  spinner?: boolean;
  /** Leave failures to the caller: no toast (background polling of optional data). */
  quiet?: boolean;
  /**
   * A money command (orders, transfers, withdrawals, convert): the body
   * carries a `clientOid`, and the same command sent again after an
   * unanswered attempt (network failure, timeout, 5xx, 409 in progress)
   * carries the same one, so the server runs it at most once.
   */
  idempotent?: boolean;
}

export interface ApiDeps {
  fetch: typeof fetch;
  token(): string | null;
  locale(): string;
  toast(message: string): void;
  /** The localised "request failed, check network" text. */
  networkErrorText(): string;
  spinner: { start(): void; stop(): void };
  /** Code 401: clear token, user info and wallet address, go home (spec §4 Login). */
  logout(): void;
  timeoutMs?: number;
}

type Method = 'GET' | 'POST';
/** How an answer is read: the JSON envelope, or a file (an export) unless the server answered with an envelope. */
type Reading = 'envelope' | 'file';

interface Pending {
  controller: AbortController;
  replaced: boolean;
}

export function withQuery(url: string, query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(name, String(value));
  }
  const text = params.toString();
  if (text === '') return url;
  return `${url}${url.includes('?') ? '&' : '?'}${text}`;
}

/** 128 random bits as hex: crypto.getRandomValues works on plain-http LAN addresses too, randomUUID does not. */
export function newClientOid(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Whether an attempt's outcome is known: a success or a refusal. Anything else
 * (no envelope, a server error, "still in progress") may still have run, so a
 * retry of the same command must carry the same clientOid.
 */
function isSettled(error: unknown): boolean {
  return error instanceof ApiError && error.code !== CODE.conflict && error.code < CODE.serverError;
}

function isEnvelope(value: unknown): value is Envelope {
  return typeof value === 'object' && value !== null && 'code' in value && typeof value.code === 'number';
}

/**
 * The one HTTP client of the app (spec §7): `token` and `lang` headers, JSON,
 * 10 s timeout, a newer identical request cancels the older one, the spinner
 * for write calls, toasts for failures and logout on 401. Resolves with
 * `data` of a code-200 envelope; rejects with ApiError, RequestCancelled or
 * the network error otherwise.
 */
export function createApiClient(deps: ApiDeps) {
  const inFlight = new Map<string, Pending>();
  /** The clientOid of each money command whose last attempt got no definite answer, by its url and body. */
  const unsettled = new Map<string, string>();
  const timeoutMs = deps.timeoutMs ?? REQUEST_TIMEOUT_MS;

  function headers(json: boolean): Record<string, string> {
    const result: Record<string, string> = { lang: deps.locale() };
    const token = deps.token();
    if (token) result.token = token;
    if (json) result['content-type'] = 'application/json';
    return result;
  }

  function claim(key: string | null): Pending {
    const pending: Pending = { controller: new AbortController(), replaced: false };
    if (key === null) return pending;
    const earlier = inFlight.get(key);
    if (earlier) {
      earlier.replaced = true;
      earlier.controller.abort();
    }
    inFlight.set(key, pending);
    return pending;
  }

  function release(key: string | null, pending: Pending): void {
    if (key !== null && inFlight.get(key) === pending) inFlight.delete(key);
  }

  function fail(method: Method, error: unknown, options: RequestOptions): never {
    if (error instanceof ApiError) {
      if (error.code === CODE.unauthorized) deps.logout();
      // Spec §7: a POST with 401 only logs out; everything else says what went wrong.
      const silent = options.quiet || (method === 'POST' && error.code === CODE.unauthorized);
      if (!silent) deps.toast(error.msg || deps.networkErrorText());
      throw error;
    }
    if (!options.quiet) deps.toast(deps.networkErrorText());
    throw error;
  }

  async function send<T>(
    method: Method,
    url: string,
    body: BodyInit | null,
    key: string | null,
    options: RequestOptions,
    reading: Reading = 'envelope',
  ) {
    const useSpinner = options.spinner ?? method === 'POST';
    const pending = claim(key);
    const timer = setTimeout(() => pending.controller.abort(), timeoutMs);
    if (useSpinner) deps.spinner.start();
    try {
      const response = await deps.fetch(url, {
        method,
        headers: headers(typeof body === 'string'),
        body,
        signal: pending.controller.signal,
      });
      const json = response.headers.get('content-type')?.includes('application/json') ?? false;
      if (reading === 'file' && response.ok && !json) return (await response.blob()) as T;
      const payload: unknown = await response.json().catch(() => null);
      if (!isEnvelope(payload)) throw new ApiError(CODE.serverError, '');
      if (payload.code !== CODE.ok) throw new ApiError(payload.code, payload.msg ?? '', payload.data);
      return payload.data as T;
    } catch (error) {
      if (pending.replaced) throw new RequestCancelled();
      return fail(method, error, options);
    } finally {
      clearTimeout(timer);
      release(key, pending);
      if (useSpinner) deps.spinner.stop();
    }
  }

  async function postOnce<T>(url: string, body: object, key: string, options: RequestOptions): Promise<T> {
    const clientOid = unsettled.get(key) ?? newClientOid();
    unsettled.set(key, clientOid);
    try {
      const data = await send<T>('POST', url, JSON.stringify({ ...body, clientOid }), key, options);
      unsettled.delete(key);
      return data;
    } catch (error) {
      if (isSettled(error)) unsettled.delete(key);
      throw error;
    }
  }

  return {
    get<T>(url: string, query?: Query, options: RequestOptions = {}): Promise<T> {
      const full = withQuery(url, query);
      return send<T>('GET', full, null, `GET ${full}`, options);
    },
    post<T>(url: string, body: object = {}, options: RequestOptions = {}): Promise<T> {
      const json = JSON.stringify(body);
      const key = `POST ${url} ${json}`;
      if (!options.idempotent) return send<T>('POST', url, json, key, options);
      return postOnce<T>(url, body, key, options);
    },
    /** A file the server builds (a CSV export), with the session's headers; a refusal comes as an envelope. */
    download(url: string, query?: Query, options: RequestOptions = {}): Promise<Blob> {
      const full = withQuery(url, query);
      return send<Blob>('GET', full, null, `GET ${full}`, { spinner: true, ...options }, 'file');
    },
    /** Multipart upload (POST /user/img, field imgurl); never deduplicated: two files are two files. */
    upload<T>(url: string, form: FormData, options: RequestOptions = {}): Promise<T> {
      return send<T>('POST', url, form, null, options);
    },
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
