import { LOCALES } from '@halyard/protocol';
import { describe, expect, it } from 'vitest';
import { INTL_TAGS } from '../i18n/locale.ts';
import { formatChange, formatMoney, SEPARATORS, trendOf } from './format.ts';

describe('money formatting', () => {
  it('floors, never rounds, and never loses digits of large values', () => {
    expect(formatMoney('1234567.98765', 2, 'en')).toBe('1,234,567.98');
    expect(formatMoney('123456789012345678.999999999', 4, 'en')).toBe('123,456,789,012,345,678.9999');
    expect(formatMoney('-0.129', 2, 'en')).toBe('-0.13');
  });

  it('treats a non-number as zero', () => {
    expect(formatMoney('abc', 2, 'en')).toBe('0.00');
    expect(formatMoney(null, 0, 'en')).toBe('0');
  });

  it("uses the locale's marks", () => {
    expect(formatMoney('1234.5', 2, 'ru')).toMatch(/^1\s234,50$/u);
    expect(formatMoney('1234.5', 2, 'tr')).toBe('1.234,50');
  });

  it.each(LOCALES)("has Intl's marks for %s in its table", (locale) => {
    const parts = new Intl.NumberFormat(INTL_TAGS[locale]).formatToParts(1234567.5);
    expect(SEPARATORS[locale]).toEqual({
      group: parts.find((part) => part.type === 'group')?.value,
      decimal: parts.find((part) => part.type === 'decimal')?.value,
    });
  });

  it('signs a change and picks its colour', () => {
    expect(formatChange('1.239', 'en')).toBe('+1.23%');
    expect(formatChange('-0.5', 'en')).toBe('-0.50%');
    expect(formatChange('0', 'en')).toBe('0.00%');
    expect(trendOf('-0.01')).toBe('down');
    expect(trendOf('0')).toBe('up');
  });
});
