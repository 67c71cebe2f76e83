// `npm run build -w @halyard/server`: the server as plain JavaScript in dist/,
// for `node apps/server/dist/main.js` (and dist/audit-cli.js for the ledger audit; the
// money core's worker threads load the other bundles).
//
// The workspace packages (@halyard/*) are TypeScript sources that Node cannot
// load, so they are bundled in with the server's own code. Every package from
// the registry stays external, loaded from node_modules as usual: native addons
// (better-sqlite3, argon2) cannot be bundled, and some packages read their own
// files at run time (swagger-ui's assets).
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Bare imports other than @halyard/* stay imports: Node resolves them in node_modules at run time. */
const registryPackagesExternal = {
  name: 'registry-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@halyard/') ? undefined : { path: args.path, external: true },
    );
  },
};

await build({
  absWorkingDir: serverDir,
  entryPoints: {
    main: 'src/main.ts',
    'audit-cli': 'src/ledger/audit-cli.ts',
    // The worker threads' entries, each a bundle of its own (core/worker-entry.ts names them).
    'projection-worker': 'src/projection/worker.ts',
    'snapshot-sink-worker': 'src/core/sequencer/snapshot-sink-worker.ts',
    'money-writers': 'src/money-core/writers.ts',
  },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  plugins: [registryPackagesExternal],
  sourcemap: true,
  logLevel: 'warning',
});
