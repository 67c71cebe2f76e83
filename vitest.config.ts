import os from 'node:os';
import { defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
// The web app's i18n imports one locale's server messages at a time (virtual modules).
import { serverMessagesPlugin } from './apps/web/src/i18n/vite-plugin.ts';

/** Server, packages and repository checks: plain Node modules, no DOM and no module mocks. */
const nodeTests = ['tests/**/*.test.ts', 'packages/*/src/**/*.test.ts', 'apps/server/src/**/*.test.ts'];
/** The web app and the console: a DOM, and module mocks that must not leak into another file. */
const browserTests = ['apps/web/src/**/*.test.{ts,tsx}', 'apps/admin/src/**/*.test.{ts,tsx}'];

/**
 * `scripts/test.sh` sets HALYARD_TEST_POSTGRES_URL when PostgreSQL is
 * reachable: the server tests then run a second time on it, as a second
 * project in the same run, so both share the worker pool instead of running
 * one after the other. Without it, TEST_DATABASE_URL (if set) decides the
 * store of the one project, as before.
 *
 * The Node projects run their files one after another in each worker without
 * a fresh module graph per file (`isolate: false`): importing the server
 * again for every file cost a third of the run. It is safe because those
 * tests share nothing through modules: each opens its own store and app, no
 * Node test mocks a module or stubs a global, and the one that fakes timers
 * restores them. The web project keeps isolation (they mock modules).
 */
const postgresUrl = process.env.HALYARD_TEST_POSTGRES_URL;

const projects: TestProjectInlineConfiguration[] = [
  {
    extends: true,
    test: {
      name: process.env.TEST_DATABASE_URL && !postgresUrl ? 'postgres' : 'sqlite',
      include: nodeTests,
      isolate: false,
      ...(postgresUrl ? { env: { TEST_DATABASE_URL: '' } } : {}),
    },
  },
  { extends: true, test: { name: 'web', include: browserTests } },
];
if (postgresUrl) {
  projects.push({
    extends: true,
    test: {
      name: 'postgres',
      include: ['apps/server/src/**/*.test.ts'],
      // The core (journals, sequencer, in-memory state) keeps no rows in a
      // database: one run of its tests is enough.
      exclude: ['apps/server/src/core/**'],
      isolate: false,
      env: { TEST_DATABASE_URL: postgresUrl },
    },
  });
}

/**
 * Files that take a minute or more (processes killed and started again,
 * failovers, minutes of market ticks), measured in a full run. Vitest starts
 * the slowest files first only when its cache of an earlier run says which
 * they are, and CI runs on a clean clone without one: a two-minute file that
 * happens to start last leaves one worker running it alone at the end.
 * Longest first keeps both workers busy to the end.
 */
const SLOW_FILES = [
  'apps/server/src/cluster/failover.test.ts',
  'apps/server/src/money-core/sigkill.test.ts',
  // The second multi-process cluster test, never beside the first (both start four processes: beside each other on
  // two cores, a failover node once printed nothing within the test's 60 s bound for a step, stop 39's CI). With two
  // workers, this file waits for two of the three above to end; failover (60 to 110 s) ends before the two sigkill
  // files (85 to 145 s each) both do, so it is one of them.
  'apps/server/src/cluster/gateways.test.ts',
  'apps/server/src/modules/futures/market-maker.test.ts',
  'apps/server/src/modules/futures/futures.test.ts',
  'apps/server/src/ledger/ledger.property.test.ts',
];

class SlowFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const rank = (file: TestSpecification) => {
      const index = SLOW_FILES.findIndex((slow) => file.moduleId.endsWith(slow));
      return index === -1 ? SLOW_FILES.length : index;
    };
    // A stable sort: every other file keeps the order Vitest chose.
    return (await super.sort(files)).sort((a, b) => rank(a) - rank(b));
  }
}

export default defineConfig({
  plugins: [serverMessagesPlugin()],
  test: {
    projects,
    // Vitest's default on two cores is one worker; most server tests wait on
    // I/O (databases, local chains, timers) as much as they compute, so two
    // or more overlap well.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    sequence: { sequencer: SlowFilesFirst },
    testTimeout: 30_000,
    hookTimeout: 30_000,
  },
});
