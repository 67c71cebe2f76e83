// `npm run build -w @halyard/server`: the server as plain JavaScript in dist/,
// for `node apps/server/dist/main.js` (and dist/audit-cli.js for the ledger audit; the
// money core's worker threads load the other bundles). What is bundled and
// what stays external: scripts/bundle.mjs.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import { serverBundleOptions } from './bundle.mjs';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

await build({
  ...serverBundleOptions(serverDir, { main: 'src/main.ts', 'audit-cli': 'src/ledger/audit-cli.ts' }, 'dist'),
  sourcemap: true,
});
