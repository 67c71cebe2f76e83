import type { OperatorLoginAnswer, OperatorRole, OperatorTotpConfirmAnswer } from '@halyard/protocol';
import type { App } from '../../app.ts';
import type { ManualClock } from '../../clock.ts';
import { totpCode } from './totp.ts';

export const OPERATOR_PASSWORD = 'operator-pass-2026';
const STEP_MS = 30_000;

export interface OperatorSession {
  id: number;
  email: string;
  role: OperatorRole;
  /** The TOTP secret, for tests that sign in again. */
  secret: string;
  /** `operator-token`: enough for every route but money actions. */
  headers: Record<string, string>;
  /**
   * `operator-token` and a fresh `operator-totp` code never used before. Each
   * code takes the next TOTP step; when the server would no longer accept
   * that step, the clock is moved forward (30 s per step).
   */
  withTotp(): Promise<Record<string, string>>;
  /** The recovery codes answered at enrolment. */
  recoveryCodes: string[];
}

let operatorCount = 0;

async function answer<T>(
  app: App,
  url: string,
  payload: object,
  headers: Record<string, string> = {},
): Promise<T> {
  const response = await app.http.inject({ method: 'POST', url, payload, headers });
  const body = response.json() as { code: number; msg: string; data: T };
  if (body.code !== 200) throw new Error(`${url}: ${body.code} ${body.msg}`);
  return body.data;
}

/**
 * A signed-in operator of `role` with TOTP enrolled, the way the console does
 * it: the account is created, signs in, enrols the secret and confirms a code.
 * Creating an administrator closes the admin token's bootstrap for this app.
 */
export async function operatorSession(
  app: App,
  role: OperatorRole,
  clock: ManualClock,
): Promise<OperatorSession> {
  operatorCount += 1;
  const email = `${role}-${operatorCount}@operators.test`;
  const created = await app.operators.service.create({ email, password: OPERATOR_PASSWORD, role }, null);
  const login = await answer<OperatorLoginAnswer>(app, '/admin/auth/login', {
    email,
    password: OPERATOR_PASSWORD,
  });
  if (login.step !== 'enrolTotp') throw new Error('a new operator must enrol TOTP first');
  const secret = login.enrolment.secret;
  const headers = { 'operator-token': login.token };
  let lastStep = Math.floor(clock.now() / STEP_MS);
  const confirmed = await answer<OperatorTotpConfirmAnswer>(
    app,
    '/admin/auth/totp/confirm',
    { code: await totpCode(secret, lastStep * STEP_MS) },
    headers,
  );
  return {
    id: created.id,
    email,
    role,
    secret,
    headers,
    recoveryCodes: confirmed.recoveryCodes,
    async withTotp() {
      const current = Math.floor(clock.now() / STEP_MS);
      const step = Math.max(current - 1, lastStep + 1);
      // The server accepts the step before, the current one and the next.
      if (step > current + 1) clock.advance((step - current - 1) * STEP_MS);
      lastStep = step;
      return { ...headers, 'operator-totp': await totpCode(secret, step * STEP_MS) };
    },
  };
}
