/**
 * Fastify's own schema compilers, shared by every app in this process: a route schema that is
 * compiled once (validator or serializer) is not compiled again for the next app instance. A
 * production process builds one app, so this only matters where many are built (the test suite
 * builds one per test). Schemas are keyed by their JSON, so equal schemas share one function.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Builder = (externalSchemas: unknown, options: unknown) => (route: { schema: unknown; httpStatus?: string; contentType?: string }) => unknown;

/** One cache of compiled functions per compiler the builder hands out (that is, per set of options). */
function memoised(build: Builder): Builder {
  const caches = new WeakMap<object, Map<string, unknown>>();
  return (externalSchemas, options) => {
    const compile = build(externalSchemas, options);
    let cache = caches.get(compile);
    if (!cache) caches.set(compile, (cache = new Map()));
    const known = cache;
    return (route) => {
      const key = JSON.stringify(route.schema);
      if (!known.has(key)) known.set(key, compile(route));
      return known.get(key);
    };
  };
}

const validators = AjvCompiler() as unknown as Builder;
const serializerSelector = SerializerSelector() as unknown as Builder;
/** The serializer selector hands out a new function per call; keep one per options and externals. */
const serializers: Builder = (() => {
  const byKey = new Map<string, ReturnType<Builder>>();
  return (externalSchemas, options) => {
    const key = JSON.stringify([externalSchemas, options]);
    const known = byKey.get(key) ?? serializerSelector(externalSchemas, options);
    byKey.set(key, known);
    return known;
  };
})();

export const sharedCompilers = {
  buildValidator: memoised(validators),
  buildSerializer: memoised(serializers),
} as unknown as CompilersFactory;
