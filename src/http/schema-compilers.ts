/**
 * Fastify's own schema compilers, shared by every app in this process: a route schema that is
 * compiled once (validator or serializer) is not compiled again for the next app instance (the
 * test suite builds one app per test). Schemas are keyed by their JSON, so equal schemas share one
 * function.
 *
 * Each schema is compiled when its route first needs it, not while the app is built: compiling
 * the validators and serialisers of every route took a fifth of a cold start (docs/performance.md)
 * and most routes are not asked for in a worker's first seconds. The first request of a route pays
 * its compilation (a few ms); a schema that cannot be compiled would fail that request (500)
 * instead of the start, so test/http/schemas.test.ts compiles every route's schemas.
 */
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import type { FastifyServerOptions } from 'fastify';

type CompilersFactory = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
type Builder = (externalSchemas: unknown, options: unknown) => (route: { schema: unknown; httpStatus?: string; contentType?: string }) => unknown;

/** The schemas handed out and not yet compiled. */
const pending = new Set<() => unknown>();

/** Compiles every schema not compiled yet (throws what the compiler throws); how many there were. */
export function compilePendingSchemas(): number {
  const count = pending.size;
  for (const compileNow of [...pending]) compileNow();
  return count;
}

/** A compiled validator (Ajv: `errors` after a failed call, `schemaEnv`) or serialiser. */
type Compiled = ((data: unknown, context?: unknown) => unknown) & { errors?: unknown; schemaEnv?: unknown };

/**
 * Stands in for the function `compile` returns and compiles it on the first call. Fastify passes
 * an Ajv validator its parent object (so that Ajv may coerce a root value) only when the function
 * has a `schemaEnv`: the stand-in has one and hands the parent on exactly when the compiled
 * function has one too; and it carries the compiled function's `errors` after each call.
 */
function compiledOnFirstCall(compile: () => Compiled): Compiled {
  let compiled: Compiled | undefined;
  const compileNow = () => {
    pending.delete(compileNow);
    return (compiled ??= compile());
  };
  pending.add(compileNow);
  const standIn: Compiled = (data, context) => {
    const fn = compiled ?? compileNow();
    const result = fn.schemaEnv ? fn(data, context) : fn(data);
    standIn.errors = fn.errors;
    return result;
  };
  standIn.schemaEnv = true;
  return standIn;
}

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
      if (!known.has(key)) known.set(key, compiledOnFirstCall(() => compile(route) as Compiled));
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
