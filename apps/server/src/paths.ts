import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * apps/server, found from this module's own place: it sits one folder down both
 * in the sources (src/paths.ts) and in the built bundle (dist/main.js, into
 * which esbuild inlines it), so files read at run time resolve the same way
 * whether the server runs through tsx or as built JavaScript.
 */
export const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Banner images and other static files served at /assets/. */
export const ASSETS_DIR = path.join(SERVER_DIR, 'assets');

/** apps/web/dist: where `npm run build -w @halyard/web` puts the app. */
export const WEB_DIST_DIR = path.join(SERVER_DIR, '../web/dist');

/** apps/admin/dist: where `npm run build -w @halyard/admin` puts the operator console. */
export const ADMIN_DIST_DIR = path.join(SERVER_DIR, '../admin/dist');
