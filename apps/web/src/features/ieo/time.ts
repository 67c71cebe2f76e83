import { useEffect, useState } from 'react';

/** "2d 03:04:05" / "03:04:05": what is left until an instant, for countdowns. */
export function formatLeft(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const days = Math.floor(total / 86_400);
  const clock = [Math.floor(total / 3600) % 24, Math.floor(total / 60) % 60, total % 60]
    .map((part) => String(part).padStart(2, '0'))
    .join(':');
  return days > 0 ? `${days}d ${clock}` : clock;
}

/**
 * The server's time, moving: the list answers its `now`, the page ticks from
 * there, so countdowns follow the server clock that opens and closes windows.
 */
export function useServerNow(serverNow: number | undefined): number {
  const [offset, setOffset] = useState(0);
  const [local, setLocal] = useState(() => Date.now());
  useEffect(() => {
    if (serverNow !== undefined) setOffset(serverNow - Date.now());
  }, [serverNow]);
  useEffect(() => {
    const timer = setInterval(() => setLocal(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  return local + offset;
}
