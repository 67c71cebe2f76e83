import { defineConfig } from 'vitest/config';
// The web app's i18n imports one locale's server messages at a time (virtual modules).
import { serverMessagesPlugin } from './apps/web/src/i18n/vite-plugin.ts';

export default defineConfig({
  plugins: [serverMessagesPlugin()],
  test: {
    include: [
      'tests/**/*.test.ts',
      'packages/*/src/**/*.test.ts',
      'apps/server/src/**/*.test.ts',
      'apps/web/src/**/*.test.{ts,tsx}',
    ],
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
