import { unstableSetRender } from 'antd-mobile';
import { startTransition } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import './app/app.css';
import { Providers } from './app/Providers.tsx';
import { AppRouter } from './app/router.tsx';
import { startInstallable } from './features/pwa/installable.ts';
import { startLocale } from './i18n/index.ts';
import { useAuth } from './shared/auth-store.ts';

// antd-mobile 5 renders toasts and dialogs with React 18's API; on React 19 it
// needs createRoot handed in (https://mobile.ant.design/guide/v5-for-19).
const roots = new WeakMap<Element | DocumentFragment, Root>();
unstableSetRender((node, container) => {
  const root = roots.get(container) ?? createRoot(container);
  roots.set(container, root);
  root.render(node);
  return async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
    root.unmount();
    roots.delete(container);
  };
});

document.documentElement.setAttribute('data-prefers-color-scheme', 'dark');
// The wallet stack (viem) is its own chunk, fetched only when there is a wallet to restore.
if (useAuth.getState().walletAddress) {
  void import('./features/wallet/wallet.ts').then(({ restoreWallet }) => restoreWallet());
}

startInstallable();

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root');
const root = createRoot(container);
// The chosen language's texts come before the first render (English is in the bundle).
// Not a top-level await: that would make the bundler split the entry into many small chunks.
void startLocale().then(() => {
  // A transition renders in slices that yield to the browser: the first render
  // of home is no single long task on a slow phone (the shell stays painted meanwhile).
  startTransition(() => {
    root.render(
      <Providers>
        <AppRouter />
      </Providers>,
    );
  });
});
