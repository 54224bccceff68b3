import type { FastifyReply } from 'fastify';
import type { VNode } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { isSameOriginPath, withNext } from '../http/urls.js';
import { GUEST_PATH } from '../core/users/rules.js';

/** A whole HTML document from a page component; preact escapes every text and attribute. */
export function renderPage(page: VNode): string {
  return `<!DOCTYPE html>\n${renderToString(page)}`;
}

export function sendPage(reply: FastifyReply, page: VNode, status = 200): FastifyReply {
  return sendHtml(reply, renderPage(page), status);
}

/** A part of a page (no document around it), for a page's script to swap in (live.js). */
export function sendFragment(reply: FastifyReply, part: VNode): FastifyReply {
  return sendHtml(reply, renderToString(part));
}

/** A rendered HTML document; pages hold a visitor's form token and are never stored by caches. */
export function sendHtml(reply: FastifyReply, html: string, status = 200): FastifyReply {
  return reply.status(status).type('text/html; charset=utf-8').header('cache-control', 'no-store').send(html);
}

/** The only way to follow a `next` (after login, language change, social login): same-origin paths, else the fallback. */
export function safeNext(next: unknown, fallback: string): string {
  return isSameOriginPath(next) ? next : fallback;
}

/** `/accounts/login/?next=/path/`: log in, then come back. */
export const loginRedirectUrl = (path: string) => withNext('/accounts/login/', path);

/** `/accounts/signup/?next=/path/`: sign up, and the confirmation link comes back to `path` (an invitation, say). */
export const signupRedirectUrl = (path: string) => withNext('/accounts/signup/', path);

/** `/accounts/guest/?next=/path/`: take part as a guest (issue 34.4), then come back. */
export const guestRedirectUrl = (path: string) => withNext(GUEST_PATH, path);
