/** The message the app posts to a waiting service worker to make it take over. */
export const SKIP_WAITING = 'SKIP_WAITING';
