import {
  IEO_KYC_LEVELS,
  IEO_MODES,
  IEO_STATES,
  IEO_VESTING_KINDS,
  type IeoProjectInput,
  type IeoState,
  LOCALES,
} from '@halyard/protocol';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { currentUser, OPERATOR_SECURITY, type OperatorGuard, signedInUserId } from '../../http/auth.ts';
import { epochMsField, idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { CLIENT_OID_BODY } from '../../http/idempotency.ts';
import { requestLocale } from '../../http/locale.ts';
import type { IeoService } from './service.ts';

const USER = [{ token: [] }];
const TAGS = ['ieo'];

const decimal = (description: string) => ({ type: 'string', maxLength: 40, description }) as const;
const coin = { type: 'string', pattern: '^[A-Z0-9]{1,20}$' } as const;
const idQuery = {
  type: 'object',
  required: ['id'],
  properties: { id: idField },
} as const;
const texts = {
  type: 'object',
  additionalProperties: false,
  properties: Object.fromEntries(LOCALES.map((locale) => [locale, { type: 'string', maxLength: 20_000 }])),
} as const;
const days = { type: 'number', minimum: 0, maximum: 3650 } as const;

const projectBody = {
  type: 'object',
  additionalProperties: false,
  required: [
    'coin',
    'name',
    'mode',
    'startTime',
    'endTime',
    'total',
    'tokenDecimals',
    'payCoins',
    'minNumber',
    'maxNumber',
    'vesting',
  ],
  properties: {
    coin,
    name: { type: 'string', minLength: 1, maxLength: 80 },
    mode: { type: 'string', enum: IEO_MODES },
    startTime: epochMsField('When subscriptions open'),
    endTime: epochMsField('When subscriptions close; vesting counts from here'),
    total: decimal('Tokens for sale'),
    tokenDecimals: { type: 'integer', minimum: 0, maximum: 8 },
    payCoins: {
      type: 'array',
      minItems: 1,
      maxItems: 8,
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['paycoin', 'price'],
        properties: { paycoin: coin, price: decimal('Pay coin per token') },
      },
    },
    minNumber: decimal('Smallest subscription, in tokens'),
    maxNumber: decimal('Largest total per user, in tokens (commit mode: the allocation cap)'),
    vesting: {
      type: 'object',
      additionalProperties: false,
      required: ['cliffDays'],
      description:
        'After cliffDays from the end of the window: tranches (one every intervalDays) or linear (continuously over durationDays)',
      properties: {
        kind: { type: 'string', enum: IEO_VESTING_KINDS, default: 'tranches' },
        cliffDays: days,
        tranches: { type: 'integer', minimum: 1, maximum: 120, default: 1 },
        intervalDays: { ...days, default: 0 },
        durationDays: days,
      },
    },
    gift: { ...decimal('Bonus tokens as a fraction of the tokens bought'), default: '0' },
    rebate: { ...decimal("Inviter's promotion rebate as a fraction of the amount paid"), default: '0' },
    kycLevel: {
      type: 'string',
      enum: IEO_KYC_LEVELS,
      default: 'none',
      description: 'The KYC level a subscriber needs',
    },
    refusedAreaCodes: { type: 'array', maxItems: 300, items: { type: 'string', maxLength: 8 }, default: [] },
    intro: { ...texts, default: {} },
    announcement: { ...texts, default: {} },
  },
} as const;

export interface IeoRouteOptions {
  ieo: IeoService;
  requireUser: preHandlerAsyncHookHandler;
  operatorGuard: OperatorGuard;
}

/** Spec §7 IEO: getIeoList, findPayCoinByCoin, getIeoOrder, addIeoOrder; the public commits and proofs of issue 15. */
export function registerIeoRoutes(http: FastifyInstance, options: IeoRouteOptions): void {
  const { ieo } = options;
  const guard = { preHandler: options.requireUser };

  http.get<{ Querystring: { state?: IeoState } }>(
    '/ieo/getIeoList',
    {
      schema: {
        summary:
          'Token launch projects, newest first (spec §3 IEO project): unit price per pay coin, window, total, remaining, lock period, gift, rebate; commit mode adds the live total committed and oversubscription ratio',
        tags: TAGS,
        querystring: { type: 'object', properties: { state: { type: 'string', enum: IEO_STATES } } },
      },
    },
    async (request) => ok(await ieo.list(requestLocale(request), request.query.state ?? null)),
  );

  http.get<{ Querystring: { coin: string } }>(
    '/ieo/findPayCoinByCoin',
    {
      preHandler: options.requireUser,
      config: { signInOptional: true },
      schema: {
        summary:
          "The pay coins of a token's open (or next) project with their prices, and the signed-in user's usable balance of each",
        tags: TAGS,
        querystring: { type: 'object', required: ['coin'], properties: { coin } },
      },
    },
    async (request) => ok(await ieo.payCoins(request.query.coin, signedInUserId(request))),
  );

  http.get<{ Querystring: { page: number; limit: number } }>(
    '/ieo/getIeoOrder',
    {
      ...guard,
      schema: {
        summary:
          "The user's subscriptions and commitments, newest first: paid or committed, spent, refund, tokens, gift, locked, released, tranches and the next release",
        tags: TAGS,
        security: USER,
        querystring: {
          type: 'object',
          properties: {
            page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          },
        },
      },
    },
    async (request) => ok(await ieo.orders(currentUser(request).id, request.query.page, request.query.limit)),
  );

  http.post<{ Body: { id: number; paycoin: string; number?: string } }>(
    '/ieo/addIeoOrder',
    {
      ...guard,
      config: { rateLimit: { max: 30, timeWindow: '1 minute' } },
      schema: {
        summary:
          'Subscribe: FCFS pays now and receives locked tokens; commit mode holds the amount until allocation. A retry with the same clientOid answers the first result',
        tags: TAGS,
        security: USER,
        body: {
          type: 'object',
          required: ['id', 'paycoin'],
          properties: {
            id: { ...idField, description: 'Project id' },
            paycoin: coin,
            number: decimal('Amount of the pay coin to pay or commit'),
            ...CLIENT_OID_BODY,
          },
        },
      },
    },
    async (request) => {
      const { id, paycoin, number = '' } = request.body;
      const order = await ieo.subscribe(currentUser(request).id, {
        projectId: id,
        paycoin,
        amount: number,
      });
      return ok(order, order.mode === 'commit' ? 'ieo.committed' : 'ieo.subscribed');
    },
  );

  http.get<{ Querystring: { id: number } }>(
    '/ieo/commits',
    {
      schema: {
        summary:
          'Commit mode: every commitment by anonymised id, with its allocation once made, so anyone can recompute every allocation',
        tags: TAGS,
        querystring: idQuery,
      },
    },
    async (request) => ok(await ieo.publicCommits(request.query.id)),
  );

  http.get<{ Querystring: { id: number } }>(
    '/ieo/allocationProof',
    {
      ...guard,
      schema: {
        summary:
          "Commit mode, after allocation: the user's commitment, the total, the cap, the redistribution rounds, the tokens, the amount spent and refunded",
        tags: TAGS,
        security: USER,
        querystring: idQuery,
      },
    },
    async (request) => ok(await ieo.proof(currentUser(request).id, request.query.id)),
  );

  registerAdminRoutes(http, ieo, options.operatorGuard);
}

function registerAdminRoutes(http: FastifyInstance, ieo: IeoService, operatorGuard: OperatorGuard): void {
  const guard = { preHandler: operatorGuard('ieo.manage') };
  const base = { tags: ['admin'], security: OPERATOR_SECURITY };
  const idParams = { type: 'object', required: ['id'], properties: { id: idField } } as const;

  http.post<{ Body: IeoProjectInput }>(
    '/admin/ieo/projects',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'Create a token launch; its supply moves from the treasury to the project',
        body: projectBody,
      },
    },
    async (request) => ok(await ieo.createProject(request.body), 'ieo.projectSaved'),
  );

  http.post<{ Params: { id: number }; Body: IeoProjectInput }>(
    '/admin/ieo/projects/:id',
    {
      ...guard,
      schema: {
        ...base,
        summary:
          'Edit a project: before it opens the terms change; once open the project is cancelled and everyone refunded',
        params: idParams,
        body: projectBody,
      },
    },
    async (request) => {
      const { project, cancelled } = await ieo.editProject(request.params.id, request.body);
      return ok(project, cancelled ? 'ieo.cancelledOnEdit' : 'ieo.projectSaved');
    },
  );

  http.post<{ Params: { id: number } }>(
    '/admin/ieo/projects/:id/cancel',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'Cancel a project before allocation and refund everyone',
        params: idParams,
      },
    },
    async (request) => {
      await ieo.cancelProject(request.params.id);
      return ok(null, 'ieo.projectCancelledByOperator');
    },
  );

  http.get<{ Params: { id: number } }>(
    '/admin/ieo/projects/:id/rebates',
    {
      ...guard,
      schema: {
        ...base,
        summary:
          "Promotion rebates of a project, one per invited buyer's order: owed while an FCFS sale may still be cancelled, paid from the project's proceeds to the inviter's spot wallet once it cannot (commit mode: at distribution), with the transfer that paid it (paidBy, paidAt); cancelled with the project",
        params: idParams,
      },
    },
    async (request) => ok(await ieo.rebates(request.params.id)),
  );
}
