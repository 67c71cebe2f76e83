import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApi, NetworkError, withQuery } from './api.ts';

interface Sent {
  url: string;
  method: string;
  headers: Headers;
  body: string | null;
}

/** The console's client over a fake fetch that answers `reply` and records each request. */
function clientAnswering(reply: () => Response, token: string | null = 'session-1') {
  const sent: Sent[] = [];
  const signedOut = vi.fn();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    sent.push({
      url,
      method: init.method ?? 'GET',
      headers: new Headers(init.headers),
      body: (init.body as string | null) ?? null,
    });
    return reply();
  });
  const api = createApi({ token: () => token, locale: () => 'cn', signedOut });
  return { api, sent, signedOut };
}

const envelope = (code: number, msg: string, data: unknown = null) =>
  new Response(JSON.stringify({ code, msg, data }), { headers: { 'content-type': 'application/json' } });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('console api client', () => {
  it('sends the session, the language and a money action’s TOTP code as headers, and answers data', async () => {
    const { api, sent } = clientAnswering(() => envelope(200, 'ok', { released: false }));
    expect(await api.post('/admin/wallet/withdrawals/7/approve', {}, { totp: '123456' })).toEqual({
      released: false,
    });
    const [request] = sent;
    expect(request?.method).toBe('POST');
    expect(request?.headers.get('operator-token')).toBe('session-1');
    expect(request?.headers.get('operator-totp')).toBe('123456');
    expect(request?.headers.get('lang')).toBe('cn');
    expect(request?.headers.get('content-type')).toBe('application/json');
    expect(request?.body).toBe('{}');
  });

  it('a refusal throws the server’s localised message; a 401 also signs the console out', async () => {
    const refused = clientAnswering(() => envelope(403, '此申请由您发起：需要另一位操作员批准'));
    await expect(refused.api.post('/admin/approvals/1/approve')).rejects.toEqual(
      new ApiError(403, '此申请由您发起：需要另一位操作员批准'),
    );
    expect(refused.signedOut).not.toHaveBeenCalled();
    const expired = clientAnswering(() => envelope(401, '会话已过期'));
    await expect(expired.api.get('/admin/auth/me')).rejects.toBeInstanceOf(ApiError);
    expect(expired.signedOut).toHaveBeenCalledTimes(1);
  });

  it('an answer that is no envelope is a network failure, not a refusal', async () => {
    const { api } = clientAnswering(() => new Response('<html>Bad gateway</html>', { status: 502 }));
    await expect(api.get('/admin/dashboard')).rejects.toEqual(new NetworkError(502));
  });

  it('the bootstrap carries the admin token and an enrolment its own session, never the stored one', async () => {
    const { api, sent } = clientAnswering(() => envelope(200, 'ok'), null);
    await api.post('/admin/auth/bootstrap', { email: 'a@b.c', password: 'x' }, { adminToken: 'boot' });
    await api.post('/admin/auth/totp/confirm', { code: '000000' }, { token: 'enrolling' });
    expect(sent[0]?.headers.get('admin-token')).toBe('boot');
    expect(sent[0]?.headers.has('operator-token')).toBe(false);
    expect(sent[1]?.headers.get('operator-token')).toBe('enrolling');
  });

  it('leaves empty filters out of a query', () => {
    expect(withQuery('/admin/audit', { action: '', userId: 7, page: 1, to: undefined })).toBe(
      '/admin/audit?userId=7&page=1',
    );
  });
});
