import type { BuildOptions } from 'esbuild';

export declare function serverBundleOptions(
  serverDir: string,
  entryPoints: Record<string, string>,
  outdir: string,
): BuildOptions;
