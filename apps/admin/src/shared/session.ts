import type { OperatorMe, Permission } from '@halyard/protocol';
import { useSyncExternalStore } from 'react';

/**
 * The operator's session: the token lives in sessionStorage, so it ends with the tab
 * (a console left open elsewhere does not stay signed in) and survives a reload.
 */
const TOKEN_KEY = 'halyard-console-token';

interface SessionState {
  token: string | null;
  operator: OperatorMe | null;
}

let state: SessionState = { token: sessionStorage.getItem(TOKEN_KEY), operator: null };
const listeners = new Set<() => void>();

function publish(next: SessionState): void {
  state = next;
  for (const listener of listeners) listener();
}

export const session = {
  token: () => state.token,
  signIn(token: string, operator: OperatorMe): void {
    sessionStorage.setItem(TOKEN_KEY, token);
    publish({ token, operator });
  },
  setOperator(operator: OperatorMe): void {
    publish({ ...state, operator });
  },
  signOut(): void {
    sessionStorage.removeItem(TOKEN_KEY);
    publish({ token: null, operator: null });
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  snapshot: () => state,
};

export function useSession(): SessionState {
  return useSyncExternalStore(session.subscribe, session.snapshot);
}

/** Whether the signed-in operator's role allows any of `permissions` (the server checks again). */
export function useCan(...permissions: Permission[]): boolean {
  const { operator } = useSession();
  return operator !== null && permissions.some((permission) => operator.permissions.includes(permission));
}
