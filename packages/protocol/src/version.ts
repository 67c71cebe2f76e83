/**
 * The release this build of Halyard is: the server reports it as `nowCode` at
 * /home/versions, and the web app is built with it, so an app left open (or
 * kept by its service worker) learns that the server has moved on. Bump it
 * with each release.
 */
export const HALYARD_VERSION = '0.1.0';

/** The numeric parts of "1.2.3" (a missing or non-numeric part counts as 0). */
function versionParts(version: string): number[] {
  return version.split('.').map((part) => Number.parseInt(part, 10) || 0);
}

/** Whether `candidate` is a later release than `current`, comparing dotted numbers part by part. */
export function isNewerVersion(candidate: string, current: string): boolean {
  const a = versionParts(candidate);
  const b = versionParts(current);
  for (let index = 0; index < Math.max(a.length, b.length); index += 1) {
    const difference = (a[index] ?? 0) - (b[index] ?? 0);
    if (difference !== 0) return difference > 0;
  }
  return false;
}
