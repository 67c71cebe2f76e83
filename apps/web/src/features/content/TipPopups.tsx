import { Dialog } from 'antd-mobile';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { LOCAL_KEYS, local } from '../../shared/storage.ts';
import { type Tip, useTips } from './api.ts';

/** Spec §4/§9: the everyone tip follows the user's own tip after 500 ms. */
export const SECOND_TIP_DELAY_MS = 500;

function readTips(): string[] {
  return local.getJson<string[]>(LOCAL_KEYS.readTips, []);
}

/** A tip is known by its id, so reading it in one language marks it read in all. */
function tipKey(kind: 'one' | 'all', tip: Tip): string {
  return `${kind}:${tip.id}`;
}

function markRead(key: string): void {
  local.setJson(LOCAL_KEYS.readTips, [...readTips().filter((read) => read !== key), key].slice(-50));
}

/** The tip popups on home (spec §4 "Tip popup"): each shown until its read flag is set. */
export function TipPopups() {
  const { t } = useTranslation();
  const { data } = useTips();
  useEffect(() => {
    if (!data) return;
    const read = new Set(readTips());
    const queue = (
      [
        ['one', data.oneTips],
        ['all', data.allTips],
      ] as const
    ).filter(
      (entry): entry is readonly ['one' | 'all', Tip] =>
        entry[1] !== null && !read.has(tipKey(entry[0], entry[1])),
    );
    const timers: ReturnType<typeof setTimeout>[] = [];
    queue.forEach(([kind, tip], position) => {
      timers.push(
        setTimeout(() => {
          const title = tip.title || t('tips.title');
          void Dialog.alert({
            // The dialog's accessible name (antd-mobile gives role="dialog" no label of its own).
            'aria-label': title,
            title,
            content: <div style={{ whiteSpace: 'pre-wrap', lineHeight: 1.6 }}>{tip.content}</div>,
            confirmText: t('tips.read'),
            onConfirm: () => markRead(tipKey(kind, tip)),
          });
        }, position * SECOND_TIP_DELAY_MS),
      );
    });
    return () => timers.forEach(clearTimeout);
  }, [data, t]);
  return null;
}
