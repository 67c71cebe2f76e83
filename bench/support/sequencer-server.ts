/**
 * The servers of bench/sequencer.bench.ts, one per child process.
 *
 * `sequencer`: Fastify → the sequencer (a journal on disk in
 * HALYARD_BENCH_DIR, fsync before every reply) → the money state in memory
 * (ledger and spot books) → the reply. POST /trad/buyLimit and
 * /trad/sellLimit take the body of the real routes; the `token` header is
 * the user id (no sessions: the edge's own cost is not what is measured).
 * Users 1..BENCH_USERS are funded at start, through the sequencer too.
 *
 * `ceiling`: the same routes answering {code:200} and doing nothing else.
 */
import { Dec } from '@halyard/money';
import Fastify from 'fastify';
import { type Sequencer, startFromDisk } from '../../apps/server/src/core/sequencer/index.ts';
import {
  type MoneyCommand,
  type MoneyEvent,
  type MoneyResult,
  type MoneyState,
  moneyMachine,
  type PairConfig,
} from '../../apps/server/src/core/state/index.ts';
import { tuneGarbageCollector } from '../../apps/server/src/garbage-collector.ts';
import { custodyWallet, systemAccount, userAccount } from '../../apps/server/src/ledger/accounts.ts';

// The collector setting main.ts gives the server.
tuneGarbageCollector();

const PORT = Number(process.env.PORT);
const USERS = Number(process.env.BENCH_USERS ?? 50);
const PAIR: PairConfig = {
  symbol: 'BTC/USDT',
  tradcoin: 'BTC',
  maincoin: 'USDT',
  priceAccuracy: 2,
  amountAccuracy: 4,
  minNumber: '0.0001',
  maxNumber: '1000',
  makerFee: '0.001',
  takerFee: '0.002',
};

interface OrderBody {
  tradcoin: string;
  maincoin: string;
  price: string;
  number: string;
}

const http = Fastify();
if (process.argv[2] === 'ceiling') {
  http.post('/trad/:route', async () => ({ code: 200 }));
} else {
  const dir = process.env.HALYARD_BENCH_DIR;
  if (!dir) throw new Error('HALYARD_BENCH_DIR is not set');
  const machine = moneyMachine();
  const { sequencer } = await startFromDisk(machine, dir);
  await fund(sequencer);
  http.post<{ Params: { route: string }; Body: OrderBody }>('/trad/:route', async (request) => {
    const side = request.params.route === 'buyLimit' ? 'buy' : 'sell';
    const userId = Number(request.headers.token);
    const { tradcoin, maincoin, price, number } = request.body;
    const result = await sequencer.submit({
      kind: 'place',
      // The edge stamps the time: the state never reads a clock.
      at: Date.now(),
      pair: `${tradcoin}/${maincoin}`,
      owner: String(userId),
      account: userAccount(userId, 'spot'),
      email: `bench${userId}@example.com`,
      side,
      style: 'limit',
      price,
      amount: number,
    });
    return result.ok ? { code: 200, msg: 'ok', data: result.order } : { code: 400, msg: result.error };
  });
}
await http.listen({ port: PORT, host: '127.0.0.1' });
process.send?.('listening');

/** The pair, and each user's deposits of both coins. */
async function fund(sequencer: Sequencer<MoneyState, MoneyCommand, MoneyResult, MoneyEvent>): Promise<void> {
  const at = Date.now();
  await sequencer.submit({ kind: 'openPair', at, pair: PAIR });
  const deposits: Promise<unknown>[] = [];
  for (let user = 1; user <= USERS; user++) {
    for (const [asset, amount] of [
      ['USDT', '100000000'],
      ['BTC', '10000'],
    ] as const) {
      deposits.push(
        sequencer.submit({
          kind: 'transfer',
          at,
          batch: [
            {
              id: `bench:deposit:${user}:${asset}`,
              debit: systemAccount(custodyWallet('bsc')),
              credit: userAccount(user, 'spot'),
              asset,
              amount: Dec.parse(amount),
              code: 'deposit',
            },
          ],
        }),
      );
    }
  }
  await Promise.all(deposits);
}
