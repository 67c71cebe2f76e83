import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import {
  type AuditActor,
  auditActor,
  currentOperator,
  currentUser,
  OPERATOR_SECURITY,
  type OperatorGuard,
} from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { CLIENT_OID_BODY } from '../../http/idempotency.ts';
import type { UserWallet } from '../../ledger/index.ts';
import { type AssetsService, DEMO_FIAT_RATES, TRANSFER_ROUTES, type TransferRoute } from './assets.ts';
import { CHAIN_IDS, CHAIN_NAMES, DEFAULT_CHAIN } from './config.ts';
import type { WalletService } from './service.ts';
import { WITHDRAWAL_STATES, type WithdrawalState } from './store.ts';

export interface WalletRoutesOptions {
  wallet: WalletService;
  assets: AssetsService;
  requireUser: preHandlerAsyncHookHandler;
  operatorGuard: OperatorGuard;
  demo: boolean;
}

const coin = { type: 'string', pattern: '^[A-Z0-9]{1,20}$', description: 'Coin symbol, e.g. USDT' } as const;
const chain = {
  type: 'integer',
  enum: [56, 1],
  default: DEFAULT_CHAIN,
  description: 'Chain id: 56 (BNB chain, default) or 1 (Ethereum)',
} as const;
/** Money travels as a decimal string; a JSON number is accepted and read as its text. */
const money = (description: string) => ({ type: 'string', maxLength: 40, description }) as const;
const text = (maxLength: number, description: string) =>
  ({ type: 'string', maxLength, description }) as const;
const USER = [{ token: [] }];
const ADMIN = OPERATOR_SECURITY;

const coinQuery = { type: 'object', required: ['coin'], properties: { coin } } as const;
const pageQuery = {
  type: 'object',
  properties: {
    coin,
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
  },
} as const;

export function registerWalletRoutes(http: FastifyInstance, options: WalletRoutesOptions): void {
  registerDepositRoutes(http, options);
  registerWithdrawalRoutes(http, options);
  registerAssetRoutes(http, options);
  registerTransferRoutes(http, options);
  registerOperatorRoutes(http, options);
}

function registerDepositRoutes(
  http: FastifyInstance,
  { wallet, requireUser, demo }: WalletRoutesOptions,
): void {
  const guard = { preHandler: requireUser };

  http.get(
    '/account/coins',
    {
      schema: {
        summary:
          'Wallet coins (spec §3): coin, isin (deposits open), isout (withdrawals open) and their chains',
        tags: ['account'],
      },
    },
    async () => ok(await wallet.coinList()),
  );

  http.get<{ Querystring: { coin: string; chain: number } }>(
    '/account/getCoinAddress',
    {
      ...guard,
      schema: {
        summary: "The user's deposit address for a coin on a chain, with an EIP-681 URI for a QR code",
        tags: ['account'],
        security: USER,
        querystring: { type: 'object', required: ['coin'], properties: { coin, chain } },
      },
    },
    async (request) =>
      ok(await wallet.depositAddress(currentUser(request).id, request.query.coin, request.query.chain)),
  );

  http.get<{ Querystring: { coin?: string; page: number; limit: number } }>(
    '/account/rechargeRecord',
    {
      ...guard,
      schema: {
        summary: 'Deposit records, newest first: waiting (confirming), completed, rejected',
        tags: ['account'],
        security: USER,
        querystring: pageQuery,
      },
    },
    async (request) => {
      const { coin: name, page, limit } = request.query;
      return ok(await wallet.depositRecords(currentUser(request).id, name ?? null, page, limit));
    },
  );

  if (!demo) return;
  http.post<{ Body: { coin: string; chain: number; number: string } }>(
    '/account/demoDeposit',
    {
      ...guard,
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        summary:
          "Demo only: the local chain's faucet sends play tokens to your deposit address on chain; they are credited after the confirmations",
        tags: ['account'],
        security: USER,
        body: {
          type: 'object',
          required: ['coin', 'number'],
          properties: { coin, chain, number: money('Amount of play tokens') },
        },
      },
    },
    async (request) => {
      const { coin: name, chain: chainId, number } = request.body;
      const sent = await wallet.demoDeposit(currentUser(request).id, {
        coin: name,
        chain: chainId,
        amount: number,
      });
      return ok(sent, 'wallet.demoDepositSent');
    },
  );
}

function registerWithdrawalRoutes(http: FastifyInstance, { wallet, requireUser }: WalletRoutesOptions): void {
  const guard = { preHandler: requireUser };

  http.get<{ Querystring: { coin?: string } }>(
    '/account/addressList',
    {
      ...guard,
      schema: {
        summary: 'The withdrawal address book (spec §3 Withdrawal address)',
        tags: ['account'],
        security: USER,
        querystring: { type: 'object', properties: { coin } },
      },
    },
    async (request) => ok(await wallet.addresses(currentUser(request).id, request.query.coin ?? null)),
  );

  http.post<{ Body: { coin: string; chain: number; address?: string; remark?: string } }>(
    '/account/addAddress',
    {
      ...guard,
      config: { rateLimit: { max: 20, timeWindow: '1 minute' } },
      schema: {
        summary: 'Save a withdrawal address (address and remark required; EIP-55 checksum checked)',
        tags: ['account'],
        security: USER,
        body: {
          type: 'object',
          required: ['coin'],
          properties: {
            coin,
            chain,
            address: text(100, '0x address'),
            remark: text(100, 'A name for the address'),
          },
        },
      },
    },
    async (request) => {
      const { address = '', remark = '', ...rest } = request.body;
      return ok(
        await wallet.addAddress(currentUser(request).id, { ...rest, address, remark }),
        'wallet.addressSaved',
      );
    },
  );

  http.post<{ Body: { id: number } }>(
    '/account/deleteAddress',
    {
      ...guard,
      schema: {
        summary: 'Delete a saved withdrawal address',
        tags: ['account'],
        security: USER,
        body: { type: 'object', required: ['id'], properties: { id: idField } },
      },
    },
    async (request) => {
      await wallet.deleteAddress(currentUser(request).id, request.body.id);
      return ok(null, 'wallet.addressDeleted');
    },
  );

  http.post<{
    Body: { coin: string; chain: number; address?: string; number?: string; payPassword?: string };
  }>(
    '/account/sendCoinOrder',
    {
      ...guard,
      config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
      schema: {
        summary:
          'Withdraw to a saved address: KYC, fund password, no 24 h lock, not frozen, per-coin min/max/daily max; amount + fee are held',
        tags: ['account'],
        security: USER,
        // Amount, address and fund password are not `required`: a missing one gets the rule's own message (spec §5).
        body: {
          type: 'object',
          required: ['coin'],
          properties: {
            coin,
            chain,
            address: text(100, 'A saved withdrawal address'),
            number: money('Amount the address receives; the fee is added on top'),
            payPassword: text(20, 'Fund password'),
            ...CLIENT_OID_BODY,
          },
        },
      },
    },
    async (request) => {
      const { coin: name, chain: chainId, address = '', number = '', payPassword = '' } = request.body;
      const withdrawal = await wallet.requestWithdrawal(currentUser(request).id, {
        coin: name,
        chain: chainId,
        address,
        amount: number,
        payPassword,
      });
      return ok(withdrawal, 'wallet.withdrawSubmitted');
    },
  );

  http.get<{ Querystring: { coin?: string; page: number; limit: number } }>(
    '/account/withdrawRecord',
    {
      ...guard,
      schema: {
        summary: 'Withdrawal records, newest first: waiting, completed, rejected',
        tags: ['account'],
        security: USER,
        querystring: pageQuery,
      },
    },
    async (request) => {
      const { coin: name, page, limit } = request.query;
      return ok(await wallet.withdrawalRecords(currentUser(request).id, name ?? null, page, limit));
    },
  );
}

function registerAssetRoutes(
  http: FastifyInstance,
  { assets, wallet, requireUser, demo }: WalletRoutesOptions,
): void {
  const guard = { preHandler: requireUser };
  const lists = [
    [
      '/account/myAccount',
      'Spot assets: coin, blockname, usable, disable, usdt',
      (id: number) => assets.spotAssets(id),
    ],
    [
      '/account/contractAssets',
      'Futures assets: coin, usable, orders (margin of open positions), profit (unrealised PnL at the mark), entrust (held by open entrusts)',
      (id: number) => assets.futuresAssets(id),
    ],
    [
      '/account/c2cAccount',
      'Fiat (c2c) assets: coin, usable, disable, usdt',
      (id: number) => assets.fiatAssets(id),
    ],
    [
      '/account/myAccountCount',
      'Totals in USDT: usdt, assets, assets_amount, contract_assets, contract_assets_amount, c2c_assets, c2c_assets_amount',
      (id: number) => assets.totals(id),
    ],
  ] as const;
  for (const [url, summary, read] of lists) {
    http.get(url, { ...guard, schema: { summary, tags: ['account'], security: USER } }, async (request) =>
      ok(await read(currentUser(request).id)),
    );
  }

  const balances: [string, UserWallet][] = [
    ['/account/balance', 'spot'],
    ['/account/tradBalance', 'spot'],
    ['/account/contractBalance', 'futures'],
    ['/account/c2cBalance', 'fiat'],
  ];
  for (const [url, walletName] of balances) {
    http.get<{ Querystring: { coin: string } }>(
      url,
      {
        ...guard,
        schema: {
          summary: `A coin's balance in the ${walletName} wallet: data.usable`,
          tags: ['account'],
          security: USER,
          querystring: coinQuery,
        },
      },
      async (request) => ok(await assets.balance(currentUser(request).id, walletName, request.query.coin)),
    );
  }

  http.get<{ Querystring: { coin: string; wallet: UserWallet; before?: number; limit: number } }>(
    '/account/financeByTypeCoin',
    {
      ...guard,
      schema: {
        summary:
          "Balance record: one wallet's movements of a coin, newest first; page on with `before` = `next`",
        tags: ['account'],
        security: USER,
        querystring: {
          type: 'object',
          required: ['coin'],
          properties: {
            coin,
            wallet: { type: 'string', enum: ['spot', 'futures', 'fiat', 'cycle', 'ieo'], default: 'spot' },
            before: idField,
            limit: { type: 'integer', minimum: 1, maximum: 100, default: 20 },
          },
        },
      },
    },
    async (request) => {
      const { coin: name, wallet: walletName, before, limit } = request.query;
      const records = await assets.records(currentUser(request).id, {
        coin: name,
        wallet: walletName,
        before: before ?? null,
        limit,
        locale: request.locale,
      });
      return ok(records);
    },
  );

  http.get<{ Querystring: { coin: string } }>(
    '/account/getExchangeRateByCoin',
    {
      schema: {
        summary: `Rate {symbol, price, coin}: a local currency (${Object.keys(DEMO_FIAT_RATES).join(', ')}; demo rates) per USDT, or a coin's index price in USDT`,
        tags: ['account'],
        querystring: { type: 'object', required: ['coin'], properties: { coin } },
      },
    },
    async (request) => ok(assets.rate(request.query.coin)),
  );

  http.get(
    '/account/getContractInfo',
    {
      schema: {
        summary:
          'The token contracts per chain (spec §3 Wallet token contract), and the RPC URL of a demo chain',
        tags: ['account'],
      },
    },
    async () => {
      const coins = await wallet.coins();
      return ok({
        tokens: coins.map((entry) => ({
          coin: entry.coin,
          chain: entry.chainId,
          blockname: CHAIN_NAMES[entry.chainId],
          contract: entry.contract,
          decimals: entry.decimals,
        })),
        // Only a demo chain's endpoint is published: a newcomer's test wallet sends its play tokens through it.
        rpc: demo ? Object.fromEntries(CHAIN_IDS.map((id) => [id, wallet.rpcUrl(id)])) : {},
      });
    },
  );
}

function registerTransferRoutes(http: FastifyInstance, { assets, requireUser }: WalletRoutesOptions): void {
  const urls: Record<TransferRoute, string> = {
    contract: '/account/contractTransfer',
    c2c: '/account/c2cTransfer',
  };
  for (const route of Object.keys(TRANSFER_ROUTES) as TransferRoute[]) {
    const wallets = TRANSFER_ROUTES[route];
    http.post<{ Body: { coin: string; number?: string; from: UserWallet; to: UserWallet } }>(
      urls[route],
      {
        preHandler: requireUser,
        schema: {
          summary: `Transfer between your ${wallets.join(' and ')} wallets (amount required, balance sufficient)`,
          tags: ['account'],
          security: USER,
          body: {
            type: 'object',
            required: ['coin', 'from', 'to'],
            properties: {
              coin,
              number: money('Amount'),
              ...CLIENT_OID_BODY,
              from: { type: 'string', enum: [...wallets] },
              to: { type: 'string', enum: [...wallets] },
            },
          },
        },
      },
      async (request) => {
        const { number = '', ...rest } = request.body;
        return ok(
          await assets.transfer(currentUser(request).id, route, { ...rest, amount: number }),
          'wallet.transferDone',
        );
      },
    );
  }
}

function registerOperatorRoutes(http: FastifyInstance, { wallet, operatorGuard }: WalletRoutesOptions): void {
  // Every decision on a withdrawal moves or releases money: a fresh TOTP code each time.
  const review = { preHandler: operatorGuard('withdrawals.review', { freshTotp: true }) };
  const recover = { preHandler: operatorGuard('wallet.recover', { freshTotp: true }) };
  const idParams = {
    type: 'object',
    required: ['id'],
    properties: { id: idField },
  } as const;

  http.get<{ Querystring: { state: WithdrawalState; limit: number } }>(
    '/admin/wallet/withdrawals',
    {
      preHandler: operatorGuard('withdrawals.read'),
      schema: {
        summary: 'Withdrawals by state (oldest first); `review` holds those above the approval threshold',
        tags: ['operator'],
        security: ADMIN,
        querystring: {
          type: 'object',
          properties: {
            state: {
              type: 'string',
              enum: [...WITHDRAWAL_STATES],
              default: 'review',
            },
            limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 },
          },
        },
      },
    },
    async (request) => ok(await wallet.withdrawalsInState(request.query.state, request.query.limit)),
  );

  http.post<{ Params: { id: number } }>(
    '/admin/wallet/withdrawals/:id/approve',
    {
      ...review,
      schema: {
        summary:
          "Approve a withdrawal under review. At or below WITHDRAWAL_FOUR_EYES_ABOVE (USDT) it goes to the signer; above it, the first approval asks a second operator (a `withdrawal_release` request) and a different operator's approval (here or at /admin/approvals/:id/approve) releases it",
        tags: ['operator'],
        security: ADMIN,
        params: idParams,
      },
    },
    async (request) => {
      const answer = await wallet.approveWithdrawal(request.params.id, currentOperator(request));
      return ok(answer, answer.released ? 'common.ok' : 'approvals.awaitingSecond');
    },
  );

  http.post<{ Params: { id: number }; Body: { reason: string } }>(
    '/admin/wallet/withdrawals/:id/reject',
    {
      ...review,
      schema: {
        summary: 'Reject a withdrawal under review with a reason: the held funds are released',
        tags: ['operator'],
        security: ADMIN,
        params: idParams,
        body: {
          type: 'object',
          required: ['reason'],
          properties: { reason: text(500, 'Shown to the user') },
        },
      },
    },
    async (request) => {
      await wallet.rejectWithdrawal(request.params.id, auditActor(request), request.body.reason);
      return ok(null);
    },
  );

  const holds = [
    [
      'hold',
      'Hold a withdrawal under review with a reason: it stays in review with its funds held, cannot be approved until released, and can still be rejected',
      (id: number, by: AuditActor, why: string) => wallet.holdWithdrawal(id, by, why),
    ],
    [
      'release-hold',
      'Release the hold on a withdrawal under review with a reason: it may be approved again',
      (id: number, by: AuditActor, why: string) => wallet.releaseWithdrawalHold(id, by, why),
    ],
  ] as const;
  const stuck = [
    [
      'resend',
      'Sign a stuck or flagged withdrawal again: at its own nonce with higher fees while the chain has not used that nonce, else at a new nonce',
      (id: number, by: AuditActor, why: string) => wallet.resendWithdrawal(id, by, why),
    ],
    [
      'cancel',
      'Replace a stuck withdrawal by a zero-value transaction to the hot wallet at its nonce: if the cancel is mined, the funds are released',
      (id: number, by: AuditActor, why: string) => wallet.cancelWithdrawal(id, by, why),
    ],
    [
      'refund',
      'Release the held funds of a withdrawal none of whose transactions can still be mined (nothing signed, or its nonce used by another transaction)',
      (id: number, by: AuditActor, why: string) => wallet.refundWithdrawal(id, by, why),
    ],
  ] as const;
  const actions = [
    ...holds.map((entry) => [...entry, review] as const),
    ...stuck.map((entry) => [...entry, recover] as const),
  ];
  for (const [action, summary, act, guard] of actions) {
    http.post<{ Params: { id: number }; Body: { reason: string } }>(
      `/admin/wallet/withdrawals/:id/${action}`,
      {
        ...guard,
        schema: {
          summary,
          tags: ['operator'],
          security: ADMIN,
          params: idParams,
          body: {
            type: 'object',
            required: ['reason'],
            properties: { reason: text(500, 'Why (recorded in the audit log)') },
          },
        },
      },
      async (request) => {
        await act(request.params.id, auditActor(request), request.body.reason);
        return ok(null);
      },
    );
  }

  http.get<{ Querystring: { limit: number } }>(
    '/admin/wallet/audit',
    {
      preHandler: operatorGuard('audit.read'),
      schema: {
        summary: "The wallet operators' append-only audit log, newest first",
        tags: ['operator'],
        security: ADMIN,
        querystring: {
          type: 'object',
          properties: { limit: { type: 'integer', minimum: 1, maximum: 500, default: 100 } },
        },
      },
    },
    async (request) => ok(await wallet.operatorActions(request.query.limit)),
  );
}
