import type { OperatorBootstrapStatus } from '@halyard/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_TOKEN, expectOk, get, type Harness, post, startHarness } from '../identity/test-support.ts';

/** The console's sign-in screen offers the first administrator only while the server says it may be made. */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const PASSWORD = 'first-administrator-2026';
const bootstrapStatus = async () =>
  (await expectOk(get(h, '/admin/auth/bootstrap'))).data as OperatorBootstrapStatus;

describe('GET /admin/auth/bootstrap', () => {
  it('is open until the admin token has named an administrator, then closed for good', async () => {
    expect(await bootstrapStatus()).toEqual({ open: true });
    await expectOk(
      post(h, '/admin/auth/bootstrap', { email: 'first@operators.test', password: PASSWORD }, undefined, {
        'admin-token': ADMIN_TOKEN,
      }),
    );
    expect(await bootstrapStatus()).toEqual({ open: false });
  });
});
