import { expect } from 'vitest';
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

/** The answer, after checking it succeeded (its message shown when it did not). */
export function ok(answer: Answer): Answer {
  expect(answer, answer.msg).toMatchObject({ code: 200 });
  return answer;
}

/** `operator` approves request `id`, with a fresh TOTP code. */
export function approveAs(h: Harness, operator: OperatorSession, id: number): Promise<Answer> {
  return asOperator(h, operator, 'POST', `/admin/approvals/${id}/approve`, undefined, { fresh: true });
}
