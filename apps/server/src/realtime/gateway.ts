import type { Writable } from 'node:stream';
import websocket, { type WebSocket } from '@fastify/websocket';
import {
  COALESCED_PUSH_TYPES,
  type ErrorPush,
  type Locale,
  marketKey,
  PING,
  PONG,
  type PushType,
  parseSubscriptionKey,
  type ServerPush,
  subscriptionKey,
  toLocale,
  translate,
} from '@halyard/protocol';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Clock } from '../clock.ts';
import { Coalescer } from './coalescer.ts';
import { textFrame, transportOf } from './frame.ts';
import type { Publishable, Publisher } from './publisher.ts';

export interface GatewayOptions {
  clock: Clock;
  /**
   * One snapshot push (depth, ticker, lists) per type and key per this time
   * on average, with one push of slack; the latest wins (see Coalescer).
   */
  coalesceMs?: number;
  /** A client whose unsent data exceeds this is dropped rather than buffered further. */
  maxBufferedBytes?: number;
  /** A client silent for longer than this is disconnected (the spec's client pings after 30 s idle). */
  idleMs?: number;
  /** How often the idle check runs once started. */
  sweepEveryMs?: number;
  maxClients?: number;
  /** Told of a bug met while handling one socket's events (that socket is then closed). */
  onError?: (error: unknown) => void;
}

interface Client {
  id: string;
  socket: WebSocket;
  /** Where the socket's frames are written; pushes go there as pre-built frames. */
  transport: Writable;
  locale: Locale;
  lastSeenAt: number;
  /** The market key and the K-line key (null without a period) of the one subscription held. */
  subscription: { market: string; kline: string | null } | null;
}

/** A frame and where it goes. */
interface Delivery {
  route: Route;
  frame: Buffer;
}

/** Every client gets these, whatever it subscribes to. */
const BROADCAST_TYPES: ReadonlySet<PushType> = new Set(['overview', 'symbols', 'consymbols']);
const COALESCED: ReadonlySet<PushType> = new Set(COALESCED_PUSH_TYPES);
const CLIENT_ID = /^[A-Za-z0-9_.-]{1,64}$/;
/** Close codes: 1008 policy (bad client id), 1013 try again later (server full). */
const CLOSE_POLICY = 1008;
const CLOSE_TRY_LATER = 1013;
/** Inbound frames are subscription keys and pings: a few dozen bytes. */
const MAX_INBOUND_BYTES = 1024;
const PONG_FRAME = textFrame(PONG);

/**
 * The WebSocket gateway at `/ws/:clientId` (spec §7 "Live data", DESIGN §7).
 * One WebSocket frame is built per push (JSON serialised once, framed once)
 * and the same bytes are written to every recipient. Snapshot pushes are
 * coalesced per type and key, so a burst of depth changes costs each client
 * one frame per 100 ms (after one of slack), while a steady 10 a second pass
 * undelayed; a client that cannot keep up is dropped, never buffered without
 * bound.
 */
export class RealtimeGateway implements Publisher {
  private readonly clients = new Set<Client>();
  private readonly byMarket = new Map<string, Set<Client>>();
  private readonly byKline = new Map<string, Set<Client>>();
  /** The latest snapshot frame of each broadcast type, sent to a client when it connects. */
  private readonly latestBroadcast = new Map<PushType, Buffer>();
  /** The latest snapshot frames of each market, sent to a client when it subscribes. */
  private readonly latestByMarket = new Map<string, Map<PushType, Buffer>>();
  private readonly coalescer: Coalescer<Delivery>;
  private readonly maxBufferedBytes: number;
  private readonly idleMs: number;
  private readonly sweepEveryMs: number;
  private readonly maxClients: number;
  private sweeper: NodeJS.Timeout | null = null;

  constructor(private readonly options: GatewayOptions) {
    this.coalescer = new Coalescer({
      intervalMs: options.coalesceMs ?? 100,
      now: () => performance.now(),
      emit: ({ route, frame }) => this.deliver(route, frame),
    });
    this.maxBufferedBytes = options.maxBufferedBytes ?? 1024 * 1024;
    this.idleMs = options.idleMs ?? 60_000;
    this.sweepEveryMs = options.sweepEveryMs ?? 10_000;
    this.maxClients = options.maxClients ?? 10_000;
  }

  /** Adds the WebSocket plugin and the `/ws/:clientId` route to the HTTP server. */
  async register(http: FastifyInstance): Promise<void> {
    // No permessage-deflate: a broadcast frame is built once and must go out as is to every socket.
    await http.register(websocket, { options: { maxPayload: MAX_INBOUND_BYTES, perMessageDeflate: false } });
    http.get<{ Params: { clientId: string }; Querystring: { lang?: unknown } }>(
      '/ws/:clientId',
      { websocket: true, schema: { hide: true } },
      (socket, request) => this.accept(socket, request),
    );
  }

  publish(push: Publishable): void {
    // Not `{ ...push, ts }`: a spread followed by a new field takes V8's slow path (ledger/accounts.ts, accountKey).
    const stamped = Object.assign({}, push, { ts: this.options.clock.now() }) as ServerPush;
    const route = routeOf(stamped);
    // K-line frames are neither remembered nor coalesced: nobody on the key, nothing to do.
    if (route.to === 'kline' && !this.byKline.has(route.key)) return;
    const frame = textFrame(JSON.stringify(stamped));
    this.rememberSnapshot(stamped, frame);
    if (COALESCED.has(stamped.type)) this.coalescer.offer(`${stamped.type}|${route.key}`, { route, frame });
    else this.deliver(route, frame);
  }

  /** Starts the idle check. */
  start(): void {
    if (this.sweeper) return;
    this.sweeper = setInterval(() => this.sweepIdle(), this.sweepEveryMs);
    this.sweeper.unref();
  }

  /** Disconnects every client silent for longer than the idle limit. */
  sweepIdle(): void {
    const now = this.options.clock.now();
    for (const client of this.clients) {
      if (now - client.lastSeenAt > this.idleMs) this.drop(client);
    }
  }

  clientCount(): number {
    return this.clients.size;
  }

  /** Stops the timers; the HTTP server closes the sockets. */
  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = null;
    this.coalescer.close();
  }

  private accept(
    socket: WebSocket,
    request: FastifyRequest<{ Params: { clientId: string }; Querystring: { lang?: unknown } }>,
  ): void {
    if (!CLIENT_ID.test(request.params.clientId)) {
      socket.close(CLOSE_POLICY, 'bad client id');
      return;
    }
    if (this.clients.size >= this.maxClients) {
      socket.close(CLOSE_TRY_LATER, 'server full');
      return;
    }
    const client: Client = {
      id: request.params.clientId,
      socket,
      transport: transportOf(socket),
      // Browsers cannot set headers on a WebSocket: `?lang=` carries the choice.
      locale: toLocale(request.query?.lang) ?? request.locale,
      lastSeenAt: this.options.clock.now(),
      subscription: null,
    };
    this.clients.add(client);
    socket.on('message', (data, isBinary) =>
      this.guarded(client, () => this.receive(client, isBinary ? '' : String(data))),
    );
    socket.on('ping', () => this.guarded(client, () => this.touch(client)));
    socket.on('close', () => this.guarded(client, () => this.remove(client)));
    socket.on('error', () => this.guarded(client, () => this.drop(client)));
    for (const frame of this.latestBroadcast.values()) this.send(client, frame);
  }

  /**
   * Runs one socket's event handler. A throw in a socket's listener would be an
   * uncaught exception that ends the process: a bug met by one client costs
   * that client its connection (logged), never everyone's.
   */
  private guarded(client: Client, handle: () => void): void {
    try {
      handle();
    } catch (error) {
      this.options.onError?.(error);
      try {
        this.remove(client);
        client.socket.terminate();
      } catch (closing) {
        this.options.onError?.(closing);
      }
    }
  }

  private receive(client: Client, text: string): void {
    this.touch(client);
    const message = text.trim();
    if (message === PING) {
      this.send(client, PONG_FRAME);
      return;
    }
    const subscription = parseSubscriptionKey(message);
    if (!subscription) {
      const refusal: ErrorPush = {
        type: 'error',
        ts: this.options.clock.now(),
        data: { msg: translate(client.locale, 'market.badSubscription', { key: message.slice(0, 64) }) },
      };
      this.send(client, textFrame(JSON.stringify(refusal)));
      return;
    }
    this.unindex(client);
    const market = marketKey(subscription);
    client.subscription = {
      market,
      kline: subscription.mine === null ? null : subscriptionKey(subscription),
    };
    addTo(this.byMarket, market, client);
    if (client.subscription.kline) addTo(this.byKline, client.subscription.kline, client);
    for (const frame of this.latestByMarket.get(market)?.values() ?? []) this.send(client, frame);
  }

  private touch(client: Client): void {
    client.lastSeenAt = this.options.clock.now();
  }

  private rememberSnapshot(push: ServerPush, frame: Buffer): void {
    if (!COALESCED.has(push.type)) return;
    if (BROADCAST_TYPES.has(push.type)) {
      this.latestBroadcast.set(push.type, frame);
      return;
    }
    if (!('key' in push)) return;
    let frames = this.latestByMarket.get(push.key);
    if (!frames) {
      frames = new Map();
      this.latestByMarket.set(push.key, frames);
    }
    frames.set(push.type, frame);
  }

  private deliver(route: Route, frame: Buffer): void {
    const recipients =
      route.to === 'all'
        ? this.clients
        : (route.to === 'kline' ? this.byKline : this.byMarket).get(route.key);
    for (const client of recipients ?? []) this.send(client, frame);
  }

  private send(client: Client, frame: Buffer): void {
    if (client.socket.readyState !== client.socket.OPEN) return;
    if (client.socket.bufferedAmount > this.maxBufferedBytes) {
      this.drop(client);
      return;
    }
    client.transport.write(frame);
  }

  private drop(client: Client): void {
    this.remove(client);
    client.socket.terminate();
  }

  private remove(client: Client): void {
    this.unindex(client);
    this.clients.delete(client);
  }

  private unindex(client: Client): void {
    if (!client.subscription) return;
    removeFrom(this.byMarket, client.subscription.market, client);
    if (client.subscription.kline) removeFrom(this.byKline, client.subscription.kline, client);
    client.subscription = null;
  }
}

/** Where a push goes: everyone, the clients of a K-line key, or the clients of a market. */
interface Route {
  to: 'all' | 'kline' | 'market';
  key: string;
}

function routeOf(push: ServerPush): Route {
  if (BROADCAST_TYPES.has(push.type) || !('key' in push)) return { to: 'all', key: '*' };
  return { to: push.type === 'kline' ? 'kline' : 'market', key: push.key };
}

function addTo(index: Map<string, Set<Client>>, key: string, client: Client): void {
  let members = index.get(key);
  if (!members) {
    members = new Set();
    index.set(key, members);
  }
  members.add(client);
}

function removeFrom(index: Map<string, Set<Client>>, key: string, client: Client): void {
  const members = index.get(key);
  if (!members) return;
  members.delete(client);
  if (members.size === 0) index.delete(key);
}
