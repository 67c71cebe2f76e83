import {
  type AboutUsSettings,
  type AdminBanner,
  type AdminNoticePage,
  DEFAULT_LOCALE,
  HALYARD_VERSION,
  isNewerVersion,
  type Locale,
  type LocaleTexts,
  type SocialLink,
  type VersionsSettings,
} from '@halyard/protocol';
import type { Clock } from '../../clock.ts';
import { notFound } from '../../http/errors.ts';
import type { Db } from '../../store/database.ts';
import { type AreaCode, areaCodes } from './area-codes.ts';
import { sanitizeHtml } from './sanitize.ts';
import {
  type BannerKind,
  countNotices,
  deleteBanner,
  deleteNotice,
  insertBanner,
  insertNotice,
  type NoticeRow,
  type NoticeText,
  replaceNoticeTexts,
  replaceTips,
  selectAllBanners,
  selectBanners,
  selectNotice,
  selectNoticePage,
  selectSetting,
  selectTips,
  type TipRow,
  type TipText,
  updateBanner,
  upsertSetting,
} from './store.ts';

/** Text written in some of the nine locales; readers of the others get English. */
export type Localised<T> = Partial<Record<Locale, T>>;

export interface NoticeView {
  id: number;
  title: string;
  /** Publication time, ms. */
  wdate: number;
  /** The HTML body, sanitised (spec §3 Notice "reply"). */
  reply: string;
}

export interface Page<T> {
  list: T[];
  count: number;
}

export interface BannerView {
  id: number;
  image: string;
  link: string;
}

export interface BannerInput {
  kind: BannerKind;
  locale: Locale | null;
  image: string;
  link: string;
  sort: number;
}

export interface TipView {
  id: number;
  title: string;
  content: string;
}

/** Spec §3 Tips: the signed-in user's own tip (shown first) and the tip for everyone. */
export interface TipsView {
  oneTips: TipView | null;
  allTips: TipView | null;
}

export type { AboutUsSettings, SocialLink };

export type AboutUsView = Omit<AboutUsSettings, 'intro'> & { intro: string };

/**
 * The operator's contact details and links from the configuration (SUPPORT_*,
 * SOCIAL_LINKS). About-us shows what the operator stored, else these; an
 * empty one is hidden by the web app, never a dead link.
 */
export type ContactLinks = Omit<AboutUsSettings, 'intro'>;

export const NO_CONTACT_LINKS: ContactLinks = {
  phone: '',
  email: '',
  LINEURL: '',
  onlineChatUrl: '',
  externalUrl: '',
  socials: [],
};

/** The operator's native apps (APP_ANDROID_URL, APP_IOS_URL); empty when there are none. */
export interface NativeAppLinks {
  androidUrl: string;
  iosUrl: string;
}

export type { VersionsSettings };

/** What this deployment is: the release it runs, and its native apps from the configuration. */
export interface Deployment {
  /** HALYARD_VERSION, unless HALYARD_RELEASE says otherwise. */
  release: string;
  nativeApps: NativeAppLinks;
  contact: ContactLinks;
}

/**
 * Version data (spec §3). `nowCode` is the release this server runs: a web app
 * built as an older one offers the update. `code` is the latest release the
 * operator announces for the native apps (never older than `nowCode`). Links
 * left empty in the settings fall back to the configured native apps.
 */
export interface VersionsView extends NativeAppLinks {
  nowCode: string;
  code: string;
  notes: string;
}

const EMPTY_ABOUT_US: AboutUsSettings = {
  phone: '',
  email: '',
  LINEURL: '',
  onlineChatUrl: '',
  externalUrl: '',
  socials: [],
  intro: {},
};

const UNPUBLISHED_VERSIONS: VersionsSettings = {
  code: HALYARD_VERSION,
  androidUrl: '',
  iosUrl: '',
  notes: {},
};

export const SETTING_KEYS = { aboutUs: 'aboutUs', versions: 'versions' } as const;

/** The text for `locale`, else English, else whichever locale has one. */
export function pickLocale<T>(texts: ReadonlyMap<Locale, T>, locale: Locale): T | undefined {
  return texts.get(locale) ?? texts.get(DEFAULT_LOCALE) ?? texts.values().next().value;
}

function toMap<T>(texts: Localised<T>): Map<Locale, T> {
  return new Map(Object.entries(texts) as [Locale, T][]);
}

function sanitiseTexts(texts: Localised<NoticeText>): Map<Locale, NoticeText> {
  const clean = new Map<Locale, NoticeText>();
  for (const [locale, text] of toMap(texts)) {
    clean.set(locale, { title: text.title.trim(), body: sanitizeHtml(text.body) });
  }
  return clean;
}

function noticeView(notice: NoticeRow, locale: Locale): NoticeView {
  const text = pickLocale(notice.texts, locale) ?? { title: '', body: '' };
  // Sanitised again on the way out: rows written before a tightened allow-list,
  // or by hand in the database, must not reach a browser unfiltered.
  return { id: notice.id, title: text.title, wdate: notice.wdate, reply: sanitizeHtml(text.body) };
}

function tipView(rows: TipRow[], locale: Locale): TipView | null {
  const texts = new Map(rows.map((row) => [row.locale, row]));
  const row = pickLocale(texts, locale);
  // One id for the tip in every locale (its first row), so the client's "read"
  // flag survives a language switch; a replaced tip gets new rows and a new id.
  const id = Math.min(...rows.map((each) => Number(each.id)));
  return row ? { id, title: row.title, content: row.content } : null;
}

/** Home and help-centre content: notices, banners, tips, about-us, versions, area codes. */
export class ContentService {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly deployment: Deployment = {
      release: HALYARD_VERSION,
      nativeApps: { androidUrl: '', iosUrl: '' },
      contact: NO_CONTACT_LINKS,
    },
  ) {}

  async notices(locale: Locale, page: number, limit: number): Promise<Page<NoticeView>> {
    const [rows, count] = await Promise.all([
      selectNoticePage(this.db, (page - 1) * limit, limit),
      countNotices(this.db),
    ]);
    return { list: rows.map((row) => noticeView(row, locale)), count };
  }

  async notice(id: number, locale: Locale): Promise<NoticeView> {
    const row = await selectNotice(this.db, id);
    if (!row) throw notFound('content.noticeNotFound');
    return noticeView(row, locale);
  }

  async createNotice(texts: Localised<NoticeText>): Promise<number> {
    const clean = sanitiseTexts(texts);
    return this.db
      .transaction()
      .execute((trx) => insertNotice(trx, { slug: null, wdate: this.clock.now() }, clean));
  }

  async updateNotice(id: number, texts: Localised<NoticeText>): Promise<void> {
    const clean = sanitiseTexts(texts);
    const found = await this.db
      .transaction()
      .execute((trx) => replaceNoticeTexts(trx, id, clean, this.clock.now()));
    if (!found) throw notFound('content.noticeNotFound');
  }

  async deleteNotice(id: number): Promise<void> {
    const found = await this.db.transaction().execute((trx) => deleteNotice(trx, id));
    if (!found) throw notFound('content.noticeNotFound');
  }

  async banners(kind: BannerKind, locale: Locale): Promise<BannerView[]> {
    const rows = await selectBanners(this.db, kind, locale);
    return rows.map((row) => ({ id: Number(row.id), image: row.image, link: row.link }));
  }

  createBanner(banner: BannerInput): Promise<number> {
    return insertBanner(this.db, { ...banner, slug: null }, this.clock.now());
  }

  async updateBanner(id: number, banner: BannerInput): Promise<void> {
    if (!(await updateBanner(this.db, id, banner, this.clock.now())))
      throw notFound('content.bannerNotFound');
  }

  async deleteBanner(id: number): Promise<void> {
    if (!(await deleteBanner(this.db, id))) throw notFound('content.bannerNotFound');
  }

  /** Visitors (userId null) get only the tip for everyone. */
  async tips(userId: number | null, locale: Locale): Promise<TipsView> {
    const [own, everyone] = await Promise.all([
      userId === null ? Promise.resolve([]) : selectTips(this.db, userId),
      selectTips(this.db, null),
    ]);
    return { oneTips: tipView(own, locale), allTips: tipView(everyone, locale) };
  }

  /** Sets the tip of one user, or of everyone when `userId` is null; no texts removes it. */
  async setTips(userId: number | null, texts: Localised<TipText>): Promise<void> {
    const clean = new Map(
      [...toMap(texts)].map(([locale, tip]) => [locale, { ...tip, title: tip.title.trim() }]),
    );
    await this.db.transaction().execute((trx) => replaceTips(trx, userId, clean, this.clock.now()));
  }

  /** What the operator stored (PUT /admin/content/aboutUs), each empty field filled from the configuration. */
  async aboutUs(locale: Locale): Promise<AboutUsView> {
    const settings = await this.readSetting(SETTING_KEYS.aboutUs, EMPTY_ABOUT_US);
    const configured = this.deployment.contact;
    return {
      phone: settings.phone || configured.phone,
      email: settings.email || configured.email,
      LINEURL: settings.LINEURL || configured.LINEURL,
      onlineChatUrl: settings.onlineChatUrl || configured.onlineChatUrl,
      externalUrl: settings.externalUrl || configured.externalUrl,
      socials: settings.socials.length > 0 ? settings.socials : configured.socials,
      intro: pickLocale(toMap(settings.intro), locale) ?? '',
    };
  }

  setAboutUs(settings: AboutUsSettings): Promise<void> {
    return upsertSetting(this.db, SETTING_KEYS.aboutUs, JSON.stringify(settings), this.clock.now());
  }

  async versions(locale: Locale): Promise<VersionsView> {
    const settings = await this.readSetting(SETTING_KEYS.versions, UNPUBLISHED_VERSIONS);
    const { release, nativeApps } = this.deployment;
    return {
      nowCode: release,
      code: isNewerVersion(settings.code, release) ? settings.code : release,
      androidUrl: settings.androidUrl || nativeApps.androidUrl,
      iosUrl: settings.iosUrl || nativeApps.iosUrl,
      notes: pickLocale(toMap(settings.notes), locale) ?? '',
    };
  }

  setVersions(settings: VersionsSettings): Promise<void> {
    return upsertSetting(this.db, SETTING_KEYS.versions, JSON.stringify(settings), this.clock.now());
  }

  // ── the operator's reads: every locale of each piece, as the /admin/content writes take it ──

  async adminNotices(page: number, limit: number): Promise<AdminNoticePage> {
    const [rows, count] = await Promise.all([
      selectNoticePage(this.db, (page - 1) * limit, limit),
      countNotices(this.db),
    ]);
    const list = rows.map((row) => ({
      id: row.id,
      wdate: row.wdate,
      texts: Object.fromEntries(
        [...row.texts].map(([locale, text]) => [locale, { title: text.title, reply: text.body }]),
      ),
    }));
    return { list, count };
  }

  async adminBanners(): Promise<AdminBanner[]> {
    const rows = await selectAllBanners(this.db);
    return rows.map((row) => ({
      id: Number(row.id),
      type: row.kind,
      locale: row.locale,
      image: row.image,
      link: row.link,
      sort: Number(row.sort),
    }));
  }

  /** The tip for everyone, in every locale it was written in. */
  async adminTips(): Promise<LocaleTexts<TipText>> {
    const rows = await selectTips(this.db, null);
    return Object.fromEntries(rows.map((row) => [row.locale, { title: row.title, content: row.content }]));
  }

  /** What the operator stored, without the configuration's fallbacks (those show on the public answer). */
  aboutUsSettings(): Promise<AboutUsSettings> {
    return this.readSetting(SETTING_KEYS.aboutUs, EMPTY_ABOUT_US);
  }

  versionsSettings(): Promise<VersionsSettings> {
    return this.readSetting(SETTING_KEYS.versions, UNPUBLISHED_VERSIONS);
  }

  areaCodes(locale: Locale): AreaCode[] {
    return areaCodes(locale);
  }

  systemTime(): number {
    return this.clock.now();
  }

  /** Settings are written only through the typed setters above, so the stored JSON has their shape. */
  private async readSetting<T>(key: string, fallback: T): Promise<T> {
    const stored = await selectSetting(this.db, key);
    return stored === null ? fallback : (JSON.parse(stored) as T);
  }
}
