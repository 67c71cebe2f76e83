import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { userAccount } from '../../ledger/index.ts';
import { expectHealthyLedger } from '../../ledger/test-support.ts';
import { sqlCaughtUp } from '../../money-core/test-support.ts';
import {
  expectOk,
  type Harness,
  HOUR_MS,
  MONEY_PATHS,
  post,
  registerByEmail,
  startHarness,
} from '../identity/test-support.ts';

/** Every test runs twice: on the SQL path the server runs today, and on the sequenced core (issue 19's cut-over). */
describe.each(MONEY_PATHS)('demo faucet on $on', ({ moneyCore }) => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ moneyCore });
  });
  afterEach(async () => {
    await expectHealthyLedger(h.store.db);
  });
  afterAll(async () => {
    await h.close();
  });

  /** SQL's balance, as the user's next read finds it (on the core the grant is answered before SQL holds it). */
  const balance = async (userId: number, asset: string) => {
    await sqlCaughtUp(h.app.moneyCore);
    return h.app.ledger.balance({ ...userAccount(userId, 'spot'), asset });
  };

  it('credits play money to a user, each call a grant of its own', async () => {
    const { token, member } = await registerByEmail(h, 'faucet@example.com');
    const answer = await expectOk(post(h, '/account/demoFaucet', {}, token));
    expect(answer.data).toEqual([
      { asset: 'USDT', amount: '10000' },
      { asset: 'BTC', amount: '1' },
    ]);
    expect((await balance(member.id, 'USDT')).available.toString()).toBe('10000');
    expect((await balance(member.id, 'BTC')).available.toString()).toBe('1');
    await expectOk(post(h, '/account/demoFaucet', {}, token));
    expect((await balance(member.id, 'USDT')).available.toString()).toBe('20000');
  });

  it('refuses a frozen user with the freeze message and credits nothing', async () => {
    const { token, member } = await registerByEmail(h, 'frozen@example.com');
    await h.app.identity.service.freeze({
      userId: member.id,
      reason: 'Under investigation',
      setBy: 'ops-bo',
      endsAt: h.clock.now() + HOUR_MS,
    });
    expect(await post(h, '/account/demoFaucet', {}, token)).toMatchObject({
      code: 403,
      msg: 'Your funds are frozen (Under investigation) until 2026-01-01 01:00 UTC. Please contact customer service',
    });
    expect((await balance(member.id, 'USDT')).available.isZero()).toBe(true);
  });
});
