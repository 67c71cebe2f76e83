import type { BuildOptions } from 'esbuild';

export declare const WORKER_ENTRIES: Record<string, string>;
export declare function serverBundleOptions(
  serverDir: string,
  entryPoints: Record<string, string>,
  outdir: string,
): BuildOptions;
