import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.ts';

/** The part of a JSON schema these checks read. */
interface PartSchema {
  type?: unknown;
  properties?: Record<string, PartSchema>;
  items?: PartSchema;
}

/**
 * Refuses what Ajv's type coercion would misread. Ajv coerces types for every
 * part of a request or for none: query strings and path parameters arrive as
 * text and need it, but
 * - in a JSON body it would read `true` as the integer 1 (a chain, a lever,
 *   a plate) or the text "true": a body boolean is only ever a boolean (a JSON
 *   number read as its text, money, stays accepted);
 * - it reads the text "Infinity" or "1e400" as an infinite number and then
 *   skips `minimum` and `maximum`, which only test finite numbers: such a text
 *   is refused wherever a number is expected.
 */
export function refuseMisreadCoercions(app: FastifyInstance): void {
  app.addHook('preValidation', (request, _reply, done) => {
    const schema = request.routeOptions.schema;
    const field =
      (schema?.body ? misplacedBoolean(schema.body as PartSchema, request.body, '') : null) ??
      (schema?.querystring ? infiniteNumber(schema.querystring as PartSchema, request.query) : null) ??
      (schema?.params ? infiniteNumber(schema.params as PartSchema, request.params) : null);
    done(field === null ? undefined : badRequest('common.invalidParams', { field }));
  });
}

/** The path ("lever", "items/0/name") of the first boolean the schema does not allow, or null. */
export function misplacedBoolean(schema: PartSchema, data: unknown, path: string): string | null {
  if (typeof data === 'boolean') return allows(schema, 'boolean') ? null : path;
  if (Array.isArray(data)) {
    if (!schema.items) return null;
    for (const [index, item] of data.entries()) {
      const found = misplacedBoolean(schema.items, item, join(path, String(index)));
      if (found !== null) return found;
    }
    return null;
  }
  for (const [name, property, value] of ownFields(schema, data)) {
    const found = misplacedBoolean(property, value, join(path, name));
    if (found !== null) return found;
  }
  return null;
}

/** The name of the first query or path field expecting a number whose text reads as an infinite one, or null. */
export function infiniteNumber(schema: PartSchema, data: unknown): string | null {
  for (const [name, property, value] of ownFields(schema, data)) {
    if (!typeIncludes(property, 'number') && !typeIncludes(property, 'integer')) continue;
    const texts = Array.isArray(value) ? value : [value];
    if (
      texts.some(
        (text) => typeof text === 'string' && !Number.isFinite(Number(text)) && !Number.isNaN(Number(text)),
      )
    ) {
      return name;
    }
  }
  return null;
}

/** The schema's properties that `data` holds as its own, with their values. */
function ownFields(schema: PartSchema, data: unknown): Array<[string, PartSchema, unknown]> {
  if (data === null || typeof data !== 'object' || !schema.properties) return [];
  return Object.entries(schema.properties)
    .filter(([name]) => Object.hasOwn(data, name))
    .map(([name, property]) => [name, property, (data as Record<string, unknown>)[name]]);
}

/** A schema without a type allows anything. */
function allows(schema: PartSchema, type: string): boolean {
  return schema.type === undefined || typeIncludes(schema, type);
}

function typeIncludes(schema: PartSchema, type: string): boolean {
  return Array.isArray(schema.type) ? schema.type.includes(type) : schema.type === type;
}

function join(path: string, name: string): string {
  return path ? `${path}/${name}` : name;
}
