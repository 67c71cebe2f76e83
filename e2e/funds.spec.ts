import { expect } from '@playwright/test';
import { base, completeDepositSteps, dismissTips, registerAndSignIn, shot, test } from './support.ts';

test('a user sees a deposit address with its QR code, receives a demo deposit and moves USDT to futures', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const { token } = await registerAndSignIn(page, 'funds');

  // Spec §6: no deposit address before identity verification and a fund password (the email is bound).
  await page.goto(`${base()}/coinRecharge`);
  await dismissTips(page);
  await expect(page.getByTestId('deposit-steps')).toBeVisible();
  await expect(page.getByTestId('step-kyc')).toContainText('Please complete identity verification first');
  await expect(page.getByTestId('step-fund-password')).toHaveAttribute('data-done', 'false');
  await expect(page.getByTestId('step-email')).toHaveAttribute('data-done', 'true');
  await expect(page.getByTestId('step-email')).toHaveText('✓ Bind email');
  await expect(page.getByTestId('deposit-address')).toHaveCount(0);
  await shot(page, '69-deposit-steps');
  await page.getByTestId('step-kyc').getByRole('button').click();
  await expect(page).toHaveURL(`${base()}/idAuth`);
  await completeDepositSteps(page, token, '246810');

  await page.goto(`${base()}/coinRecharge`);
  await expect(page.getByTestId('deposit-steps')).toHaveCount(0);
  await expect(page.getByTestId('address-text')).toHaveText(/^0x[0-9a-fA-F]{40}$/);
  await expect(page.getByTestId('deposit-qr').locator('svg')).toBeVisible();
  await shot(page, '70-deposit');

  // The demo wallet pays the address on the local chain; the record waits for confirmations, then completes.
  await page.getByTestId('demo-deposit-send').click();
  await expect(page.getByTestId('deposit-records').getByTestId('record-state').first()).toBeVisible({
    timeout: 30_000,
  });
  await expect(page.getByTestId('deposit-records').getByTestId('record-state').first()).toHaveText(
    'Completed',
    {
      timeout: 90_000,
    },
  );
  await shot(page, '71-deposit-completed');

  await page.goto(`${base()}/coinTransfer`);
  await expect(page.getByTestId('transfer-usable')).toContainText('100');
  await page.getByTestId('transfer-amount').locator('input').fill('40');
  await shot(page, '72-transfer');
  await page.getByTestId('transfer-submit').click();
  await expect(page.getByText('Transfer done')).toBeVisible();
  await expect(page.getByTestId('transfer-usable')).toContainText('60');

  await page.goto(`${base()}/balances`);
  await page.getByRole('tab', { name: 'Futures' }).click();
  await expect(page.getByTestId('wallet-total')).toHaveText('40.0000');
  await shot(page, '73-balances-futures');

  // The other funds screens, for a look: withdraw (verified for the deposit: no prompt; a bad checksum) and convert.
  await page.goto(`${base()}/coinWithdraw`);
  await expect(page.getByTestId('withdraw-amount')).toBeVisible();
  await expect(page.getByTestId('kyc-prompt')).toHaveCount(0);
  await page.getByTestId('add-address').click();
  await page.getByTestId('new-address').locator('input').fill('0x52908400098527886E0F7030069857D2E4169EE8');
  await page.getByTestId('new-remark').locator('input').fill('Mine');
  await page.getByTestId('save-address').click();
  await expect(page.locator('.adm-toast-main')).toBeVisible();
  await shot(page, '74-withdraw');
  await page.goto(`${base()}/coinConvert`);
  await expect(page.getByTestId('quote-countdown')).toHaveText(/\d+ s/);
  await page.getByPlaceholder('Amount').fill('20');
  await expect(page.getByTestId('convert-receive')).not.toHaveText('≈ 0.00000000');
  await shot(page, '75-convert');
  await page.getByTestId('convert-submit').click();
  await page.getByTestId('convert-confirm-submit').click();
  await expect(page.getByText(/Converted: received/)).toBeVisible();
  await expect(page.locator('.hy-record-row').first()).toContainText('BTC');
  await shot(page, '77-convert-done');
  await page.goto(`${base()}/balanceRecord?coin=USDT&wallet=spot`);
  await expect(page.getByTestId('balance-record').locator('.hy-record-row').first()).toBeVisible();
  await shot(page, '76-balance-record');
});
