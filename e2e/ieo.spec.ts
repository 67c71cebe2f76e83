import { expect } from '@playwright/test';
import { base, dismissTips, registerAndSignIn, shot, test } from './support.ts';

const ADMIN = { 'admin-token': 'e2e-admin-token' };
const SECOND_IN_DAYS = 1 / 86_400;

/**
 * Issue 15 in the browser (390×844): a user subscribes to the demo FCFS sale
 * and sees the locked order, then commits to a commit-mode sale that another
 * user oversubscribes, sees the ratio and expected allocation before
 * committing, receives the allocation and refund when the window ends, and a
 * tranche released to spot.
 */
test('a user subscribes to an FCFS sale and a commit-mode sale, and sees allocation, refund and a release', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const { token } = await registerAndSignIn(page, 'ieo');
  await page.request.post(`${base()}/account/demoFaucet`, { headers: { token }, data: {} });

  // FCFS: the demo sale.
  await page.goto(`${base()}/ieo`);
  await dismissTips(page);
  await page.getByTestId('ieo-card-NOVA').click();
  await page.getByTestId('ieo-subscribe').click();
  await page.getByTestId('ieo-amount').locator('input').fill('20');
  await expect(page.getByTestId('ieo-expected')).toHaveText('400.00 NOVA');
  await page.getByTestId('ieo-confirm').click();
  await expect(page.getByText('Subscription successful')).toBeVisible();

  // Commit mode: a sale that ends in 30 s, oversubscribed by someone else.
  const now = Date.now();
  const created = await page.request.post(`${base()}/admin/ieo/projects`, {
    headers: ADMIN,
    data: {
      coin: 'EEXT',
      name: 'E2E commit sale',
      mode: 'commit',
      startTime: now,
      endTime: now + 30_000,
      total: '1000',
      tokenDecimals: 0,
      payCoins: [{ paycoin: 'USDT', price: '1' }],
      minNumber: '1',
      maxNumber: '600',
      vesting: {
        kind: 'tranches',
        cliffDays: 5 * SECOND_IN_DAYS,
        tranches: 2,
        intervalDays: 3600 * SECOND_IN_DAYS,
      },
      refusedAreaCodes: ['850'],
    },
  });
  const project = (await created.json()).data as { id: number; endTime: number };
  const other = await registerAndSignIn(await page.context().newPage(), 'ieo-other');
  await page.request.post(`${base()}/account/demoFaucet`, { headers: { token: other.token }, data: {} });
  const committed = await page.request.post(`${base()}/ieo/addIeoOrder`, {
    headers: { token: other.token },
    data: { id: project.id, paycoin: 'USDT', number: '1500' },
  });
  expect((await committed.json()).code).toBe(200);

  await page.goto(`${base()}/ieoDetail/${project.id}`);
  await expect(page.getByTestId('ieo-terms')).toContainText('Subscription ratio ×1.5');
  // Who may subscribe is stated before anyone tries.
  await expect(page.getByTestId('ieo-terms')).toContainText('Open to every account');
  await expect(page.getByTestId('ieo-terms')).toContainText('Not available to phone numbers from +850');
  await page.getByTestId('ieo-subscribe').click();
  await page.getByTestId('ieo-amount').locator('input').fill('500');
  // 1000 × 500 ÷ 2000 before redistribution.
  await expect(page.getByTestId('ieo-expected')).toHaveText('250 EEXT');
  await expect(page.getByTestId('ieo-subscribe-sheet')).toContainText('Subscription ratio ×2');
  await shot(page, 'ieo-commit-sheet');
  await page.getByTestId('ieo-confirm').click();
  await expect(page.getByText('Commitment received: held until allocation')).toBeVisible();

  await page.goto(`${base()}/ieoOrders`);
  await expect(page.getByTestId('ieo-order-NOVA')).toContainText('Locked');
  await expect(page.getByTestId('ieo-order-NOVA')).toContainText('420.00000000 NOVA');
  await expect(page.getByTestId('ieo-order-EEXT')).toContainText('Committed');

  // The window ends on the server's clock: the other user is capped at 600, the 400 left are ours; 100 back.
  await page.waitForTimeout(Math.max(0, project.endTime - Date.now()));
  const order = page.getByTestId('ieo-order-EEXT');
  await expect(order).toContainText('400.00000000 EEXT', { timeout: 15_000 });
  await expect(order).toContainText('100.00000000 USDT');
  await expect(order).toContainText('Allocation proof');
  // Tranche 1 (half) is released to spot 5 s after the end.
  await expect(order).toContainText(/Released\s*200\.00000000 EEXT/, { timeout: 20_000 });
  await shot(page, 'ieo-orders');
  // …and the token is in Assets, the spot wallet's coins.
  await page.goto(`${base()}/balances`);
  await expect(page.getByTestId('asset-EEXT')).toContainText('200');
  await page.getByTestId('asset-EEXT').scrollIntoViewIfNeeded();
  await shot(page, 'ieo-released-in-assets');
});
