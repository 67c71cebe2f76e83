import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { withQuery } from '../../shared/api.ts';
import { useAuth } from '../../shared/auth-store.ts';
import { firstAnswerData } from '../../shared/first-answers.ts';
import { api } from '../../shared/http.ts';

/** Server shapes of apps/server/src/modules/content (GET /home/*, /user/tipsList). */
export interface Banner {
  id: number;
  image: string;
  link: string;
}

export interface Notice {
  id: number;
  title: string;
  /** Publication time, ms. */
  wdate: number;
  /** HTML body, sanitised by the server. */
  reply: string;
}

export interface Page<T> {
  list: T[];
  count: number;
}

export interface Tip {
  id: number;
  title: string;
  content: string;
}

export interface Tips {
  oneTips: Tip | null;
  allTips: Tip | null;
}

export interface AboutUs {
  phone: string;
  email: string;
  LINEURL: string;
  onlineChatUrl: string;
  externalUrl: string;
  socials: { name: string; url: string }[];
  intro: string;
}

export interface Versions {
  nowCode: string;
  code: string;
  androidUrl: string;
  iosUrl: string;
  notes: string;
  /** AMENDMENTS A5: play money and simulated prices; every screen says so. */
  demo?: boolean;
}

export interface AreaCode {
  region: string;
  country: string;
  initials: string;
  state: 0 | 1;
}

/**
 * Content changes rarely; a minute of staleness is fine and spares the server.
 * Home's content starts from the page's first answers (shared/first-answers.ts).
 */
const CONTENT_STALE_MS = 60_000;

/** Query keys carry the locale: the server answers in the `lang` header's language. */
function useLocaleKey(): string {
  return useTranslation().i18n.language;
}

export function useBanners(type: 'app' | 'invite') {
  const lang = useLocaleKey();
  const url = withQuery('/home/banner', { type });
  return useQuery({
    queryKey: ['banners', type, lang],
    queryFn: () => api.get<Banner[]>(url),
    initialData: () => firstAnswerData<Banner[]>(url, lang),
    staleTime: CONTENT_STALE_MS,
  });
}

export function useNotices(limit = 20) {
  const lang = useLocaleKey();
  const url = withQuery('/home/articles', { page: 1, limit });
  return useQuery({
    queryKey: ['notices', limit, lang],
    queryFn: () => api.get<Page<Notice>>(url),
    initialData: () => firstAnswerData<Page<Notice>>(url, lang),
    staleTime: CONTENT_STALE_MS,
  });
}

export function useAboutUs() {
  const lang = useLocaleKey();
  return useQuery({
    queryKey: ['aboutUs', lang],
    queryFn: () => api.get<AboutUs>('/home/aboutUs'),
    initialData: () => firstAnswerData<AboutUs>('/home/aboutUs', lang),
    staleTime: CONTENT_STALE_MS,
  });
}

export function useVersions() {
  const lang = useLocaleKey();
  return useQuery({
    queryKey: ['versions', lang],
    queryFn: () => api.get<Versions>('/home/versions', {}, { quiet: true }),
    initialData: () => firstAnswerData<Versions>('/home/versions', lang),
    staleTime: CONTENT_STALE_MS,
  });
}

export function useAreaCodes() {
  const lang = useLocaleKey();
  return useQuery({
    queryKey: ['areaCodes', lang],
    queryFn: () => api.get<AreaCode[]>('/home/areaCode'),
    staleTime: Number.POSITIVE_INFINITY,
  });
}

/** Tips for the signed-in user (own tip and the all-users tip); visitors get the all-users tip. */
export function useTips() {
  const lang = useLocaleKey();
  const token = useAuth((state) => state.token);
  return useQuery({
    queryKey: ['tips', token, lang],
    queryFn: () => api.get<Tips>('/user/tipsList', {}, { quiet: true }),
    staleTime: Number.POSITIVE_INFINITY,
  });
}
