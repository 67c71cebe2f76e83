import { SESSION_KEYS, session } from './storage.ts';

/** Spec §4/§9 live-data timings. */
export const RECONNECT_DELAY_MS = 15_000;
export const IDLE_PING_MS = 30_000;
export const PONG_TIMEOUT_MS = 30_000;
export const SUBSCRIBE_RETRY_MS = 1_500;

/** Screens whose subscription is re-sent after a reconnect (spec §4). */
export const RESUBSCRIBING_ROUTES = ['coinExchange', 'futures', 'marketDetails', 'cycle'] as const;

/** The part of the browser WebSocket the client uses, so tests can pass a fake. */
export interface SocketLike {
  readonly readyState: number;
  onopen: ((event: Event) => void) | null;
  onclose: ((event: CloseEvent) => void) | null;
  onerror: ((event: Event) => void) | null;
  onmessage: ((event: MessageEvent) => void) | null;
  send(data: string): void;
  close(): void;
}

const OPEN = 1;

export interface LiveClientOptions {
  /** Absolute ws:// or wss:// base, e.g. `wss://example.org/ws`. */
  baseUrl: string;
  createSocket(url: string): SocketLike;
  /** The route the user is on, to decide whether to re-subscribe. */
  currentRouteName(): string | null;
  /** Heartbeat frame (protocol PING); any reply counts as the answer. */
  pingMessage: string;
  /** Query string added to each connection, e.g. `lang=cn` for localised errors. */
  query?(): string;
  now?(): number;
  random?(): number;
}

export type LiveListener = (message: unknown) => void;

/** Spec §7: clientId = time plus a random number. */
export function makeClientId(now: number, random: number): string {
  return `${now}${Math.floor(random * 1_000_000)
    .toString()
    .padStart(6, '0')}`;
}

function parse(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/**
 * The one live-data connection (spec §4 "Live-data connection"): reconnects
 * 15 s after a close or error with at most one pending retry, pings after
 * 30 s without traffic and closes when no reply comes within 30 s, keeps the
 * last subscription in session storage and re-sends it after a reconnect on
 * the trading screens, and retries a subscription every 1.5 s until the
 * socket is open.
 */
export function createLiveClient(options: LiveClientOptions) {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const listeners = new Set<LiveListener>();
  let socket: SocketLike | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let idleTimer: ReturnType<typeof setTimeout> | null = null;
  let pongTimer: ReturnType<typeof setTimeout> | null = null;
  let subscribeTimer: ReturnType<typeof setTimeout> | null = null;
  let everOpened = false;
  let stopped = false;

  function clear(timer: ReturnType<typeof setTimeout> | null): null {
    if (timer !== null) clearTimeout(timer);
    return null;
  }

  function isOpen(): boolean {
    return socket !== null && socket.readyState === OPEN;
  }

  function armHeartbeat(): void {
    idleTimer = clear(idleTimer);
    pongTimer = clear(pongTimer);
    idleTimer = setTimeout(() => {
      idleTimer = null;
      if (!isOpen()) return;
      socket?.send(options.pingMessage);
      pongTimer = setTimeout(() => {
        pongTimer = null;
        socket?.close();
      }, PONG_TIMEOUT_MS);
    }, IDLE_PING_MS);
  }

  function scheduleReconnect(): void {
    if (stopped || reconnectTimer !== null) return;
    reconnectTimer = setTimeout(() => {
      reconnectTimer = null;
      connect();
    }, RECONNECT_DELAY_MS);
  }

  function shouldResubscribe(): boolean {
    const route = options.currentRouteName();
    return route !== null && (RESUBSCRIBING_ROUTES as readonly string[]).includes(route);
  }

  function connect(): void {
    if (stopped) return;
    const query = options.query?.() ?? '';
    const url = `${options.baseUrl}/${makeClientId(now(), random())}${query ? `?${query}` : ''}`;
    const current = options.createSocket(url);
    socket = current;
    current.onopen = () => {
      if (socket !== current) return;
      const reconnected = everOpened;
      everOpened = true;
      armHeartbeat();
      const last = session.get(SESSION_KEYS.webSocketKey);
      if (reconnected && last !== null && shouldResubscribe()) current.send(last);
    };
    current.onmessage = (event) => {
      if (socket !== current) return;
      armHeartbeat();
      const message = parse(event.data);
      for (const listener of listeners) listener(message);
    };
    const lost = () => {
      if (socket !== current) return;
      socket = null;
      idleTimer = clear(idleTimer);
      pongTimer = clear(pongTimer);
      scheduleReconnect();
    };
    current.onclose = lost;
    current.onerror = lost;
  }

  function trySubscribe(message: string): void {
    subscribeTimer = clear(subscribeTimer);
    if (isOpen()) {
      socket?.send(message);
      return;
    }
    subscribeTimer = setTimeout(() => trySubscribe(message), SUBSCRIBE_RETRY_MS);
  }

  return {
    connect,
    /** Sends a subscription now or as soon as the socket opens; remembered for reconnects. */
    subscribe(message: string): void {
      session.set(SESSION_KEYS.webSocketKey, message);
      trySubscribe(message);
    },
    onMessage(listener: LiveListener): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    isOpen,
    close(): void {
      stopped = true;
      reconnectTimer = clear(reconnectTimer);
      idleTimer = clear(idleTimer);
      pongTimer = clear(pongTimer);
      subscribeTimer = clear(subscribeTimer);
      const current = socket;
      socket = null;
      current?.close();
    },
  };
}

export type LiveClient = ReturnType<typeof createLiveClient>;
