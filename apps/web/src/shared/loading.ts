import { create } from 'zustand';

/** Spec §2/§9: the spinner hides 500 ms after the last pending request ends. */
export const SPINNER_HIDE_DELAY_MS = 500;

interface LoadingState {
  visible: boolean;
}

export const useLoading = create<LoadingState>(() => ({ visible: false }));

/**
 * Counts pending spinner requests. Showing is immediate; hiding waits so a
 * burst of calls shows one steady spinner instead of a flicker.
 */
export function createSpinner(setVisible: (visible: boolean) => void) {
  let pending = 0;
  let hideTimer: ReturnType<typeof setTimeout> | null = null;
  return {
    start() {
      pending += 1;
      if (hideTimer !== null) {
        clearTimeout(hideTimer);
        hideTimer = null;
      }
      setVisible(true);
    },
    stop() {
      pending = Math.max(0, pending - 1);
      if (pending > 0) return;
      if (hideTimer !== null) clearTimeout(hideTimer);
      hideTimer = setTimeout(() => {
        hideTimer = null;
        if (pending === 0) setVisible(false);
      }, SPINNER_HIDE_DELAY_MS);
    },
    get pending() {
      return pending;
    },
  };
}

export const spinner = createSpinner((visible) => useLoading.setState({ visible }));
