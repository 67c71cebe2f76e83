import type { Locale } from './locales.ts';

/**
 * The content an operator edits, on the wire (issue 18 "content in nine
 * languages"): the /admin/content routes answer each piece with every
 * locale it was written in, and take it back in the same shape. Readers of
 * a locale left out get English. Times are epoch milliseconds.
 */

export type LocaleTexts<T> = Partial<Record<Locale, T>>;

export interface NoticeText {
  title: string;
  /** The body as HTML (sanitised by the server). */
  reply: string;
}

/** A row of GET /admin/content/notices; POST/PUT take `{ texts }`. */
export interface AdminNotice {
  id: number;
  wdate: number;
  texts: LocaleTexts<NoticeText>;
}

export interface AdminNoticePage {
  list: AdminNotice[];
  count: number;
}

export const BANNER_KINDS = ['app', 'invite'] as const;
export type BannerKind = (typeof BANNER_KINDS)[number];

/** A row of GET /admin/content/banners; POST/PUT take it without `id`. `locale` null: shown in every language. */
export interface AdminBanner {
  id: number;
  type: BannerKind;
  locale: Locale | null;
  image: string;
  link: string;
  sort: number;
}

export interface TipText {
  title: string;
  content: string;
}

export interface SocialLink {
  name: string;
  url: string;
}

/** GET/PUT /admin/content/aboutUs: the about-us document as the operator stores it. */
export interface AboutUsSettings {
  phone: string;
  email: string;
  /** Spec §3: the LINE contact link, by the spec's own name. */
  LINEURL: string;
  /** The external support chat linked from home (spec §1). */
  onlineChatUrl: string;
  /** The external link in the home top bar (spec §2). */
  externalUrl: string;
  socials: SocialLink[];
  intro: LocaleTexts<string>;
}

/** GET/PUT /admin/content/versions: what the operator publishes about releases. */
export interface VersionsSettings {
  /** The latest release the operator announces; a running build newer than it wins. */
  code: string;
  androidUrl: string;
  iosUrl: string;
  notes: LocaleTexts<string>;
}
