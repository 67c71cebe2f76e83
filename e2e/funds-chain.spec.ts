import { expect, type Page } from '@playwright/test';
import {
  type Address,
  createPublicClient,
  createWalletClient,
  decodeFunctionData,
  erc20Abi,
  getAddress,
  http,
  parseEther,
  parseUnits,
} from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';
import { LOCAL_FAUCET_INDEX, localChainKey } from '../apps/server/src/modules/wallet/config.ts';
import {
  base,
  completeDepositSteps,
  dismissTips,
  injectTestWallet,
  localChain,
  registerAndSignIn,
  setMining,
  shot,
  test,
} from './support.ts';

const CHAIN_ID = 56;
const DEPOSIT = '1000';
const CONVERT = '200';
const TO_FUTURES = '300';
/** Below USDT's approval threshold, so no operator is needed. */
const WITHDRAW = '50';
const FUND_PASSWORD = '135790';

interface ContractInfo {
  tokens: { coin: string; chain: number; contract: Address; decimals: number }[];
  rpc: Record<string, string>;
}

async function api<T>(page: Page, token: string, method: 'get' | 'post', url: string, data?: object) {
  const response = await page.request[method](`${base()}${url}`, {
    headers: { token },
    ...(data ? { data } : {}),
  });
  const body = await response.json();
  expect(body.code, `${url}: ${body.msg}`).toBe(200);
  return body.data as T;
}

test('a wallet pays 1,000 USDT to the deposit address, then convert, futures transfer and an on-chain withdrawal', async ({
  page,
}) => {
  test.setTimeout(300_000);
  const { token } = await registerAndSignIn(page, 'chain');
  // Identity verification (the demo reviewer approves it) and a fund password: what deposits and withdrawals need.
  await completeDepositSteps(page, token, FUND_PASSWORD);
  const info = await api<ContractInfo>(page, token, 'get', '/account/getContractInfo');
  const rpcUrl = info.rpc[CHAIN_ID] ?? '';
  const usdt = info.tokens.find((entry) => entry.coin === 'USDT' && entry.chain === CHAIN_ID);
  expect(rpcUrl, 'the demo publishes its local RPC URL').toMatch(/^http:\/\//);
  if (!usdt) throw new Error('no USDT on chain 56');
  const chain = localChain(CHAIN_ID, rpcUrl);
  const reader = createPublicClient({ chain, transport: http(rpcUrl) });
  const balanceOf = (owner: Address) =>
    reader.readContract({ address: usdt.contract, abi: erc20Abi, functionName: 'balanceOf', args: [owner] });

  // A fresh wallet, funded by the demo faucet with gas and exactly the 1,000 USDT it will pay.
  const payer = privateKeyToAccount(generatePrivateKey());
  const faucet = createWalletClient({
    account: privateKeyToAccount(localChainKey(LOCAL_FAUCET_INDEX)),
    chain,
    transport: http(rpcUrl),
  });
  for (const hash of [
    await faucet.sendTransaction({ to: payer.address, value: parseEther('1') }),
    await faucet.writeContract({
      address: usdt.contract,
      abi: erc20Abi,
      functionName: 'transfer',
      args: [payer.address, parseUnits(DEPOSIT, usdt.decimals)],
    }),
  ]) {
    expect((await reader.waitForTransactionReceipt({ hash })).status).toBe('success');
  }
  expect(await balanceOf(payer.address)).toBe(parseUnits(DEPOSIT, usdt.decimals));
  const wallet = await injectTestWallet(page, payer, { chainId: CHAIN_ID, rpcUrl });

  // 1. Deposit by a plain transfer from the wallet.
  await page.goto(`${base()}/coinRecharge`);
  await dismissTips(page);
  const depositAddress = (await page.getByTestId('address-text').textContent()) ?? '';
  expect(depositAddress).toMatch(/^0x[0-9a-fA-F]{40}$/);
  await page.getByTestId('wallet-deposit-amount').locator('input').fill(DEPOSIT);
  await shot(page, '80-deposit-from-wallet');
  await page.getByTestId('wallet-deposit-send').click();
  await expect.poll(() => wallet.sent.length, { timeout: 30_000 }).toBe(1);
  // Hold the chain once the transfer is in a block, so it stays short of its confirmations while we look.
  await reader.waitForTransactionReceipt({ hash: wallet.sent[0] ?? '0x', pollingInterval: 100 });
  await setMining(rpcUrl, false);
  const state = page.getByTestId('deposit-records').getByTestId('record-state').first();
  try {
    await expect(state).toHaveText('Waiting', { timeout: 30_000 });
    await state.scrollIntoViewIfNeeded();
    await shot(page, '81-deposit-waiting');
  } finally {
    await setMining(rpcUrl, true);
  }
  await expect(state).toHaveText('Completed', { timeout: 90_000 });
  await shot(page, '82-deposit-completed');
  // One plain transfer of exactly the typed amount, to the token, never an approval (AMENDMENTS A1).
  expect(wallet.sent).toHaveLength(1);
  const paid = await reader.getTransaction({ hash: wallet.sent[0] ?? '0x' });
  expect(paid.to?.toLowerCase()).toBe(usdt.contract.toLowerCase());
  expect(decodeFunctionData({ abi: erc20Abi, data: paid.input })).toEqual({
    functionName: 'transfer',
    args: [getAddress(depositAddress), parseUnits(DEPOSIT, usdt.decimals)],
  });
  expect(await balanceOf(payer.address)).toBe(0n);
  expect(await balanceOf(depositAddress as Address)).toBe(parseUnits(DEPOSIT, usdt.decimals));

  await page.goto(`${base()}/balances`);
  await expect(page.getByTestId('asset-USDT')).toContainText(/1,?000\.0000/);
  await shot(page, '83-balances-after-deposit');

  // 2. Convert some to BTC, move some to futures.
  await page.goto(`${base()}/coinConvert`);
  await expect(page.getByTestId('quote-countdown')).toHaveText(/\d+ s/);
  await page.getByPlaceholder('Amount').fill(CONVERT);
  await expect(page.getByTestId('convert-receive')).not.toHaveText('≈ 0.00000000');
  await shot(page, '84-convert');
  await page.getByTestId('convert-submit').click();
  await page.getByTestId('convert-confirm-submit').click();
  await expect(page.getByText(/Converted: received/)).toBeVisible();
  await expect(page.locator('.hy-record-row').first()).toContainText('BTC');
  await shot(page, '85-convert-done');

  await page.goto(`${base()}/coinTransfer`);
  await expect(page.getByTestId('transfer-usable')).toContainText('800');
  await page.getByTestId('transfer-amount').locator('input').fill(TO_FUTURES);
  await shot(page, '86-transfer');
  await page.getByTestId('transfer-submit').click();
  await expect(page.getByText('Transfer done')).toBeVisible();
  await expect(page.getByTestId('transfer-usable')).toContainText('500');

  // 3. Withdraw to a second wallet: the fee is taken from the balance on top of the amount.
  const destination = privateKeyToAccount(generatePrivateKey()).address;
  await page.goto(`${base()}/coinWithdraw`);
  await expect(page.getByTestId('kyc-prompt')).toHaveCount(0);
  await page.getByTestId('add-address').click();
  await page.getByTestId('new-address').locator('input').fill(destination);
  await page.getByTestId('new-remark').locator('input').fill('Cold wallet');
  await shot(page, '87-withdraw-add-address');
  await page.getByTestId('save-address').click();
  await expect(page.getByText('Cold wallet')).toBeVisible();
  await page.getByTestId('withdraw-amount').locator('input').fill(WITHDRAW);
  await page.locator('.hy-field-box input[type=password]').fill(FUND_PASSWORD);
  await expect(page.locator('.adm-toast-main')).toHaveCount(0);
  await shot(page, '88-withdraw-filled');
  await page.getByTestId('withdraw-submit').click();
  const withdrawal = page.getByTestId('withdraw-records').getByTestId('record-state').first();
  await expect(withdrawal).toHaveText('Completed', { timeout: 90_000 });
  await withdrawal.scrollIntoViewIfNeeded();
  await shot(page, '89-withdraw-completed');
  expect(await balanceOf(destination)).toBe(parseUnits(WITHDRAW, usdt.decimals));

  // 1,000 − 200 converted − 300 to futures − (50 + 1 fee).
  await page.goto(`${base()}/coinTransfer`);
  await expect(page.getByTestId('transfer-usable')).toContainText('449');
});
