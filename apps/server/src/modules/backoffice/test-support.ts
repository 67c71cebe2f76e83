import type { OperatorRole } from '@halyard/protocol';
import type { Harness } from '../identity/test-support.ts';
import { totpCode } from '../operators/totp.ts';

const OPERATOR_PASSWORD = 'operator123';
let operators = 0;

/**
 * A new operator of `role`, signed in with TOTP enrolled, as the console
 * would be after its first sign-in: answers the `operator-token` headers.
 */
export async function operatorHeaders(h: Harness, role: OperatorRole): Promise<Record<string, string>> {
  operators += 1;
  const service = h.app.operators.service;
  const email = `${role}${operators}@ops.test`;
  await service.create({ email, password: OPERATOR_PASSWORD, role }, null);
  const first = await service.login({ email, password: OPERATOR_PASSWORD }, '127.0.0.1');
  if (first.step !== 'enrolTotp') throw new Error('a new operator should enrol TOTP first');
  const session = await service.authenticate(first.token);
  if (!session) throw new Error('no operator session');
  await service.confirmTotp(session, await totpCode(first.enrolment.secret, h.clock.now()));
  return { 'operator-token': first.token };
}
