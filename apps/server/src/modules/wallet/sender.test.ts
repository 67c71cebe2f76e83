import { Dec } from '@halyard/money';
import { type Address, createTestClient, createWalletClient, type Hex, http, parseAbiItem } from 'viem';
import { generatePrivateKey, privateKeyToAccount, privateKeyToAddress } from 'viem/accounts';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { MONEY_PATHS, restartApp } from '../identity/test-support.ts';
import { operatorSession } from '../operators/test-support.ts';
import { chainDefinition, createChainReader } from './chains.ts';
import { LOCAL_DEPLOYER_INDEX, localChainKey } from './config.ts';
import { hotNonces } from './nonces.ts';
import { isReconciled, reconcileConfiguredChains, reconcileWithdrawals } from './reconcile.ts';
import { sentTxs } from './sent-txs.ts';
import { walletStore } from './store.ts';
import {
  ADMIN_TOKEN,
  balanceOf,
  CHAIN,
  expectHealthyLedger,
  expectOk,
  FUND_PASSWORD,
  fund,
  get,
  type Harness,
  openWithdrawals,
  post,
  settleWithdrawals,
  spot,
  startTestChain,
  startWalletHarness,
  type TestChain,
  type TestUser,
  verifiedUser,
} from './test-support.ts';

/** The harness's bump wait (WALLET_FEE_BUMP_AFTER_MS): a transaction unmined this long is re-signed with higher fees. */
const BUMP_AFTER_MS = 60_000;
const admin = { 'admin-token': ADMIN_TOKEN };
const TRANSFER_EVENT = parseAbiItem(
  'event Transfer(address indexed from, address indexed to, uint256 value)',
);

let chain: TestChain;
let h: Harness;

beforeAll(async () => {
  chain = await startTestChain();
}, 60_000);
afterAll(async () => {
  await chain?.close();
});

/** A fresh app per test, on SQL or on the sequenced core, with the ledger audited after each. */
function appPerTest(moneyCore: boolean): void {
  beforeEach(async () => {
    h = await startWalletHarness(chain, { WALLET_FEE_BUMP_AFTER_MS: String(BUMP_AFTER_MS) }, { moneyCore });
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await miner().setAutomine(true);
    await expectHealthyLedger(h.store.db);
    await h.close();
    await chain.reset();
  });
}

const miner = () =>
  createTestClient({
    mode: 'ganache',
    chain: chainDefinition(CHAIN, chain.rpcUrl),
    transport: http(chain.rpcUrl),
  });
const reader = () => createChainReader(CHAIN, chain.rpcUrl).client;
const service = () => h.app.wallet.service;

async function saveAddress(user: TestUser, to: Address): Promise<void> {
  const saved = await post(
    h,
    '/account/addAddress',
    { coin: 'USDT', chain: CHAIN, address: to, remark: 'cold' },
    user.token,
  );
  if (saved.code !== 200 && saved.msg !== 'This address is already in your address book')
    throw new Error(saved.msg);
}

async function withdraw(user: TestUser, to: Address, number: string): Promise<number> {
  const answer = await expectOk(
    post(
      h,
      '/account/sendCoinOrder',
      { coin: 'USDT', chain: CHAIN, address: to, number, payPassword: FUND_PASSWORD },
      user.token,
    ),
  );
  return (answer.data as { id: number }).id;
}

function operator(action: 'resend' | 'cancel' | 'refund', id: number | undefined, reason: string) {
  return post(h, `/admin/wallet/withdrawals/${id}/${action}`, { reason }, undefined, admin);
}

async function row(id: number) {
  const found = await walletStore.withdrawal(h.store.db, id);
  if (!found) throw new Error(`no withdrawal ${id}`);
  return found;
}

/** The hot wallet's nonce counter on the test chain (the sender's next nonce). */
async function nextNonce(): Promise<number> {
  const counter = await h.store.db
    .selectFrom('wallet_hot_nonces')
    .select('next_nonce')
    .where('chain_id', '=', CHAIN)
    .executeTakeFirstOrThrow();
  return Number(counter.next_nonce);
}

function hotAddress(): Address {
  const address = service().hotAddress();
  if (!address) throw new Error('no hot wallet');
  return address;
}

/** Whether the node has the transaction (in its pool or mined). */
async function pooled(hash: Hex): Promise<boolean> {
  return reader()
    .getTransaction({ hash })
    .then(Boolean, () => false);
}

/** The Transfer logs of USDT to `to` on chain, each with its transaction. */
async function transfersTo(to: Address): Promise<{ hash: Hex; value: bigint }[]> {
  const logs = await reader().getLogs({
    address: chain.coin('USDT').contract,
    event: TRANSFER_EVENT,
    args: { to },
    fromBlock: 0n,
  });
  return logs.map((log) => ({ hash: log.transactionHash as Hex, value: log.args.value ?? 0n }));
}

/** A transaction of the hot wallet's own key at `nonce`, not through the sender (someone else using the key). */
async function foreignTxAt(nonce: number): Promise<Hex> {
  const account = privateKeyToAccount(localChainKey(LOCAL_DEPLOYER_INDEX));
  const wallet = createWalletClient({
    account,
    chain: chainDefinition(CHAIN, chain.rpcUrl),
    transport: http(chain.rpcUrl),
  });
  const fees = await reader().estimateFeesPerGas();
  return wallet.sendTransaction({
    to: account.address,
    value: 0n,
    nonce,
    gas: 21_000n,
    maxFeePerGas: fees.maxFeePerGas * 10n,
    maxPriorityFeePerGas: fees.maxPriorityFeePerGas * 10n,
  });
}

async function reconciled() {
  const [usdt] = await reconcileWithdrawals(h.store.db, CHAIN, (hash) =>
    reader()
      .getTransactionReceipt({ hash })
      .catch(() => null),
  );
  if (!usdt) throw new Error('no completed USDT withdrawals to reconcile');
  return usdt;
}

// Every test on both paths: on the core the sender reports what it saw as the state's `withdrawalOutcome`.
describe.each(MONEY_PATHS)('withdrawals sent on $on', ({ moneyCore }) => {
  appPerTest(moneyCore);

  describe('the hot-wallet sender', () => {
    it('sends two withdrawals of the same amount to the same address as two transactions (the old defect: one hash, one transfer)', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const to = privateKeyToAddress(generatePrivateKey());
      await saveAddress(user, to);
      await miner().setAutomine(false);
      const first = await withdraw(user, to, '100');
      const second = await withdraw(user, to, '100');
      await service().sendQueued();
      const [a, b] = [await row(first), await row(second)];
      expect(a.tx_hash).not.toBe(b.tx_hash);
      expect(Number(b.nonce)).toBe(Number(a.nonce) + 1);
      await miner().setAutomine(true);
      await settleWithdrawals(h, chain);

      expect((await row(first)).state).toBe('completed');
      expect((await row(second)).state).toBe('completed');
      const transfers = await transfersTo(to);
      expect(transfers.map((entry) => entry.hash).sort()).toEqual([a.tx_hash, b.tx_hash].sort());
      expect((await chain.tokenBalance('USDT', to)).toString()).toBe('200');
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '798', locked: '0' });
      expect(isReconciled(await reconciled())).toBe(true);
    });

    it('completes a withdrawal only once its own transaction has the confirmations', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const to = privateKeyToAddress(generatePrivateKey());
      await saveAddress(user, to);
      const id = await withdraw(user, to, '40');
      await service().sendQueued();
      expect((await chain.tokenBalance('USDT', to)).toString()).toBe('40');
      await service().sendQueued();
      expect((await row(id)).state).toBe('broadcast');
      await chain.mine(1);
      await service().sendQueued();
      expect((await row(id)).state).toBe('broadcast');
      await chain.mine(1);
      await service().sendQueued();
      expect((await row(id)).state).toBe('completed');
    });

    it('sends the recorded bytes again when the node lost them, and completes on the same hash', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const to = privateKeyToAddress(generatePrivateKey());
      await saveAddress(user, to);
      await miner().setAutomine(false);
      const before = await chain.snapshot();
      const id = await withdraw(user, to, '20');
      await service().sendQueued();
      const signed = await row(id);
      // The node restarts without its pool: the signed transaction is gone from it.
      await chain.revert(before);
      expect(
        await reader()
          .getTransaction({ hash: signed.tx_hash as Hex })
          .catch(() => null),
      ).toBeNull();
      await service().sendQueued();
      await miner().setAutomine(true);
      await settleWithdrawals(h, chain);
      expect(await row(id)).toMatchObject({
        state: 'completed',
        tx_hash: signed.tx_hash,
        nonce: signed.nonce,
      });
      expect(await sentTxs.ofWithdrawal(h.store.db, id)).toHaveLength(1);
      expect((await chain.tokenBalance('USDT', to)).toString()).toBe('20');
    });

    // Only the core has this gap: on SQL the nonce, the row and the transaction are written in one transaction.
    it.runIf(moneyCore)(
      'after a stop between a durable sent and its nonce, the restarted sender broadcasts that same transaction by itself, nonces in order',
      async () => {
        const user = await verifiedUser(h);
        await fund(h, user.id, { USDT: '1000' });
        const to = privateKeyToAddress(generatePrivateKey());
        await saveAddress(user, to);
        await miner().setAutomine(false);
        const first = await withdraw(user, to, '10');
        // The stop: `sent` is durable (the row holds the signed transaction); the nonce, the sender's record and
        // the broadcast are not, and nothing of this process takes them any more (its next rounds fail there too).
        const stop = vi.spyOn(hotNonces, 'use').mockRejectedValue(new Error('the process stopped'));
        await service().sendQueued();
        const stopped = await row(first);
        const nonce = Number(stopped.nonce);
        expect(stopped.state).toBe('broadcast');
        expect(await sentTxs.ofWithdrawal(h.store.db, first)).toEqual([]);
        expect(await nextNonce()).toBe(nonce);
        expect(await pooled(stopped.tx_hash as Hex)).toBe(false);
        // A signing outside the round (an operator's resend at a new nonce) before the round takes it up: above the row.
        expect(await hotNonces.peek(h.store.db, CHAIN, hotAddress())).toBe(nonce + 1);

        await restartApp(h);
        stop.mockRestore();
        const second = await withdraw(user, to, '20');
        await service().sendQueued();
        expect(await row(first)).toMatchObject({
          state: 'broadcast',
          tx_hash: stopped.tx_hash,
          nonce: stopped.nonce,
        });
        expect((await sentTxs.ofWithdrawal(h.store.db, first)).map((tx) => tx.hash)).toEqual([
          stopped.tx_hash,
        ]);
        expect(await pooled(stopped.tx_hash as Hex)).toBe(true);
        const signed = await row(second);
        expect(Number(signed.nonce)).toBe(nonce + 1);
        expect(await nextNonce()).toBe(nonce + 2);

        await miner().setAutomine(true);
        await settleWithdrawals(h, chain);
        expect(await row(first)).toMatchObject({ state: 'completed', tx_hash: stopped.tx_hash });
        expect(await row(second)).toMatchObject({ state: 'completed', tx_hash: signed.tx_hash });
        const transfers = (await transfersTo(to)).map((entry) => entry.hash);
        expect(transfers.sort()).toEqual([stopped.tx_hash, signed.tx_hash].sort());
        expect((await chain.tokenBalance('USDT', to)).toString()).toBe('30');
        expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '968', locked: '0' });
        expect(await reader().getTransactionCount({ address: hotAddress() })).toBe(nonce + 2);
      },
    );

    it('re-signs a stuck transaction with higher fees at the same nonce after the wait; whichever hash is mined completes it', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const to = privateKeyToAddress(generatePrivateKey());
      await saveAddress(user, to);
      await miner().setAutomine(false);
      const id = await withdraw(user, to, '30');
      await service().sendQueued();
      const signed = await row(id);
      h.clock.advance(BUMP_AFTER_MS - 1);
      await service().sendQueued();
      expect(await sentTxs.ofWithdrawal(h.store.db, id)).toHaveLength(1);
      h.clock.advance(1);
      await service().sendQueued();
      const txs = await sentTxs.ofWithdrawal(h.store.db, id);
      expect(txs.map((tx) => Number(tx.nonce))).toEqual([Number(signed.nonce), Number(signed.nonce)]);
      expect(BigInt(txs[1]?.max_fee_per_gas ?? 0)).toBeGreaterThan(BigInt(txs[0]?.max_fee_per_gas ?? 0));
      await miner().setAutomine(true);
      await settleWithdrawals(h, chain);
      const done = await row(id);
      expect(done.state).toBe('completed');
      expect(done.tx_hash).toBe(txs[1]?.hash);
      expect((await chain.tokenBalance('USDT', to)).toString()).toBe('30');
    });

    it('flags a withdrawal whose nonce another transaction used; the operator re-sends it at a new nonce', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const to = privateKeyToAddress(generatePrivateKey());
      await saveAddress(user, to);
      await miner().setAutomine(false);
      const id = await withdraw(user, to, '50');
      await service().sendQueued();
      const nonce = Number((await row(id)).nonce);
      await foreignTxAt(nonce);
      await chain.mine(1);
      await service().sendQueued();
      expect(await row(id)).toMatchObject({ state: 'flagged', reason: 'nonceUsed' });

      const refused = await post(
        h,
        `/admin/wallet/withdrawals/${id}/resend`,
        { reason: ' ' },
        undefined,
        admin,
      );
      expect(refused.code).toBe(400);
      await expectOk(
        post(
          h,
          `/admin/wallet/withdrawals/${id}/resend`,
          { reason: 'nonce taken by a manual send' },
          undefined,
          admin,
        ),
      );
      const resent = await row(id);
      expect(resent.state).toBe('broadcast');
      expect(Number(resent.nonce)).toBeGreaterThan(nonce);
      await miner().setAutomine(true);
      await settleWithdrawals(h, chain);
      expect((await row(id)).state).toBe('completed');
      expect((await chain.tokenBalance('USDT', to)).toString()).toBe('50');
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '949', locked: '0' });
      const audit = await expectOk(get(h, '/admin/wallet/audit', undefined, admin));
      expect(audit.data).toMatchObject([
        {
          operator: 'bootstrap',
          action: 'withdrawal.resend',
          withdrawalId: id,
          details: { reason: 'nonce taken by a manual send' },
        },
      ]);
    });

    it('refunds only when none of its transactions can still be mined: a cancel must be mined and confirmed first', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const to = privateKeyToAddress(generatePrivateKey());
      await saveAddress(user, to);
      await miner().setAutomine(false);
      const id = await withdraw(user, to, '60');
      await service().sendQueued();
      const refund = () =>
        post(h, `/admin/wallet/withdrawals/${id}/refund`, { reason: 'user asked to stop' }, undefined, admin);
      const early = await refund();
      expect(early.code).toBe(409);
      expect(early.msg).toBe(
        'A transaction of this withdrawal may still be mined; cancel it and wait until the cancel is confirmed',
      );

      await expectOk(
        post(h, `/admin/wallet/withdrawals/${id}/cancel`, { reason: 'user asked to stop' }, undefined, admin),
      );
      await miner().setAutomine(true);
      await settleWithdrawals(h, chain);
      expect(await row(id)).toMatchObject({ state: 'rejected', reason: 'cancelled' });
      expect((await chain.tokenBalance('USDT', to)).toString()).toBe('0');
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '1000', locked: '0' });
      expect((await refund()).code).toBe(409);
    });

    it('an operator refunds a flagged withdrawal once the nonce that replaced it is confirmed', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const to = privateKeyToAddress(generatePrivateKey());
      await saveAddress(user, to);
      await miner().setAutomine(false);
      const id = await withdraw(user, to, '70');
      await service().sendQueued();
      await foreignTxAt(Number((await row(id)).nonce));
      await chain.mine(1);
      await service().sendQueued();
      const refund = () =>
        post(
          h,
          `/admin/wallet/withdrawals/${id}/refund`,
          { reason: 'nonce reused by hand' },
          undefined,
          admin,
        );
      expect((await refund()).code).toBe(409);
      await chain.mine(2);
      await expectOk(refund());
      expect(await row(id)).toMatchObject({ state: 'rejected', reason: 'nonce reused by hand' });
      expect(await balanceOf(h, spot(user), 'USDT')).toEqual({ available: '1000', locked: '0' });
    });

    it('flags a mined transaction whose Transfer does not match the withdrawal, and will not re-send it', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const to = privateKeyToAddress(generatePrivateKey());
      await saveAddress(user, to);
      const id = await withdraw(user, to, '80');
      await service().sendQueued();
      // The record no longer says what was signed (a token that takes a fee on transfer would do the same).
      await h.store.db.updateTable('wallet_withdrawals').set({ amount: '81' }).where('id', '=', id).execute();
      await chain.mine(3);
      await service().sendQueued();
      expect(await row(id)).toMatchObject({ state: 'flagged', reason: 'transferMismatch' });
      const resend = await post(
        h,
        `/admin/wallet/withdrawals/${id}/resend`,
        { reason: 'retry' },
        undefined,
        admin,
      );
      expect(resend.code).toBe(409);
      // Its nonce is used and nothing of it can be mined any more: the operator, having looked, may refund it.
      // The audit names the signed-in operator, not a name in the body.
      const finance = await operatorSession(h.app, 'finance', h.clock);
      const body = { operator: 'someone-else', reason: 'checked by hand' };
      await expectOk(
        post(h, `/admin/wallet/withdrawals/${id}/refund`, body, undefined, await finance.withTotp()),
      );
      expect(await service().operatorActions(1)).toMatchObject([
        { operator: finance.email, action: 'withdrawal.refund', withdrawalId: id },
      ]);
    });

    it('reconciliation finds two completed withdrawals that name one transaction', async () => {
      const user = await verifiedUser(h);
      await fund(h, user.id, { USDT: '1000' });
      const to = privateKeyToAddress(generatePrivateKey());
      await saveAddress(user, to);
      const id = await withdraw(user, to, '90');
      await settleWithdrawals(h, chain);
      expect(await reconciled()).toMatchObject({ withdrawals: 1, transactions: 1, missing: 0 });
      expect(isReconciled(await reconciled())).toBe(true);
      const done = await row(id);
      // Numbered by hand: on the core the money state numbers the rows, not the table's serial.
      await h.store.db
        .insertInto('wallet_withdrawals')
        .values({ ...done, id: id + 1 })
        .execute();
      const doubled = await reconciled();
      expect(doubled).toMatchObject({ withdrawals: 2, transactions: 1 });
      expect(doubled.completed.toString()).toBe('180');
      expect(doubled.onChain.toString()).toBe('90');
      expect(isReconciled(doubled)).toBe(false);
      // What `npm run audit:ledger` prints and counts: the breach, and a chain without a node as skipped.
      const audit = await reconcileConfiguredChains(h.store.db, {
        chains: [
          { id: CHAIN, rpcUrl: chain.rpcUrl },
          { id: 1, rpcUrl: null },
        ],
        localChain: null,
      });
      expect(audit.breaches).toEqual([
        'chain 56 USDT: 2 completed withdrawals = 180, their 1 transactions moved 90 out of the hot wallet',
      ]);
      expect(audit.lines.at(-1)).toBe('wallet reconciliation, chain 1: skipped (no RPC URL)');
      await h.store.db.deleteFrom('wallet_withdrawals').where('id', '>', id).execute();
    });
  });

  describe('fifty withdrawals: sequential and parallel, same and different amounts, miner paused and resumed', () => {
    it('each lands exactly once with its own transaction, or is refunded; each user is debited once per withdrawal', async () => {
      const started = performance.now();
      const users = [
        await verifiedUser(h),
        await verifiedUser(h),
        await verifiedUser(h),
        await verifiedUser(h),
        await verifiedUser(h),
      ];
      for (const user of users) await fund(h, user.id, { USDT: '10000' });
      const same = privateKeyToAddress(generatePrivateKey());
      const varied = privateKeyToAddress(generatePrivateKey());
      for (const user of users) {
        await saveAddress(user, same);
        await saveAddress(user, varied);
      }
      const ids: { id: number; user: TestUser; to: Address; amount: string }[] = [];
      const request = async (index: number, to: Address, amount: string) => {
        const user = users[index % users.length] as TestUser;
        ids.push({ id: await withdraw(user, to, amount), user, to, amount });
      };

      // 1. Ten in a row, the same amount to the same address, the miner mining each at once.
      for (let index = 0; index < 10; index += 1) {
        await request(index, same, '25');
        await service().sendQueued();
      }
      // 2. Twenty at once with the miner paused: ten the same, ten different amounts.
      await miner().setAutomine(false);
      await Promise.all(
        Array.from({ length: 20 }, (_, index) =>
          index % 2 === 0 ? request(index, same, '25') : request(index, varied, `${10 + index}`),
        ),
      );
      await service().sendQueued();
      await chain.mine(1);
      await service().sendQueued();
      // 3. Ten more, stuck until their fees are bumped; the miner resumes mining blocks by hand.
      await Promise.all(
        Array.from({ length: 10 }, (_, index) =>
          request(index, index < 5 ? same : varied, index < 5 ? '25' : `${40 + index}.5`),
        ),
      );
      await service().sendQueued();
      h.clock.advance(BUMP_AFTER_MS);
      await service().sendQueued();
      await chain.mine(2);
      await service().sendQueued();
      // 4. Ten more, still paused: an operator cancels one; transactions sent with the hot key by hand take the nonces of two others.
      await Promise.all(Array.from({ length: 10 }, (_, index) => request(index, same, '25')));
      await service().sendQueued();
      const [cancelled, resent, refunded] = ids.slice(-3).map((entry) => entry.id);
      await expectOk(operator('cancel', cancelled, 'asked by the user'));
      for (const id of [resent, refunded]) await foreignTxAt(Number((await row(id ?? 0)).nonce));
      await chain.mine(3);
      await service().sendQueued();
      expect((await row(resent ?? 0)).state).toBe('flagged');
      expect((await row(refunded ?? 0)).state).toBe('flagged');
      await expectOk(operator('resend', resent, 'nonce taken by hand'));
      await expectOk(operator('refund', refunded, 'nonce taken by hand'));
      await miner().setAutomine(true);
      await settleWithdrawals(h, chain);
      expect(await openWithdrawals(h)).toBe(0);

      // Exactly once each: completed with a hash of its own that paid it on chain, or rejected and refunded.
      expect(ids).toHaveLength(50);
      const rows = await Promise.all(ids.map((entry) => row(entry.id)));
      const completed = rows.filter((entry) => entry.state === 'completed');
      const refundedRows = rows.filter((entry) => entry.state === 'rejected');
      expect(completed.length + refundedRows.length).toBe(ids.length);
      expect(refundedRows.map((entry) => entry.reason).sort()).toEqual(['cancelled', 'nonce taken by hand']);
      expect(new Set(completed.map((entry) => entry.tx_hash)).size).toBe(completed.length);
      const paid = [...(await transfersTo(same)), ...(await transfersTo(varied))];
      expect(paid.map((entry) => entry.hash).sort()).toEqual(completed.map((entry) => entry.tx_hash).sort());
      const sumTo = (to: Address) =>
        Dec.sum(
          completed.filter((entry) => entry.address === to).map((entry) => Dec.parse(entry.amount)),
        ).toString();
      expect((await chain.tokenBalance('USDT', same)).toString()).toBe(sumTo(same));
      expect((await chain.tokenBalance('USDT', varied)).toString()).toBe(sumTo(varied));
      for (const user of users) {
        const spent = Dec.sum(
          completed
            .filter((entry) => Number(entry.user_id) === user.id)
            .map((entry) => Dec.parse(entry.amount).add(Dec.parse(entry.fee))),
        );
        expect(await balanceOf(h, spot(user), 'USDT')).toEqual({
          available: Dec.parse('10000').sub(spent).toString(),
          locked: '0',
        });
      }
      expect(isReconciled(await reconciled())).toBe(true);
      console.info(
        `fifty withdrawals: ${ids.length} requested, ${completed.length} completed with ${new Set(completed.map((e) => e.tx_hash)).size} distinct hashes, ${refundedRows.length} refunded, ${Math.round(performance.now() - started)} ms`,
      );
    }, 120_000);
  });
});

// The demo faucet sends on chain and moves no money in the ledger: on SQL.
describe('the demo faucet', () => {
  appPerTest(false);
  it('sends twice in a row while the first waits in the pool, and refuses more than it holds', async () => {
    const user = await verifiedUser(h);
    await miner().setAutomine(false);
    const deposit = (number: string) =>
      post(h, '/account/demoDeposit', { coin: 'USDT', chain: CHAIN, number }, user.token);
    const first = await expectOk(deposit('100'));
    const second = await expectOk(deposit('100'));
    expect((second.data as { txHash: string }).txHash).not.toBe((first.data as { txHash: string }).txHash);
    await chain.mine(1);
    await miner().setAutomine(true);
    const address = (first.data as { address: Address }).address;
    expect((await chain.tokenBalance('USDT', address)).toString()).toBe('200');
    const tooMuch = await deposit('100000000000');
    expect(tooMuch.code).toBe(400);
    expect(tooMuch.msg).toMatch(/^The demo faucet has only \d+ USDT left$/);
  });
});
