import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { LOCALES, messages } from '@halyard/protocol';
import { describe, expect, it } from 'vitest';
import english from './en.json';
import { createI18n, loadCatalogue, showLocale } from './index.ts';

const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();

describe('app texts', () => {
  it.each(LOCALES)('%s has every key, none empty, with the same placeholders', async (locale) => {
    const texts: Record<string, string> = (await loadCatalogue(locale)).app;
    const missing = Object.keys(english).filter((key) => !texts[key]?.trim());
    const extra = Object.keys(texts).filter((key) => !(key in english));
    expect({ missing, extra }).toEqual({ missing: [], extra: [] });
    for (const [key, text] of Object.entries(english)) {
      expect([key, placeholders(texts[key] ?? '')]).toEqual([key, placeholders(text)]);
    }
  });

  it.each(LOCALES)('%s writes placeholders as the app fills them: {name}, never {{name}}', async (locale) => {
    const texts: Record<string, string> = (await loadCatalogue(locale)).app;
    expect(Object.entries(texts).filter(([, text]) => text.includes('{{'))).toEqual([]);
  });

  it('never shadows a server message key', () => {
    const shadowed = Object.keys(english).filter((key) => key in messages.en);
    expect(shadowed).toEqual([]);
  });

  it.each(LOCALES)("loads %s's server messages exactly as @halyard/protocol has them", async (locale) => {
    expect((await loadCatalogue(locale)).server).toEqual(messages[locale]);
  });

  it("translates rule keys exactly as the server's catalogue words them, placeholders filled", async () => {
    const i18n = createI18n();
    await showLocale(i18n, 'cn');
    expect(i18n.t('common.invalidParams', { ns: 'server', field: 'x' })).toBe(
      messages.cn['common.invalidParams']?.replace('{field}', 'x'),
    );
    expect(i18n.t('identity.resendIn', { seconds: 5 })).toBe('5 秒后重发');
  });

  it('starts in English', () => {
    expect(createI18n().t('route.home')).toBe(english['route.home']);
  });

  it('falls back to English for a key a locale lacks at run time', async () => {
    const i18n = createI18n();
    await showLocale(i18n, 'ru');
    expect(i18n.t('route.home')).toBe('Главная');
    i18n.removeResourceBundle('ru', 'app');
    expect(i18n.t('route.home')).toBe(english['route.home']);
    expect(i18n.t('no.such.key')).toBe('no.such.key');
  });
});

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.(ts|tsx)$/.test(entry.name) && !/\.test\./.test(entry.name) ? [full] : [];
  });
}

describe('keys used by the screens', () => {
  it('exist in the app texts or the server catalogue', () => {
    const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
    const used = new Set<string>();
    for (const file of sourceFiles(root)) {
      for (const match of readFileSync(file, 'utf8').matchAll(/\bt\(\s*'([\w.]+)'/g))
        used.add(match[1] ?? '');
    }
    // Keys of the route table are passed to t() as data.
    for (const match of readFileSync(path.join(root, 'app/routes.ts'), 'utf8').matchAll(
      /title: '([\w.]+)'/g,
    )) {
      used.add(match[1] ?? '');
    }
    const unknown = [...used].filter((key) => !(key in english) && !(key in messages.en));
    expect(used.size).toBeGreaterThan(100);
    expect(unknown).toEqual([]);
  });
});
