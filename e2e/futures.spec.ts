import { expect, type Page } from '@playwright/test';
import { base, dismissTips, registerAndSignIn, shot, test } from './support.ts';

/** Answers the open confirm dialog with its OK button. */
async function confirmDialog(page: Page) {
  const footer = page.locator('.adm-dialog-footer');
  await footer.getByRole('button', { name: /Confirm|确定|确认/ }).click();
  await expect(footer).toHaveCount(0);
}

test('a user funds futures, opens a 10× long with TP and SL, sets a TP, closes part then all, and saves a poster', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const user = await registerAndSignIn(page, 'futures');
  // Play money in spot, then spot → futures.
  const faucet = await page.request.post(`${base()}/account/demoFaucet`, { headers: { token: user.token } });
  expect((await faucet.json()).code).toBe(200);
  const transfer = await page.request.post(`${base()}/account/contractTransfer`, {
    headers: { token: user.token },
    data: { coin: 'USDT', number: '5000', from: 'spot', to: 'futures' },
  });
  expect((await transfer.json()).code).toBe(200);

  await page.goto(`${base()}/futures`);
  await dismissTips(page);
  await expect(page.getByTestId('futures-price')).not.toContainText('0.00');
  await expect(page.getByTestId('futures-usable')).toContainText('5,000');
  await expect(page.getByTestId('book-sell').first()).toBeVisible();
  await shot(page, '50-futures');

  // The drawer of contracts.
  await page.getByTestId('futures-drawer').click();
  await expect(page.getByTestId('futures-pair').first()).toBeVisible();
  await page.waitForTimeout(400);
  await shot(page, '51-futures-drawer');
  await page.getByTestId('futures-pair').filter({ hasText: 'BTC' }).first().click();

  // Isolated (its liquidation price is shown; a cross position draws on the whole balance), 10×, market, 2 lots; a TP below the price for a long is refused in the server's words.
  await page.getByTestId('futures-mode').getByText('Isolated').click();
  await page.getByTestId('futures-lever').click();
  await page.locator('.adm-action-sheet-button-item').filter({ hasText: /^10×$/ }).click();
  await expect(page.getByTestId('futures-lever')).toHaveText('10×');
  await page.getByTestId('futures-quantity').locator('input').fill('2');
  await expect(page.getByTestId('futures-margin')).not.toBeEmpty();
  const price = Number((await page.getByTestId('futures-price-input').locator('input').inputValue()) || '0');
  expect(price).toBeGreaterThan(0);
  await page
    .getByTestId('futures-tp')
    .locator('input')
    .fill(String(Math.floor(price * 0.5)));
  await page.getByTestId('futures-submit').click();
  await expect(page.locator('.adm-toast-main')).toContainText(/take-profit/i);
  await page
    .getByTestId('futures-tp')
    .locator('input')
    .fill(String(Math.ceil(price * 1.5)));
  await page
    .getByTestId('futures-sl')
    .locator('input')
    .fill(String(Math.floor(price * 0.6)));
  await page.getByTestId('futures-submit').click();
  await expect(page.locator('.adm-dialog')).toContainText('2 lots');
  await shot(page, '52-futures-confirm');
  await confirmDialog(page);

  // The position card with its liquidation price.
  const card = page.getByTestId('position-card').first();
  await expect(card).toBeVisible();
  await expect(card).toContainText('Long');
  await expect(card).toContainText('Isolated');
  await expect(card).toContainText('10×');
  await expect(card).toContainText(/Est\. liquidation price\d/);
  await expect(card.getByTestId('position-tpsl')).toContainText('(1)');
  await page.getByTestId('futures-tab-position').scrollIntoViewIfNeeded();
  await shot(page, '53-futures-position');

  // A second TP/SL on /stopPl.
  await card.getByTestId('position-tpsl').click();
  await expect(page).toHaveURL(/\/stopPl$/);
  await expect(page.getByTestId('tpsl-order')).toHaveCount(1);
  await page.getByTestId('tpsl-add').click();
  await page
    .getByTestId('tpsl-profitPrice')
    .locator('input')
    .fill(String(Math.ceil(price * 1.3)));
  await page.getByTestId('tpsl-save').click();
  await expect(page.getByTestId('tpsl-order')).toHaveCount(2);
  await shot(page, '54-stoppl');
  await page.goBack();

  // Partial close: 1 of the 2 lots.
  await expect(card).toBeVisible();
  await card.getByTestId('position-partial').click();
  await page.getByTestId('partial-quantity').locator('input').fill('1');
  await shot(page, '55-partial-close');
  await page.getByTestId('partial-submit').click();
  await expect(card.getByTestId('position-tpsl')).toBeVisible();
  await expect(card).toContainText(/Quantity \(lots\)1(?!\d)/);

  // The poster of the open position.
  await card.getByTestId('position-poster').click();
  await expect(page.getByTestId('poster')).toBeVisible();
  await expect(page.getByTestId('poster').locator('canvas')).toBeVisible();
  await expect(page.getByTestId('poster-headline')).toHaveText(/^[+-]?\d+\.\d{2}%$/);
  await page.waitForTimeout(400);
  await shot(page, '56-poster');
  const download = page.waitForEvent('download');
  await page.getByTestId('poster-save').click();
  const saved = await download;
  expect(saved.suggestedFilename()).toMatch(/^halyard-BTC-\d+\.png$/);
  await saved.saveAs('e2e/screenshots/56-poster-saved.png');
  await page
    .locator('.adm-mask')
    .last()
    .click({ position: { x: 10, y: 10 } });

  // Close the rest.
  await card.getByTestId('position-close').click();
  await confirmDialog(page);
  await expect(page.getByTestId('position-card')).toHaveCount(0);

  // A limit order at a tapped bid rests as an entrust card; cancelling asks first.
  await page.getByTestId('futures-style').getByText('Limit').click();
  await page.getByTestId('book-buy').last().click();
  await expect(page.getByTestId('futures-price-input').locator('input')).not.toHaveValue('');
  await page.getByTestId('futures-quantity').locator('input').fill('1');
  await page.getByTestId('futures-submit').click();
  await confirmDialog(page);
  const entrust = page.getByTestId('entrust-card').first();
  await expect(entrust).toContainText('Limit');
  await entrust.scrollIntoViewIfNeeded();
  await shot(page, '59-futures-entrust');
  await entrust.getByTestId('entrust-cancel').click();
  await confirmDialog(page);
  await expect(page.getByTestId('entrust-card')).toHaveCount(0);

  // A short at market, closed through the close-by-side sheet.
  await page.getByTestId('futures-style').getByText('Market').click();
  await page.getByTestId('futures-direction').getByText('Short').click();
  await page.getByTestId('futures-quantity').locator('input').fill('1');
  await page.getByTestId('futures-submit').click();
  await confirmDialog(page);
  await expect(page.getByTestId('position-card').first()).toContainText('Short');
  await page.getByTestId('close-side').click();
  await page.waitForTimeout(400);
  await shot(page, '60-close-by-side');
  await page.locator('.adm-action-sheet-button-item').filter({ hasText: 'Close shorts' }).click();
  await confirmDialog(page);
  await expect(page.getByTestId('position-card')).toHaveCount(0);

  // History: the closed position and its poster.
  await page.goto(`${base()}/futuresRecord`);
  await page.locator('.adm-tabs-tab', { hasText: 'Closed positions' }).click();
  await expect(page.getByTestId('closed-position').first()).toBeVisible();
  await shot(page, '57-futures-record');
  await page.getByTestId('closed-position').first().click();
  await expect(page.getByTestId('poster')).toBeVisible();

  // The same screen in Chinese.
  await page.evaluate(() => localStorage.setItem('lang', 'cn'));
  await page.goto(`${base()}/futures`);
  // The direction chosen last is kept for the session (spec §3).
  await expect(page.getByTestId('futures-submit')).toHaveText('卖出开空');
  await page.getByTestId('futures-direction').getByText('开多').click();
  await expect(page.getByTestId('futures-submit')).toHaveText('买入开多');
  await shot(page, '58-futures-cn');
});
