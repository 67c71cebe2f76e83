import { useQuery } from '@tanstack/react-query';
import { api } from '../../shared/http.ts';

/** The user's referral link (spec §3 recomurl), for the posters' QR codes. */
export function useReferralLink() {
  return useQuery({
    queryKey: ['user', 'userInfo', 'recomurl'],
    queryFn: async () =>
      (await api.get<{ recomurl: string }>('/user/userInfo', {}, { quiet: true })).recomurl,
    staleTime: 60_000,
  });
}
