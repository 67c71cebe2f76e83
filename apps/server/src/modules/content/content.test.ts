import { HALYARD_VERSION, LOCALES } from '@halyard/protocol';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '../../clock.ts';
import { ADMIN_TOKEN, signUp, startApp, type TestApp } from '../support/test-helpers.ts';
import { seedContentDemo } from './seed.ts';

const admin = { 'admin-token': ADMIN_TOKEN };
let app: TestApp;

afterEach(async () => {
  await app?.close();
});

async function get(url: string, headers: Record<string, string> = {}) {
  const response = await app.http.inject({ method: 'GET', url, headers });
  return response.json();
}

async function send(method: 'POST' | 'PUT' | 'DELETE', url: string, payload?: object, headers = admin) {
  const response = await app.http.inject({ method, url, payload, headers });
  return response.json();
}

describe('home content (demo seed)', () => {
  it('answers versions with release notes in the request locale', async () => {
    app = await startApp({ demo: true });
    const en = await get('/home/versions', { lang: 'en' });
    const cn = await get('/home/versions', { lang: 'cn' });
    expect(en).toMatchObject({ code: 200, data: { nowCode: HALYARD_VERSION, code: HALYARD_VERSION } });
    expect(Object.keys(en.data).sort()).toEqual(['androidUrl', 'code', 'demo', 'iosUrl', 'notes', 'nowCode']);
    expect(en.data.demo).toBe(true);
    expect(en.data.notes).toContain('First release');
    expect(cn.data.notes).toContain('首个版本');
  });

  it('answers the system time from the clock', async () => {
    const clock = new ManualClock(Date.UTC(2026, 5, 1, 12));
    app = await startApp({ demo: false, clock });
    expect((await get('/home/versions')).data.demo).toBe(false);
    expect(await get('/home/systemTime')).toMatchObject({ code: 200, data: Date.UTC(2026, 5, 1, 12) });
    clock.advance(1_234);
    expect((await get('/home/systemTime')).data).toBe(Date.UTC(2026, 5, 1, 12) + 1_234);
  });

  it('answers the three app banners for every locale and an invite banner per locale, images served', async () => {
    app = await startApp({ demo: true });
    const banners = await get('/home/banner?type=app', { lang: 'ko' });
    expect(banners.code).toBe(200);
    expect(banners.data).toHaveLength(3);
    for (const banner of banners.data) {
      expect(Object.keys(banner).sort()).toEqual(['id', 'image', 'link']);
      const image = await app.http.inject({ method: 'GET', url: banner.image });
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toContain('image/svg+xml');
      expect(image.body).toContain('<svg');
    }
    expect((await get('/home/banner')).data).toEqual(banners.data);

    const inviteImages = new Set<string>();
    for (const locale of LOCALES) {
      const invite = await get('/home/banner?type=invite', { lang: locale });
      expect(invite.data).toHaveLength(1);
      expect(invite.data[0].link).toBe('/inviteFriends');
      inviteImages.add(invite.data[0].image);
      expect((await app.http.inject({ method: 'GET', url: invite.data[0].image })).statusCode).toBe(200);
    }
    expect(inviteImages.size).toBe(LOCALES.length);
  });

  it('refuses an unknown banner type', async () => {
    app = await startApp({ demo: true });
    expect((await get('/home/banner?type=popup')).code).toBe(400);
  });

  it('pages notices newest first, localised, and opens one by id', async () => {
    app = await startApp({ demo: true });
    const en = await get('/home/articles?page=1&limit=10', { lang: 'en' });
    expect(en.data.count).toBe(5);
    const dates = en.data.list.map((notice: { wdate: number }) => notice.wdate);
    expect(dates).toEqual([...dates].sort((a, b) => b - a));
    expect(Object.keys(en.data.list[0]).sort()).toEqual(['id', 'reply', 'title', 'wdate']);
    expect(en.data.list.map((notice: { title: string }) => notice.title)).toContain(
      'Demo mode: the funds are not real',
    );

    const cn = await get('/home/articles', { lang: 'cn' });
    expect(cn.data.list.map((notice: { id: number }) => notice.id)).toEqual(
      en.data.list.map((notice: { id: number }) => notice.id),
    );
    expect(cn.data.list[0].title).not.toBe(en.data.list[0].title);
    expect(cn.data.list[0].reply).not.toBe(en.data.list[0].reply);

    const second = await get('/home/articles?page=2&limit=2', { lang: 'en' });
    expect(second.data.count).toBe(5);
    expect(second.data.list).toEqual(en.data.list.slice(2, 4));

    const demo = en.data.list.find((notice: { title: string }) => notice.title.startsWith('Demo mode'));
    const ru = await get(`/home/articles/${demo.id}`, { lang: 'ru' });
    expect(ru.data.title).toBe('Демо-режим: средства не настоящие');
    expect(ru.data.reply).toContain('не настоящие');
  });

  it('answers 404 with a localised message for an unknown notice', async () => {
    app = await startApp({ demo: false });
    expect(await get('/home/articles/999', { lang: 'en' })).toMatchObject({
      code: 404,
      msg: 'This notice does not exist or has been removed',
    });
    expect((await get('/home/articles/999', { lang: 'jp' })).msg).toBe(
      'このお知らせは存在しないか、削除されました',
    );
  });

  it('lists area codes with the featured countries first, named in the request locale', async () => {
    app = await startApp({ demo: false });
    const en = await get('/home/areaCode', { lang: 'en' });
    const codes: { region: string; country: string; initials: string; state: number }[] = en.data;
    // Every region libphonenumber knows (~245), not a hand-picked few.
    expect(codes.length).toBeGreaterThanOrEqual(240);
    expect(codes).toContainEqual({ region: 'GB', country: 'United Kingdom', initials: '+44', state: 0 });
    expect(codes).toContainEqual({ region: 'FJ', country: 'Fiji', initials: '+679', state: 0 });
    const firstOther = codes.findIndex((code) => code.state === 0);
    expect(firstOther).toBeGreaterThan(0);
    expect(codes.slice(firstOther).every((code) => code.state === 0)).toBe(true);
    expect(codes[0]).toEqual({ region: 'CN', country: 'China', initials: '+86', state: 1 });
    expect(codes.every((code) => /^\+\d{1,4}$/.test(code.initials))).toBe(true);
    expect(new Set(codes.map((code) => code.region)).size).toBe(codes.length);
    const others = codes.slice(firstOther).map((code) => code.country);
    expect(others).toEqual([...others].sort((a, b) => a.localeCompare(b, 'en')));

    const cn = await get('/home/areaCode', { lang: 'cn' });
    expect(cn.data[0]).toMatchObject({ country: '中国', initials: '+86' });
  });

  it('answers about-us with LINEURL, the online chat URL and a localised intro', async () => {
    app = await startApp({
      demo: true,
      env: {
        SUPPORT_URL: 'https://help.operator.test',
        SUPPORT_CHAT_URL: 'https://chat.operator.test',
        SUPPORT_LINE_URL: 'https://line.me/ti/p/operator',
        SUPPORT_EMAIL: 'help@operator.test',
        SOCIAL_LINKS: 'Telegram=https://t.me/operator, X=https://x.com/operator',
      },
    });
    const en = await get('/home/aboutUs', { lang: 'en' });
    expect(Object.keys(en.data).sort()).toEqual(
      ['LINEURL', 'email', 'externalUrl', 'intro', 'onlineChatUrl', 'phone', 'socials'].sort(),
    );
    // The links are the operator's configuration; an unset one (the phone) stays empty.
    expect(en.data).toMatchObject({
      externalUrl: 'https://help.operator.test',
      onlineChatUrl: 'https://chat.operator.test',
      LINEURL: 'https://line.me/ti/p/operator',
      email: 'help@operator.test',
      phone: '',
      socials: [
        { name: 'Telegram', url: 'https://t.me/operator' },
        { name: 'X', url: 'https://x.com/operator' },
      ],
    });
    const tr = await get('/home/aboutUs', { lang: 'tr' });
    expect(tr.data.intro).not.toBe(en.data.intro);
    expect(tr.data.intro).toContain('açık kaynaklı');
  });

  it('has no placeholder links in the demo: unset contact links are empty, and what the operator stores wins', async () => {
    app = await startApp({ demo: true, env: { SUPPORT_URL: 'https://help.operator.test' } });
    const demo = (await get('/home/aboutUs')).data;
    expect(JSON.stringify(demo)).not.toContain('.example');
    expect(demo).toMatchObject({ LINEURL: '', onlineChatUrl: '', email: '', phone: '', socials: [] });
    expect(demo.externalUrl).toBe('https://help.operator.test');
    const stored = {
      phone: '+44 20 7946 0000',
      email: '',
      LINEURL: '',
      onlineChatUrl: 'https://chat.stored.test',
      externalUrl: '',
      socials: [],
      intro: { en: 'Ours.' },
    };
    expect((await send('PUT', '/admin/content/aboutUs', stored)).code).toBe(200);
    expect((await get('/home/aboutUs')).data).toMatchObject({
      phone: '+44 20 7946 0000',
      onlineChatUrl: 'https://chat.stored.test',
      externalUrl: 'https://help.operator.test',
      intro: 'Ours.',
    });
  });

  it('answers empty about-us and unpublished versions before anything is configured', async () => {
    app = await startApp({ demo: false });
    expect((await get('/home/aboutUs')).data).toMatchObject({
      phone: '',
      LINEURL: '',
      socials: [],
      intro: '',
    });
    expect((await get('/home/versions')).data).toEqual({
      nowCode: HALYARD_VERSION,
      code: HALYARD_VERSION,
      androidUrl: '',
      iosUrl: '',
      notes: '',
      demo: false,
    });
    expect((await get('/home/articles')).data).toEqual({ list: [], count: 0 });
    expect((await get('/home/banner')).data).toEqual([]);
  });
});

describe('versions', () => {
  it('reports the release it runs as nowCode, and never an announced release older than it as code', async () => {
    app = await startApp({ demo: false });
    const older = { code: '0.0.1', androidUrl: '', iosUrl: '', notes: {} };
    expect((await send('PUT', '/admin/content/versions', older)).code).toBe(200);
    expect((await get('/home/versions')).data).toMatchObject({
      nowCode: HALYARD_VERSION,
      code: HALYARD_VERSION,
    });
  });

  it('reports HALYARD_RELEASE as the running release when it is set', async () => {
    app = await startApp({ demo: true, env: { HALYARD_RELEASE: '99.2.0' } });
    expect((await get('/home/versions')).data).toMatchObject({ nowCode: '99.2.0', code: '99.2.0' });
  });

  it('refuses a code that is not a dotted version and keeps what was published', async () => {
    app = await startApp({ demo: false });
    const refused = await send('PUT', '/admin/content/versions', {
      code: 'latest',
      androidUrl: '',
      iosUrl: '',
      notes: {},
    });
    expect(refused).toMatchObject({ code: 400, msg: 'Invalid parameter: code' });
    expect((await get('/home/versions')).data.code).toBe(HALYARD_VERSION);
  });

  it('offers the configured native apps unless the published versions name other links', async () => {
    app = await startApp({
      demo: true,
      env: { APP_ANDROID_URL: 'https://apps.example/a.apk', APP_IOS_URL: 'https://apps.example/ios' },
    });
    expect((await get('/home/versions')).data).toMatchObject({
      androidUrl: 'https://apps.example/a.apk',
      iosUrl: 'https://apps.example/ios',
    });
    const published = { code: '0.1.0', androidUrl: 'https://store.example/b', iosUrl: '', notes: {} };
    await send('PUT', '/admin/content/versions', published);
    expect((await get('/home/versions')).data).toMatchObject({
      androidUrl: 'https://store.example/b',
      iosUrl: 'https://apps.example/ios',
    });
  });
});

describe('tips', () => {
  it('gives visitors the tip for everyone and a signed-in user their own tip too', async () => {
    app = await startApp({ demo: true });
    const visitor = await get('/user/tipsList', { lang: 'vi' });
    expect(visitor.data.oneTips).toBeNull();
    expect(visitor.data.allTips.title).toBe('Chào mừng đến với Halyard');
    expect((await get('/user/tipsList', { lang: 'en' })).data.allTips.content).toContain('not real');
    // The same tip keeps its id in every locale: read once, read in all.
    expect((await get('/user/tipsList', { lang: 'en' })).data.allTips.id).toBe(visitor.data.allTips.id);

    const alice = await signUp(app, 'alice@example.com');
    const bob = await signUp(app, 'bob@example.com');
    const aliceId = (await get('/user/userInfo', { token: alice })).data.id;
    const saved = await send('PUT', '/admin/content/tips', {
      userId: aliceId,
      texts: {
        en: { title: 'Your KYC', content: 'Please upload a clearer ID photo.' },
        cn: { title: '您的实名认证', content: '请上传更清晰的证件照片。' },
      },
    });
    expect(saved).toMatchObject({ code: 200, msg: 'Saved' });

    const aliceCn = await get('/user/tipsList', { lang: 'cn', token: alice });
    expect(aliceCn.data.oneTips).toMatchObject({
      title: '您的实名认证',
      content: '请上传更清晰的证件照片。',
    });
    expect(aliceCn.data.allTips.title).toBe('欢迎来到 Halyard');
    // A locale the operator did not write falls back to English.
    expect((await get('/user/tipsList', { lang: 'ko', token: alice })).data.oneTips.title).toBe('Your KYC');
    expect((await get('/user/tipsList', { token: bob })).data.oneTips).toBeNull();
    expect((await get('/user/tipsList', { token: 'expired-or-forged' })).data.oneTips).toBeNull();

    await send('PUT', '/admin/content/tips', { userId: aliceId, texts: {} });
    expect((await get('/user/tipsList', { token: alice })).data.oneTips).toBeNull();
  });

  it('lets the operator replace the tip for everyone', async () => {
    app = await startApp({ demo: true });
    await send('PUT', '/admin/content/tips', {
      texts: { en: { title: 'Maintenance tonight', content: 'Trading pauses 02:00-02:30 UTC.' } },
    });
    const tips = await get('/user/tipsList', { lang: 'cn' });
    expect(tips.data.allTips).toMatchObject({ title: 'Maintenance tonight' });
  });
});

describe('operator content', () => {
  it('sanitises notice HTML: no script, no on* handlers, no javascript: links', async () => {
    app = await startApp({ demo: false });
    const created = await send('POST', '/admin/content/notices', {
      texts: {
        en: {
          title: 'Listing',
          reply:
            '<p onclick="steal()">New pair <b>ABC/USDT</b><script>alert(1)</script></p>' +
            '<img src="/assets/banners/markets.svg" onerror="alert(2)">' +
            '<a href="javascript:alert(3)">click</a><a href="https://example.com/x">docs</a>' +
            '<iframe src="https://evil.example"></iframe><style>body{display:none}</style>',
        },
      },
    });
    expect(created.code).toBe(200);
    const notice = await get(`/home/articles/${created.data.id}`);
    const html: string = notice.data.reply;
    expect(html).not.toMatch(/script|alert|onerror|onclick|javascript:|iframe|<style|display:none/i);
    expect(html).toContain('<b>ABC/USDT</b>');
    expect(html).toContain('<img src="/assets/banners/markets.svg">');
    expect(html).toContain('<a href="https://example.com/x">docs</a>');
  });

  it('sanitises on output too, for HTML that reached the table another way', async () => {
    app = await startApp({ demo: false });
    const created = await send('POST', '/admin/content/notices', {
      texts: { en: { title: 'Plain', reply: '<p>safe</p>' } },
    });
    await app.store.db
      .updateTable('content_notice_texts')
      .set({ body: '<p>ok<img src=x onerror="alert(1)"><script>alert(2)</script></p>' })
      .execute();
    const html: string = (await get(`/home/articles/${created.data.id}`)).data.reply;
    expect(html).toBe('<p>ok<img src></p>');
  });

  it('creates, updates and deletes a notice in several locales', async () => {
    const clock = new ManualClock();
    app = await startApp({ demo: false, clock });
    const first = await send('POST', '/admin/content/notices', {
      texts: { en: { title: 'Old', reply: '<p>old</p>' } },
    });
    clock.advance(60_000);
    const created = await send('POST', '/admin/content/notices', {
      texts: {
        en: { title: 'Hello', reply: '<p>hi</p>' },
        jp: { title: 'こんにちは', reply: '<p>やあ</p>' },
      },
    });
    expect(created).toMatchObject({ code: 200, msg: 'Saved' });
    const list = await get('/home/articles', { lang: 'jp' });
    expect(list.data.list.map((notice: { title: string }) => notice.title)).toEqual(['こんにちは', 'Old']);
    expect(list.data.list[0].wdate).toBe(clock.now());

    const updated = await send('PUT', `/admin/content/notices/${created.data.id}`, {
      texts: { en: { title: 'Hello again', reply: '<p>hi</p>' } },
    });
    expect(updated.code).toBe(200);
    expect((await get(`/home/articles/${created.data.id}`, { lang: 'jp' })).data.title).toBe('Hello again');

    expect((await send('DELETE', `/admin/content/notices/${created.data.id}`)).msg).toBe('Deleted');
    expect((await get(`/home/articles/${created.data.id}`)).code).toBe(404);
    expect((await get('/home/articles')).data.count).toBe(1);
    expect((await send('DELETE', `/admin/content/notices/${created.data.id}`)).code).toBe(404);
    expect(
      (
        await send('PUT', `/admin/content/notices/${first.data.id + 100}`, {
          texts: { en: { title: 'x', reply: 'y' } },
        })
      ).code,
    ).toBe(404);
  });

  it('refuses a notice without English or with a blank title, and changes nothing', async () => {
    app = await startApp({ demo: false });
    const noEnglish = await send('POST', '/admin/content/notices', {
      texts: { cn: { title: '标题', reply: '正文' } },
    });
    expect(noEnglish.code).toBe(400);
    const blankTitle = await send('POST', '/admin/content/notices', {
      texts: { en: { title: '   ', reply: 'x' } },
    });
    expect(blankTitle.code).toBe(400);
    const unknownLocale = await send('POST', '/admin/content/notices', {
      texts: { en: { title: 't', reply: 'x' }, fr: { title: 't', reply: 'x' } },
    });
    expect(unknownLocale.code).toBe(400);
    expect((await get('/home/articles')).data.count).toBe(0);
  });

  it('creates, updates and deletes banners, per locale where asked, and refuses unsafe links', async () => {
    app = await startApp({ demo: false });
    const created = await send('POST', '/admin/content/banners', {
      type: 'app',
      image: '/assets/banners/markets.svg',
      link: 'https://example.com/promo',
      sort: 2,
    });
    expect(created.code).toBe(200);
    await send('POST', '/admin/content/banners', {
      type: 'app',
      locale: 'tr',
      image: '/assets/banners/demo.svg',
      link: '/ieo',
      sort: 1,
    });
    expect((await get('/home/banner', { lang: 'en' })).data).toHaveLength(1);
    const tr = await get('/home/banner', { lang: 'tr' });
    expect(tr.data.map((banner: { link: string }) => banner.link)).toEqual([
      '/ieo',
      'https://example.com/promo',
    ]);

    const unsafe = await send('POST', '/admin/content/banners', {
      type: 'app',
      image: '/assets/banners/markets.svg',
      link: 'javascript:alert(1)',
    });
    expect(unsafe.code).toBe(400);
    const dataImage = await send('POST', '/admin/content/banners', {
      type: 'app',
      image: 'data:image/svg+xml,<svg/>',
    });
    expect(dataImage.code).toBe(400);

    const updated = await send('PUT', `/admin/content/banners/${created.data.id}`, {
      type: 'app',
      image: '/assets/banners/security.svg',
      link: '',
    });
    expect(updated.code).toBe(200);
    expect((await get('/home/banner', { lang: 'en' })).data[0]).toMatchObject({
      image: '/assets/banners/security.svg',
      link: '',
    });
    expect((await send('DELETE', `/admin/content/banners/${created.data.id}`)).code).toBe(200);
    expect((await get('/home/banner', { lang: 'en' })).data).toEqual([]);
    expect((await send('DELETE', `/admin/content/banners/${created.data.id}`)).code).toBe(404);
  });

  it('sets about-us and versions', async () => {
    app = await startApp({ demo: true });
    const aboutUs = {
      phone: '+44 20 7946 0000',
      email: 'help@exchange.example',
      LINEURL: 'https://line.example/help',
      onlineChatUrl: 'https://chat.example',
      externalUrl: '',
      socials: [{ name: 'Telegram', url: 'https://telegram.example/x' }],
      intro: { en: 'We are an exchange.' },
    };
    expect((await send('PUT', '/admin/content/aboutUs', aboutUs)).code).toBe(200);
    expect((await get('/home/aboutUs', { lang: 'ru' })).data).toEqual({
      ...aboutUs,
      intro: 'We are an exchange.',
    });
    const badUrl = await send('PUT', '/admin/content/aboutUs', { ...aboutUs, onlineChatUrl: 'javascript:x' });
    expect(badUrl.code).toBe(400);

    const versions = {
      code: '99.1.0',
      androidUrl: 'https://apps.example/halyard.apk',
      iosUrl: '',
      notes: { ko: '새 버전' },
    };
    expect((await send('PUT', '/admin/content/versions', versions)).code).toBe(200);
    expect((await get('/home/versions', { lang: 'ko' })).data).toEqual({
      ...versions,
      nowCode: HALYARD_VERSION,
      notes: '새 버전',
      demo: true,
    });
  });

  it('gives the operator every locale of each piece as stored, in the shape the writes take back', async () => {
    app = await startApp({ demo: true });
    const notices = await get('/admin/content/notices?page=1&limit=50', admin);
    expect(notices.code).toBe(200);
    expect(notices.data.count).toBe(notices.data.list.length);
    for (const notice of notices.data.list)
      expect(Object.keys(notice.texts).sort()).toEqual([...LOCALES].sort());
    const [first] = notices.data.list;
    // What is read goes back unchanged: no locale is lost by an edit in the console.
    expect((await send('PUT', `/admin/content/notices/${first.id}`, { texts: first.texts })).code).toBe(200);
    expect((await get('/admin/content/notices?page=1&limit=50', admin)).data.list[0]).toEqual(first);

    const banners = (await get('/admin/content/banners', admin)).data;
    expect(banners.filter((banner: { type: string }) => banner.type === 'app')).toHaveLength(3);
    expect(banners.filter((banner: { type: string }) => banner.type === 'invite')).toHaveLength(
      LOCALES.length,
    );
    expect(Object.keys(banners[0]).sort()).toEqual(['id', 'image', 'link', 'locale', 'sort', 'type']);

    const tips = {
      en: { title: 'Heads up', content: 'Maintenance tonight' },
      jp: { title: '', content: '今夜メンテナンス' },
    };
    expect((await send('PUT', '/admin/content/tips', { texts: tips })).code).toBe(200);
    expect((await get('/admin/content/tips', admin)).data).toEqual(tips);

    const aboutUs = (await get('/admin/content/aboutUs', admin)).data;
    expect(aboutUs.intro.cn).toBeTruthy();
    expect(aboutUs.intro.en).toBeTruthy();
    const versions = (await get('/admin/content/versions', admin)).data;
    expect(Object.keys(versions).sort()).toEqual(['androidUrl', 'code', 'iosUrl', 'notes']);
    expect(versions.notes.cn).toContain('首个版本');
  });

  it('refuses every operator route without the admin token and changes nothing', async () => {
    app = await startApp({ demo: true });
    const before = await get('/home/articles?limit=50');
    const calls: Array<['POST' | 'PUT' | 'DELETE', string, object | undefined]> = [
      ['POST', '/admin/content/notices', { texts: { en: { title: 'x', reply: 'y' } } }],
      [
        'PUT',
        `/admin/content/notices/${before.data.list[0].id}`,
        { texts: { en: { title: 'x', reply: 'y' } } },
      ],
      ['DELETE', `/admin/content/notices/${before.data.list[0].id}`, undefined],
      ['POST', '/admin/content/banners', { type: 'app', image: '/x.svg' }],
      ['DELETE', '/admin/content/banners/1', undefined],
      ['PUT', '/admin/content/tips', { texts: {} }],
    ];
    for (const [method, url, payload] of calls) {
      for (const headers of [{}, { 'admin-token': 'wrong' }]) {
        const refused = await send(method, url, payload, headers as typeof admin);
        expect(refused, `${method} ${url}`).toMatchObject({
          code: 403,
          msg: 'You are not allowed to do this',
        });
      }
    }
    expect(await get('/home/articles?limit=50')).toEqual(before);
    expect((await get('/home/banner')).data).toHaveLength(3);
    expect((await get('/user/tipsList')).data.allTips).not.toBeNull();
  });
});

describe('demo seed', () => {
  it('is idempotent and never overwrites operator edits', async () => {
    app = await startApp({ demo: true });
    await send('PUT', '/admin/content/tips', { texts: { en: { title: 'Operator tip', content: 'Mine.' } } });
    await send('PUT', '/admin/content/versions', {
      code: '99.0.0',
      androidUrl: '',
      iosUrl: '',
      notes: {},
    });
    await seedContentDemo(app.store.db, new ManualClock());
    await seedContentDemo(app.store.db, new ManualClock());
    expect((await get('/home/articles?limit=50')).data.count).toBe(5);
    expect((await get('/home/banner')).data).toHaveLength(3);
    expect((await get('/home/banner?type=invite')).data).toHaveLength(1);
    expect((await get('/user/tipsList')).data.allTips.title).toBe('Operator tip');
    expect((await get('/home/versions')).data.code).toBe('99.0.0');
  });

  it('writes every notice in all nine locales', async () => {
    app = await startApp({ demo: true });
    const titles = new Set<string>();
    for (const locale of LOCALES) {
      const page = await get('/home/articles', { lang: locale });
      expect(page.data.count).toBe(5);
      titles.add(page.data.list.map((notice: { title: string }) => notice.title).join('|'));
    }
    // tw and cn share no titles (traditional vs simplified script), so all nine differ.
    expect(titles.size).toBe(LOCALES.length);
  });
});
