import type { FastifyInstance } from 'fastify';
import { Type, type TSchema } from 'typebox';
import { ApiError } from './errors.js';

/** The body of every API error: `{"detail": …}` or DRF field errors `{"field": ["message"]}`. */
const errorBody = (description: string) => Type.Object({ detail: Type.Optional(Type.String()) }, { additionalProperties: true, description });
const ERROR_TEXT: Record<number, string> = {
  400: 'Bad request: malformed body or field errors',
  401: 'No valid credentials were sent',
  403: 'The user lacks the permission',
  404: 'Not found',
  413: 'The upload is too large',
  415: 'Unsupported media type',
  429: 'Too many failed attempts; see Retry-After',
};

/** Response schemas for the error statuses a route can answer with. */
export function errorResponses(...statuses: number[]): Record<number, TSchema> {
  return Object.fromEntries(statuses.map((status) => [status, errorBody(ERROR_TEXT[status] ?? 'Error')]));
}

/** OpenAPI of the 304 that routes with `config: { etag: true }` answer to a matching If-None-Match. */
export const notModified = { 304: Type.Null({ description: 'Not modified: the If-None-Match tag names the current body' }) };

/** An integer id in a path: anything else (text, out of int32 range) is a 404. */
/** A URL slug (organisation, project, module): the schema of every slug in a path. */
export const Slug = Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' });

export const PathId = Type.Integer({ minimum: 1, maximum: 2147483647 });

/** OpenAPI security of a route that also answers anonymous callers. */
export const optionalAuth: Record<string, string[]>[] = [{}, { token: [] }, { session: [] }, { bearer: [] }];

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
type Method = (typeof METHODS)[number];

/** DRF's 405 with an Allow header for the methods a path does not have (instead of a 404). */
export function rejectOtherMethods(app: FastifyInstance, url: string, allowed: Method[]): void {
  const allow = [...allowed, ...(allowed.includes('GET') ? ['HEAD'] : []), 'OPTIONS'].join(', ');
  app.route({
    method: METHODS.filter((m) => !allowed.includes(m)),
    url,
    schema: { hide: true },
    handler: async (request) => {
      throw new ApiError(405, { detail: `Method "${request.method}" not allowed.` }, { allow });
    },
  });
}

/** The error statuses most API routes can answer with. */
export const apiErrors = errorResponses(400, 401, 403, 404);
