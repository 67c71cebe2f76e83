import dayjs from 'dayjs';

/** A time as operators read it in a queue: local date and time to the second. */
export function formatTime(ms: number | null | undefined): string {
  return ms === null || ms === undefined ? '—' : dayjs(ms).format('YYYY-MM-DD HH:mm:ss');
}

/** A long text cut for a table cell (the whole text is in the row's detail). */
export function shortText(text: string, max = 80): string {
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}
