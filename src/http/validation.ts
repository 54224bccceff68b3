import type { FastifyInstance } from 'fastify';
import { fieldErrors, notFound } from './errors.js';

/** The path to the first number that is not finite (Infinity, -Infinity, NaN) in a validated value; null if none. */
function nonFiniteAt(value: unknown, path: string[] = []): string[] | null {
  if (typeof value === 'number') return Number.isFinite(value) ? null : path;
  if (typeof value !== 'object' || value === null || path.length > 32) return null;
  for (const [key, item] of Object.entries(value)) {
    const found = nonFiniteAt(item, [...path, key]);
    if (found) return found;
  }
  return null;
}

/**
 * Ajv coerces "Infinity" and "1e400" (and JSON.parse turns 1e400) into Infinity, which passes
 * `type: integer` and skips minimum/maximum, so the database would be asked for it and fail.
 * After validation, any number that is not finite is refused: in the path a 404 (as any other
 * bad id), in the query or body a field error.
 */
export function registerFiniteNumbers(app: FastifyInstance): void {
  app.addHook('preHandler', async (request) => {
    if (nonFiniteAt(request.params)) throw notFound();
    for (const part of [request.query, request.body]) {
      const path = nonFiniteAt(part);
      if (path) throw fieldErrors({ [path[0] ?? 'non_field_errors']: ['A valid number is required.'] });
    }
  });
}
