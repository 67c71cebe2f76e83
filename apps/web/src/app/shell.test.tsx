// @vitest-environment happy-dom
import { act, cleanup, render } from '@testing-library/react';
import { type Location, MemoryRouter, useLocation } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useAuth } from '../shared/auth-store.ts';
import { goTo } from '../shared/navigation.ts';
import { SESSION_KEYS } from '../shared/storage.ts';
import { Providers } from './Providers.tsx';
import { AppRoutes } from './router.tsx';
import { TAB_BAR_HIDE_DELAY_MS } from './TabBarNav.tsx';

const toasts = vi.hoisted(() => [] as string[]);
vi.mock('../shared/ui/toast.ts', () => ({
  TOAST_MS: 2000,
  toast: (message: string) => toasts.push(message),
}));
vi.mock('../shared/live.ts', () => ({ live: () => ({ onMessage: () => () => undefined }) }));

/** Where the router is, read after each render. */
let routerLocation: Location;
function LocationProbe() {
  routerLocation = useLocation();
  return null;
}

function start(path: string) {
  render(
    <Providers>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <LocationProbe />
      </MemoryRouter>
    </Providers>,
  );
}

/** Moves the app the way code outside React does (shared/navigation.ts, wired by the layout). */
const navigate = (to: string) => act(() => goTo(to));

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
    start('/balances?tab=futures');
    await settle();
    expect(routerLocation.pathname).toBe('/login');
    // In the query, not the history state: it survives a reload and a visit to /register.
    expect(new URLSearchParams(routerLocation.search).get('redirect')).toBe('/balances?tab=futures');
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
    start('/balances');
    await settle();
    expect(routerLocation.pathname).toBe('/balances');
    // The screen is its own chunk (router.tsx lazyScreen): it shows once loaded.
    await vi.waitFor(() => expect(document.querySelector('.hy-funds')).not.toBeNull());
  });

  it('sends unknown paths home, keeps the title and remembers the route name', async () => {
    start('/setting');
    await settle();
    expect(document.title).toBe('Halyard');
    expect(sessionStorage.getItem(SESSION_KEYS.lastRoute)).toBe('setting');
    await navigate('/no/such/page');
    await settle();
    expect(routerLocation.pathname).toBe('/');
    expect(sessionStorage.getItem(SESSION_KEYS.lastRoute)).toBe('home');
  });

  it('slides deeper screens in from the right and shallower from the left', async () => {
    start('/my');
    await settle();
    await navigate('/setting');
    expect(document.querySelector('.hy-page')?.className).toContain('hy-slide-left');
    await navigate('/my');
    expect(document.querySelector('.hy-page')?.className).toContain('hy-slide-right');
  });

  it('shows the tab bar on tab screens and hides it shortly after leaving', async () => {
    start('/');
    await settle();
    const bar = () => document.querySelector('.hy-tabbar');
    expect(bar()?.className).not.toContain('hidden');
    await navigate('/my');
    expect(bar()?.className).not.toContain('hidden');
    await act(async () => new Promise((resolve) => setTimeout(resolve, TAB_BAR_HIDE_DELAY_MS + 50)));
    expect(bar()?.className).toContain('hidden');
  });
});
