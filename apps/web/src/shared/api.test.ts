import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApiClient, REQUEST_TIMEOUT_MS, RequestCancelled } from './api.ts';
import { createSpinner, SPINNER_HIDE_DELAY_MS } from './loading.ts';

interface Call {
  url: string;
  init: RequestInit;
  resolve(body: unknown): void;
  /** Answers with this exact response (a file, a typed envelope). */
  respond(response: Response): void;
  reject(error: unknown): void;
}

/** A fetch whose replies the test sends by hand; honours the abort signal like the real one. */
function fakeFetch() {
  const calls: Call[] = [];
  const fetch = vi.fn((url: string | URL | Request, init: RequestInit = {}) => {
    return new Promise<Response>((resolve, reject) => {
      const call: Call = {
        url: String(url),
        init,
        resolve: (body) => resolve(new Response(JSON.stringify(body))),
        respond: resolve,
        reject,
      };
      init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
      calls.push(call);
    });
  });
  return { fetch: fetch as unknown as typeof globalThis.fetch, calls };
}

function setup(token: string | null = 'tok') {
  const { fetch, calls } = fakeFetch();
  const toasts: string[] = [];
  const visible: boolean[] = [];
  const spinner = createSpinner((shown) => visible.push(shown));
  const logout = vi.fn();
  const api = createApiClient({
    fetch,
    token: () => token,
    locale: () => 'cn',
    toast: (message) => toasts.push(message),
    networkErrorText: () => 'network',
    spinner,
    logout,
  });
  return { api, calls, toasts, visible, spinner, logout };
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('api client', () => {
  it('sends token and lang headers and resolves with data of a 200 envelope', async () => {
    const { api, calls } = setup();
    const result = api.get<number[]>('/home/banner', { type: 'app', skip: undefined });
    expect(calls[0]?.url).toBe('/home/banner?type=app');
    expect(calls[0]?.init.headers).toEqual({ lang: 'cn', token: 'tok' });
    calls[0]?.resolve({ code: 200, msg: 'ok', data: [1, 2] });
    await expect(result).resolves.toEqual([1, 2]);
  });

  it('omits the token header for a visitor and sends JSON on POST', async () => {
    const { api, calls } = setup(null);
    const result = api.post('/member/login', { email: 'a@b.co' });
    expect(calls[0]?.init.headers).toEqual({ lang: 'cn', 'content-type': 'application/json' });
    expect(calls[0]?.init.body).toBe('{"email":"a@b.co"}');
    calls[0]?.resolve({ code: 200, msg: 'ok', data: null });
    await result;
  });

  it('cancels the earlier of two identical in-flight requests, silently', async () => {
    const { api, calls, toasts } = setup();
    const first = api.post('/trad/buyLimit', { price: '1' });
    const second = api.post('/trad/buyLimit', { price: '1' });
    await expect(first).rejects.toBeInstanceOf(RequestCancelled);
    expect(calls[0]?.init.signal?.aborted).toBe(true);
    calls[1]?.resolve({ code: 200, msg: 'ok', data: 'second' });
    await expect(second).resolves.toBe('second');
    expect(toasts).toEqual([]);
  });

  it('keeps requests with a different payload apart', async () => {
    const { api, calls } = setup();
    const first = api.post('/trad/buyLimit', { price: '1' });
    const second = api.post('/trad/buyLimit', { price: '2' });
    expect(calls[0]?.init.signal?.aborted).toBe(false);
    calls[0]?.resolve({ code: 200, msg: '', data: 1 });
    calls[1]?.resolve({ code: 200, msg: '', data: 2 });
    await expect(Promise.all([first, second])).resolves.toEqual([1, 2]);
  });

  it('gives up after 10 s and says the request failed', async () => {
    const { api, calls, toasts } = setup();
    const result = api.get('/home/articles');
    const settled = expect(result).rejects.toThrow();
    vi.advanceTimersByTime(REQUEST_TIMEOUT_MS - 1);
    expect(calls[0]?.init.signal?.aborted).toBe(false);
    vi.advanceTimersByTime(1);
    await settled;
    expect(toasts).toEqual(['network']);
  });

  it('toasts the server message of a failed GET', async () => {
    const { api, calls, toasts, logout } = setup();
    const result = api.get('/user/userInfo');
    calls[0]?.resolve({ code: 404, msg: '未找到', data: null });
    await expect(result).rejects.toBeInstanceOf(ApiError);
    expect(toasts).toEqual(['未找到']);
    expect(logout).not.toHaveBeenCalled();
  });

  it('only logs out on a POST answered with 401', async () => {
    const { api, calls, toasts, logout } = setup();
    const result = api.post('/user/editPassword', {});
    calls[0]?.resolve({ code: 401, msg: 'please log in', data: null });
    await expect(result).rejects.toMatchObject({ code: 401 });
    expect(logout).toHaveBeenCalledTimes(1);
    expect(toasts).toEqual([]);
  });

  it('toasts the message of other failed POSTs', async () => {
    const { api, calls, toasts, logout } = setup();
    const result = api.post('/member/login', {});
    calls[0]?.resolve({ code: 400, msg: 'wrong password', data: null });
    await expect(result).rejects.toMatchObject({ code: 400, msg: 'wrong password' });
    expect(toasts).toEqual(['wrong password']);
    expect(logout).not.toHaveBeenCalled();
  });

  it('says "request failed" for a network failure and for an error without a message', async () => {
    const { api, calls, toasts } = setup();
    const offline = api.get('/home/banner');
    calls[0]?.reject(new TypeError('Failed to fetch'));
    await expect(offline).rejects.toBeInstanceOf(TypeError);
    const broken = api.post('/user/logout');
    calls[1]?.resolve({ code: 500, data: null });
    await expect(broken).rejects.toBeInstanceOf(ApiError);
    const html = api.get('/home/aboutUs');
    calls[2]?.resolve('<html>');
    await expect(html).rejects.toBeInstanceOf(ApiError);
    expect(toasts).toEqual(['network', 'network', 'network']);
  });

  it('sends a money command again with the same clientOid until an attempt gets a definite answer', async () => {
    const { api, calls } = setup();
    const oidOf = (index: number) => JSON.parse(String(calls[index]?.init.body)).clientOid as string;
    const order = { price: '1', number: '2' };

    const lost = api.post('/trad/buyLimit', order, { idempotent: true });
    calls[0]?.reject(new TypeError('Failed to fetch'));
    await expect(lost).rejects.toBeInstanceOf(TypeError);
    const failed = api.post('/trad/buyLimit', order, { idempotent: true });
    calls[1]?.resolve({ code: 500, msg: 'Unknown error', data: null });
    await expect(failed).rejects.toBeInstanceOf(ApiError);
    const busy = api.post('/trad/buyLimit', order, { idempotent: true });
    calls[2]?.resolve({ code: 409, msg: 'still being processed', data: null });
    await expect(busy).rejects.toBeInstanceOf(ApiError);
    const answered = api.post('/trad/buyLimit', order, { idempotent: true });
    calls[3]?.resolve({ code: 200, msg: 'ok', data: 'order' });
    await expect(answered).resolves.toBe('order');
    expect(oidOf(0)).toMatch(/^[0-9a-f]{32}$/);
    expect([oidOf(1), oidOf(2), oidOf(3)]).toEqual([oidOf(0), oidOf(0), oidOf(0)]);

    // The same order once more after a success is a new command; a refusal settles it too.
    const again = api.post('/trad/buyLimit', order, { idempotent: true });
    calls[4]?.resolve({ code: 400, msg: 'insufficient balance', data: null });
    await expect(again).rejects.toBeInstanceOf(ApiError);
    const corrected = api.post('/trad/buyLimit', order, { idempotent: true });
    calls[5]?.resolve({ code: 200, msg: 'ok', data: 'order 2' });
    await corrected;
    expect(oidOf(4)).not.toBe(oidOf(0));
    expect(oidOf(5)).not.toBe(oidOf(4));
  });

  it('keeps other POSTs as they are: no clientOid unless asked', async () => {
    const { api, calls } = setup();
    const result = api.post('/trad/closeEntrust', { id: 1 });
    expect(calls[0]?.init.body).toBe('{"id":1}');
    calls[0]?.resolve({ code: 200, msg: 'ok', data: null });
    await result;
  });

  it('stays quiet when asked to', async () => {
    const { api, calls, toasts } = setup();
    const result = api.get('/trad/overview', {}, { quiet: true });
    calls[0]?.resolve({ code: 404, msg: 'not found', data: null });
    await expect(result).rejects.toBeInstanceOf(ApiError);
    expect(toasts).toEqual([]);
  });

  it('shows the spinner for writes and hides it 500 ms after the last one ends', async () => {
    const { api, calls, visible } = setup();
    const first = api.post('/a', {});
    const second = api.post('/b', {});
    expect(visible).toEqual([true, true]);
    calls[0]?.resolve({ code: 200, msg: '', data: null });
    await first;
    vi.advanceTimersByTime(SPINNER_HIDE_DELAY_MS);
    expect(visible.at(-1)).toBe(true);
    calls[1]?.resolve({ code: 200, msg: '', data: null });
    await second;
    vi.advanceTimersByTime(SPINNER_HIDE_DELAY_MS - 1);
    expect(visible.at(-1)).toBe(true);
    vi.advanceTimersByTime(1);
    expect(visible.at(-1)).toBe(false);
  });

  it('keeps the spinner up when a new request starts during the hide delay', async () => {
    const { api, calls, visible, spinner } = setup();
    const first = api.post('/a', {});
    calls[0]?.resolve({ code: 200, msg: '', data: null });
    await first;
    vi.advanceTimersByTime(SPINNER_HIDE_DELAY_MS - 100);
    const second = api.post('/b', {});
    vi.advanceTimersByTime(200);
    expect(visible.at(-1)).toBe(true);
    expect(spinner.pending).toBe(1);
    calls[1]?.resolve({ code: 200, msg: '', data: null });
    await second;
  });

  it('shows no spinner for reads unless asked', async () => {
    const { api, calls, visible } = setup();
    const read = api.get('/home/banner');
    const code = api.get('/user/getCode', { email: 'a@b.co' }, { spinner: true });
    expect(visible).toEqual([true]);
    calls[0]?.resolve({ code: 200, msg: '', data: null });
    calls[1]?.resolve({ code: 200, msg: '', data: null });
    await Promise.all([read, code]);
  });

  it('downloads a file with the session headers and the spinner', async () => {
    const { api, calls, visible } = setup();
    const file = api.download('/referral/commissions.csv', { coin: 'USDT' });
    expect(calls[0]?.url).toBe('/referral/commissions.csv?coin=USDT');
    expect(calls[0]?.init.headers).toEqual({ lang: 'cn', token: 'tok' });
    expect(visible).toEqual([true]);
    calls[0]?.respond(new Response('time,amount\n', { headers: { 'content-type': 'text/csv' } }));
    expect(await (await file).text()).toBe('time,amount\n');
  });

  it('reads a refused download as the envelope it is, with its toast', async () => {
    const { api, calls, toasts } = setup();
    const file = api.download('/referral/commissions.csv');
    const refusal = { code: 400, msg: '日期无效', data: null };
    calls[0]?.respond(
      new Response(JSON.stringify(refusal), {
        headers: { 'content-type': 'application/json; charset=utf-8' },
      }),
    );
    await expect(file).rejects.toMatchObject({ code: 400, msg: '日期无效' });
    expect(toasts).toEqual(['日期无效']);
  });
});
