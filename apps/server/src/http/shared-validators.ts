import { createRequire } from 'node:module';
import type { BuildCompilerFromPool } from '@fastify/ajv-compiler';
import type { FastifySchemaCompiler } from 'fastify';

/** Compiles one route part's schema; fastify calls it with the route's schema definition. */
type RouteCompiler = FastifySchemaCompiler<unknown>;
/** A compiler for a set of shared schemas and Ajv options. */
type CompilerPool = (
  externalSchemas: unknown,
  options: Parameters<BuildCompilerFromPool>[1],
) => RouteCompiler;

/**
 * Fastify's own default validator compiler (@fastify/ajv-compiler), resolved
 * from fastify's package so it is the version fastify would use itself.
 */
const fastifyRequire = createRequire(createRequire(import.meta.url).resolve('fastify'));
const defaultCompilers = (fastifyRequire('@fastify/ajv-compiler') as () => CompilerPool)();

/** Validators by schema text, for each compiler of the pool (one per set of shared schemas and Ajv options). */
const validatorsByCompiler = new WeakMap<RouteCompiler, Map<string, ReturnType<RouteCompiler>>>();

/**
 * Fastify's default route validators, compiled once per process instead of
 * once per Fastify instance. Every app (and so every test harness, hundreds a
 * test run) declares the same route schemas; compiling them with Ajv was
 * about 40 % of the CPU time it took to create an app. A validator depends
 * only on its schema's text and the compiler's shared schemas and options, so
 * one compiled for an equal schema is the same validator.
 *
 * Fastify lowercases a header schema's keys only for its built-in compiler;
 * Halyard reads headers in preHandlers, and a header schema is refused here
 * rather than validated case-sensitively by surprise.
 */
const sharedCompilers: CompilerPool = (externalSchemas, options) => {
  const compile = defaultCompilers(externalSchemas, options);
  let validators = validatorsByCompiler.get(compile);
  if (!validators) {
    validators = new Map();
    validatorsByCompiler.set(compile, validators);
  }
  const known = validators;
  return (route) => {
    if (route.httpPart === 'headers') {
      throw new Error(
        `${route.method} ${route.url}: header schemas are not supported (read headers in a preHandler)`,
      );
    }
    const key = JSON.stringify(route.schema);
    let validator = known.get(key);
    if (!validator) {
      validator = compile(route);
      known.set(key, validator);
    }
    return validator;
  };
};

/**
 * As fastify's `schemaController.compilersFactory.buildValidator`. The cast:
 * @fastify/ajv-compiler's types give its compiler the bare schema, while
 * fastify (lib/validation.js) calls it with the route's schema definition.
 */
export const sharedValidatorCompilers = sharedCompilers as unknown as BuildCompilerFromPool;
