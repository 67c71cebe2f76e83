import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { operatorSession } from '../operators/test-support.ts';
import {
  ADMIN_TOKEN,
  expectOk,
  get,
  type Harness,
  HOUR_MS,
  post,
  registerByEmail,
  startHarness,
  TINY_PNG,
  uniqueIdNumber,
  upload,
} from './test-support.ts';

let h: Harness;
beforeEach(async () => {
  h = await startHarness();
});
afterEach(async () => {
  await h.close();
});

const admin = { 'admin-token': ADMIN_TOKEN };

describe('operator endpoints', () => {
  it('refuse a missing or wrong admin token', async () => {
    const { member } = await registerByEmail(h, 'frozen@example.com');
    const body = { userId: member.id, reason: 'x', setBy: 'ops', endsAt: h.clock.now() + HOUR_MS };
    expect(await post(h, '/admin/identity/freeze', body)).toMatchObject({ code: 403 });
    expect(
      await post(h, '/admin/identity/freeze', body, undefined, { 'admin-token': 'guess' }),
    ).toMatchObject({
      code: 403,
    });
    expect(
      await get(h, '/admin/identity/audit', undefined, { 'admin-token': `${ADMIN_TOKEN}x` }),
    ).toMatchObject({
      code: 403,
    });
    expect((await get(h, '/admin/identity/kyc')).code).toBe(403);
    expect((await h.app.identity.service.userInfo(member.id)).frozen).toBeNull();
  });
});

describe('freezes (AMENDMENTS A6)', () => {
  it('freeze with reason, setter, start and end: userInfo shows it, assertNotFrozen refuses, then it ends', async () => {
    const { token, member } = await registerByEmail(h, 'frozen@example.com');
    const endsAt = h.clock.now() + 48 * HOUR_MS;
    await expectOk(
      post(
        h,
        '/admin/identity/freeze',
        { userId: member.id, reason: 'Chargeback under investigation', setBy: 'ops-dan', endsAt },
        undefined,
        admin,
      ),
    );
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({
      frozen: { reason: 'Chargeback under investigation', setBy: 'ops-dan', startsAt: h.clock.now(), endsAt },
    });
    await expect(h.app.identity.service.assertNotFrozen(member.id)).rejects.toMatchObject({
      key: 'common.frozen',
      code: 403,
      params: { reason: 'Chargeback under investigation', until: '2026-01-03 00:00 UTC' },
    });
    h.clock.advance(48 * HOUR_MS);
    await expect(h.app.identity.service.assertNotFrozen(member.id)).resolves.toBeUndefined();
    expect((await get(h, '/user/userInfo', token)).data).toMatchObject({ frozen: null });
  });

  it('a scheduled freeze starts at its start; an unfreeze lifts it early and is audited', async () => {
    const { member } = await registerByEmail(h, 'frozen@example.com');
    const startsAt = h.clock.now() + HOUR_MS;
    await expectOk(
      post(
        h,
        '/admin/identity/freeze',
        {
          userId: member.id,
          reason: 'Overdue fiat payment',
          setBy: 'rule:fiat-overdue',
          startsAt,
          endsAt: startsAt + HOUR_MS,
        },
        undefined,
        admin,
      ),
    );
    await expect(h.app.identity.service.assertNotFrozen(member.id)).resolves.toBeUndefined();
    h.clock.advance(HOUR_MS);
    await expect(h.app.identity.service.assertNotFrozen(member.id)).rejects.toMatchObject({
      key: 'common.frozen',
    });

    const noReason = await post(
      h,
      '/admin/identity/unfreeze',
      { userId: member.id, reason: ' ' },
      undefined,
      admin,
    );
    expect(noReason).toMatchObject({ code: 400, msg: 'Please give a reason' });
    await expectOk(
      post(h, '/admin/identity/unfreeze', { userId: member.id, reason: 'Paid' }, undefined, admin),
    );
    await expect(h.app.identity.service.assertNotFrozen(member.id)).resolves.toBeUndefined();
    expect(
      (await post(h, '/admin/identity/unfreeze', { userId: member.id, reason: 'Paid' }, undefined, admin))
        .msg,
    ).toBe('This user has no freeze in force');

    const audit = await expectOk(get(h, '/admin/identity/audit', undefined, admin));
    expect(audit.data).toMatchObject([
      {
        action: 'unfreeze',
        operator: 'bootstrap',
        userId: member.id,
        details: { reason: 'Paid', lifted: 1 },
      },
      {
        action: 'freeze',
        operator: 'bootstrap',
        userId: member.id,
        details: { reason: 'Overdue fiat payment' },
      },
    ]);
  });

  it('refuses a freeze without a reason, with an end before its start, or for an unknown user', async () => {
    const { member } = await registerByEmail(h, 'frozen@example.com');
    const now = h.clock.now();
    const base = { userId: member.id, reason: 'Fraud check', setBy: 'ops', endsAt: now + HOUR_MS };
    expect((await post(h, '/admin/identity/freeze', { ...base, reason: '' }, undefined, admin)).code).toBe(
      400,
    );
    expect(
      (await post(h, '/admin/identity/freeze', { ...base, startsAt: now + 2 * HOUR_MS }, undefined, admin))
        .msg,
    ).toBe('The end must be after the start and in the future');
    expect(
      (await post(h, '/admin/identity/freeze', { ...base, userId: 999_999 }, undefined, admin)).code,
    ).toBe(404);
    expect((await expectOk(get(h, '/admin/identity/audit', undefined, admin))).data).toEqual([]);
  });

  it('keeps the audit log append-only in the database itself', async () => {
    const { member } = await registerByEmail(h, 'frozen@example.com');
    await h.app.identity.service.freeze({
      userId: member.id,
      reason: 'r',
      setBy: 'ops',
      endsAt: h.clock.now() + HOUR_MS,
    });
    await expect(
      sql`update operator_audit_log set operator = 'someone else'`.execute(h.store.db),
    ).rejects.toThrow(/append-only/);
    await expect(sql`delete from operator_audit_log`.execute(h.store.db)).rejects.toThrow(/append-only/);
    expect(await h.app.identity.service.auditLog(null, 10)).toHaveLength(1);
  });
});

describe('the audit names the signed-in operator', () => {
  it('for KYC decisions, freezes and unfreezes, whatever name the body gives', async () => {
    const { token, member } = await registerByEmail(h, 'audited@example.com');
    const compliance = await operatorSession(h.app, 'compliance', h.clock);
    const asCompliance = (url: string, body: object) =>
      expectOk(post(h, url, { ...body, operator: 'someone-else' }, undefined, compliance.headers));
    const [photo] = (await expectOk(upload(h, token, 'id.png', TINY_PNG))).data as { url: string }[];
    const submission = { name: 'Wang Wu', idNumber: uniqueIdNumber(), photoUrl: photo?.url };
    await expectOk(post(h, '/user/editRealName', submission, token));
    const [pending] = await h.app.identity.service.kycQueue('review', 1);
    await asCompliance(`/admin/identity/kyc/${pending?.id}/reject`, { reason: 'Blurred' });
    const endsAt = h.clock.now() + HOUR_MS;
    await asCompliance('/admin/identity/freeze', {
      userId: member.id,
      reason: 'Check',
      setBy: 'rule:x',
      endsAt,
    });
    await asCompliance('/admin/identity/unfreeze', { userId: member.id, reason: 'Cleared' });

    const entries = await h.store.db
      .selectFrom('operator_audit_log')
      .select(['action', 'operator', 'operator_id'])
      .where('status', 'is', null)
      .orderBy('id')
      .execute();
    const by = { operator: compliance.email, operator_id: compliance.id };
    expect(entries.map((entry) => ({ ...entry, operator_id: Number(entry.operator_id) }))).toEqual([
      { action: 'kyc.reject', ...by },
      { action: 'freeze', ...by },
      { action: 'unfreeze', ...by },
    ]);
    const [decided] = await h.app.identity.service.kycQueue('failed', 1);
    expect(decided?.decidedBy).toBe(compliance.email);
  });
});
