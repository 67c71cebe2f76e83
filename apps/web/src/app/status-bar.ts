import { useEffect } from 'react';
import { isInstalledApp } from '../features/pwa/installable.ts';

/** Spec §2: the status bar's text is light on these screens and dark on all others (installed app only). */
const LIGHT_STATUS_BAR: ReadonlySet<string> = new Set(['my', 'coinRecharge', 'inviteFriends', 'balances']);

/**
 * A browser draws the status bar of an installed app in the page's theme
 * colour and picks the text's shade to contrast: a dark bar gives light text.
 * iOS reads its own meta at launch only, so there the first screen decides.
 */
const STYLES = {
  light: { themeColor: '#0b0e11', appleStyle: 'black' },
  dark: { themeColor: '#eaecef', appleStyle: 'default' },
} as const;

function setMeta(name: string, content: string): void {
  document.querySelector(`meta[name="${name}"]`)?.setAttribute('content', content);
}

/** Sets the status bar's style for the screen named `route` (RouteDef name). */
export function useStatusBarStyle(route: string): void {
  useEffect(() => {
    if (!isInstalledApp()) return;
    const style = STYLES[LIGHT_STATUS_BAR.has(route) ? 'light' : 'dark'];
    setMeta('theme-color', style.themeColor);
    setMeta('apple-mobile-web-app-status-bar-style', style.appleStyle);
  }, [route]);
}
