import type { IeoProject, IeoProjectInput } from '@halyard/protocol';
import { ADMIN_TOKEN, type Envelope, expectOk, type Harness, post } from '../identity/test-support.ts';
import type { TestUser } from '../wallet/test-support.ts';

/** The header the operator routes ask for. */
export const ADMIN_HEADERS = { 'admin-token': ADMIN_TOKEN };

const MINUTE = 60_000;

/**
 * An FCFS sale of 1,000 TEST at 0.5 USDT opening a minute from now on the
 * harness clock and ending ten minutes from now, no gift and no rebate; its
 * intro carries a script the server must strip. `overrides` change any term.
 */
export function saleTerms(h: Harness, overrides: Partial<IeoProjectInput> = {}): IeoProjectInput {
  const now = h.clock.now();
  return {
    coin: 'TEST',
    name: 'Test token',
    mode: 'fcfs',
    startTime: now + MINUTE,
    endTime: now + 10 * MINUTE,
    total: '1000',
    tokenDecimals: 2,
    payCoins: [{ paycoin: 'USDT', price: '0.5' }],
    minNumber: '1',
    maxNumber: '500',
    vesting: { kind: 'tranches', cliffDays: 1, tranches: 1, intervalDays: 0 },
    gift: '0',
    rebate: '0',
    kycLevel: 'none',
    refusedAreaCodes: [],
    intro: { en: '<p>Hi<script>alert(1)</script></p>', cn: '<p>你好</p>' },
    announcement: {},
    ...overrides,
  };
}

/** Creates the project through the operator route. */
export async function createProject(h: Harness, input: IeoProjectInput): Promise<IeoProject> {
  return (await expectOk(post(h, '/admin/ieo/projects', input, undefined, ADMIN_HEADERS))).data as IeoProject;
}

/** The user's subscription (an order) of `number` tokens paid in USDT, answered as the route answers it. */
export function subscribe(
  h: Harness,
  user: TestUser,
  id: number,
  number: string,
  extra: object = {},
): Promise<Envelope> {
  return post(h, '/ieo/addIeoOrder', { id, paycoin: 'USDT', number, ...extra }, user.token);
}
