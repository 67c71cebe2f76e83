// How the server becomes plain JavaScript: scripts/build.mjs (dist/, what a
// deployment runs) and the tests' child processes (src/child-bundles.ts)
// bundle with these options, so a child a test kills runs the code a
// deployment runs.
//
// The workspace packages (@halyard/*) are TypeScript sources that Node cannot
// load, so they are bundled in with the server's own code. Every package from
// the registry stays external, loaded from node_modules as usual: native addons
// (better-sqlite3, argon2) cannot be bundled, and some packages read their own
// files at run time (swagger-ui's assets).

/** The worker threads' entries, each a bundle of its own beside the main one (core/worker-entry.ts names them). */
const WORKER_ENTRIES = {
  'projection-worker': 'src/projection/worker.ts',
  'snapshot-sink-worker': 'src/core/sequencer/snapshot-sink-worker.ts',
  'money-writers': 'src/money-core/writers.ts',
};

/** Bare imports other than @halyard/* stay imports: Node resolves them in node_modules at run time. */
const registryPackagesExternal = {
  name: 'registry-packages-external',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) =>
      args.path.startsWith('@halyard/') ? undefined : { path: args.path, external: true },
    );
  },
};

/**
 * esbuild's options for `entryPoints` (name → source under apps/server) and
 * the worker entries. `outdir` must sit one folder below apps/server: the
 * bundle finds the server's own files from there (src/paths.ts).
 */
export function serverBundleOptions(serverDir, entryPoints, outdir) {
  return {
    absWorkingDir: serverDir,
    entryPoints: { ...entryPoints, ...WORKER_ENTRIES },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20.19',
    plugins: [registryPackagesExternal],
    logLevel: 'warning',
  };
}
