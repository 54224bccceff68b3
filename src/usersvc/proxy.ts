import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import http, { type IncomingHttpHeaders, type OutgoingHttpHeaders } from 'node:http';
import https from 'node:https';
import { registerPlainNotFound, sessionNotFound, userNotFound, UsersvcError } from './errors.js';
import { findActiveSession, findUser } from './queries.js';
import { extendSession } from './services.js';

const UPSTREAM_TIMEOUT_MS = 30_000;

/**
 * The client headers the proxy passes on: what describes the request's body and what the client
 * accepts, nothing else. Never the platform's cookies or credentials (Cookie, Authorization), never an
 * X-Thentos-* header (the client must not speak for the service), never hop-by-hop headers.
 */
const FORWARDED_HEADERS = new Set([
  'accept',
  'accept-encoding',
  'accept-language',
  'cache-control',
  'content-encoding',
  'content-language',
  'content-type',
  'if-match',
  'if-modified-since',
  'if-none-match',
  'if-range',
  'if-unmodified-since',
  'range',
  'user-agent',
]);

/** Upstream response headers never passed back: connection-level ones and cookies (the upstream must not set cookies on the platform's origin). */
const DROPPED_RESPONSE_HEADERS = new Set(['connection', 'keep-alive', 'proxy-authenticate', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade', 'set-cookie', 'set-cookie2']);

function forwardableHeaders(headers: IncomingHttpHeaders): OutgoingHttpHeaders {
  const kept: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && FORWARDED_HEADERS.has(name)) kept[name] = value;
  }
  return kept;
}

function responseHeaders(headers: IncomingHttpHeaders): Record<string, string | string[]> {
  const kept: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined && !DROPPED_RESPONSE_HEADERS.has(name)) kept[name] = value;
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

const PROXY_PREFIX = '/proxy-test';

/** A path segment that walks up or stays (`..`, `.`), also when percent-encoded or split by a backslash, at any depth of encoding. */
function walksOut(path: string): boolean {
  let current = path;
  for (let round = 0; round < 4; round++) {
    if (current.split(/[/\\]/).some((segment) => segment === '.' || segment === '..')) return true;
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return true; // a broken escape: refuse rather than guess how the upstream reads it
    }
    if (decoded === current) return false;
    current = decoded;
  }
  return true;
}

/**
 * Target base URL + the original path (the /proxy-test prefix stays) + the query string. The path
 * is confined below the target's base path: `..`, `%2e%2e` and friends are refused (null).
 */
export function upstreamUrl(base: string, rawUrl: string): URL | null {
  const queryAt = rawUrl.indexOf('?');
  const path = queryAt === -1 ? rawUrl : rawUrl.slice(0, queryAt);
  if (!path.startsWith(PROXY_PREFIX) || walksOut(path)) return null;
  const target = new URL(base);
  const basePath = target.pathname.replace(/\/+$/, '');
  const url = new URL(`${target.origin}${basePath}${rawUrl}`);
  return url.origin === target.origin && url.pathname.startsWith(`${basePath}${PROXY_PREFIX}`) ? url : null;
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
    const url = upstreamUrl(target, request.raw.url ?? request.url);
    if (!url) throw new UsersvcError(400, 'invalid path');
    await extendSession(db, session.token, now);
    return forward(request, reply, url, {
      'x-thentos-user': headerValue(user.name),
      'x-thentos-groups': '[]',
    });
  };
  const schema = { tags: ['user/session service'], summary: 'Authenticating reverse proxy (any method, any sub-path)' };
  app.all('', { schema }, handler);
  app.all('/*', { schema }, handler);
}
