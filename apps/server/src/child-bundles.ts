import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { serverBundleOptions } from '../scripts/bundle.mjs';
import { SERVER_DIR } from './paths.ts';

/**
 * Where tests' child processes are bundled: one folder below apps/server, as
 * dist/ is, because a bundle finds the server's own files from there
 * (paths.ts).
 */
const CHILD_BUNDLES_DIR = path.join(SERVER_DIR, '.test-children');

const built = new Map<string, Promise<string>>();

/**
 * A script a test runs as a child process (a core or server it kills, a
 * cluster node), as plain JavaScript bundled the way a deployment's build
 * bundles the server (scripts/bundle.mjs), worker threads' bundles beside it.
 * Under tsx, every start compiled and loaded some 400 modules through the
 * loader's hooks again, in the child and in each of its worker threads: 3.4 s
 * to a started core, against 1.4 s bundled. Answers the bundle's path, built
 * once per test process.
 *
 * `source` is a path under apps/server (`src/...`). Two test processes may
 * build the same bundle at once: each file is written under a name of its own
 * and renamed into place (both write the same bytes), so no child reads a
 * file half written.
 */
export function childBundle(source: string): Promise<string> {
  let bundle = built.get(source);
  if (!bundle) {
    bundle = buildChild(source);
    built.set(source, bundle);
  }
  return bundle;
}

async function buildChild(source: string): Promise<string> {
  const name = source
    .replace(/^src\//, '')
    .replace(/\.ts$/, '')
    .replaceAll('/', '--');
  const result = await build({
    ...serverBundleOptions(SERVER_DIR, { [name]: source }, CHILD_BUNDLES_DIR),
    write: false,
  });
  await fs.mkdir(CHILD_BUNDLES_DIR, { recursive: true });
  for (const file of result.outputFiles ?? []) {
    const partial = `${file.path}.${process.pid}-${randomBytes(4).toString('hex')}`;
    await fs.writeFile(partial, file.contents);
    await fs.rename(partial, file.path);
  }
  return path.join(CHILD_BUNDLES_DIR, `${name}.js`);
}
