/**
 * Lets code outside React (the api client's 401 logout, wallet events) move
 * the user; the router registers its navigate function at start.
 */
type Navigate = (to: string, options?: { replace?: boolean }) => void;

let navigate: Navigate = (to) => window.location.assign(to);

export function setNavigator(next: Navigate): void {
  navigate = next;
}

export function goTo(to: string, options?: { replace?: boolean }): void {
  navigate(to, options);
}
