import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

/**
 * Absolute URLs always start with the configured BASE_URL: a request's Host header is chosen by the
 * client, and a link built from it (in a password-reset mail, say) would point wherever the attacker likes.
 */
export function absoluteUrl(baseUrl: string, path: string): string {
  return /^https?:\/\//.test(path) ? path : `${baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
}

/**
 * Fastify's `rewriteUrl`: an API path without its trailing slash (`/api/app-projects/radwege`, as the
 * app's deep links send it) is routed to the same route as the path with the slash, for every method.
 * Serving it in place rather than redirecting keeps POST/PUT/PATCH/DELETE bodies intact: clients that
 * follow a 301/302 turn those into a GET. A path that has a route of its own is left alone.
 */
export function apiTrailingSlash(this: FastifyInstance, request: IncomingMessage): string {
  const url = request.url ?? '/';
  const query = url.indexOf('?');
  const path = query < 0 ? url : url.slice(0, query);
  if (!path.startsWith('/api/') || path.endsWith('/')) return url;
  const method = request.method ?? 'GET';
  if (this.findRoute({ method, url: path }) || !this.findRoute({ method, url: `${path}/` })) return url;
  return `${path}/${query < 0 ? '' : url.slice(query)}`;
}
