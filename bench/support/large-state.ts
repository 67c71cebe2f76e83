import { Dec } from '@halyard/money';
import { TEST_PAIRS } from '../../apps/server/src/core/state/command-stream.ts';
import type { MoneyCommand } from '../../apps/server/src/core/state/index.ts';
import { custodyWallet, systemAccount, userAccount } from '../../apps/server/src/ledger/accounts.ts';

const BOOT_COINS = ['USDT', 'BTC', 'ETH', 'SOL', 'HAL'];

/**
 * The large state the sequencer and replay benches start from: the test
 * pairs, `users` × 5 coins of deposits (10 a command) and `restingOrders`
 * orders that never cross (buys below 60, sells above 70), each an open hold.
 */
export function* largeStateBootstrap(users: number, restingOrders: number): Generator<MoneyCommand> {
  const at = Date.UTC(2026, 10, 26);
  for (const pair of TEST_PAIRS) yield { kind: 'openPair', at, pair };
  const custody = systemAccount(custodyWallet('bsc'));
  for (let first = 1; first <= users; first += 2) {
    yield {
      kind: 'transfer',
      at,
      batch: Array.from({ length: 10 }, (_, index) => {
        const user = first + (index % 2);
        const asset = BOOT_COINS[Math.floor(index / 2)]!;
        return {
          id: `boot:${user}:${asset}`,
          debit: custody,
          credit: userAccount(user, 'spot'),
          asset,
          amount: Dec.parse('100000'),
          code: 'deposit',
        };
      }),
    };
  }
  for (let index = 0; index < restingOrders; index++) {
    const user = 1 + ((index * 7) % users);
    const buy = index % 2 === 0;
    yield {
      kind: 'place',
      at,
      pair: TEST_PAIRS[index % TEST_PAIRS.length]!.symbol,
      owner: String(user),
      account: userAccount(user, 'spot'),
      email: `u${user}@example.com`,
      side: buy ? 'buy' : 'sell',
      style: 'limit',
      price: buy ? `${50 + (index % 10)}.${index % 100}` : `${70 + (index % 10)}.${index % 100}`,
      amount: '0.01',
    };
  }
}
