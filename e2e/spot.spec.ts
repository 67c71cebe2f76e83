import { expect } from '@playwright/test';
import { base, dismissTips, registerAndSignIn, shot, test } from './support.ts';

test('a user gets play money, places and cancels a limit buy, buys at market, and sees candles', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await registerAndSignIn(page, 'spot');

  // Play money from the faucet on the balances screen.
  await page.goto(`${base()}/balances`);
  await dismissTips(page);
  await expect(page.getByTestId('demo-note')).toBeVisible();
  await page.getByTestId('faucet').click();
  await expect(page.getByTestId('asset-USDT')).not.toContainText(/\b0\.0000\b.*\b0\.0000\b.*\b0\.0000\b/);
  await expect(page.getByTestId('total-usdt')).not.toHaveText('0.0000');
  await shot(page, '60-balances');

  // A limit buy well under the market rests in the book as an open order.
  await page.goto(`${base()}/coinExchange`);
  await dismissTips(page);
  await expect(page.getByTestId('book-bids').locator('button').first()).toBeVisible();
  await shot(page, '61-spot-market-order-form');
  await page.getByTestId('pair-picker').click();
  await expect(page.locator('.hy-pair-option').first()).toBeVisible();
  await page.waitForTimeout(400); // the slide-in
  await shot(page, '67-spot-pair-popup');
  await page
    .locator('.adm-mask')
    .last()
    .click({ position: { x: 370, y: 400 } });
  await page.getByTestId('order-style').click();
  await page.locator('.adm-action-sheet-button-item', { hasText: 'Limit' }).click();
  await page.getByTestId('price').locator('input').fill('1000');
  await page.getByTestId('amount').locator('input').fill('0.01');
  await page.getByTestId('place-order').click();
  await expect(page.locator('.adm-dialog')).toContainText('Buy BTC?');
  await shot(page, '62-spot-confirm');
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByTestId('open-orders').getByTestId('order-card')).toHaveCount(1);
  await shot(page, '63-spot-open-order');

  // Cancel asks first, then the order leaves the list.
  await page.getByTestId('cancel-order').click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('No open orders')).toBeVisible();

  // A market buy fills against the demo market maker: BTC arrives.
  await page.getByRole('tab', { name: 'Sell' }).click();
  const btcBefore = (await page.getByTestId('usable').textContent()) ?? '';
  await page.getByRole('tab', { name: 'Buy' }).click();
  await page.getByTestId('order-style').click();
  await page.locator('.adm-action-sheet-button-item', { hasText: 'Market' }).click();
  await page.getByTestId('amount').locator('input').fill('0.01');
  await page.getByTestId('place-order').click();
  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.getByText('Order placed')).toBeVisible();
  await page.getByRole('tab', { name: 'Sell' }).click();
  await expect(page.getByTestId('usable')).not.toHaveText(btcBefore);
  await shot(page, '64-spot-after-market-buy');

  await page.getByTestId('record-link').click();
  await expect(page.getByTestId('exchange-record').getByTestId('order-card').first()).toBeVisible();
  await page.waitForTimeout(400); // the slide-in
  await shot(page, '65-exchange-record');

  // The chart: history first, candles drawn.
  await page.goto(`${base()}/marketDetails/trad`);
  await expect(page.getByTestId('kline-chart').locator('canvas').first()).toBeVisible();
  await expect(page.getByTestId('market-price')).not.toHaveText('0');
  await page.waitForTimeout(1500);
  await shot(page, '66-market-details');
  // A custom main indicator (registered with klinecharts) and the time-share line draw (without errors: see support.ts).
  await page.getByTestId('main-indicator').click();
  await page.locator('.adm-action-sheet-button-item', { hasText: 'MIKE' }).click();
  await page.getByRole('tab', { name: 'Line' }).click();
  await page.waitForTimeout(1000);
  await shot(page, '68-market-details-line-mike');
});
