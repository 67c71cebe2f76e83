import { describe, expect, it } from 'vitest';
import { chooseLocale } from './locale.ts';

describe('chooseLocale', () => {
  it('prefers the stored choice', () => {
    expect(chooseLocale('ko', ['zh-TW'])).toBe('ko');
  });

  it('ignores a stored value that is not one of the nine', () => {
    expect(chooseLocale('xx', ['ja-JP'])).toBe('jp');
  });

  it('maps browser tags to our codes', () => {
    expect(chooseLocale(null, ['zh-TW'])).toBe('tw');
    expect(chooseLocale(null, ['zh-HK'])).toBe('tw');
    expect(chooseLocale(null, ['zh'])).toBe('cn');
    expect(chooseLocale(null, ['zh-CN'])).toBe('cn');
    expect(chooseLocale(null, ['ja'])).toBe('jp');
    expect(chooseLocale(null, ['ko-KR'])).toBe('ko');
    expect(chooseLocale(null, ['tr-TR'])).toBe('tr');
    expect(chooseLocale(null, ['vi'])).toBe('vi');
    expect(chooseLocale(null, ['id-ID'])).toBe('id');
    expect(chooseLocale(null, ['ru-RU'])).toBe('ru');
  });

  it('takes the first browser language we speak', () => {
    expect(chooseLocale(null, ['de-DE', 'fr', 'ru'])).toBe('ru');
  });

  it('falls back to English', () => {
    expect(chooseLocale(null, [])).toBe('en');
    expect(chooseLocale(null, ['de-DE', 'fr-FR'])).toBe('en');
  });
});
