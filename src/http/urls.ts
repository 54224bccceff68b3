import type { FastifyInstance } from 'fastify';
import type { IncomingMessage } from 'node:http';

/**
 * Absolute URLs always start with the configured BASE_URL: a request's Host header is chosen by the
 * client, and a link built from it (in a password-reset mail, say) would point wherever the attacker likes.
 */
export function absoluteUrl(baseUrl: string, path: string): string {
  return /^https?:\/\//.test(path) ? path : `${baseUrl}${path.startsWith('/') ? '' : '/'}${path}`;
}

/** `<page>?next=/path/` as the reference builds it (slashes left unquoted); followed later only through `safeNext`. */
export const withNext = (page: string, next: string) => `${page}?next=${encodeURIComponent(next).replace(/%2F/gi, '/')}`;

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

/** Percent-escapes decoded until nothing changes (a few rounds); null for a malformed escape or endless nesting. */
function fullyDecoded(value: string): string | null {
  let current = value;
  for (let round = 0; round < 4; round++) {
    let decoded: string;
    try {
      decoded = decodeURIComponent(current);
    } catch {
      return null;
    }
    if (decoded === current) return current;
    current = decoded;
  }
  return null;
}

/**
 * Is `next` a path on this site? Printable ASCII only (our own `next` values always are), and once
 * every escape is decoded and compatibility forms folded (／ → /), it must start with one slash and
 * hold no backslash or control character: browsers drop tabs and newlines and read `\` as `/`, so
 * `/%09/evil.example`, `/\evil` or `/%2F%2Fevil` would otherwise lead to another host.
 */
export function isSameOriginPath(next: unknown): next is string {
  if (typeof next !== 'string' || next.length > 2000 || !/^\/[\x21-\x7e]*$/.test(next)) return false;
  const decoded = fullyDecoded(next)?.normalize('NFKC');
  // eslint-disable-next-line no-control-regex -- control characters are exactly what this rejects
  return decoded !== undefined && /^\/(?![/\\])/.test(decoded) && !/[\x00-\x1f\x7f\\]/.test(decoded);
}

/**
 * Django's APPEND_SLASH: where a GET or HEAD finds no route but the same path with a trailing slash
 * has one, the address to send the client to (301), query kept; else null. Never for other methods
 * (a redirect turns a POST into a GET and loses its body; those stay 404), never to an address
 * starting with `//` (another host), never where a route took the path and found nothing (a file
 * under `/static/*` or `/media/*`: a catch-all route matches any slashed path too).
 */
export function slashedLocation(app: FastifyInstance, request: { method: string; url: string }): string | null {
  if (request.method !== 'GET' && request.method !== 'HEAD') return null;
  const query = request.url.indexOf('?');
  const path = query < 0 ? request.url : request.url.slice(0, query);
  if (path.endsWith('/') || /^[/\\]{2}/.test(path) || app.findRoute({ method: 'GET', url: path })) return null;
  const slashed = app.findRoute({ method: 'GET', url: `${path}/` });
  if (!slashed || '*' in (slashed.params as Record<string, string>)) return null;
  return `${path}/${query < 0 ? '' : request.url.slice(query)}`;
}
