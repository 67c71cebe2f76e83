import { randomUUID } from 'node:crypto';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import type { Clock } from '../../clock.ts';
import { FAUCET_GRANT, faucetGrantTransfers } from '../../core/state/wallet-moves.ts';
import { currentUser } from '../../http/auth.ts';
import { ok } from '../../http/envelope.ts';
import type { Ledger, UserWallet } from '../../ledger/index.ts';
import type { MoneyCoreHandle } from '../../money-core/handle.ts';
import { submitAhead } from '../../money-core/submit.ts';
import type { IdentityService } from '../identity/index.ts';

export { FAUCET_GRANT };

export interface FaucetModule {
  /** Credits the grant to a user's wallet from the treasury, in one ledger batch (on the core, the `faucet` command). */
  grant(userId: number, wallet?: UserWallet): Promise<{ asset: string; amount: string }[]>;
  /** POST /account/demoFaucet; call only in demo mode. */
  registerRoutes(http: FastifyInstance): void;
}

export interface FaucetModuleOptions {
  ledger: Ledger;
  /** Stamps a grant's time on the core (the state never reads a clock). */
  clock: Clock;
  /** A frozen account gets no play money either: the freeze covers every credit the user asks for. */
  identity: Pick<IdentityService, 'assertNotFrozen'>;
  requireUser: preHandlerAsyncHookHandler;
  /**
   * The sequenced core, when the faucet runs on it (issue 19's cut-over): a
   * grant submits the state's `faucet` command, answered once it is durable;
   * the user's next request waits until SQL holds it.
   */
  core?: MoneyCoreHandle;
}

/**
 * The demo faucet: play money minted by the treasury (which may run negative
 * for exactly this) and moved through the ledger like any transfer, so the
 * audit sees every coin of it.
 */
export function createFaucetModule(options: FaucetModuleOptions): FaucetModule {
  async function grant(userId: number, wallet: UserWallet = 'spot') {
    const grantId = randomUUID();
    const { core, clock, ledger } = options;
    if (core) await submitAhead(core, userId, { kind: 'faucet', grantId, userId, wallet, at: clock.now() });
    else await ledger.execute(faucetGrantTransfers(grantId, userId, wallet));
    return FAUCET_GRANT.map(({ asset, amount }) => ({ asset, amount: amount.toString() }));
  }
  return {
    grant,
    registerRoutes(http) {
      http.post(
        '/account/demoFaucet',
        {
          preHandler: options.requireUser,
          // Play money still should not be minted in a loop.
          config: { rateLimit: { max: 10, timeWindow: '1 minute' } },
          schema: {
            tags: ['account'],
            security: [{ token: [] }],
            summary: 'Demo mode only: credits play USDT and BTC to your spot wallet (not real money)',
          },
        },
        async (request) => {
          const userId = currentUser(request).id;
          await options.identity.assertNotFrozen(userId);
          const granted = await grant(userId);
          const amounts = granted.map(({ asset, amount }) => `${amount} ${asset}`).join(', ');
          return ok(granted, 'faucet.credited', { amounts });
        },
      );
    },
  };
}
