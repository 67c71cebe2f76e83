import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import cn from './cn.json';
import en from './en.json';

const SOURCE = path.resolve(import.meta.dirname, '..');

/** Every key the console's sources name literally: t('menu.users'), label: 'menu.users'. */
function keysInSources(): Set<string> {
  const keys = new Set<string>();
  const files = fs
    .readdirSync(SOURCE, { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file));
  for (const file of files) {
    const text = fs.readFileSync(path.join(SOURCE, file), 'utf8');
    for (const match of text.matchAll(/\bt\(\s*'([a-zA-Z]+\.[\w.]+)'|label: '([a-z]+\.[\w.]+)'/g)) {
      keys.add((match[1] ?? match[2]) as string);
    }
  }
  return keys;
}

describe('console texts', () => {
  it('English and Chinese have the same keys, none empty', () => {
    expect(Object.keys(cn).sort()).toEqual(Object.keys(en).sort());
    for (const [key, text] of [...Object.entries(en), ...Object.entries(cn)])
      expect(text.trim(), key).not.toBe('');
  });

  it('every key the screens name is written in both languages', () => {
    const named = keysInSources();
    expect(named.size, "the scan finds the screens' keys").toBeGreaterThan(200);
    const missing = [...named].filter((key) => !Object.hasOwn(en, key));
    expect(missing).toEqual([]);
  });

  it('a text keeps the placeholders of its English original', () => {
    const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((match) => match[1]).sort();
    for (const [key, text] of Object.entries(en)) {
      expect(placeholders((cn as Record<string, string>)[key] ?? ''), key).toEqual(placeholders(text));
    }
  });
});
