import fastifyStatic from '@fastify/static';
import { LOCALES, type Locale } from '@halyard/protocol';
import type { FastifyInstance, preHandlerAsyncHookHandler } from 'fastify';
import { OPERATOR_SECURITY, type OperatorGuard, signedInUserId } from '../../http/auth.ts';
import { idField } from '../../http/bounds.ts';
import { ok } from '../../http/envelope.ts';
import { ASSETS_DIR } from '../../paths.ts';
import type { AboutUsSettings, ContentService, Localised, VersionsSettings } from './service.ts';
import type { BannerKind, NoticeText, TipText } from './store.ts';

export interface ContentRoutesOptions {
  content: ContentService;
  operatorGuard: OperatorGuard;
  /** The session guard, which lets visitors through on /user/tipsList (`signInOptional`) and adds a user's own tip. */
  requireUser: preHandlerAsyncHookHandler;
  /** AMENDMENTS A5: /home/versions says whether this is a demo, so every screen can show the badge. */
  demo?: boolean;
}

const BANNER_KINDS: BannerKind[] = ['app', 'invite'];

/** Same-origin paths or http(s) URLs; never javascript: or data: links. */
const LINK_PATTERN = '^($|/|https?://)';
const IMAGE_PATTERN = '^(/|https?://)';
const URL_PATTERN = '^($|https?://)';

const pageQuery = {
  type: 'object',
  properties: {
    page: { type: 'integer', minimum: 1, maximum: 100_000, default: 1 },
    limit: { type: 'integer', minimum: 1, maximum: 50, default: 10 },
  },
} as const;

const idParams = {
  type: 'object',
  required: ['id'],
  properties: { id: idField },
} as const;

/** One schema property per locale, English required: readers of a missing locale get English. */
function localisedSchema(text: object, englishRequired: boolean) {
  return {
    type: 'object',
    additionalProperties: false,
    ...(englishRequired ? { required: ['en'] } : {}),
    properties: Object.fromEntries(LOCALES.map((locale) => [locale, text])),
  };
}

const noticeTextSchema = {
  type: 'object',
  required: ['title', 'reply'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', minLength: 1, maxLength: 200, pattern: '\\S' },
    reply: { type: 'string', minLength: 1, maxLength: 100_000 },
  },
};

const tipTextSchema = {
  type: 'object',
  required: ['title', 'content'],
  additionalProperties: false,
  properties: {
    title: { type: 'string', maxLength: 200 },
    content: { type: 'string', minLength: 1, maxLength: 5_000 },
  },
};

const bannerSchema = {
  type: 'object',
  required: ['type', 'image'],
  additionalProperties: false,
  properties: {
    type: { type: 'string', enum: BANNER_KINDS },
    locale: { type: ['string', 'null'], enum: [...LOCALES, null] },
    image: { type: 'string', minLength: 1, maxLength: 1_000, pattern: IMAGE_PATTERN },
    link: { type: 'string', maxLength: 1_000, pattern: LINK_PATTERN, default: '' },
    sort: { type: 'integer', minimum: 0, maximum: 1_000_000, default: 0 },
  },
};

const urlString = { type: 'string', maxLength: 1_000, pattern: URL_PATTERN };

const aboutUsSchema = {
  type: 'object',
  required: ['phone', 'email', 'LINEURL', 'onlineChatUrl', 'externalUrl', 'socials', 'intro'],
  additionalProperties: false,
  properties: {
    phone: { type: 'string', maxLength: 50 },
    email: { type: 'string', maxLength: 200 },
    LINEURL: urlString,
    onlineChatUrl: urlString,
    externalUrl: urlString,
    socials: {
      type: 'array',
      maxItems: 20,
      items: {
        type: 'object',
        required: ['name', 'url'],
        additionalProperties: false,
        properties: { name: { type: 'string', minLength: 1, maxLength: 50 }, url: urlString },
      },
    },
    intro: localisedSchema({ type: 'string', maxLength: 5_000 }, false),
  },
};

const versionsSchema = {
  type: 'object',
  required: ['code', 'androidUrl', 'iosUrl', 'notes'],
  additionalProperties: false,
  properties: {
    code: { type: 'string', minLength: 1, maxLength: 30, pattern: '^\\d+(\\.\\d+)*$' },
    androidUrl: urlString,
    iosUrl: urlString,
    notes: localisedSchema({ type: 'string', maxLength: 5_000 }, false),
  },
};

interface BannerBody {
  type: BannerKind;
  locale?: Locale | null;
  image: string;
  link: string;
  sort: number;
}

type NoticeBody = { texts: Localised<{ title: string; reply: string }> };

function noticeTexts(body: NoticeBody): Localised<NoticeText> {
  return Object.fromEntries(
    Object.entries(body.texts).map(([locale, text]) => [locale, { title: text.title, body: text.reply }]),
  );
}

function bannerInput(body: BannerBody) {
  return {
    kind: body.type,
    locale: body.locale ?? null,
    image: body.image,
    link: body.link,
    sort: body.sort,
  };
}

export async function registerContentRoutes(http: FastifyInstance, options: ContentRoutesOptions) {
  const { content } = options;
  await http.register(fastifyStatic, {
    root: ASSETS_DIR,
    prefix: '/assets/',
    decorateReply: false,
    index: false,
  });
  registerPublicRoutes(http, content, options.requireUser, options.demo ?? false);
  registerAdminRoutes(http, content, options.operatorGuard);
}

function registerPublicRoutes(
  http: FastifyInstance,
  content: ContentService,
  requireUser: preHandlerAsyncHookHandler,
  demo: boolean,
) {
  const tags = ['home'];
  http.get(
    '/home/versions',
    {
      schema: {
        tags,
        summary:
          'Version data: nowCode (the release this server runs) vs code (the latest release), native-app links, release notes in the request locale',
      },
    },
    async (request) => ok({ ...(await content.versions(request.locale)), demo }),
  );

  http.get(
    '/home/systemTime',
    { schema: { tags, summary: 'Server time in ms (the cycle countdown syncs to it)' } },
    async () => ok(content.systemTime()),
  );

  http.get<{ Querystring: { type: BannerKind } }>(
    '/home/banner',
    {
      schema: {
        tags,
        summary: 'Banners for the request locale: type app (carousel) or invite (the invite banner)',
        querystring: {
          type: 'object',
          properties: { type: { type: 'string', enum: BANNER_KINDS, default: 'app' } },
        },
      },
    },
    async (request) => ok(await content.banners(request.query.type, request.locale)),
  );

  http.get<{ Querystring: { page: number; limit: number } }>(
    '/home/articles',
    {
      schema: {
        tags,
        summary: 'Notices in the request locale, newest first: {list, count}',
        querystring: pageQuery,
      },
    },
    async (request) => ok(await content.notices(request.locale, request.query.page, request.query.limit)),
  );

  http.get<{ Params: { id: number } }>(
    '/home/articles/:id',
    {
      schema: {
        tags,
        summary: 'One notice: id, title, wdate (ms), reply (sanitised HTML)',
        params: idParams,
      },
    },
    async (request) => ok(await content.notice(request.params.id, request.locale)),
  );

  http.get(
    '/home/areaCode',
    { schema: { tags, summary: 'Dialling codes with localised country names, featured (state 1) first' } },
    async (request) => ok(content.areaCodes(request.locale)),
  );

  http.get(
    '/home/aboutUs',
    {
      schema: {
        tags,
        summary: 'Customer-service phone, email, LINEURL, online chat URL, external link, socials',
      },
    },
    async (request) => ok(await content.aboutUs(request.locale)),
  );

  http.get(
    '/user/tipsList',
    {
      preHandler: requireUser,
      config: { signInOptional: true },
      schema: {
        tags: ['user'],
        summary: "Tips: oneTips (the signed-in user's own, if any) and allTips; visitors get allTips only",
        security: [{ token: [] }, {}],
      },
    },
    async (request) => ok(await content.tips(signedInUserId(request), request.locale)),
  );
}

function registerAdminRoutes(http: FastifyInstance, content: ContentService, operatorGuard: OperatorGuard) {
  const guard = { preHandler: operatorGuard('content.manage') };
  const base = { tags: ['admin'], security: OPERATOR_SECURITY };
  const noticeBody = {
    type: 'object',
    required: ['texts'],
    additionalProperties: false,
    properties: { texts: localisedSchema(noticeTextSchema, true) },
  };

  // The operator's reads: each piece in every locale it was written in, as the writes below take it back.
  http.get<{ Querystring: { page: number; limit: number } }>(
    '/admin/content/notices',
    {
      ...guard,
      schema: {
        ...base,
        summary: 'Notices, newest first, with the texts of every locale',
        querystring: pageQuery,
      },
    },
    async (request) => ok(await content.adminNotices(request.query.page, request.query.limit)),
  );
  http.get(
    '/admin/content/banners',
    { ...guard, schema: { ...base, summary: 'Every banner of every kind and locale' } },
    async () => ok(await content.adminBanners()),
  );
  http.get(
    '/admin/content/tips',
    { ...guard, schema: { ...base, summary: 'The tip for everyone, in every locale' } },
    async () => ok(await content.adminTips()),
  );
  http.get(
    '/admin/content/aboutUs',
    { ...guard, schema: { ...base, summary: 'The about-us document as stored (intro in every locale)' } },
    async () => ok(await content.aboutUsSettings()),
  );
  http.get(
    '/admin/content/versions',
    { ...guard, schema: { ...base, summary: 'The published release and its notes in every locale' } },
    async () => ok(await content.versionsSettings()),
  );

  http.post<{ Body: NoticeBody }>(
    '/admin/content/notices',
    { ...guard, schema: { ...base, body: noticeBody } },
    async (request) => ok({ id: await content.createNotice(noticeTexts(request.body)) }, 'content.saved'),
  );

  http.put<{ Params: { id: number }; Body: NoticeBody }>(
    '/admin/content/notices/:id',
    { ...guard, schema: { ...base, params: idParams, body: noticeBody } },
    async (request) => {
      await content.updateNotice(request.params.id, noticeTexts(request.body));
      return ok(null, 'content.saved');
    },
  );

  http.delete<{ Params: { id: number } }>(
    '/admin/content/notices/:id',
    { ...guard, schema: { ...base, params: idParams } },
    async (request) => {
      await content.deleteNotice(request.params.id);
      return ok(null, 'content.deleted');
    },
  );

  http.post<{ Body: BannerBody }>(
    '/admin/content/banners',
    { ...guard, schema: { ...base, body: bannerSchema } },
    async (request) => ok({ id: await content.createBanner(bannerInput(request.body)) }, 'content.saved'),
  );

  http.put<{ Params: { id: number }; Body: BannerBody }>(
    '/admin/content/banners/:id',
    { ...guard, schema: { ...base, params: idParams, body: bannerSchema } },
    async (request) => {
      await content.updateBanner(request.params.id, bannerInput(request.body));
      return ok(null, 'content.saved');
    },
  );

  http.delete<{ Params: { id: number } }>(
    '/admin/content/banners/:id',
    { ...guard, schema: { ...base, params: idParams } },
    async (request) => {
      await content.deleteBanner(request.params.id);
      return ok(null, 'content.deleted');
    },
  );

  http.put<{ Body: { userId?: number; texts: Localised<TipText> } }>(
    '/admin/content/tips',
    {
      ...guard,
      schema: {
        ...base,
        body: {
          type: 'object',
          required: ['texts'],
          additionalProperties: false,
          properties: {
            userId: idField,
            // Empty texts remove the tip.
            texts: localisedSchema(tipTextSchema, false),
          },
        },
      },
    },
    async (request) => {
      await content.setTips(request.body.userId ?? null, request.body.texts);
      return ok(null, 'content.saved');
    },
  );

  http.put<{ Body: AboutUsSettings }>(
    '/admin/content/aboutUs',
    { ...guard, schema: { ...base, body: aboutUsSchema } },
    async (request) => {
      await content.setAboutUs(request.body);
      return ok(null, 'content.saved');
    },
  );

  http.put<{ Body: VersionsSettings }>(
    '/admin/content/versions',
    { ...guard, schema: { ...base, body: versionsSchema } },
    async (request) => {
      await content.setVersions(request.body);
      return ok(null, 'content.saved');
    },
  );
}
