import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { BODY_LIMITS } from './limits.js';
import { slashedLocation } from './urls.js';

/** An error with the HTTP status and the DRF-shaped body the client gets. */
export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.detail === 'string' ? body.detail : JSON.stringify(body));
  }
}

export type FieldErrors = Record<string, string[]>;

export const notAuthenticated = (detail = 'Authentication credentials were not provided.') =>
  new ApiError(401, { detail }, { 'www-authenticate': 'Token' });
export const authenticationFailed = (detail: string, extra: Record<string, unknown> = {}, scheme = 'Token') =>
  new ApiError(401, { detail, ...extra }, { 'www-authenticate': scheme });
export const permissionDenied = (detail = 'You do not have permission to perform this action.') => new ApiError(403, { detail });
export const notFound = (detail = 'Not found.') => new ApiError(404, { detail });
export const badRequest = (detail: string) => new ApiError(400, { detail });
export const fieldErrors = (errors: FieldErrors) => new ApiError(400, errors);
export const throttled = (retryAfterSeconds: number) =>
  new ApiError(
    429,
    { detail: `Request was throttled. Expected available in ${retryAfterSeconds} seconds.` },
    { 'retry-after': String(retryAfterSeconds) },
  );

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

function fieldName(error: AjvError): string {
  if (error.keyword === 'required') return String(error.params.missingProperty);
  const path = error.instancePath.split('/').filter(Boolean);
  return path[0] ?? 'non_field_errors';
}

function fieldMessage(error: AjvError): string {
  switch (error.keyword) {
    case 'required':
      return 'This field is required.';
    case 'type':
      if (error.params.type === 'integer' || error.params.type === 'number') return 'A valid integer is required.';
      if (error.params.type === 'boolean') return 'Must be a valid boolean.';
      if (error.params.type === 'string') return 'Not a valid string.';
      if (error.params.type === 'null') return 'This field may not be null.';
      return `Expected ${String(error.params.type)}.`;
    case 'maxLength':
      return `Ensure this field has no more than ${String(error.params.limit)} characters.`;
    case 'minLength':
      return error.params.limit === 1 ? 'This field may not be blank.' : `Ensure this field has at least ${String(error.params.limit)} characters.`;
    case 'enum':
    case 'anyOf':
      return 'This is not one of the allowed values.';
    case 'additionalProperties':
      return 'This field is not allowed.';
    default:
      return error.message ?? 'Invalid value.';
  }
}

/** Turns schema validation failures into DRF-style field errors: `{"field": ["message"]}`. */
function validationBody(errors: AjvError[], context: string | undefined): Record<string, unknown> {
  if (context === 'params') return { detail: 'Not found.' };
  const body: FieldErrors = {};
  for (const error of errors) {
    const name = error.keyword === 'additionalProperties' ? String(error.params.additionalProperty) : fieldName(error);
    (body[name] ??= []).push(fieldMessage(error));
  }
  return body;
}

/** The SQLSTATE of a database error, also when the ORM wraps it. */
export function databaseErrorCode(error: unknown): string | undefined {
  for (let e = error as { code?: unknown; cause?: unknown } | undefined, depth = 0; e && depth < 3; e = e.cause as typeof e, depth++) {
    if (typeof e.code === 'string' && /^[0-9A-Z]{5}$/.test(e.code)) return e.code;
  }
  return undefined;
}

/** Whether the database refused a write because a row it points at is gone (a foreign key; e.g. deleted meanwhile by someone else). */
export const foreignKeyViolated = (error: unknown): boolean => databaseErrorCode(error) === '23503';

/** Network errors and SQLSTATEs that mean "the database cannot be reached right now", not "this request is wrong". */
const UNREACHABLE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN', 'EPIPE', '57P01', '57P02', '57P03', '53300']);
const UNREACHABLE_MESSAGES = /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused/i;
/** Seconds a client is asked to wait while the database is away. */
export const DATABASE_RETRY_AFTER_SECONDS = 5;

/** Whether an error (or one it wraps) says the database is unreachable. */
export function databaseUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 5; e = e.cause as typeof e, depth++) {
    const code = typeof e.code === 'string' ? e.code : '';
    if (UNREACHABLE_CODES.has(code) || code.startsWith('08')) return true;
    if (typeof e.message === 'string' && UNREACHABLE_MESSAGES.test(e.message)) return true;
  }
  return false;
}

/** Bad data that slipped past a schema and that the database refused: still the client's fault. */
const DATA_ERRORS: Record<string, string> = {
  '22021': 'Text must not contain NUL characters.',
  '22P05': 'Text must not contain NUL characters.',
  '22001': 'A value is too long.',
  '22003': 'A number is out of range.',
  '22007': 'A date is not valid.',
  '22008': 'A date is out of range.',
};

/** An error as the client gets it: status, extra headers and the DRF-shaped body. */
export interface ErrorAnswer {
  status: number;
  headers: Record<string, string>;
  body: Record<string, unknown>;
}

/** Renders an error as an HTML page (registered by the web layer); answers the reply itself. */
type HtmlErrorRenderer = (request: FastifyRequest, reply: FastifyReply, answer: ErrorAnswer) => Promise<FastifyReply>;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A browser page: its errors are HTML pages. */
    page?: boolean;
  }
}

/** Paths with their own error format: the API (JSON) and the user/session service (plain text). */
const NON_PAGE_PATHS = /^\/(api|user|session|service|proxy-test)(\/|\?|$)/;

/** Page routes, and any other non-API path a browser asks for as HTML, get HTML error pages. */
function wantsHtmlErrors(request: FastifyRequest): boolean {
  if (NON_PAGE_PATHS.test(request.url)) return false;
  if (request.routeOptions.config.page === true) return true;
  return /\btext\/html\b/.test(request.headers.accept ?? '');
}

function errorAnswer(error: FastifyError | ApiError, request: FastifyRequest): ErrorAnswer {
  const answer = (status: number, body: Record<string, unknown>, headers: Record<string, string> = {}) => ({ status, body, headers });
  if (error instanceof ApiError) return answer(error.statusCode, error.body, error.headers);
  const fe = error as FastifyError & { validationContext?: string };
  if (fe.validation) {
    const status = fe.validationContext === 'params' ? 404 : 400;
    return answer(status, validationBody(fe.validation as AjvError[], fe.validationContext));
  }
  const dataError = DATA_ERRORS[databaseErrorCode(error) ?? ''];
  if (dataError) return answer(400, { detail: dataError });
  if (databaseUnavailable(error)) {
    request.log.warn({ err: error }, 'database unavailable');
    return answer(503, { detail: 'The service is temporarily unavailable. Please try again later.' }, { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
  }
  const status = fe.statusCode ?? 500;
  if (status >= 500) {
    request.log.error({ err: error }, 'request failed');
    return answer(500, { detail: 'A server error occurred.' });
  }
  if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
    return answer(415, { detail: `Unsupported media type "${request.headers['content-type'] ?? ''}" in request.` });
  }
  if (fe.code === 'FST_ERR_CTP_EMPTY_JSON_BODY' || fe.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error instanceof SyntaxError) {
    return answer(400, { detail: 'JSON parse error - the request body is not valid JSON.' });
  }
  if (status === 413) return answer(413, { detail: `Request body is too large (at most ${BODY_LIMITS.bodyBytes / 1024 / 1024} MB, a file at most ${BODY_LIMITS.fileBytes / 1024 / 1024} MB).` });
  if (fe.code === 'FST_ERR_BAD_URL') return answer(400, { detail: 'The URL is not valid.' });
  if (fe.code === 'FST_ERR_MAX_PARAM_LENGTH') return answer(414, { detail: 'A part of the URL is too long.' });
  return answer(status, { detail: fe.message });
}

type ErrorSender = (request: FastifyRequest, reply: FastifyReply, answer: ErrorAnswer) => Promise<FastifyReply>;

/** Where an old page address moved (a path), or null: asked before a page's 404 is sent. */
type MovedPage = (path: string) => Promise<string | null>;

/** A GET or HEAD of a page that found nothing, at an address that moved: its new address (query kept). */
async function movedLocation(request: FastifyRequest, answer: ErrorAnswer, moved?: MovedPage): Promise<string | null> {
  if (!moved || answer.status !== 404 || (request.method !== 'GET' && request.method !== 'HEAD') || NON_PAGE_PATHS.test(request.url)) return null;
  const [path, query] = splitUrl(request.url);
  let decoded: string;
  try {
    decoded = decodeURI(path);
  } catch {
    return null;
  }
  const target = await moved(decoded);
  return target === null ? null : `${target}${query}`;
}

const splitUrl = (url: string): [string, string] => {
  const at = url.indexOf('?');
  return at < 0 ? [url, ''] : [url.slice(0, at), url.slice(at)];
};

function errorSender(renderHtml?: HtmlErrorRenderer, moved?: MovedPage): ErrorSender {
  return async (request, reply, answer) => {
    const location = await movedLocation(request, answer, moved).catch((error: unknown) => {
      request.log.error({ err: error }, 'moved page lookup failed');
      return null;
    });
    if (location) return reply.redirect(location, 301);
    if (renderHtml && wantsHtmlErrors(request)) {
      try {
        return await renderHtml(request, reply, answer);
      } catch (error) {
        request.log.error({ err: error }, 'error page failed');
      }
    }
    // Plain JSON, not the route's response schema: a page route that an /api/ path happens to
    // match declares its errors as HTML strings and would send the body as "[object Object]".
    return reply.status(answer.status).headers(answer.headers).type('application/json; charset=utf-8').serializer(JSON.stringify).send(answer.body);
  };
}

/**
 * The shared error handler: JSON (DRF shapes) for the API, HTML pages for browser pages when a
 * renderer is given; a page's 404 at an address that moved (`moved`) answers 301 to the new one.
 */
export function registerErrorHandling(app: FastifyInstance, renderHtml?: HtmlErrorRenderer, moved?: MovedPage): void {
  const send = errorSender(renderHtml, moved);
  app.setErrorHandler((error: FastifyError | ApiError, request: FastifyRequest, reply: FastifyReply) => send(request, reply, errorAnswer(error, request)));
  app.setNotFoundHandler((request, reply) => {
    const slashed = slashedLocation(app, request);
    if (slashed) return reply.redirect(slashed, 301);
    return send(request, reply, { status: 404, headers: {}, body: { detail: 'Not found.' } });
  });
}

/**
 * Fastify's `frameworkErrors` option: a URL the router cannot decode (`%ff`) or a path segment over
 * maxParamLength is answered before any route and any hook, by default in Fastify's own shape.
 * This answers it as every other API error. Always JSON: the request has not been through the
 * cookie and session hooks an error page needs, and such URLs come from tools, not from links.
 */
export function frameworkErrors() {
  const send = errorSender();
  return (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => void send(request, reply, errorAnswer(error, request));
}
