import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { registerPlainNotFound, sessionNotFound, userNotFound, UsersvcError } from './errors.js';
import { findActiveSession, findUser } from './queries.js';
import { extendSession } from './services.js';

/** Headers that belong to one connection, never forwarded (RFC 9110 §7.6.1), plus the ones we set ourselves. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-authorization', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const UPSTREAM_TIMEOUT_MS = 30_000;

/** The client's headers without hop-by-hop ones and without any X-Thentos-* header (the client must not speak for the service). */
export function forwardableHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || HOP_BY_HOP.has(name) || name.startsWith('x-thentos-') || name === 'host' || name === 'content-length') continue;
    kept[name] = value;
  }
  return kept;
}

function responseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) kept[name] = value;
  }
  return kept;
}

/** Header values are Latin-1 on the wire: a name with other characters travels as its UTF-8 bytes. */
const headerValue = (text: string): string => Buffer.from(text, 'utf8').toString('latin1');

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** The upstream base URL of the requested service (X-Thentos-Service; optional when only one is configured). */
function targetOf(request: FastifyRequest, targets: Record<string, string>): string {
  const configured = Object.keys(targets);
  const serviceId = header(request, 'x-thentos-service') ?? (configured.length === 1 ? configured[0] : undefined);
  if (serviceId === undefined) throw new UsersvcError(404, 'headers do not contain service id');
  if (!Object.hasOwn(targets, serviceId)) throw new UsersvcError(404, `proxy not configured for service ${serviceId}`);
  return targets[serviceId];
}

/** Target base URL + the original path (the /proxy-test prefix stays) + the query string. */
export function upstreamUrl(base: string, rawUrl: string): URL {
  const target = new URL(base);
  return new URL(`${target.origin}${target.pathname.replace(/\/+$/, '')}${rawUrl}`);
}

function forward(request: FastifyRequest, reply: FastifyReply, url: URL, added: Record<string, string>): Promise<FastifyReply> {
  const body = Buffer.isBuffer(request.body) ? request.body : undefined;
  const headers: OutgoingHttpHeaders = { ...forwardableHeaders(request.headers), ...added, host: url.host };
  if (body) headers['content-length'] = String(body.length);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const upstream = client.request(url, { method: request.method, headers, timeout: UPSTREAM_TIMEOUT_MS }, (response) => {
      reply.status(response.statusCode ?? 502).headers(responseHeaders(response.headers));
      resolve(reply.send(response));
    });
    upstream.on('timeout', () => upstream.destroy(new Error('upstream timed out')));
    upstream.on('error', (error) => {
      request.log.warn({ err: error, url: url.origin }, 'user/session service proxy: upstream failed');
      reject(new UsersvcError(502, 'proxy target not reachable'));
    });
    upstream.end(body);
  });
}

/**
 * /proxy-test: an authenticating reverse proxy. It checks X-Thentos-Session, forwards any method
 * and sub-path to the service's configured upstream, and tells the upstream who the user is.
 */
export async function proxyRoutes(app: FastifyInstance): Promise<void> {
  registerPlainNotFound(app);
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
  const { db, config } = app.ctx;

  const handler = async (request: FastifyRequest, reply: FastifyReply) => {
    const targets = config.usersvcProxyTargets;
    if (Object.keys(targets).length === 0) throw new UsersvcError(404, 'proxying not activated');
    const now = new Date();
    const token = header(request, 'x-thentos-session');
    const session = token === undefined ? null : await findActiveSession(db, token, now);
    if (!session) throw sessionNotFound();
    const user = await findUser(db, session.userId);
    if (!user) throw userNotFound();
    const target = targetOf(request, targets);
    await extendSession(db, session.token, now);
    return forward(request, reply, upstreamUrl(target, request.raw.url ?? request.url), {
      'x-thentos-user': headerValue(user.name),
      'x-thentos-groups': '[]',
    });
  };
  const schema = { tags: ['user/session service'], summary: 'Authenticating reverse proxy (any method, any sub-path)' };
  app.all('', { schema }, handler);
  app.all('/*', { schema }, handler);
}
