import { PING } from '@halyard/protocol';
import { currentLocale } from '../i18n/index.ts';
import { SESSION_KEYS, session } from './storage.ts';
import { createLiveClient, type LiveClient } from './ws.ts';

let client: LiveClient | null = null;

/** The app's one live-data connection, opened on first use. */
export function live(): LiveClient {
  if (client) return client;
  const scheme = window.location.protocol === 'https:' ? 'wss' : 'ws';
  client = createLiveClient({
    baseUrl: `${scheme}://${window.location.host}/ws`,
    createSocket: (url) => new WebSocket(url),
    currentRouteName: () => session.get(SESSION_KEYS.lastRoute),
    pingMessage: PING,
    query: () => `lang=${currentLocale()}`,
  });
  client.connect();
  return client;
}
