import { OPERATOR_ROLES, type OperatorRole, roleAllows, translate } from '@halyard/protocol';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Harness, startHarness } from '../identity/test-support.ts';
import { type OperatorSession, operatorSession } from './test-support.ts';

/**
 * Issue 18 "each role can do exactly its list": every /admin route the app
 * serves, as each role. A role whose allow-list lacks the route's permission
 * is refused with operators.notAllowed (403); any other role gets past the
 * guard (whatever the route then says of the empty request). One app.
 */
let h: Harness;
const sessions = new Map<OperatorRole, OperatorSession>();

beforeAll(async () => {
  h = await startHarness();
  for (const role of OPERATOR_ROLES) sessions.set(role, await operatorSession(h.app, role, h.clock));
});
afterAll(async () => {
  await h.close();
});

/** The operator's own sign-in routes: open, or any live session of its own. */
const SESSION_ROUTES = new Set([
  'GET /admin/auth/bootstrap',
  'POST /admin/auth/bootstrap',
  'POST /admin/auth/login',
  'POST /admin/auth/totp/confirm',
  'POST /admin/auth/logout',
  'POST /admin/auth/password',
  'GET /admin/auth/me',
]);

const NOT_ALLOWED = translate('en', 'operators.notAllowed');

async function adminRoutes(): Promise<string[]> {
  const document = (await h.app.http.inject({ method: 'GET', url: '/docs/json' })).json() as {
    paths: Record<string, Record<string, unknown>>;
  };
  return Object.entries(document.paths)
    .filter(([path]) => path.startsWith('/admin/'))
    .flatMap(([path, methods]) => Object.keys(methods).map((method) => `${method.toUpperCase()} ${path}`));
}

/** An OpenAPI path with a value for each parameter: ids that name nothing, a well-formed upload name. */
function concrete(path: string): string {
  return path.replace(/\{(\w+)\}/g, (_whole, name: string) =>
    name === 'name' ? `${'a'.repeat(32)}.png` : /id$/i.test(name) ? '999999' : 'x',
  );
}

/** The route key the guard recorded: OpenAPI's {id} is Fastify's :id. */
function fastifyKey(key: string): string {
  return key.replace(/\{(\w+)\}/g, ':$1');
}

describe('role allow-lists on every /admin route', () => {
  it('every /admin route is guarded, except the sign-in routes', async () => {
    const unguarded = (await adminRoutes()).filter(
      (key) => !SESSION_ROUTES.has(key) && !h.app.operators.routeRules.has(fastifyKey(key)),
    );
    expect(unguarded).toEqual([]);
  });

  it('each role is refused exactly the routes its permissions do not cover', async () => {
    const mismatches: string[] = [];
    const routes = (await adminRoutes()).filter((key) => !SESSION_ROUTES.has(key));
    expect(routes.length).toBeGreaterThan(30);
    for (const key of routes) {
      const rule = h.app.operators.routeRules.get(fastifyKey(key));
      if (!rule) throw new Error(`${key} has no guard`);
      const [method = 'GET', path = ''] = key.split(' ');
      for (const role of OPERATOR_ROLES) {
        const session = sessions.get(role);
        if (!session) throw new Error(role);
        const headers = rule.freshTotp ? await session.withTotp() : session.headers;
        const response = await h.app.http.inject({
          method: method as 'GET',
          url: concrete(path),
          headers: { ...headers, lang: 'en' },
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: {} }),
        });
        const refused = response.statusCode === 403 && response.json().msg === NOT_ALLOWED;
        const allowed = roleAllows(role, rule.permission);
        if (refused === allowed)
          mismatches.push(`${key} as ${role}: ${response.statusCode} ${response.body.slice(0, 80)}`);
        if (response.statusCode === 401 || response.statusCode >= 500) {
          mismatches.push(`${key} as ${role}: ${response.statusCode} ${response.body.slice(0, 120)}`);
        }
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('a money route refuses an allowed role without a fresh TOTP code', async () => {
    const finance = sessions.get('finance');
    if (!finance) throw new Error('finance');
    const response = await h.app.http.inject({
      method: 'POST',
      url: '/admin/wallet/withdrawals/999999/approve',
      headers: { ...finance.headers, lang: 'en' },
      payload: {},
    });
    expect(response.json()).toEqual({
      code: 403,
      msg: translate('en', 'operators.freshTotpRequired'),
      data: null,
    });
  });
});
