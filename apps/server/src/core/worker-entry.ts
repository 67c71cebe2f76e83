import { Worker, type WorkerOptions } from 'node:worker_threads';

/**
 * Where this file runs from: its TypeScript source (tsx: the tests, `npm
 * start`), or inlined into a bundle in dist/ (`npm run build`), where every
 * worker entry is a bundle of its own beside main.js (scripts/build.mjs).
 */
const fromSources = import.meta.url.endsWith('.ts');

/**
 * The URL a worker thread loads for a module: `sourceUrl` (a .ts file) when
 * run from the sources; in a build, the bundle named `bundleName` that
 * scripts/build.mjs writes for it. A bundle's own `import.meta.url` is the
 * file it was inlined into, so a module that names itself for a worker
 * (`import.meta.url`) must go through this.
 */
export function workerModule(sourceUrl: string, bundleName: string): string {
  return fromSources ? sourceUrl : new URL(`./${bundleName}.js`, import.meta.url).href;
}

/**
 * Starts a worker thread on `entry` (from workerModule). Node 20 loads a
 * worker's entry before any --import hook, so from the sources the worker
 * registers tsx itself before loading it; a bundle is plain JavaScript.
 */
export function startWorker(entry: string, options: WorkerOptions): Worker {
  const load = `import(${JSON.stringify(entry)})`;
  const boot = entry.endsWith('.ts')
    ? `import('tsx/esm/api').then((tsx) => { tsx.register(); return ${load}; });`
    : load;
  return new Worker(boot, { ...options, eval: true });
}
