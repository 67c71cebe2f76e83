import { toast } from './ui/toast.ts';

/**
 * Copies `text` and says so with `copiedText`; where the browser refuses the
 * clipboard (plain http, no permission) the toast shows the text itself, so
 * it can still be copied by hand.
 */
export function copyText(text: string, copiedText: string): void {
  // navigator.clipboard is undefined outside a secure context: the failure then lands in the catch too.
  Promise.resolve()
    .then(() => navigator.clipboard.writeText(text))
    .then(() => toast(copiedText))
    .catch(() => toast(text));
}
