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

/** Only local paths are followed after login and language changes (no open redirects). */
export function safeNext(next: unknown, fallback: string): string {
  if (typeof next !== 'string' || !next.startsWith('/') || next.startsWith('//') || next.startsWith('/\\') || /[\r\n]/.test(next)) return fallback;
  return next;
}

/** `/accounts/login/?next=/path/` as the reference builds it (slashes left unquoted). */
export const loginRedirectUrl = (path: string) => `/accounts/login/?next=${encodeURIComponent(path).replace(/%2F/gi, '/')}`;
