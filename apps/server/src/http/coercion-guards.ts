import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

/** The part of a JSON schema this check reads. */
interface BodySchema {
  type?: unknown;
  properties?: Record<string, BodySchema>;
  items?: BodySchema;
}

/**
 * Refuses a JSON body that carries a boolean where its schema expects no
 * boolean. Ajv coerces types for every part of a request or for none: query
 * strings and path parameters arrive as text and need it, but in a body it
 * would read `true` as the integer 1 (a chain, a lever, a plate) or the text
 * "true". A JSON number read as its text (money) stays accepted.
 */
export function refuseCoercedBooleans(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema?.body as BodySchema | undefined;
    const field =
      schema && typeof request.body === 'object' ? misplacedBoolean(schema, request.body, '') : null;
    done(field === null ? undefined : badRequest('common.invalidParams', { field }));
  });
}

/** The path ("lever", "items/0/name") of the first boolean the schema does not allow, or null. */
export function misplacedBoolean(schema: BodySchema, data: unknown, path: string): string | null {
  if (typeof data === 'boolean') return allows(schema, 'boolean') ? null : path;
  if (Array.isArray(data)) {
    if (!schema.items) return null;
    for (const [index, item] of data.entries()) {
      const found = misplacedBoolean(schema.items, item, join(path, String(index)));
      if (found !== null) return found;
    }
    return null;
  }
  if (data === null || typeof data !== 'object' || !schema.properties) return null;
  for (const [name, property] of Object.entries(schema.properties)) {
    if (!Object.hasOwn(data, name)) continue;
    const found = misplacedBoolean(property, (data as Record<string, unknown>)[name], join(path, name));
    if (found !== null) return found;
  }
  return null;
}

/** A schema without a type allows anything. */
function allows(schema: BodySchema, type: string): boolean {
  if (schema.type === undefined) return true;
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

function join(path: string, name: string): string {
  return path ? `${path}/${name}` : name;
}
