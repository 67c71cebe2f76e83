import type {
  FeeDeductionInput,
  InvitationUrl,
  MyTeam,
  ReferralBindInput,
  ReferralCommissionPage,
  ReferralCommissionQuery,
  ReferralKickbackInput,
  ReferralLevel,
  ReferralSummary,
} from '@halyard/protocol';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { saveBlob } from '../../shared/download.ts';
import { api } from '../../shared/http.ts';
import { nextPage } from '../../shared/paging.ts';

/** Invites, team and commissions (issue 17): the server's /user and /referral routes. */

const PAGE_SIZE = 20;
const INVITATION_KEY = ['referral', 'invitation'] as const;

function fetchInvitation() {
  return api.get<InvitationUrl>('/user/getInvitationUrl', {}, { quiet: true });
}

/** The user's invitation code and link (spec §7 /user/getInvitationUrl). */
export function useInvitation() {
  return useQuery({ queryKey: INVITATION_KEY, queryFn: fetchInvitation, staleTime: 60_000 });
}

/** The referral link alone (spec §3 recomurl), for the posters' QR codes. */
export function useReferralLink() {
  return useQuery({
    queryKey: INVITATION_KEY,
    queryFn: fetchInvitation,
    staleTime: 60_000,
    select: (invitation: InvitationUrl) => invitation.url,
  });
}

const SUMMARY_KEY = ['referral', 'summary'] as const;

/** `quiet` where the summary only adds a detail (the order confirms): a failure there needs no toast. */
function fetchSummary(quiet = false) {
  return api.get<ReferralSummary>('/referral/summary', {}, { quiet });
}

/** The live tier, holdings, totals, settings and reward rules. */
export function useReferralSummary() {
  return useQuery({ queryKey: SUMMARY_KEY, queryFn: () => fetchSummary() });
}

/** Whether this user's trading fees are paid in HAL, and at what discount: what the order confirms say. */
export function useFeeDeduction() {
  return useQuery({
    queryKey: SUMMARY_KEY,
    queryFn: () => fetchSummary(true),
    staleTime: 60_000,
    select: (summary: ReferralSummary) => ({
      enabled: summary.feeDeduction,
      discount: summary.rules.halDiscount,
    }),
  });
}

/** The team list (spec §7 /user/getMyTeam), one level or both, searched by the start of a user id. */
export function useTeam(level: ReferralLevel | null, search: string) {
  return useInfiniteQuery({
    queryKey: ['referral', 'team', level, search],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get<MyTeam>('/user/getMyTeam', {
        page: pageParam,
        limit: PAGE_SIZE,
        level,
        search: search === '' ? null : search,
      }),
    getNextPageParam: nextPage,
  });
}

/** The commission history under the screen's filters. */
export function useCommissions(query: ReferralCommissionQuery) {
  return useInfiniteQuery({
    queryKey: ['referral', 'commissions', query],
    initialPageParam: 1,
    queryFn: ({ pageParam }) =>
      api.get<ReferralCommissionPage>('/referral/commissions', {
        ...query,
        page: pageParam,
        limit: PAGE_SIZE,
      }),
    getNextPageParam: nextPage,
  });
}

/** Saves the commissions under the same filters as a CSV file. */
export async function downloadCommissions(query: ReferralCommissionQuery, fileName: string) {
  saveBlob(await api.download('/referral/commissions.csv', { ...query }), fileName);
}

/** The settings a user changes on /inviteFriends; each refreshes the summary it shows. */
export function useReferralActions() {
  const client = useQueryClient();
  const refresh = useCallback(() => client.invalidateQueries({ queryKey: ['referral'] }), [client]);
  return {
    bindInviter: async (code: string) => {
      await api.post('/referral/bind', { code } satisfies ReferralBindInput);
      await refresh();
    },
    setKickback: async (rate: string) => {
      await api.post('/referral/kickback', { rate } satisfies ReferralKickbackInput);
      await refresh();
    },
    setFeeDeduction: async (enabled: boolean) => {
      await api.post('/user/feeDeduction', { enabled } satisfies FeeDeductionInput);
      await refresh();
    },
  };
}
