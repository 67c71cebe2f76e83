import { Dec } from '@halyard/money';
import { expect, type Page } from '@playwright/test';
import { base, demoCode, dismissTips, shot, test } from './support.ts';

interface Position {
  orderid: string;
  type: 'buy' | 'sell';
  state: 'open' | 'settled';
  result: 'win' | 'loss' | 'draw' | null;
  open_price: string;
  close_price: string | null;
  close_ts: number | null;
  expires_at: number;
}

/** A user registered through the API (the demo code /user/getCode shows), with demo play money. */
async function registeredUser(page: Page) {
  const email = `cycle-${Date.now()}@example.com`;
  const code = await demoCode(page.request, email, 'register');
  const registered = await page.request.post(`${base()}/member/register`, {
    data: { account: email, code, password: 'abc12345', confirmPassword: 'abc12345', agreed: true },
  });
  const { token, member } = (await registered.json()).data as { token: string; member: unknown };
  await page.request.post(`${base()}/account/demoFaucet`, { headers: { token } });
  return { token, member };
}

test('a user opens a 30 s up contract, watches the countdown and sees a result that matches the recorded prices', async ({
  page,
}) => {
  test.setTimeout(150_000);
  const { token, member } = await registeredUser(page);
  await page.addInitScript(
    ([sessionToken, user]) => {
      localStorage.setItem('token', sessionToken);
      localStorage.setItem('userInfo', user);
      localStorage.setItem('isLogin', 'true');
    },
    [token, JSON.stringify(member)] as const,
  );
  await page.goto(`${base()}/cycle`);
  await dismissTips(page);
  await expect(page.getByTestId('cycle-price')).not.toHaveText('0.00');
  await page.waitForTimeout(1500); // the chart's first bars
  await shot(page, '40-cycle');

  await page.getByTestId('cycle-up').click();
  await expect(page.getByTestId('cycle-usable')).toContainText('10,000');
  await page.getByTestId('cycle-quantity').locator('input').fill('5');
  await page.getByTestId('cycle-lever-60').click();
  // A duration whose minimum (20) exceeds the quantity clears it.
  await expect(page.getByTestId('cycle-quantity').locator('input')).toHaveValue('');
  await page.getByTestId('cycle-lever-30').click();
  await page.getByTestId('cycle-quantity').locator('input').fill('100');
  await expect(page.getByTestId('cycle-terms')).toContainText('80.00%');
  await expect(page.getByTestId('cycle-terms')).toContainText('100.00%');
  await expect(page.getByTestId('cycle-terms')).toContainText('78.4000');
  await shot(page, '41-cycle-trade-popup');

  const placed = page.waitForResponse((response) => response.url().endsWith('/cycle/buyMarket'));
  await page.getByTestId('cycle-submit').click();
  const position = (await (await placed).json()).data as Position;
  expect(position.state).toBe('open');

  const box = page.getByTestId('cycle-box');
  await expect(box).toBeVisible();
  const first = Number(
    await box
      .getByTestId('cycle-countdown')
      .textContent()
      .then((text) => (text ?? '').replace(/\D/g, '')),
  );
  expect(first).toBeGreaterThan(20);
  expect(first).toBeLessThanOrEqual(30);
  await page.waitForTimeout(2500);
  const later = Number(
    await box
      .getByTestId('cycle-countdown')
      .textContent()
      .then((text) => (text ?? '').replace(/\D/g, '')),
  );
  expect(later).toBeLessThan(first);
  await shot(page, '42-cycle-countdown');

  const result = page.getByTestId('cycle-result');
  await expect(result).toBeVisible({ timeout: 45_000 });
  await expect(box).toHaveCount(0);
  await page.waitForTimeout(400); // the popup's slide-in
  await shot(page, '43-cycle-result');

  const answer = await page.request.get(`${base()}/cycle/positionById`, {
    params: { orderId: position.orderid },
    headers: { token },
  });
  const [settled] = (await answer.json()).data as Position[];
  expect(settled?.state).toBe('settled');
  const move = Dec.parse(settled?.close_price ?? '0').cmp(Dec.parse(settled?.open_price ?? '0'));
  const expected = move > 0 ? 'win' : move < 0 ? 'loss' : 'draw';
  expect(settled?.result).toBe(expected);
  expect(settled?.close_ts).toBeLessThanOrEqual(settled?.expires_at ?? 0);
  const headline = { win: 'You won', loss: 'You lost', draw: 'Draw: stake returned' }[expected];
  await expect(result).toContainText(headline);
  await expect(result).toContainText('halyard-simulator');

  await page.getByRole('button', { name: 'Confirm' }).click();
  await expect(page.locator('.adm-tabs-tab-active')).toContainText('History');
  await expect(page.getByTestId('cycle-card').first()).toBeVisible();
  await shot(page, '44-cycle-history-tab');

  await page.goto(`${base()}/cycleHistory`);
  await expect(page.getByTestId('cycle-card')).toHaveCount(1);
  await shot(page, '45-cycle-history');
});
