import { LOCALES, type Locale } from '@halyard/protocol';
import { Tabs } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/**
 * One tab per language of the exchange (nine), each rendering the fields of that locale; every
 * tab stays mounted so the form keeps and submits all nine. English is first: readers of a
 * language left empty get it.
 */
export function LocaleTabs({ children }: { children(locale: Locale): ReactNode }) {
  const { t } = useTranslation();
  const ordered: Locale[] = ['en', ...LOCALES.filter((locale) => locale !== 'en')];
  return (
    <Tabs
      size="small"
      items={ordered.map((locale) => ({
        key: locale,
        label: t(`locale.${locale}`),
        forceRender: true,
        children: children(locale),
      }))}
    />
  );
}

/** Drops the locales left empty, so a reader of one gets English instead of a blank. */
export function writtenLocales<T>(texts: Partial<Record<Locale, T>>, isEmpty: (text: T) => boolean) {
  return Object.fromEntries(
    Object.entries(texts).filter(
      (entry): entry is [Locale, T] => entry[1] !== undefined && !isEmpty(entry[1] as T),
    ),
  ) as Partial<Record<Locale, T>>;
}
