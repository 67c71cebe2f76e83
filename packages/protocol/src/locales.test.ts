import { describe, expect, it } from 'vitest';
import { toLocale } from './locales.ts';

describe('toLocale', () => {
  it('maps the nine codes and browser tags', () => {
    expect(toLocale('cn')).toBe('cn');
    expect(toLocale('zh-TW')).toBe('tw');
    expect(toLocale('ja-JP')).toBe('jp');
    expect(toLocale(' RU ')).toBe('ru');
    expect(toLocale('xx')).toBeNull();
  });

  it('answers null for prototype names and for values that are not strings', () => {
    for (const tag of [
      '__proto__',
      'constructor',
      'toString',
      'hasOwnProperty',
      'constructor-x',
      '__proto__-1',
    ]) {
      expect(toLocale(tag)).toBeNull();
    }
    for (const value of [undefined, null, '', ['en'], 1, {}]) expect(toLocale(value)).toBeNull();
  });
});
