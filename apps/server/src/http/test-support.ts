import type { Envelope } from '@halyard/protocol';

/**
 * One request to a server running in a child process (the durability and
 * cluster tests): JSON in, the API's envelope out, signed in with `token`.
 */
export async function call<T>(
  base: string,
  method: 'GET' | 'POST',
  url: string,
  token?: string,
  body?: object,
): Promise<Envelope<T>> {
  const response = await fetch(`${base}${url}`, {
    method,
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
  return (await response.json()) as Envelope<T>;
}
