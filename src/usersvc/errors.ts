import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { DATABASE_RETRY_AFTER_SECONDS, databaseErrorCode, databaseUnavailable } from '../http/errors.js';

/**
 * The user/session service answers errors as plain text with the reason as the body, like the
 * original service ("user not found", "unauthorized"): these are protocol messages that clients
 * compare, so they are not translated.
 */
export class UsersvcError extends Error {
  constructor(
    readonly statusCode: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const unauthorized = () => new UsersvcError(401, 'unauthorized');
export const badAuthenticationHeaders = () => new UsersvcError(400, 'bad authentication headers');
export const routeNotFound = () => new UsersvcError(404, 'not found');
export const userNotFound = () => new UsersvcError(404, 'user not found');
export const sessionNotFound = () => new UsersvcError(404, 'session not found');
export const emailInUse = () => new UsersvcError(403, 'email already in use');
export const nameInUse = () => new UsersvcError(403, 'user name already in use');
export const badRequest = (reason: string) => new UsersvcError(400, reason);
export const tooManyFailedLogins = (retryAfterSeconds: number) =>
  new UsersvcError(429, 'too many failed logins', { 'retry-after': String(retryAfterSeconds) });

function sendText(reply: FastifyReply, status: number, text: string, headers: Record<string, string> = {}): FastifyReply {
  return reply.status(status).headers(headers).type('text/plain; charset=utf-8').send(text);
}

/** A JSON answer: strings, numbers and booleans are JSON-encoded too (Fastify would send a string raw). */
export function sendJson(reply: FastifyReply, status: number, value: unknown): FastifyReply {
  return reply.status(status).type('application/json; charset=utf-8').send(JSON.stringify(value));
}

function bodyProblem(error: FastifyError & { validationContext?: string }): string | null {
  if (error.validation) return `Invalid request body: ${error.message.replace(/^body\/?/, '')}`;
  if (error instanceof SyntaxError || error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
    return 'Invalid JSON in request body';
  }
  return null;
}

/** The error handler of the service's encapsulated context. */
export function registerPlainErrors(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError | UsersvcError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof UsersvcError) return sendText(reply, error.statusCode, error.message, error.headers);
    if (error.validation && (error as { validationContext?: string }).validationContext === 'params') return sendText(reply, 404, 'not found');
    const problem = bodyProblem(error);
    if (problem) return sendText(reply, 400, problem);
    // Text the database refuses (NUL, 22021) that slipped past the checks is still the client's fault.
    if (['22021', '22P05'].includes(databaseErrorCode(error) ?? '')) return sendText(reply, 400, 'text must not contain NUL characters');
    if (databaseUnavailable(error)) return sendText(reply, 503, 'service unavailable', { 'retry-after': String(DATABASE_RETRY_AFTER_SECONDS) });
    const status = error.statusCode ?? 500;
    if (status === 413) return sendText(reply, 413, 'request body too large');
    if (status >= 500 || status < 400) {
      request.log.error({ err: error }, 'user/session service request failed');
      return sendText(reply, 500, 'internal error');
    }
    return sendText(reply, status, error.message);
  });
}

/** Unknown paths under one of the service's prefixes: 404 "not found" in plain text. */
export function registerPlainNotFound(app: FastifyInstance): void {
  app.setNotFoundHandler((_request, reply) => sendText(reply, 404, 'not found'));
}

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const;

/** Answers 405 "method not allowed" for every method a path does not serve. */
export function refuseOtherMethods(app: FastifyInstance, url: string, allowed: readonly string[]): void {
  const served = new Set(allowed.includes('GET') ? [...allowed, 'HEAD'] : allowed);
  const allow = [...served].join(', ');
  app.route({
    method: METHODS.filter((method) => !served.has(method)),
    url,
    schema: { hide: true },
    handler: (_request, reply) => sendText(reply, 405, 'method not allowed', { allow }),
  });
}

/** Every request body of the service is JSON, whatever Content-Type the client sent (curl -d sends a form type). */
export function parseAnyBodyAsJson(app: FastifyInstance): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => {
    const text = typeof body === 'string' ? body : body.toString('utf8');
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(badRequest('Invalid JSON in request body'), undefined);
    }
  });
}
