import { expect, type Page } from '@playwright/test';

export const base = () => {
  const url = process.env.E2E_BASE_URL;
  if (!url) throw new Error('E2E_BASE_URL is set by global-setup.ts');
  return url;
};

export const shot = (page: Page, name: string) => page.screenshot({ path: `e2e/screenshots/${name}.png` });

/** The tip popups of a first visit; each is shown once until read. */
export async function dismissTips(page: Page) {
  const gotIt = page.getByRole('button', { name: /Got it|我知道了/ }).first();
  for (let shown = 0; shown < 2; shown += 1) {
    const appeared = await gotIt.waitFor({ state: 'visible', timeout: 3000 }).then(
      () => true,
      () => false,
    );
    if (!appeared) return;
    await gotIt.click();
    await gotIt.waitFor({ state: 'hidden' });
  }
}

/**
 * A new user registered by email with the code from the dev outbox (as
 * journey.spec.ts does through the screen), signed in in this page.
 */
export async function registerAndSignIn(page: Page, prefix: string) {
  const email = `${prefix}-${Date.now()}@example.com`;
  await page.request.get(`${base()}/user/getCode`, { params: { account: email, purpose: 'register' } });
  const outbox = await (
    await page.request.get(`${base()}/dev/outbox`, { params: { recipient: email } })
  ).json();
  const code = (outbox.data as { body: string }[])[0]?.body.match(/\b(\d{6})\b/)?.[1] ?? '';
  expect(code, 'a 6-digit code in the outbox').toMatch(/^\d{6}$/);
  const registered = await page.request.post(`${base()}/member/register`, {
    data: { account: email, code, password: 'abc12345', confirmPassword: 'abc12345', agreed: true },
  });
  const { token, member } = (await registered.json()).data as { token: string; member: unknown };
  await page.addInitScript(
    ([sessionToken, user]) => {
      localStorage.setItem('token', sessionToken);
      localStorage.setItem('userInfo', user);
      localStorage.setItem('isLogin', 'true');
    },
    [token, JSON.stringify(member)] as const,
  );
  return { email, token };
}
