import { Dec } from '@halyard/money';
import fc from 'fast-check';
import type { LightMyRequestResponse } from 'fastify';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemAccount, userAccount } from '../ledger/index.ts';
import {
  ADMIN_TOKEN,
  expectOk,
  get,
  type Harness,
  PASSWORD,
  post,
  registerByEmail,
  startHarness,
} from '../modules/identity/test-support.ts';

/**
 * Every route of the OpenAPI document, sent malformed, oversized and
 * prototype-named input as a visitor, as a funded user and (operator routes)
 * as the operator. Whatever arrives: no 5xx, always a {code,msg,data}
 * envelope, and a refused request changes none of the user's balances or orders.
 */

const SEED = 13;
/** Per route and caller: enough to meet every kind of bad input, few enough to stay fast. */
const CASES_PER_ROUTE = 12;
/** ~15 s on a loaded machine (PostgreSQL, load 11); the limit only catches a hang. */
const FUZZ_TIMEOUT_MS = 120_000;
const EMAIL = 'fuzz@example.com';

interface Schema {
  type?: string | string[];
  enum?: unknown[];
  properties?: Record<string, Schema>;
  pattern?: string;
  minimum?: number;
  maxLength?: number;
}

interface Operation {
  method: string;
  /** The OpenAPI path, `{name}` for path parameters. */
  path: string;
  query: Array<{ name: string; schema: Schema }>;
  params: string[];
  body: Schema | null;
  caller: 'token' | 'admin' | null;
}

interface FuzzRequest {
  url: string;
  headers: Record<string, string>;
  payload?: string;
}

const PROTO_NAMES = ['__proto__', 'constructor', 'toString', 'prototype', 'hasOwnProperty', 'valueOf'];

const hostileScalar: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(...PROTO_NAMES),
  fc.constantFrom(
    true,
    false,
    null,
    0,
    -1,
    1.5,
    1e308,
    -1e308,
    2 ** 53 + 1,
    1e21,
    8.64e15 + 1,
    Number.MAX_SAFE_INTEGER,
    '',
    ' ',
    'NaN',
    'Infinity',
    '-0',
    '1e999',
    '9'.repeat(38),
    `0.${'1'.repeat(30)}`,
    '-99999999999999999999',
    '99999999999999999999',
    '253402300800000',
    '9'.repeat(5000),
    'x'.repeat(20_000),
    '\u0000',
    '%',
    '../../etc/passwd',
    '<script>alert(1)</script>',
    "' OR 1=1 --",
    'a@b.c',
  ),
  fc.string({ maxLength: 30 }),
  fc.integer(),
  fc.double(),
);

const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: hostileScalar },
  { weight: 1, arbitrary: fc.array(hostileScalar, { maxLength: 3 }) },
  {
    weight: 1,
    arbitrary: fc.dictionary(fc.constantFrom(...PROTO_NAMES, 'a'), hostileScalar, { maxKeys: 2 }),
  },
);

/** Bodies that are not the JSON object a route reads. */
const RAW_BODIES = [
  '',
  'not json',
  '{',
  '[]',
  'null',
  '"text"',
  '123',
  'true',
  '{"__proto__":{"polluted":1}}',
  '{"constructor":{"prototype":{"polluted":1}}}',
  `{"a":"${'x'.repeat(100_000)}"}`,
  // Multipart cut short, with a malformed part header, with a prototype field name.
  '--x\r\nContent-Disposition: form-data; name="imgurl"; filename="a.png"\r\nContent-Type: image/png\r\n\r\nabc',
  '--x\r\nContent-Disposition\r\n\r\n1\r\n--x--\r\n',
  '--x\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\n1\r\n--x--\r\n',
];

let h: Harness;
let user: { id: number; token: string };
let operations: Operation[];
const counts = { routes: 0, requests: 0, serverErrors: 0 };
const failures: string[] = [];

beforeAll(async () => {
  h = await startHarness();
  const registered = await registerByEmail(h, EMAIL);
  user = { id: registered.member.id, token: registered.token };
  await h.app.ledger.execute(
    (['spot', 'futures'] as const).flatMap((wallet) =>
      ['USDT', 'BTC', 'ETH'].map((asset) => ({
        id: `fuzz-fund:${wallet}:${asset}`,
        debit: systemAccount('treasury'),
        credit: userAccount(user.id, wallet),
        asset,
        amount: Dec.parse(asset === 'USDT' ? '100000' : '10'),
        code: 'test_funding',
      })),
    ),
  );
  operations = await readOperations();
});

afterAll(async () => {
  await h?.close();
});

describe('fuzzing every route', () => {
  it(
    'answers every malformed request with a 4xx envelope and changes nothing it refuses',
    async () => {
      for (const [index, operation] of operations.entries()) {
        counts.routes += 1;
        const callers: Array<'visitor' | 'user' | 'admin'> = ['visitor', 'user'];
        if (operation.caller === 'admin') callers.push('admin');
        for (const caller of callers) {
          const requests = fc.sample(requestOf(operation, caller), {
            seed: SEED + index * 3 + callers.indexOf(caller),
            numRuns: CASES_PER_ROUTE,
          });
          // A read, or anything a visitor sends, must leave the user's state alone whether answered
          // or refused: one comparison per batch. A signed-in command is compared per request.
          const perRequest = operation.method !== 'GET' && caller !== 'visitor';
          const before = perRequest ? null : await snapshot();
          for (const request of requests) await send(operation, request, perRequest);
          if (before !== null && (await snapshot()) !== before) {
            failures.push(`${operation.method} ${operation.path} as ${caller} changed the user's state`);
          }
          knownState = null;
        }
        await keepSession();
      }
      console.info(
        `fuzz: ${counts.routes} routes, ${counts.requests} requests, ${counts.serverErrors} answers of 5xx`,
      );
      expect(failures).toEqual([]);
      expect(counts.routes).toBeGreaterThan(100);
      // The server is still up and serving.
      await expectOk(get(h, '/home/systemTime'));
    },
    FUZZ_TIMEOUT_MS,
  );
});

/** The routes, as the app's own OpenAPI document lists them. */
async function readOperations(): Promise<Operation[]> {
  const document = (await h.app.http.inject({ method: 'GET', url: '/docs/json' })).json() as {
    paths: Record<string, Record<string, OpenApiOperation>>;
  };
  const found: Operation[] = [];
  for (const [path, methods] of Object.entries(document.paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      const parameters = operation.parameters ?? [];
      const security = (operation.security ?? []).flatMap((entry) => Object.keys(entry));
      found.push({
        method: method.toUpperCase(),
        path,
        query: parameters.filter((p) => p.in === 'query').map((p) => ({ name: p.name, schema: p.schema })),
        params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        body: operation.requestBody?.content['application/json']?.schema ?? null,
        caller: security.includes('admin') ? 'admin' : security.includes('token') ? 'token' : null,
      });
    }
  }
  // Logging out ends the session the other routes are fuzzed with: last.
  return found.sort((a, b) => Number(a.path === '/user/logout') - Number(b.path === '/user/logout'));
}

interface OpenApiOperation {
  parameters?: Array<{ in: string; name: string; schema: Schema }>;
  requestBody?: { content: Record<string, { schema: Schema }> };
  security?: Array<Record<string, unknown>>;
}

/** A value the route might accept, so that the hostile fields beside it get past the first check. */
function plausible(name: string, schema: Schema): fc.Arbitrary<unknown> {
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  if (type === 'boolean') return fc.boolean();
  if (type === 'integer' || type === 'number') {
    if (/user/i.test(name)) return fc.constant(user.id);
    if (/at$|date|time/i.test(name))
      return fc.constantFrom(h.clock.now() + 3_600_000, 253_402_300_800_000, 8.64e15 + 1);
    return fc.constantFrom(1, 2, 10, 56, 100);
  }
  if (/tradcoin/.test(name)) return fc.constantFrom('BTC', 'ETH');
  if (/maincoin/.test(name)) return fc.constant('USDT');
  if (/coin/.test(name)) return fc.constantFrom('USDT', 'BTC');
  if (/email|account/.test(name)) return fc.constant(EMAIL);
  if (/price/i.test(name)) return fc.constantFrom('65000', '100000', '3000', '0.5');
  if (/number|amount/i.test(name)) return fc.constantFrom('0.01', '1', '10', '100');
  return fc.constantFrom('1', '0.01', '100', '65000', 'BTC', 'spot', 'futures', 'text');
}

/**
 * A JSON body: mostly every field plausible but one fault (a hostile value or a
 * missing field), so that the fault meets the route's deeper checks; some
 * bodies with faults everywhere; some plausible throughout, which may succeed
 * and leave orders and balances for the later requests to meet.
 */
function bodyOf(schema: Schema | null): fc.Arbitrary<string | undefined> {
  const properties = Object.entries(schema?.properties ?? {});
  const plausibleBody = fc.tuple(...properties.map(([name, property]) => plausible(name, property)));
  const oneFault = fc
    .tuple(plausibleBody, fc.nat(Math.max(properties.length - 1, 0)), fc.option(hostileValue, { freq: 4 }))
    .map(([values, at, fault]) =>
      values.map((value, index) => (index === at ? (fault ?? undefined) : value)),
    );
  const manyFaults = fc.tuple(
    ...properties.map(([name, property]) =>
      fc.option(fc.oneof(plausible(name, property), hostileValue), { nil: undefined, freq: 4 }),
    ),
  );
  const extra = fc.option(fc.tuple(fc.constantFrom(...PROTO_NAMES), hostileValue), { freq: 4 });
  const object = fc
    .tuple(
      fc.oneof(
        { weight: 4, arbitrary: oneFault },
        { weight: 2, arbitrary: manyFaults },
        { weight: 1, arbitrary: plausibleBody },
      ),
      extra,
    )
    .map(([values, more]) => {
      const body: Record<string, unknown> = {};
      for (const [index, [name]] of properties.entries()) {
        if (values[index] !== undefined) body[name] = values[index];
      }
      // An own "__proto__" or "constructor" key, as a JSON text would carry it.
      if (more) Object.defineProperty(body, more[0], { value: more[1], enumerable: true });
      return JSON.stringify(body);
    });
  return fc.oneof(
    { weight: 8, arbitrary: object },
    { weight: 2, arbitrary: fc.constantFrom(...RAW_BODIES) },
    { weight: 1, arbitrary: fc.constant(undefined) },
  );
}

function queryOf(operation: Operation): fc.Arbitrary<string> {
  const pairs = fc.tuple(
    ...operation.query.map(({ name, schema }) =>
      fc
        .option(fc.oneof(plausible(name, schema), hostileScalar, fc.array(hostileScalar, { maxLength: 2 })), {
          nil: undefined,
          freq: 4,
        })
        .map((value) => [name, value] as const),
    ),
  );
  return fc
    .tuple(pairs, fc.option(fc.constantFrom(...PROTO_NAMES), { freq: 3 }))
    .map(([entries, protoName]) => {
      const search = new URLSearchParams();
      for (const [name, value] of entries) {
        if (value === undefined) continue;
        for (const one of Array.isArray(value) ? value : [value]) search.append(name, String(one));
      }
      if (protoName) search.append(protoName, 'x');
      const text = search.toString();
      return text ? `?${text}` : '';
    });
}

function pathOf(operation: Operation): fc.Arbitrary<string> {
  const values = fc.tuple(
    ...operation.params.map(() =>
      fc.oneof(
        fc.constantFrom('1', '2', '0', '-1', '99999999999999999999', '1.5', 'x'),
        hostileScalar.map((value) => encodeURIComponent(String(value)).slice(0, 300)),
      ),
    ),
  );
  return values.map((list) => {
    let index = 0;
    return operation.path.replace(/\{[^}]+\}/g, () => list[index++] ?? '1');
  });
}

const headerValue = fc.oneof(
  fc.constantFrom(...PROTO_NAMES, 'en', 'cn', 'zh-TW', '', 'xx', '__proto__-x', 'constructor;q=1,ru'),
  fc.string({ maxLength: 20 }).filter((text) => /^[\x20-\x7e]*$/.test(text)),
);

function requestOf(operation: Operation, caller: 'visitor' | 'user' | 'admin'): fc.Arbitrary<FuzzRequest> {
  return fc
    .tuple(
      pathOf(operation),
      queryOf(operation),
      bodyOf(operation.body),
      fc.option(headerValue, { freq: 2 }),
      fc.option(headerValue, { freq: 2 }),
      fc.oneof(
        { weight: 8, arbitrary: fc.constant('application/json') },
        {
          weight: 2,
          arbitrary: fc.constantFrom('text/plain', 'multipart/form-data', 'multipart/form-data; boundary=x'),
        },
      ),
    )
    .map(([path, query, payload, lang, acceptLanguage, contentType]) => {
      const headers: Record<string, string> = {};
      if (lang !== null) headers.lang = lang;
      if (acceptLanguage !== null) headers['accept-language'] = acceptLanguage;
      if (caller === 'user') headers.token = user.token;
      if (caller === 'admin') headers['admin-token'] = ADMIN_TOKEN;
      if (payload !== undefined && operation.method !== 'GET') headers['content-type'] = contentType;
      return {
        url: `${path}${query}`,
        headers,
        ...(payload !== undefined && operation.method !== 'GET' ? { payload } : {}),
      };
    });
}

/** The user's state as last read, or null once an accepted request may have changed it. */
let knownState: string | null = null;

async function send(operation: Operation, request: FuzzRequest, compare: boolean): Promise<void> {
  if (compare) knownState ??= await snapshot();
  const response = await h.app.http.inject({
    method: operation.method as 'GET',
    url: request.url,
    headers: request.headers,
    ...(request.payload !== undefined ? { payload: request.payload } : {}),
  });
  counts.requests += 1;
  const where = `${operation.method} ${request.url.slice(0, 200)} ${JSON.stringify(request.headers)} ${request.payload?.slice(0, 300) ?? ''}`;
  const envelope = envelopeOf(response);
  if (response.statusCode >= 500 || (envelope?.code ?? 0) >= 500) {
    counts.serverErrors += 1;
    failures.push(`${response.statusCode} ${response.body.slice(0, 200)} ← ${where}`);
    knownState = null;
    return;
  }
  if (!envelope) {
    // Files are the only answers that are not envelopes: uploads, and exports sent as attachments (CSV).
    const isFile =
      operation.path.startsWith('/uploads/') ||
      String(response.headers['content-disposition'] ?? '').startsWith('attachment');
    if (response.statusCode !== 200 || !isFile) {
      failures.push(`not an envelope: ${response.statusCode} ${response.body.slice(0, 200)} ← ${where}`);
    }
    knownState = null;
    return;
  }
  if (!compare) return;
  if (envelope.code === 200) {
    knownState = null;
    return;
  }
  const after = await snapshot();
  if (after !== knownState)
    failures.push(`refused (${envelope.code} ${envelope.msg}) but changed state ← ${where}`);
  knownState = after;
}

function envelopeOf(response: LightMyRequestResponse): { code: number; msg: string; data: unknown } | null {
  try {
    const body = response.json() as Record<string, unknown>;
    const keys = Object.keys(body).sort().join(',');
    if (keys !== 'code,data,msg' || typeof body.code !== 'number' || typeof body.msg !== 'string')
      return null;
    return body as { code: number; msg: string; data: unknown };
  } catch {
    return null;
  }
}

/** The user's balances and every order, withdrawal and exchange row of theirs, as one text. */
async function snapshot(): Promise<string> {
  const balances = await h.app.ledger.balances(user.id);
  const rows: unknown[] = [];
  for (const table of [
    'spot_orders',
    'futures_orders',
    'futures_positions',
    'cycle_orders',
    'wallet_withdrawals',
    'convert_orders',
  ]) {
    const result = await sql<
      Record<string, unknown>
    >`select * from ${sql.table(table)} where user_id = ${user.id}`.execute(h.store.db);
    rows.push(result.rows);
  }
  return JSON.stringify({ balances, rows });
}

/** Logs in again if a fuzzed route (logout, a password change) ended the session. */
async function keepSession(): Promise<void> {
  const info = await h.app.http.inject({
    method: 'GET',
    url: '/user/userInfo',
    headers: { token: user.token },
  });
  if ((info.json() as { code: number }).code === 200) return;
  const login = await post(h, '/member/login', { account: EMAIL, password: PASSWORD });
  if (login.code === 200) user.token = (login.data as { token: string }).token;
}
