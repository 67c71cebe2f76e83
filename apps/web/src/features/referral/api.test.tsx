// @vitest-environment happy-dom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useInvitation, useReferralActions, useReferralLink, useReferralSummary, useTeam } from './api.ts';

interface Call {
  method: 'GET' | 'POST';
  url: string;
  body: Record<string, unknown>;
}

const server = vi.hoisted(() => ({ calls: [] as Call[], teamSize: 0 }));

vi.mock('../../shared/http.ts', () => ({
  api: {
    get: async (url: string, query: Record<string, unknown> = {}) => {
      server.calls.push({ method: 'GET', url, body: query });
      if (url === '/user/getInvitationUrl')
        return { code: 'ABC123', url: 'https://ex.example/register?code=ABC123' };
      if (url === '/user/getMyTeam') {
        const page = Number(query.page);
        const limit = Number(query.limit);
        const from = (page - 1) * limit;
        const size = Math.max(0, Math.min(limit, server.teamSize - from));
        const list = Array.from({ length: size }, (_, index) => ({ userId: `${from + index}` }));
        return { list, count: server.teamSize, page, limit };
      }
      return { feeDeduction: false };
    },
    post: async (url: string, body: Record<string, unknown>) => {
      server.calls.push({ method: 'POST', url, body });
      return null;
    },
  },
}));

const calls = (method: Call['method'], url: string) =>
  server.calls.filter((call) => call.method === method && call.url === url);

function wrapper({ children }: { children: ReactNode }) {
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

beforeEach(() => {
  server.calls.length = 0;
  server.teamSize = 0;
});

afterEach(cleanup);

describe('referral hooks', () => {
  it('the invite screen and the posters share one request for the invitation', async () => {
    const { result } = renderHook(() => ({ invitation: useInvitation(), link: useReferralLink() }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.link.data).toBe('https://ex.example/register?code=ABC123'));
    expect(result.current.invitation.data?.code).toBe('ABC123');
    expect(calls('GET', '/user/getInvitationUrl')).toHaveLength(1);
  });

  it('a setting is posted as its wire body and the summary is read again', async () => {
    const { result } = renderHook(() => ({ summary: useReferralSummary(), actions: useReferralActions() }), {
      wrapper,
    });
    await waitFor(() => expect(result.current.summary.isSuccess).toBe(true));
    await act(() => result.current.actions.setFeeDeduction(true));
    await act(() => result.current.actions.setKickback('0.05'));
    await act(() => result.current.actions.bindInviter('XYZ789'));
    expect(server.calls.filter((call) => call.method === 'POST')).toEqual([
      { method: 'POST', url: '/user/feeDeduction', body: { enabled: true } },
      { method: 'POST', url: '/referral/kickback', body: { rate: '0.05' } },
      { method: 'POST', url: '/referral/bind', body: { code: 'XYZ789' } },
    ]);
    expect(calls('GET', '/referral/summary')).toHaveLength(4);
  });

  it('the team asks for one level and a search, and pages until every member is loaded', async () => {
    server.teamSize = 25;
    const { result } = renderHook(() => useTeam(2, '12'), { wrapper });
    await waitFor(() => expect(result.current.hasNextPage).toBe(true));
    expect(calls('GET', '/user/getMyTeam')[0]?.body).toEqual({ page: 1, limit: 20, level: 2, search: '12' });
    await act(() => result.current.fetchNextPage());
    await waitFor(() => expect(result.current.data?.pages).toHaveLength(2));
    expect(result.current.data?.pages.flatMap((page) => page.list)).toHaveLength(25);
    expect(result.current.hasNextPage).toBe(false);
  });

  it('a search left empty is not sent', async () => {
    renderHook(() => useTeam(null, ''), { wrapper });
    await waitFor(() => expect(calls('GET', '/user/getMyTeam')).toHaveLength(1));
    expect(calls('GET', '/user/getMyTeam')[0]?.body).toMatchObject({ level: null, search: null });
  });
});
