import { expect, type Page } from '@playwright/test';
import { startOwnServer } from './servers/own-server.ts';
import { completeDepositSteps, dismissTips, registerAndSignIn, test as shared, shot } from './support.ts';

/** One jump of the server's clock: past the demo ad's 20-minute window, and past a 15-minute ban. */
const JUMP_MS = 21 * 60_000;

interface ClockServer {
  url: string;
  /** Moves the server's time forward by JUMP_MS (servers/adjustable-clock-server.ts). */
  jump(): void;
}

/**
 * This file's own demo server (its port, its data directory) whose clock the
 * test moves: a payment window cannot be waited out in real time, and the
 * shared server's clock must not move under the other specs.
 */
const test = shared.extend<object, { clockServer: ClockServer }>({
  clockServer: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern.
    async ({}, use) => {
      const server = await startOwnServer('adjustable-clock-server.ts', {
        E2E_CLOCK_STEP_MS: String(JUMP_MS),
      });
      try {
        await use({ url: server.url, jump: () => server.process.kill('SIGUSR2') });
      } finally {
        await server.stop();
      }
    },
    { scope: 'worker' },
  ],
});

// The ban's end is shown in the browser's zone: UTC here, as the test computes it.
test.use({ baseURL: async ({ clockServer }, use) => use(clockServer.url), timezoneId: 'UTC' });

const SHOWN_TIME = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

/** Buys 100 USDT from the DEMO merchant and leaves the order unpaid; returns its id. */
async function placeUnpaidBuy(page: Page): Promise<number> {
  await page.getByTestId('otc-amount').locator('input').fill('725');
  await page.getByTestId('otc-submit').click();
  await expect(page.getByTestId('otc-order-state')).toHaveText('To be paid');
  await expect(page.getByTestId('otc-order')).toContainText('within 20 minutes');
  return Number(new URL(page.url()).searchParams.get('order'));
}

/** The ban in force as the server reports it (GET /fiat/myBans). */
async function banInForce(page: Page, token: string): Promise<{ startsAt: number; endsAt: number } | null> {
  const standing = await (await page.request.get('/fiat/myBans', { headers: { token } })).json();
  return standing.data.ban;
}

test('an order left unpaid expires when its window passes: the payer sees the fiat ban with its reason and end, longer the second time', async ({
  page,
  clockServer,
}) => {
  test.setTimeout(120_000);
  const { token } = await registerAndSignIn(page, 'fiat-expiry', clockServer.url);
  await completeDepositSteps(page, token, '246810', clockServer.url);
  await page.goto('/otc');
  await dismissTips(page);
  await expect(page.getByTestId('otc-rules')).toContainText('15 min → 30 min → 60 min → 240 min');

  for (const [round, banMinutes] of [15, 30].entries()) {
    const orderId = await placeUnpaidBuy(page);
    // The window passes on the server's clock; its scheduler cancels the order on its next tick.
    clockServer.jump();
    await expect(page.getByTestId('otc-order-state')).toHaveText('Cancelled');
    await expect(page.getByTestId('otc-expired')).toHaveText(
      'Payment overdue beyond 20 minutes: please re-apply',
    );
    if (round === 0) await shot(page, 'fiat-11-expired');
    await page.getByRole('button', { name: '← Back' }).click();

    // The ban's rule (the ladder's next step), its reason and its end, on the screen.
    const ban = await banInForce(page, token);
    expect(ban).not.toBeNull();
    expect((ban?.endsAt ?? 0) - (ban?.startsAt ?? 0)).toBe(banMinutes * 60_000);
    const shown = page.getByTestId('otc-ban');
    await expect(shown).toContainText(`Fiat trading suspended until ${SHOWN_TIME.format(ban?.endsAt)}`);
    await expect(shown).toContainText(`Order ${orderId} was not paid within 20 minutes`);
    if (round === 1) await shot(page, 'fiat-12-expiry-ban');

    // A new order is refused with the same reason and end.
    await page.getByTestId('otc-amount').locator('input').fill('725');
    await page.getByTestId('otc-submit').click();
    await expect(
      page.getByText(/Fiat trading is suspended until .* \(UTC\): Order \d+ was not paid within 20 minutes/),
    ).toContainText(`Order ${orderId} `);
    await expect(page.getByTestId('otc-order')).toHaveCount(0);

    if (round === 0) {
      // The 15-minute ban runs out when the clock passes its end: the rules stand again.
      clockServer.jump();
      await expect.poll(() => banInForce(page, token)).toBeNull();
      await page.reload();
      await expect(page.getByTestId('otc-rules')).toContainText('15 min → 30 min → 60 min → 240 min');
      await expect(page.getByTestId('otc-ban')).toHaveCount(0);
    }
  }
});
