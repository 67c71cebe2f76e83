import { Toast } from 'antd-mobile';

/** Spec §9: toasts last 2 s at the bottom. */
export const TOAST_MS = 2000;

export function toast(message: string): void {
  if (message === '') return;
  Toast.show({ content: message, position: 'bottom', duration: TOAST_MS });
}
