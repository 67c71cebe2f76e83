import { useInfiniteQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../shared/http.ts';
import { nextPage } from '../../shared/paging.ts';

/** apps/server/src/modules/support: a help ticket as the user sees it. */
export interface Ticket {
  id: number;
  title: string;
  content: string;
  /** The operator's answer; empty until responded. */
  reply: string;
  status: 'waiting' | 'responded' | 'closed';
  wdate: number;
  updatedAt: number;
}

interface TicketPage {
  list: Ticket[];
  count: number;
}

const PAGE_SIZE = 10;

export function useTickets() {
  return useInfiniteQuery({
    queryKey: ['tickets'],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get<TicketPage>('/user/onlineList', { page: pageParam, limit: PAGE_SIZE }),
    getNextPageParam: nextPage,
  });
}

export function useTicketActions() {
  const client = useQueryClient();
  const reload = () => client.invalidateQueries({ queryKey: ['tickets'] });
  return {
    submit: async (ticket: { title: string; content: string }) => {
      await api.post<Ticket>('/user/addOnline', ticket);
      await reload();
    },
    close: async (id: number) => {
      await api.post<null>('/user/closeOnline', { id });
      await reload();
    },
  };
}
