import type { Harness } from '../identity/test-support.ts';
import type { OperatorSession } from '../operators/test-support.ts';

export { type OperatorSession, operatorSession } from '../operators/test-support.ts';

export interface Answer {
  code: number;
  msg: string;
  data: unknown;
}

/** One request of `operator` to an /admin route, in `lang`; `fresh` adds a TOTP code never used before. */
export async function asOperator(
  h: Harness,
  operator: OperatorSession,
  method: 'GET' | 'POST' | 'PUT',
  url: string,
  body?: object,
  options: { fresh?: boolean; lang?: string } = {},
): Promise<Answer> {
  const auth = options.fresh ? await operator.withTotp() : operator.headers;
  const headers = { ...auth, lang: options.lang ?? 'en' };
  const response = await h.app.http.inject({ method, url, headers, ...(body ? { payload: body } : {}) });
  return response.json() as Answer;
}
