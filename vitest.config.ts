import os from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
// The web app's i18n imports one locale's server messages at a time (virtual modules).
import { serverMessagesPlugin } from './apps/web/src/i18n/vite-plugin.ts';

const everyTest = [
  'tests/**/*.test.ts',
  'packages/*/src/**/*.test.ts',
  'apps/server/src/**/*.test.ts',
  'apps/web/src/**/*.test.{ts,tsx}',
  'apps/admin/src/**/*.test.{ts,tsx}',
];

/**
 * `scripts/test.sh` sets HALYARD_TEST_POSTGRES_URL when PostgreSQL is
 * reachable: the server tests then run a second time on it, as a second
 * project in the same run, so both share the worker pool instead of running
 * one after the other. Without it, TEST_DATABASE_URL (if set) decides the
 * store of the one project, as before.
 */
const postgresUrl = process.env.HALYARD_TEST_POSTGRES_URL;

const projects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: process.env.TEST_DATABASE_URL && !postgresUrl ? 'postgres' : 'sqlite',
      include: everyTest,
      ...(postgresUrl ? { env: { TEST_DATABASE_URL: '' } } : {}),
    },
  },
];
if (postgresUrl) {
  projects.push({
    extends: true,
    test: {
      name: 'postgres',
      include: ['apps/server/src/**/*.test.ts'],
      // The journal keeps no rows in a database: one run of its tests is enough.
      exclude: ['apps/server/src/core/journal/**'],
      env: { TEST_DATABASE_URL: postgresUrl },
    },
  });
}

export default defineConfig({
  plugins: [serverMessagesPlugin()],
  test: {
    projects,
    // Vitest's default on two cores is one worker; most server tests wait on
    // I/O (databases, local chains, timers) as much as they compute, so two
    // or more overlap well.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
