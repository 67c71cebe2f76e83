import type { Plugin } from 'vite';
// Relative on purpose: the bundler inlines it into the config, where Node alone could not load a
// workspace package's TypeScript.
import { isLocale, messages } from '../../../../packages/protocol/src/index.ts';

/** `import server from 'virtual:server-messages/cn'`: the server's messages in one locale. */
export const SERVER_MESSAGES_PREFIX = 'virtual:server-messages/';
const RESOLVED_PREFIX = `\0${SERVER_MESSAGES_PREFIX}`;

/**
 * Build-time half of the app's i18n (used by vite.config.ts and the root vitest config).
 * @halyard/protocol keeps each domain's messages in all nine locales in one object, so a
 * bundle importing it ships every language. This plugin serves one locale's messages per
 * module, evaluated at build time, and the app loads only the languages it shows.
 */
export function serverMessagesPlugin(): Plugin {
  return {
    name: 'halyard-server-messages',
    resolveId(id) {
      if (!id.startsWith(SERVER_MESSAGES_PREFIX)) return null;
      const locale = id.slice(SERVER_MESSAGES_PREFIX.length);
      if (!isLocale(locale)) throw new Error(`${id}: not one of the nine locales`);
      return `${RESOLVED_PREFIX}${locale}`;
    },
    load(id) {
      if (!id.startsWith(RESOLVED_PREFIX)) return null;
      const locale = id.slice(RESOLVED_PREFIX.length);
      if (!isLocale(locale)) return null;
      return `export default ${JSON.stringify(messages[locale])};`;
    },
  };
}
