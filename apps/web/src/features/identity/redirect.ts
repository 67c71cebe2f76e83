/** The query parameter that carries where a visitor was headed when sent to log in. */
export const REDIRECT_PARAM = 'redirect';

/** Screens a finished login must not return to. */
const NOT_AFTER_LOGIN = ['/login', '/register', '/resetPass'];

/** `/login?redirect=/coinExchange%3Fx%3D1`: the login screen, remembering the screen to return to. */
export function loginPath(headedTo: string): string {
  return `/login?${new URLSearchParams({ [REDIRECT_PARAM]: headedTo })}`;
}

/**
 * Where a login (password, code or wallet) goes from a login screen whose
 * query is `search`: the `redirect` when it is a path of this app, else home.
 * Anything else ("//evil.example", "https://…") is ignored, so the parameter
 * cannot send anyone off the site.
 */
export function afterLoginPath(search: string): string {
  const target = new URLSearchParams(search).get(REDIRECT_PARAM);
  if (!target?.startsWith('/') || target.startsWith('//') || target.includes('\\')) return '/';
  const pathname = target.split(/[?#]/)[0] ?? '';
  return NOT_AFTER_LOGIN.includes(pathname) ? '/' : target;
}
