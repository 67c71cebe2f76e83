import type { Locale } from '@halyard/protocol';
import type { Generated, Selectable } from 'kysely';
import type { Executor } from '../../store/database.ts';

export interface ContentNoticesTable {
  id: Generated<number>;
  slug: string | null;
  wdate: number;
  updated_at: number;
}

export interface ContentNoticeTextsTable {
  notice_id: number;
  locale: Locale;
  title: string;
  body: string;
}

export type BannerKind = 'app' | 'invite';

export interface ContentBannersTable {
  id: Generated<number>;
  slug: string | null;
  kind: BannerKind;
  locale: Locale | null;
  image: string;
  link: string;
  sort: number;
  updated_at: number;
}

export interface ContentTipsTable {
  id: Generated<number>;
  user_id: number | null;
  locale: Locale;
  title: string;
  content: string;
  updated_at: number;
}

export interface ContentSettingsTable {
  key: string;
  value: string;
  updated_at: number;
}

declare module '../../store/database.ts' {
  interface Database {
    content_notices: ContentNoticesTable;
    content_notice_texts: ContentNoticeTextsTable;
    content_banners: ContentBannersTable;
    content_tips: ContentTipsTable;
    content_settings: ContentSettingsTable;
  }
}

export type BannerRow = Selectable<ContentBannersTable>;
export type TipRow = Selectable<ContentTipsTable>;

/** One notice as stored: its date and the text of every locale it was written in. */
export interface NoticeRow {
  id: number;
  wdate: number;
  texts: Map<Locale, { title: string; body: string }>;
}

export interface NoticeText {
  title: string;
  body: string;
}

export async function insertNotice(
  db: Executor,
  notice: { slug: string | null; wdate: number },
  texts: ReadonlyMap<Locale, NoticeText>,
): Promise<number> {
  const { id } = await db
    .insertInto('content_notices')
    .values({ slug: notice.slug, wdate: notice.wdate, updated_at: notice.wdate })
    .returning('id')
    .executeTakeFirstOrThrow();
  await insertNoticeTexts(db, id, texts);
  return id;
}

async function insertNoticeTexts(db: Executor, noticeId: number, texts: ReadonlyMap<Locale, NoticeText>) {
  const rows = [...texts].map(([locale, text]) => ({ notice_id: noticeId, locale, ...text }));
  if (rows.length > 0) await db.insertInto('content_notice_texts').values(rows).execute();
}

/** Replaces every text of a notice; false when there is no such notice. */
export async function replaceNoticeTexts(
  db: Executor,
  noticeId: number,
  texts: ReadonlyMap<Locale, NoticeText>,
  now: number,
): Promise<boolean> {
  const updated = await db
    .updateTable('content_notices')
    .set({ updated_at: now })
    .where('id', '=', noticeId)
    .executeTakeFirst();
  if (updated.numUpdatedRows === 0n) return false;
  await db.deleteFrom('content_notice_texts').where('notice_id', '=', noticeId).execute();
  await insertNoticeTexts(db, noticeId, texts);
  return true;
}

export async function deleteNotice(db: Executor, noticeId: number): Promise<boolean> {
  await db.deleteFrom('content_notice_texts').where('notice_id', '=', noticeId).execute();
  const deleted = await db.deleteFrom('content_notices').where('id', '=', noticeId).executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** Which of `slugs` the notices (or the banners) already have: the demo seed adds only the others. */
export async function existingSlugs(
  db: Executor,
  table: 'content_notices' | 'content_banners',
  slugs: readonly string[],
): Promise<Set<string>> {
  if (slugs.length === 0) return new Set();
  const rows = await db.selectFrom(table).select('slug').where('slug', 'in', slugs).execute();
  return new Set(rows.flatMap((row) => (row.slug === null ? [] : [row.slug])));
}

export async function countNotices(db: Executor): Promise<number> {
  const row = await db
    .selectFrom('content_notices')
    .select((eb) => eb.fn.countAll<number | string>().as('count'))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** A page of notices, newest first, with all their texts. */
export async function selectNoticePage(db: Executor, offset: number, limit: number): Promise<NoticeRow[]> {
  const heads = await db
    .selectFrom('content_notices')
    .select(['id', 'wdate'])
    .orderBy('wdate', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return withTexts(db, heads);
}

export async function selectNotice(db: Executor, noticeId: number): Promise<NoticeRow | null> {
  const head = await db
    .selectFrom('content_notices')
    .select(['id', 'wdate'])
    .where('id', '=', noticeId)
    .executeTakeFirst();
  if (!head) return null;
  const [notice] = await withTexts(db, [head]);
  return notice ?? null;
}

async function withTexts(db: Executor, heads: { id: number; wdate: number }[]): Promise<NoticeRow[]> {
  if (heads.length === 0) return [];
  const texts = await db
    .selectFrom('content_notice_texts')
    .selectAll()
    .where(
      'notice_id',
      'in',
      heads.map((head) => head.id),
    )
    .execute();
  const byNotice = new Map<number, NoticeRow>(
    heads.map((head) => [
      Number(head.id),
      { id: Number(head.id), wdate: Number(head.wdate), texts: new Map() },
    ]),
  );
  for (const text of texts) {
    byNotice.get(Number(text.notice_id))?.texts.set(text.locale, { title: text.title, body: text.body });
  }
  return heads.map((head) => byNotice.get(Number(head.id))!);
}

export type BannerValues = Omit<BannerRow, 'id' | 'updated_at'>;

export async function insertBanners(
  db: Executor,
  banners: readonly BannerValues[],
  now: number,
): Promise<void> {
  if (banners.length === 0) return;
  await db
    .insertInto('content_banners')
    .values(banners.map((banner) => ({ ...banner, updated_at: now })))
    .execute();
}

export async function insertBanner(db: Executor, banner: BannerValues, now: number): Promise<number> {
  const { id } = await db
    .insertInto('content_banners')
    .values({ ...banner, updated_at: now })
    .returning('id')
    .executeTakeFirstOrThrow();
  return Number(id);
}

export async function updateBanner(
  db: Executor,
  bannerId: number,
  banner: Omit<BannerValues, 'slug'>,
  now: number,
): Promise<boolean> {
  const updated = await db
    .updateTable('content_banners')
    .set({ ...banner, updated_at: now })
    .where('id', '=', bannerId)
    .executeTakeFirst();
  return updated.numUpdatedRows > 0n;
}

export async function deleteBanner(db: Executor, bannerId: number): Promise<boolean> {
  const deleted = await db.deleteFrom('content_banners').where('id', '=', bannerId).executeTakeFirst();
  return deleted.numDeletedRows > 0n;
}

/** Banners of one kind shown in `locale`: those for every locale and those for it alone. */
export async function selectBanners(db: Executor, kind: BannerKind, locale: Locale): Promise<BannerRow[]> {
  return db
    .selectFrom('content_banners')
    .selectAll()
    .where('kind', '=', kind)
    .where((eb) => eb.or([eb('locale', 'is', null), eb('locale', '=', locale)]))
    .orderBy('sort')
    .orderBy('id')
    .execute();
}

/** Every banner, of every kind and locale, in the order they are shown (the operator's list). */
export async function selectAllBanners(db: Executor): Promise<BannerRow[]> {
  return db.selectFrom('content_banners').selectAll().orderBy('kind').orderBy('sort').orderBy('id').execute();
}

/** The tips of one audience (null = everyone) in every locale they were written in. */
export async function selectTips(db: Executor, userId: number | null): Promise<TipRow[]> {
  return db
    .selectFrom('content_tips')
    .selectAll()
    .where('user_id', userId === null ? 'is' : '=', userId)
    .execute();
}

export interface TipText {
  title: string;
  content: string;
}

/** Replaces an audience's tip; an empty map removes it. */
export async function replaceTips(
  db: Executor,
  userId: number | null,
  texts: ReadonlyMap<Locale, TipText>,
  now: number,
): Promise<void> {
  await db
    .deleteFrom('content_tips')
    .where('user_id', userId === null ? 'is' : '=', userId)
    .execute();
  const rows = [...texts].map(([locale, text]) => ({ user_id: userId, locale, ...text, updated_at: now }));
  if (rows.length > 0) await db.insertInto('content_tips').values(rows).execute();
}

export async function selectSetting(db: Executor, key: string): Promise<string | null> {
  const row = await db
    .selectFrom('content_settings')
    .select('value')
    .where('key', '=', key)
    .executeTakeFirst();
  return row?.value ?? null;
}

export async function upsertSetting(db: Executor, key: string, value: string, now: number): Promise<void> {
  await db
    .insertInto('content_settings')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value, updated_at: now }))
    .execute();
}

export async function insertSettingIfAbsent(db: Executor, key: string, value: string, now: number) {
  await db
    .insertInto('content_settings')
    .values({ key, value, updated_at: now })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
}
