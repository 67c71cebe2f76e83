import { Dec } from '@halyard/money';
import { type Ledger, systemAccount, userAccount } from '../../ledger/index.ts';
import type { Db } from '../../store/database.ts';
import type { IdentityService } from '../identity/index.ts';
import type { SpotService } from '../spot/index.ts';
import { referralStore } from './store.ts';

/**
 * Demo mode (issue 17 item 6): a small team so /inviteFriends and /myTeam are
 * not empty on a fresh install. The demo inviter (DEMO_INVITER, password
 * DEMO_PASSWORD, play money only) invites two friends, the first of whom
 * invites a third (the inviter's level 2); each friend trades a little BTC
 * through the spot service, so the commissions come from the real fee path.
 * Every step is idempotent (accounts found by e-mail, funding by transfer id)
 * and a `referral_config` marker is set once the trades are done. It runs
 * from the module's timer after start (main.ts), not in createApp, so test
 * apps keep their users to themselves, and until the pair has a price; the
 * module runs a payout sweep once it is done, so the commissions show credited.
 * Answers true once done, or when it never can be (codes go out by a real
 * channel: no demo code to register with).
 */
export const DEMO_INVITER = 'demo@halyard.demo';
export const DEMO_PASSWORD = 'demo1234';
const FRIENDS = ['friend1@halyard.demo', 'friend2@halyard.demo', 'friend3@halyard.demo'] as const;
const MARKER = 'demo_team';
const PAIR = { tradcoin: 'BTC', maincoin: 'USDT' } as const;

export interface ReferralDemoOptions {
  db: Db;
  ledger: Ledger;
  identity: IdentityService;
  spot: SpotService;
}

export async function seedReferralDemo(options: ReferralDemoOptions): Promise<boolean> {
  if (await referralStore.config(options.db, MARKER)) return true;
  const inviter = await register(options, DEMO_INVITER, undefined);
  if (inviter === null) return true;
  const [first, second] = [
    await register(options, FRIENDS[0], inviter.code),
    await register(options, FRIENDS[1], inviter.code),
  ];
  if (first === null || second === null) return true;
  const third = await register(options, FRIENDS[2], first.code);
  if (third === null) return true;
  const team = [first.id, second.id, third.id];
  await options.ledger.execute(
    team.flatMap((id) =>
      ['USDT', 'BTC'].map((asset) => ({
        id: `referral-demo:${id}:${asset}`,
        debit: systemAccount('treasury'),
        credit: userAccount(id, 'spot'),
        asset,
        amount: Dec.parse(asset === 'USDT' ? '20000' : '0.5'),
        code: 'demo_funding',
      })),
    ),
  );
  if (!(await tradeAmong(options.spot, team))) return false;
  await referralStore.saveConfig(options.db, MARKER, String(inviter.id));
  return true;
}

/** The demo account of `email`: found, or registered through the identity service (its demo code); null when it cannot be. */
async function register(options: ReferralDemoOptions, email: string, invitationCode: string | undefined) {
  const known = await referralStore.memberByEmail(options.db, email);
  if (known) return { id: Number(known.id), code: known.invitation_code };
  const sent = await options.identity.sendCode({ account: email, purpose: 'register' }, 'en', null);
  if (!sent.demoCode) return null;
  const { member } = await options.identity.register({
    account: email,
    code: sent.demoCode,
    password: DEMO_PASSWORD,
    confirmPassword: DEMO_PASSWORD,
    agreed: true,
    invitationCode,
  });
  return { id: member.id, code: member.invitationCode };
}

/**
 * Each friend sells a little BTC at the latest price and the next one buys it
 * (or whatever the book offers cheaper): every fill charges both fees, so the
 * inviter earns on each friend, level 1 and level 2. What rests is cancelled.
 * False when the pair has no price yet.
 */
async function tradeAmong(spot: SpotService, team: readonly number[]): Promise<boolean> {
  const price = spot.market(PAIR).latestPrice();
  if (price === null) return false;
  const limit = price.floorTo(spot.market(PAIR).pair.price_accuracy).toString();
  for (const [index, seller] of team.entries()) {
    const buyer = team[(index + 1) % team.length]!;
    await spot.placeForUser(seller, { ...PAIR, side: 'sell', style: 'limit', price: limit, number: '0.02' });
    await spot.placeForUser(buyer, { ...PAIR, side: 'buy', style: 'limit', price: limit, number: '0.02' });
  }
  for (const id of team) await spot.cancelAllForUser(id, PAIR);
  return true;
}
