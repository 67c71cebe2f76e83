/**
 * A large commit-mode sale in the money state (docs/core.md, "Token launches
 * (IEO)"): 20,000 users commit to one sale, then the clock at the edge sends
 * `ieoAdvance` until the sale has ended. Prints the time of the commitments,
 * the number of `ieoAdvance` commands, the longest single one (the time the
 * sequencer is paused for it) and their total.
 *
 *   npx tsx bench/ieo-distribution.bench.ts
 */
import { performance } from 'node:perf_hooks';
import { Dec } from '@halyard/money';
import { step } from '../apps/server/src/core/sequencer/index.ts';
import type { IeoSaleTerms } from '../apps/server/src/core/state/ieo-rules.ts';
import { type MoneyCommand, moneyMachine } from '../apps/server/src/core/state/index.ts';
import { systemAccount, userAccount } from '../apps/server/src/ledger/index.ts';

const USERS = 20_000;
const AT = Date.UTC(2026, 10, 26);
const machine = moneyMachine();
const state = machine.initialState();
let seq = 0;
const run = (command: MoneyCommand) => step(machine, state, command, ++seq).result;

const terms: IeoSaleTerms = {
  coin: 'LCH',
  mode: 'commit',
  total: '1000000',
  tokenDecimals: 2,
  payCoins: [{ paycoin: 'USDT', price: '0.37' }],
  minNumber: '1',
  maxNumber: '500',
  gift: '0.05',
  rebate: '0.1',
  vesting: { kind: 'tranches', cliffDays: 0, tranches: 3, intervalDays: 1 },
  startAt: AT,
  endAt: AT + 60_000,
};

for (let user = 1; user <= USERS; user++) {
  run({
    kind: 'transfer',
    at: AT,
    batch: [
      {
        id: `fund:${user}`,
        debit: systemAccount('treasury'),
        credit: userAccount(user, 'spot'),
        asset: 'USDT',
        amount: Dec.parse('1000'),
        code: 'test_funding',
      },
    ],
  });
  // One in four invited: their rebates are paid at distribution.
  if (user % 4 === 0)
    run({
      kind: 'referralUser',
      at: AT,
      userId: user,
      parentId: user - 1,
      feeDeduction: false,
      kickbackRate: '0',
      idNumbers: [],
    });
}
run({ kind: 'ieoSale', at: AT, projectId: 1, terms, salt: 's', fundWhy: 'create', defundWhy: '' });
let started = performance.now();
for (let user = 1; user <= USERS; user++) {
  const result = run({
    kind: 'ieoSubscribe',
    at: AT + 1_000,
    userId: user,
    projectId: 1,
    paycoin: 'USDT',
    amount: String(10 + (user % 170)),
  });
  if (!result.ok) throw new Error(JSON.stringify(result));
}
const subscribing = performance.now() - started;

let commands = 0;
let longest = 0;
const times: number[] = [];
started = performance.now();
while (state.ieo.sales.get(1)!.state !== 'ended') {
  const before = performance.now();
  const result = run({ kind: 'ieoAdvance', at: AT + 60_000, projectId: 1 });
  if (!result.ok) throw new Error(JSON.stringify(result));
  times.push(performance.now() - before);
  longest = Math.max(longest, performance.now() - before);
  commands++;
}
const total = performance.now() - started;
console.log(
  `${USERS} commitments: ${subscribing.toFixed(0)} ms; distribution: ${commands} ieoAdvance, ` +
    `longest ${longest.toFixed(1)} ms, total ${total.toFixed(0)} ms`,
);
const batches = times.slice(1).sort((x, y) => x - y);
if (batches.length > 0)
  console.log(
    `the allocating command ${times[0]!.toFixed(1)} ms; a batch: median ${batches[batches.length >> 1]!.toFixed(1)} ms, ` +
      `longest ${batches.at(-1)!.toFixed(1)} ms`,
  );
