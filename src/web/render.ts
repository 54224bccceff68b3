import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';

/** A whole HTML document from a page component; preact escapes every text and attribute. */
export function renderPage(page: VNode): string {
  return `<!DOCTYPE html>\n${renderToString(page)}`;
}

export function sendPage(reply: FastifyReply, page: VNode, status = 200): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(renderPage(page));
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

/** The only way to follow a `next` (after login, language change, social login): same-origin paths, else the fallback. */
export function safeNext(next: unknown, fallback: string): string {
  return isSameOriginPath(next) ? next : fallback;
}

/** `<page>?next=/path/` as the reference builds it (slashes left unquoted); followed later only through `safeNext`. */
export const withNext = (page: string, next: string) => `${page}?next=${encodeURIComponent(next).replace(/%2F/gi, '/')}`;

/** `/accounts/login/?next=/path/`: log in, then come back. */
export const loginRedirectUrl = (path: string) => withNext('/accounts/login/', path);

/** `/accounts/signup/?next=/path/`: sign up, and the confirmation link comes back to `path` (an invitation, say). */
export const signupRedirectUrl = (path: string) => withNext('/accounts/signup/', path);
