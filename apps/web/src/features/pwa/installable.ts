import { create } from 'zustand';
import { SKIP_WAITING } from '../../sw/messages.ts';

/**
 * The installed-app side of the web app (spec §2 /downloadApp, "app update
 * dialogs"): the service worker's registration, a waiting new version, and the
 * browser's install offer.
 */

/** Chromium's install offer (not in TypeScript's DOM types). */
export interface InstallPromptEvent extends Event {
  prompt(): Promise<void>;
  userChoice: Promise<{ outcome: 'accepted' | 'dismissed' }>;
}

interface InstallableState {
  /** A newer service worker is installed and waits to take over. */
  workerWaiting: boolean;
  /** The browser's install offer, kept from page load until used. */
  installPrompt: InstallPromptEvent | null;
  /** Installed during this visit (the offer was accepted). */
  installed: boolean;
}

export const useInstallable = create<InstallableState>(() => ({
  workerWaiting: false,
  installPrompt: null,
  installed: false,
}));

/** Running as an installed app (home-screen icon), not in a browser tab. */
export function isInstalledApp(): boolean {
  const iosStandalone = (navigator as Navigator & { standalone?: boolean }).standalone === true;
  return iosStandalone || window.matchMedia('(display-mode: standalone)').matches;
}

/** iPhone and iPad (iPadOS reports itself as a Mac with touch): installs through Share → Add to Home Screen. */
export function isIos(): boolean {
  const { userAgent, maxTouchPoints } = navigator;
  return /iPhone|iPad|iPod/.test(userAgent) || (/Macintosh/.test(userAgent) && maxTouchPoints > 1);
}

function watchForWaiting(registration: ServiceWorkerRegistration): void {
  const flagIfWaiting = () => {
    // Only an update waits: the first worker of a page activates at once.
    if (registration.waiting && navigator.serviceWorker.controller)
      useInstallable.setState({ workerWaiting: true });
  };
  flagIfWaiting();
  registration.addEventListener('updatefound', () => {
    registration.installing?.addEventListener('statechange', flagIfWaiting);
  });
}

/**
 * Registers /sw.js once the page has loaded (its precaching must not compete
 * with the first screen for the network) and keeps the browser's install offer
 * for /downloadApp instead of letting the browser show its own banner.
 */
export function startInstallable(): void {
  window.addEventListener('beforeinstallprompt', (event) => {
    event.preventDefault();
    useInstallable.setState({ installPrompt: event as InstallPromptEvent });
  });
  window.addEventListener('appinstalled', () =>
    useInstallable.setState({ installPrompt: null, installed: true }),
  );
  if (!('serviceWorker' in navigator) || !import.meta.env.PROD) return;
  const register = () => {
    navigator.serviceWorker
      .register('/sw.js', { scope: '/' })
      .then(watchForWaiting)
      .catch(() => {
        // Without a worker the app works as a plain web page.
      });
  };
  if (document.readyState === 'complete') register();
  else window.addEventListener('load', register, { once: true });
}

function installedOrGone(worker: ServiceWorker): Promise<void> {
  return new Promise((resolve) => {
    const settled = () => worker.state === 'installed' || worker.state === 'redundant';
    if (settled()) return resolve();
    worker.addEventListener('statechange', () => settled() && resolve());
  });
}

export type UpdateOutcome = 'reloading' | 'offline' | 'failed';

/**
 * Moves this page to the server's current build: fetches the service worker
 * anew, lets the new one take over, and reloads. With nothing new to install
 * (no worker, or the same build) a reload is the update. Spec §8 "app update":
 * no network, or a failed resource update, is reported instead.
 */
export async function applyUpdate(): Promise<UpdateOutcome> {
  if (!navigator.onLine) return 'offline';
  const registration =
    'serviceWorker' in navigator ? await navigator.serviceWorker.getRegistration() : undefined;
  if (registration) {
    try {
      await registration.update();
    } catch {
      return navigator.onLine ? 'failed' : 'offline';
    }
    const incoming = registration.installing ?? registration.waiting;
    if (incoming) {
      await installedOrGone(incoming);
      if (incoming.state === 'redundant') return 'failed';
      if (navigator.serviceWorker.controller) {
        navigator.serviceWorker.addEventListener('controllerchange', () => window.location.reload(), {
          once: true,
        });
        incoming.postMessage({ type: SKIP_WAITING });
        return 'reloading';
      }
    }
  }
  window.location.reload();
  return 'reloading';
}
