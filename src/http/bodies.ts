import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError, badRequest } from './errors.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The file of a multipart body, read by a route's preValidation hook (`readMultipartBody`) for its handler; the route decorates it with null. */
    upload: Buffer | null;
  }
}

/** What writes take: JSON, form-encoded, or multipart (with a file). */
const FORM_MEDIA_TYPES = ['application/json', 'application/x-www-form-urlencoded', 'multipart/form-data'];

/** A body in any other form is a 415 (Fastify itself would also take text/plain). */
export function checkFormMediaType(request: FastifyRequest): void {
  const type = request.mediaType;
  if (type !== undefined && !FORM_MEDIA_TYPES.includes(type)) {
    throw new ApiError(415, { detail: `Unsupported media type "${request.headers['content-type'] ?? ''}" in request.` });
  }
}

/**
 * Reads a multipart body: its fields become the request body (so the route schema checks them;
 * a repeated field becomes a list), the file of `fileField` is returned. A broken body is a 400;
 * an upload over the limit keeps its 413.
 */
export async function readMultipartBody(request: FastifyRequest, fileField: string): Promise<Buffer | null> {
  return (await readMultipartFiles(request, [fileField]))[fileField] ?? null;
}

/** The same for a form with several files: the non-empty uploads of `fileFields`, by field name. */
export async function readMultipartFiles(request: FastifyRequest, fileFields: string[] | ((name: string) => boolean)): Promise<Record<string, Buffer>> {
  const wanted = typeof fileFields === 'function' ? fileFields : (name: string) => fileFields.includes(name);
  const fields: Record<string, string | string[]> = {};
  const uploads: Record<string, Buffer> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        if (wanted(part.fieldname) && data.length) uploads[part.fieldname] = data;
      } else {
        const value = String(part.value);
        const previous = fields[part.fieldname];
        fields[part.fieldname] = previous === undefined ? value : [...(Array.isArray(previous) ? previous : [previous]), value];
      }
    }
  } catch (error) {
    const status = (error as { statusCode?: number }).statusCode;
    if (status && status >= 400 && status < 500) throw error;
    throw badRequest(`Multipart form parse error - ${error instanceof Error ? error.message : 'invalid body'}`);
  }
  request.body = fields;
  return uploads;
}

/** Methods whose body carries the resource: an empty one reads as an empty object, as DRF reads it. */
const WRITE_METHODS = new Set(['POST', 'PUT', 'PATCH']);

/**
 * JSON bodies, with Fastify's own parser (prototype-poisoning guards included), except that an empty
 * body is no body: clients such as the adhocracy+ app send `Content-Type: application/json` on every
 * request, also on a DELETE without a body. Registered once, so it holds for every route.
 */
export function registerJsonBodies(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      done(null, WRITE_METHODS.has(request.method) ? {} : undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
