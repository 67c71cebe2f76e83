import { describe, expect, it } from 'vitest';
import { LOCALES } from '../locales.ts';
import { catalogues, translate } from './index.ts';

describe('message catalogues', () => {
  for (const [domain, catalogue] of Object.entries(catalogues)) {
    it(`${domain}: every key is translated, non-empty, in all nine locales with the same placeholders`, () => {
      const englishKeys = Object.keys(catalogue.en).sort();
      for (const locale of LOCALES) {
        expect(Object.keys(catalogue[locale]).sort(), `${domain}/${locale}`).toEqual(englishKeys);
        for (const key of englishKeys) {
          const text = catalogue[locale][key] ?? '';
          expect(text.trim(), `${domain}/${locale}/${key}`).not.toBe('');
          const placeholders = (value: string) => (value.match(/\{\w+\}/g) ?? []).sort();
          expect(placeholders(text), `${domain}/${locale}/${key}`).toEqual(
            placeholders(catalogue.en[key] ?? ''),
          );
        }
      }
    });
  }

  it('fills placeholders and falls back to English', () => {
    expect(translate('en', 'common.invalidParams', { field: 'price' })).toBe('Invalid parameter: price');
    expect(translate('ru', 'no.such.key')).toBe('no.such.key');
  });

  it('finds nothing on the prototype: client-chosen locales, keys and params cannot reach it', () => {
    for (const name of ['__proto__', 'constructor', 'toString', 'hasOwnProperty']) {
      expect(translate(name as 'en', 'common.invalidParams', { field: 'x' })).toBe('Invalid parameter: x');
      expect(translate('en', name)).toBe(name);
      expect(translate('en', 'common.invalidParams', {})).toBe('Invalid parameter: {field}');
    }
    expect(translate('en', 'common.invalidParams', { field: Object.create(null) })).toBe(
      'Invalid parameter: ',
    );
  });
});
