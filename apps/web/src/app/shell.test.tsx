// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../shared/auth-store.ts';
import { SESSION_KEYS } from '../shared/storage.ts';
import { Providers } from './Providers.tsx';
import { appRoutes } from './router.tsx';
import { TAB_BAR_HIDE_DELAY_MS } from './TabBarNav.tsx';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('../shared/ui/toast.ts', () => ({
  TOAST_MS: 2000,
  toast: (message: string) => toasts.push(message),
}));
vi.mock('../shared/live.ts', () => ({ live: () => ({ onMessage: () => () => undefined }) }));

function start(path: string) {
  const router = createMemoryRouter(appRoutes(), { initialEntries: [path] });
  render(
    <Providers>
      <RouterProvider router={router} />
    </Providers>,
  );
  return router;
}

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 20)));

beforeEach(() => {
  toasts.length = 0;
  sessionStorage.clear();
  useAuth.getState().signOut();
  vi.stubGlobal(
    'fetch',
    vi.fn(async () => new Response(JSON.stringify({ code: 404, msg: 'Not found', data: null }))),
  );
});

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('app shell', () => {
  it('stops a visitor on a login route: "please log in" and the login screen', async () => {
    const router = start('/balances');
    await settle();
    expect(router.state.location.pathname).toBe('/login');
    expect(router.state.location.state).toEqual({ from: '/balances' });
    expect(toasts).toContain('Please log in');
  });

  it('lets a signed-in user through', async () => {
    useAuth.getState().signIn('token', {
      id: 1,
      email: 'a@b.co',
      phone: null,
      areaCode: null,
      walletAddress: null,
      invitationCode: 'ABC',
      verification: 'none',
      verificationReason: null,
      recomurl: '',
      hasLoginPassword: true,
      hasFundPassword: false,
      lockedUntil: null,
      frozen: null,
    });
    const router = start('/balances');
    await settle();
    expect(router.state.location.pathname).toBe('/balances');
    // The screen is its own chunk (router.tsx lazyScreen): it shows once loaded.
    await vi.waitFor(() => expect(document.querySelector('.hy-funds')).not.toBeNull());
  });

  it('sends unknown paths home, keeps the title and remembers the route name', async () => {
    const router = start('/setting');
    await settle();
    expect(document.title).toBe('Halyard');
    expect(sessionStorage.getItem(SESSION_KEYS.lastRoute)).toBe('setting');
    await act(() => router.navigate('/no/such/page'));
    await settle();
    expect(router.state.location.pathname).toBe('/');
    expect(sessionStorage.getItem(SESSION_KEYS.lastRoute)).toBe('home');
  });

  it('slides deeper screens in from the right and shallower from the left', async () => {
    const router = start('/my');
    await settle();
    await act(() => router.navigate('/setting'));
    expect(document.querySelector('.hy-page')?.className).toContain('hy-slide-left');
    await act(() => router.navigate('/my'));
    expect(document.querySelector('.hy-page')?.className).toContain('hy-slide-right');
  });

  it('shows the tab bar on tab screens and hides it shortly after leaving', async () => {
    const router = start('/');
    await settle();
    const bar = () => document.querySelector('.hy-tabbar');
    expect(bar()?.className).not.toContain('hidden');
    await act(() => router.navigate('/my'));
    expect(bar()?.className).not.toContain('hidden');
    await act(async () => new Promise((resolve) => setTimeout(resolve, TAB_BAR_HIDE_DELAY_MS + 50)));
    expect(bar()?.className).toContain('hidden');
  });
});
