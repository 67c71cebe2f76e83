import type { OperatorAuditPage, OperatorLoginAnswer } from '@halyard/protocol';
import { translate } from '@halyard/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  type Envelope,
  expectOk,
  type Harness,
  registerByEmail,
  startHarness,
  TINY_PNG,
  upload,
} from '../identity/test-support.ts';
import { OPERATOR_IDLE_MS, OPERATOR_LOCK_MS, OPERATOR_SESSION_MS } from './service.ts';
import { OPERATOR_PASSWORD, operatorSession } from './test-support.ts';
import { totpCode } from './totp.ts';

/**
 * Operator accounts end to end on one app: the admin token bootstraps the
 * first administrator and is refused afterwards; TOTP enrolment, wrong and
 * replayed codes; recovery codes; the lock; session expiry; the audit trail.
 */
let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(async () => {
  await h.close();
});

const STEP_MS = 30_000;
const ADMIN_EMAIL = 'root@operators.test';
const admin = { 'admin-token': ADMIN_TOKEN };

async function call(
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string> = {},
  payload?: object,
): Promise<Envelope> {
  const response = await h.app.http.inject({
    method,
    url,
    headers: { lang: 'en', ...headers },
    ...(payload ? { payload } : {}),
  });
  return response.json() as Envelope;
}

function refusal(code: number, key: string, params: Record<string, number> = {}) {
  return { code, msg: translate('en', key, params), data: null };
}

function login(body: Record<string, string>) {
  return call('POST', '/admin/auth/login', {}, body);
}

/** The code of the step after the last one used: each code is accepted once. */
async function nextCode(secret: string): Promise<string> {
  h.clock.advance(STEP_MS);
  return totpCode(secret, h.clock.now());
}

let adminSecret = '';

describe('bootstrap and TOTP enrolment', () => {
  it('the admin token names the first administrator, who enrols TOTP', async () => {
    const bootstrap = await expectOk(
      call('POST', '/admin/auth/bootstrap', admin, { email: ADMIN_EMAIL, password: OPERATOR_PASSWORD }),
    );
    const answer = bootstrap.data as OperatorLoginAnswer;
    if (answer.step !== 'enrolTotp') throw new Error('expected enrolment');
    expect(answer.enrolment.otpauthUri).toMatch(/^otpauth:\/\/totp\/Halyard:root%40operators\.test\?secret=/);
    expect(answer.operator).toMatchObject({ email: ADMIN_EMAIL, role: 'administrator', totpEnrolled: false });
    adminSecret = answer.enrolment.secret;
    const enrolling = { 'operator-token': answer.token };

    // Until a code is confirmed the session opens nothing but its own enrolment.
    expect(await call('GET', '/admin/operators', enrolling)).toEqual(
      refusal(401, 'operators.sessionExpired'),
    );
    expect(await call('GET', '/admin/auth/me', enrolling)).toMatchObject({ data: { totpEnrolled: false } });

    const wrong = (Number(await totpCode(adminSecret, h.clock.now())) + 1) % 1_000_000;
    expect(
      await call('POST', '/admin/auth/totp/confirm', enrolling, { code: String(wrong).padStart(6, '0') }),
    ).toEqual(refusal(400, 'operators.totpWrong'));
    const confirmed = await expectOk(
      call('POST', '/admin/auth/totp/confirm', enrolling, {
        code: await totpCode(adminSecret, h.clock.now()),
      }),
    );
    expect((confirmed.data as { recoveryCodes: string[] }).recoveryCodes).toHaveLength(10);
    expect(await expectOk(call('GET', '/admin/operators', enrolling))).toMatchObject({
      data: [{ email: ADMIN_EMAIL, role: 'administrator', status: 'active', totpEnrolled: true }],
    });
  });

  it('refuses the admin token for everything once an administrator exists', async () => {
    expect(
      await call('POST', '/admin/auth/bootstrap', admin, {
        email: 'second@operators.test',
        password: OPERATOR_PASSWORD,
      }),
    ).toEqual(refusal(403, 'operators.bootstrapClosed'));
    expect(await call('GET', '/admin/identity/kyc', admin)).toEqual(
      refusal(403, 'operators.bootstrapClosed'),
    );
    expect(await call('GET', '/admin/support/tickets', { ...admin, lang: 'cn' })).toMatchObject({
      code: 403,
      msg: translate('cn', 'operators.bootstrapClosed'),
    });
  });
});

describe('sign-in', () => {
  it('asks for the TOTP code, refuses a wrong one and a replayed one', async () => {
    const password = { email: ADMIN_EMAIL, password: OPERATOR_PASSWORD };
    expect(await login(password)).toEqual(refusal(400, 'operators.totpRequired'));
    expect(await login({ ...password, totp: '000000' })).toEqual(refusal(400, 'operators.totpWrong'));
    const code = await nextCode(adminSecret);
    const signedIn = await expectOk(login({ ...password, totp: code }));
    expect(signedIn.data).toMatchObject({ step: 'signedIn', operator: { role: 'administrator' } });
    expect(await login({ ...password, totp: code })).toEqual(refusal(400, 'operators.totpWrong'));
    const signIns = (await h.app.operators.audit.search({ action: 'POST /admin/auth/login', limit: 5 }))
      .items;
    expect(signIns.map((entry) => [entry.operator, entry.status])).toEqual([
      ['anonymous', 400],
      [ADMIN_EMAIL, 200],
      ['anonymous', 400],
      ['anonymous', 400],
    ]);
    expect(signIns[1]?.details).toContain('"totp":"[redacted]"');
    expect(await login({ email: ADMIN_EMAIL, password: 'not-the-password' })).toEqual(
      refusal(400, 'operators.badCredentials'),
    );
  });

  it('a fresh TOTP code on a money route is accepted once', async () => {
    const finance = await operatorSession(h.app, 'finance', h.clock);
    const headers = await finance.withTotp();
    const approve = () => call('POST', '/admin/wallet/withdrawals/999999/approve', headers, {});
    // Past the guard (which runs before the body is read): whatever the route says of it, no refusal of the code.
    expect((await approve()).code).not.toBe(403);
    expect(await approve()).toEqual(refusal(403, 'operators.totpWrong'));
  });

  it('five wrong codes on money routes lock the account and end its sessions', async () => {
    const finance = await operatorSession(h.app, 'finance', h.clock);
    const guess = { ...finance.headers, 'operator-totp': '000000' };
    const refund = () => call('POST', '/admin/wallet/withdrawals/999999/refund', guess, {});
    for (let attempt = 1; attempt < 5; attempt++) {
      expect(await refund()).toEqual(refusal(403, 'operators.totpWrong'));
    }
    expect(await refund()).toEqual(refusal(403, 'operators.locked', { minutes: 15 }));
    expect(await call('GET', '/admin/auth/me', finance.headers)).toEqual(
      refusal(401, 'operators.sessionExpired'),
    );
  });

  it('a recovery code signs in once', async () => {
    const support = await operatorSession(h.app, 'support', h.clock);
    const [first, second] = support.recoveryCodes;
    const password = { email: support.email, password: OPERATOR_PASSWORD };
    expect(await login({ ...password, recoveryCode: first ?? '' })).toMatchObject({
      code: 200,
      data: { step: 'signedIn' },
    });
    expect(await login({ ...password, recoveryCode: first ?? '' })).toEqual(
      refusal(400, 'operators.recoveryCodeWrong'),
    );
    // Typed back in capitals without the dash, it is the same code.
    const typed = (second ?? '').replace('-', '').toUpperCase();
    expect(await login({ ...password, recoveryCode: typed })).toMatchObject({ code: 200 });
  });

  it('an operator changes the password an administrator gave them; their other sessions end', async () => {
    const operator = await operatorSession(h.app, 'compliance', h.clock);
    const other = await expectOk(
      login({ email: operator.email, password: OPERATOR_PASSWORD, totp: await nextCode(operator.secret) }),
    );
    const otherHeaders = { 'operator-token': (other.data as { token: string }).token };
    const change = (current: string) =>
      call('POST', '/admin/auth/password', operator.headers, { current, password: 'my-own-password-2026' });
    expect(await change('not-my-password')).toEqual(refusal(400, 'operators.badCredentials'));
    expect(await change(OPERATOR_PASSWORD)).toEqual({
      code: 200,
      msg: translate('en', 'operators.passwordChanged'),
      data: null,
    });
    expect(await call('GET', '/admin/auth/me', otherHeaders)).toEqual(
      refusal(401, 'operators.sessionExpired'),
    );
    await expectOk(call('GET', '/admin/auth/me', operator.headers));
    const totp = await nextCode(operator.secret);
    expect(await login({ email: operator.email, password: OPERATOR_PASSWORD, totp })).toEqual(
      refusal(400, 'operators.badCredentials'),
    );
    expect(await login({ email: operator.email, password: 'my-own-password-2026', totp })).toMatchObject({
      code: 200,
    });
  });

  it('locks the account for 15 minutes after 5 failed attempts', async () => {
    const content = await operatorSession(h.app, 'content', h.clock);
    const wrong = { email: content.email, password: 'wrong-password-1' };
    for (let attempt = 1; attempt < 5; attempt++) {
      expect(await login(wrong)).toEqual(refusal(400, 'operators.badCredentials'));
    }
    expect(await login(wrong)).toEqual(refusal(403, 'operators.locked', { minutes: 15 }));
    const right = { email: content.email, password: OPERATOR_PASSWORD, totp: await nextCode(content.secret) };
    expect(await login(right)).toEqual(refusal(403, 'operators.locked', { minutes: 15 }));
    h.clock.advance(OPERATOR_LOCK_MS);
    expect(await login({ ...right, totp: await nextCode(content.secret) })).toMatchObject({ code: 200 });
  });

  it('a session ends after 30 idle minutes, and 12 hours after sign-in whatever happens', async () => {
    const auditor = await operatorSession(h.app, 'auditor', h.clock);
    h.clock.advance(OPERATOR_IDLE_MS - 60_000);
    await expectOk(call('GET', '/admin/audit', auditor.headers));
    h.clock.advance(OPERATOR_IDLE_MS);
    expect(await call('GET', '/admin/audit', auditor.headers)).toEqual(
      refusal(401, 'operators.sessionExpired'),
    );

    const busy = await operatorSession(h.app, 'auditor', h.clock);
    const steps = Math.floor(OPERATOR_SESSION_MS / (OPERATOR_IDLE_MS / 2));
    for (let step = 0; step < steps - 1; step++) {
      h.clock.advance(OPERATOR_IDLE_MS / 2);
      await expectOk(call('GET', '/admin/auth/me', busy.headers));
    }
    h.clock.advance(OPERATOR_IDLE_MS / 2);
    expect(await call('GET', '/admin/auth/me', busy.headers)).toEqual(
      refusal(401, 'operators.sessionExpired'),
    );
  });

  it('a disabled operator is signed out and cannot sign in; an administrator cannot disable themself', async () => {
    const compliance = await operatorSession(h.app, 'compliance', h.clock);
    const root = (await operatorSession(h.app, 'administrator', h.clock)).headers;
    await expectOk(call('POST', `/admin/operators/${compliance.id}/disable`, root, {}));
    expect(await call('GET', '/admin/auth/me', compliance.headers)).toEqual(
      refusal(401, 'operators.sessionExpired'),
    );
    expect(
      await login({
        email: compliance.email,
        password: OPERATOR_PASSWORD,
        totp: await nextCode(compliance.secret),
      }),
    ).toEqual(refusal(403, 'operators.disabled'));
    const me = (await call('GET', '/admin/auth/me', root)).data as { id: number };
    expect(await call('POST', `/admin/operators/${me.id}/disable`, root, {})).toEqual(
      refusal(403, 'operators.notYourself'),
    );
    await expectOk(call('POST', `/admin/operators/${compliance.id}/enable`, root, {}));
  });
});

describe('role change through four-eyes', () => {
  it('one administrator asks, the same one cannot approve, a second one does; the operator signs in again with the new role', async () => {
    const first = await operatorSession(h.app, 'administrator', h.clock);
    const second = await operatorSession(h.app, 'administrator', h.clock);
    const support = await operatorSession(h.app, 'support', h.clock);
    const ask = (role: string) =>
      call('POST', `/admin/operators/${support.id}/role`, first.headers, {
        role,
        reason: 'moves to finance',
      });
    expect(await ask('support')).toEqual(refusal(400, 'operators.sameRole'));
    expect(
      await call('POST', `/admin/operators/${support.id}/role`, support.headers, {
        role: 'finance',
        reason: 'x',
      }),
    ).toEqual(refusal(403, 'operators.notAllowed'));
    const request = (await expectOk(ask('finance'))).data as { id: number; summary: string; subject: string };
    expect(request).toMatchObject({
      summary: `${support.email}: support → finance`,
      subject: `operator:${support.id}`,
    });
    const approve = async (by: typeof first) =>
      call('POST', `/admin/approvals/${request.id}/approve`, await by.withTotp(), {});
    expect(await approve(first)).toMatchObject({ code: 403, msg: translate('en', 'approvals.selfApproval') });
    await expectOk(approve(second));
    expect(await call('GET', '/admin/auth/me', support.headers)).toEqual(
      refusal(401, 'operators.sessionExpired'),
    );
    const again = await expectOk(
      login({ email: support.email, password: OPERATOR_PASSWORD, totp: await nextCode(support.secret) }),
    );
    expect(again.data).toMatchObject({
      operator: { role: 'finance', permissions: expect.arrayContaining(['withdrawals.review']) },
    });
  });
});

describe('audit trail', () => {
  it('records a write with who, what, status and IP, never the password', async () => {
    const administrator = await operatorSession(h.app, 'administrator', h.clock);
    const root = administrator.headers;
    const created = await expectOk(
      call('POST', '/admin/operators', root, {
        email: 'new.finance@operators.test',
        password: 'a-secret-password-1',
        role: 'finance',
      }),
    );
    const page = (await expectOk(call('GET', '/admin/audit?action=/admin/operators&limit=5', root)))
      .data as OperatorAuditPage;
    const entry = page.items.find((item) => item.action === 'POST /admin/operators');
    expect(entry).toMatchObject({
      operatorId: administrator.id,
      operator: administrator.email,
      status: 200,
      ip: '127.0.0.1',
    });
    expect(entry?.details).toContain('new.finance@operators.test');
    expect(entry?.details).not.toContain('a-secret-password-1');
    expect((created.data as { totpEnrolled: boolean }).totpEnrolled).toBe(false);
  });

  it('records a view of an identity document, searchable and exported as CSV', async () => {
    const owner = await registerByEmail(h, 'document-owner@example.com');
    const uploaded = await expectOk(upload(h, owner.token, 'id.png', TINY_PNG));
    const name = (uploaded.data as { url: string }[])[0]?.url.split('/').pop() ?? '';
    const compliance = await operatorSession(h.app, 'compliance', h.clock);
    const image = await h.app.http.inject({
      method: 'GET',
      url: `/admin/uploads/${name}`,
      headers: compliance.headers,
    });
    expect(image.headers['content-type']).toBe('image/png');

    const auditor = await operatorSession(h.app, 'auditor', h.clock);
    const search = `/admin/audit?userId=${owner.member.id}&action=upload.view`;
    const page = (await expectOk(call('GET', search, auditor.headers))).data as OperatorAuditPage;
    expect(page).toMatchObject({
      total: 1,
      items: [
        {
          operatorId: compliance.id,
          operator: compliance.email,
          action: 'upload.view',
          subject: `upload:${name}`,
          userId: owner.member.id,
          status: null,
        },
      ],
    });
    const csv = await h.app.http.inject({
      method: 'GET',
      url: `/admin/audit.csv?userId=${owner.member.id}&action=upload.view`,
      headers: auditor.headers,
    });
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('id,at,operatorId,operator,action,subject,userId,status,ip,details');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain(`"${compliance.email}","upload.view","upload:${name}"`);
  });

  it('records each read of the fiat appeals (the parties chat and evidence)', async () => {
    const support = await operatorSession(h.app, 'support', h.clock);
    await expectOk(call('GET', '/admin/fiat/appeals', support.headers));
    const page = await h.app.operators.audit.search({ operatorId: support.id, action: 'fiat.' });
    expect(page.items).toMatchObject([{ action: 'fiat.appeals.view', operator: support.email }]);
  });
});
