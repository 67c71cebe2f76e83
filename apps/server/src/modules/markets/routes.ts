import {
  type CyclePairSettings,
  type FuturesContractSettings,
  LISTING_KINDS,
  type MarketListingRequest,
  type MarketSettingsList,
  type SpotPairSettings,
} from '@halyard/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { currentOperator, OPERATOR_SECURITY, type OperatorGuard } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import type { ApprovalService } from '../approvals/index.ts';
import { auditView } from '../operators/index.ts';
import {
  cycleSettings,
  futuresSettings,
  type ListingServices,
  MARKET_LISTING,
  spotSettings,
} from './listing.ts';

export interface MarketRoutesOptions extends ListingServices {
  approvals: ApprovalService;
  operatorGuard: OperatorGuard;
}

const TAGS = ['operator'];
const idParams = { type: 'object', required: ['id'], properties: { id: idField } } as const;
const decimal = (description: string) => ({ type: 'string', maxLength: 40, description }) as const;
const precision = { type: 'integer', minimum: 0, maximum: 18 } as const;
const coin = { type: 'string', maxLength: 20 } as const;
const sort = { type: 'integer', minimum: 0, maximum: 1_000_000 } as const;

const spotProperties = {
  priceAccuracy: precision,
  amountAccuracy: precision,
  minNumber: decimal('Smallest order, in the trade coin'),
  maxNumber: decimal('Largest order, in the trade coin'),
  makerFee: decimal('Fee rate of the maker, e.g. 0.001'),
  takerFee: decimal('Fee rate of the taker'),
  enabled: { type: 'boolean' },
  sort,
} as const;
const futuresProperties = {
  priceAccuracy: precision,
  minNumber: decimal('Smallest order, whole lots'),
  maxNumber: decimal('Largest order, whole lots'),
  maxLever: { type: 'integer', minimum: 1, maximum: 125 },
  fee: decimal('Fee rate on the notional of each fill'),
  maintenanceMarginRate: decimal('Below 1 / maxLever'),
  enabled: { type: 'boolean' },
  sort,
} as const;
const cycleOption = {
  type: 'object',
  additionalProperties: false,
  required: ['seconds', 'minNumber', 'maxNumber', 'profitRate', 'lossRate', 'fee'],
  properties: {
    seconds: { type: 'integer', minimum: 1, maximum: 86_400 },
    minNumber: decimal('Smallest stake'),
    maxNumber: decimal('Largest stake'),
    profitRate: decimal('Paid on a win, fraction of the stake'),
    lossRate: decimal('Lost on a loss, fraction of the stake'),
    fee: decimal("Fee, fraction of a win's payout"),
  },
} as const;
const cycleProperties = {
  priceAccuracy: precision,
  payCoins: { type: 'array', maxItems: 10, items: coin },
  options: { type: 'array', maxItems: 12, items: cycleOption },
  sort,
} as const;

/** An edit names every setting of its kind, and nothing else. */
const body = (properties: Record<string, unknown>) => ({
  type: 'object',
  additionalProperties: false,
  required: Object.keys(properties),
  properties,
});
const coins = { tradcoin: coin, maincoin: coin };
const reason = { reason: { type: 'string', maxLength: 500 } };

/**
 * The markets screens of the back office: read every market's settings,
 * edit them live (audited with the settings before and after), and request
 * a new listing, which a second operator approves at /admin/approvals.
 */
export function registerMarketRoutes(http: FastifyInstance, options: MarketRoutesOptions): void {
  const { spot, futures, cycle, approvals, operatorGuard } = options;
  const edit = operatorGuard('markets.edit', { freshTotp: true });

  http.get(
    '/admin/markets',
    {
      preHandler: operatorGuard('markets.read'),
      schema: {
        summary: 'Every spot pair, futures contract and cycle pair with its settings',
        tags: TAGS,
        security: OPERATOR_SECURITY,
      },
    },
    async () => {
      const list: MarketSettingsList = {
        spot: spot.pairSettings(),
        futures: futures.contractSettings(),
        cycle: cycle.pairSettings(),
      };
      return ok(list);
    },
  );

  const editRoute = <S>(
    kind: 'spot' | 'futures' | 'cycle',
    properties: Record<string, unknown>,
    change: (id: number, settings: S) => Promise<{ before: S; after: S }>,
  ) =>
    http.put<{ Params: { id: number }; Body: S }>(
      `/admin/markets/${kind}/:id`,
      {
        preHandler: edit,
        schema: {
          summary: `Change a ${kind} market's settings, live for the next order; answers the settings before and after`,
          tags: TAGS,
          security: OPERATOR_SECURITY,
          params: idParams,
          body: body(properties),
        },
      },
      async (request) => {
        // The body is what the schema above admitted: the settings of this kind.
        const changed = await change(request.params.id, request.body as S);
        await auditChange(request, `${kind}:${request.params.id}`, changed);
        return ok(changed, 'markets.saved');
      },
    );
  editRoute<SpotPairSettings>('spot', spotProperties, (id, settings) =>
    spot.changePairSettings(id, spotSettings(settings)),
  );
  editRoute<FuturesContractSettings>('futures', futuresProperties, (id, settings) =>
    futures.changeContractSettings(id, futuresSettings(settings)),
  );
  editRoute<CyclePairSettings>('cycle', cycleProperties, async (id, settings) => {
    const changed = await cycle.changePairSettings(id, cycleSettings(settings));
    options.changed({ kind: 'cycle', id });
    return changed;
  });

  http.post<{ Body: MarketListingRequest }>(
    '/admin/markets/listings',
    {
      preHandler: operatorGuard('markets.list', { freshTotp: true }),
      schema: {
        summary:
          'Request a new spot pair, futures contract or cycle pair (a `market_listing` request): listed when a second operator with markets.list approves it',
        tags: TAGS,
        security: OPERATOR_SECURITY,
        // The kind's own fields are checked by the listing handler (each refusal names its field).
        body: {
          type: 'object',
          required: ['kind', 'tradcoin', 'maincoin', 'reason'],
          properties: { kind: { type: 'string', enum: [...LISTING_KINDS] }, ...coins, ...reason },
        },
      },
    },
    async (request) => {
      const { reason: why, ...listing } = request.body;
      return ok(
        await approvals.request(MARKET_LISTING, listing, currentOperator(request), why),
        'markets.listingRequested',
      );
    },
  );
}

/** The edit's before and after go to the audit trail with the route's own entry (which records the body). */
function auditChange(request: FastifyRequest, subject: string, changed: { before: unknown; after: unknown }) {
  return auditView(request, { action: 'markets.edit', subject, details: changed });
}
