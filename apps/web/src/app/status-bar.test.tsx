// @vitest-environment happy-dom
import { cleanup, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useStatusBarStyle } from './status-bar.ts';

function meta(name: string): HTMLMetaElement {
  const element = document.querySelector<HTMLMetaElement>(`meta[name="${name}"]`);
  if (!element) throw new Error(`no meta ${name}`);
  return element;
}

/** The page as index.html starts it, in a browser tab or as an installed app. */
function startPage(installed: boolean): void {
  document.head.innerHTML =
    '<meta name="theme-color" content="#0b0e11"><meta name="apple-mobile-web-app-status-bar-style" content="default">';
  vi.spyOn(window, 'matchMedia').mockImplementation(
    (query: string) => ({ matches: installed && query === '(display-mode: standalone)' }) as MediaQueryList,
  );
}

afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

describe('the status bar of the installed app (spec §2)', () => {
  beforeEach(() => startPage(true));

  it('is light on my, coinRecharge, inviteFriends and balances', () => {
    for (const route of ['my', 'coinRecharge', 'inviteFriends', 'balances']) {
      renderHook(() => useStatusBarStyle(route));
      expect([route, meta('theme-color').content]).toEqual([route, '#0b0e11']);
      expect(meta('apple-mobile-web-app-status-bar-style').content).toBe('black');
      cleanup();
    }
  });

  it('is dark elsewhere, and follows the screen', () => {
    const { rerender } = renderHook(({ route }) => useStatusBarStyle(route), {
      initialProps: { route: 'balances' },
    });
    rerender({ route: 'coinExchange' });
    expect(meta('theme-color').content).toBe('#eaecef');
    expect(meta('apple-mobile-web-app-status-bar-style').content).toBe('default');
  });
});

describe('in a browser tab', () => {
  it('leaves the page theme alone', () => {
    startPage(false);
    renderHook(() => useStatusBarStyle('coinExchange'));
    expect(meta('theme-color').content).toBe('#0b0e11');
  });
});
