/** Every HTTP answer: spec §7 "API envelope". */
export interface Envelope<T = unknown> {
  code: number;
  msg: string;
  data: T;
}

/** Envelope codes. 200 passes; 401 logs the client out (spec §4 Login). */
export const CODE = {
  ok: 200,
  badRequest: 400,
  unauthorized: 401,
  forbidden: 403,
  notFound: 404,
  requestTimeout: 408,
  conflict: 409,
  payloadTooLarge: 413,
  uriTooLong: 414,
  tooManyRequests: 429,
  headersTooLarge: 431,
  serverError: 500,
} as const;
