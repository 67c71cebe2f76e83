// @vitest-environment happy-dom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SESSION_KEYS } from './storage.ts';
import {
  createLiveClient,
  IDLE_PING_MS,
  makeClientId,
  PONG_TIMEOUT_MS,
  RECONNECT_DELAY_MS,
  type SocketLike,
  SUBSCRIBE_RETRY_MS,
} from './ws.ts';

class FakeSocket implements SocketLike {
  readyState = 0;
  sent: string[] = [];
  closed = false;
  onopen: ((event: Event) => void) | null = null;
  onclose: ((event: CloseEvent) => void) | null = null;
  onerror: ((event: Event) => void) | null = null;
  onmessage: ((event: MessageEvent) => void) | null = null;
  constructor(readonly url: string) {}
  send(data: string): void {
    this.sent.push(data);
  }
  close(): void {
    this.closed = true;
    this.readyState = 3;
    this.onclose?.(new Event('close') as CloseEvent);
  }
  open(): void {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }
  receive(data: string): void {
    this.onmessage?.(new MessageEvent('message', { data }));
  }
  fail(): void {
    this.readyState = 3;
    this.onerror?.(new Event('error'));
    this.onclose?.(new Event('close') as CloseEvent);
  }
}

function setup(route = 'coinExchange') {
  const sockets: FakeSocket[] = [];
  let routeName: string | null = route;
  const client = createLiveClient({
    baseUrl: 'ws://x/ws',
    createSocket: (url) => {
      const socket = new FakeSocket(url);
      sockets.push(socket);
      return socket;
    },
    currentRouteName: () => routeName,
    pingMessage: 'ping',
    now: () => 1700000000000,
    random: () => 0.5,
  });
  return {
    client,
    sockets,
    last: () => sockets.at(-1)!,
    goTo: (name: string) => {
      routeName = name;
    },
  };
}

beforeEach(() => {
  vi.useFakeTimers();
  sessionStorage.clear();
});
afterEach(() => vi.useRealTimers());

describe('live-data client', () => {
  it('connects to /ws/{time+random}', () => {
    const { client, last } = setup();
    client.connect();
    expect(last().url).toBe('ws://x/ws/1700000000000500000');
    expect(makeClientId(5, 0.000001)).toBe('5000001');
  });

  it('reconnects 15 s after a close, with one pending retry only', () => {
    const { client, sockets, last } = setup();
    client.connect();
    last().open();
    last().fail();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS - 1);
    expect(sockets).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(sockets).toHaveLength(2);
    // error and close of the same failure, twice over, still schedule one retry
    last().fail();
    last().fail();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    expect(sockets).toHaveLength(3);
  });

  it('pings after 30 s idle and closes when no reply comes within 30 s', () => {
    const { client, last } = setup();
    client.connect();
    const socket = last();
    socket.open();
    vi.advanceTimersByTime(IDLE_PING_MS - 1);
    expect(socket.sent).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(socket.sent).toEqual(['ping']);
    vi.advanceTimersByTime(PONG_TIMEOUT_MS - 1);
    expect(socket.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(socket.closed).toBe(true);
  });

  it('keeps the connection when the ping is answered, and traffic postpones the ping', () => {
    const { client, last } = setup();
    client.connect();
    const socket = last();
    socket.open();
    vi.advanceTimersByTime(IDLE_PING_MS - 10);
    socket.receive('{"type":"overview"}');
    vi.advanceTimersByTime(IDLE_PING_MS - 10);
    expect(socket.sent).toEqual([]);
    vi.advanceTimersByTime(10);
    expect(socket.sent).toEqual(['ping']);
    socket.receive('pong');
    vi.advanceTimersByTime(PONG_TIMEOUT_MS);
    expect(socket.closed).toBe(false);
  });

  it('delivers parsed messages to listeners until they unsubscribe', () => {
    const { client, last } = setup();
    const seen: unknown[] = [];
    const stop = client.onMessage((message) => seen.push(message));
    client.connect();
    last().open();
    last().receive('{"type":"info","data":1}');
    stop();
    last().receive('{"type":"info","data":2}');
    expect(seen).toEqual([{ type: 'info', data: 1 }]);
  });

  it('retries a subscription every 1.5 s until the socket is open and remembers it', () => {
    const { client, last } = setup();
    client.connect();
    client.subscribe('USDT_BTC_trad_1');
    expect(sessionStorage.getItem(SESSION_KEYS.webSocketKey)).toBe('USDT_BTC_trad_1');
    expect(last().sent).toEqual([]);
    vi.advanceTimersByTime(SUBSCRIBE_RETRY_MS * 2);
    expect(last().sent).toEqual([]);
    last().open();
    vi.advanceTimersByTime(SUBSCRIBE_RETRY_MS);
    expect(last().sent).toEqual(['USDT_BTC_trad_1']);
    vi.advanceTimersByTime(SUBSCRIBE_RETRY_MS * 3);
    expect(last().sent).toEqual(['USDT_BTC_trad_1']);
  });

  it('re-sends the last subscription after a reconnect on a trading screen', () => {
    const { client, last } = setup('futures');
    client.connect();
    last().open();
    client.subscribe('USDT_ETH_contract_1');
    last().fail();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    last().open();
    expect(last().sent).toEqual(['USDT_ETH_contract_1']);
  });

  it('does not re-send it elsewhere', () => {
    const { client, last, goTo } = setup('futures');
    client.connect();
    last().open();
    client.subscribe('USDT_ETH_contract_1');
    goTo('my');
    last().fail();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS);
    last().open();
    expect(last().sent).toEqual([]);
  });

  it('stops reconnecting once closed on purpose', () => {
    const { client, sockets, last } = setup();
    client.connect();
    last().open();
    client.close();
    vi.advanceTimersByTime(RECONNECT_DELAY_MS * 2);
    expect(sockets).toHaveLength(1);
  });
});
