import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { LANGUAGE_COOKIE } from '../../http/i18n.js';
import { createBrowserSession, destroyBrowserSession, rotateCsrfToken, SESSION_COOKIE, setSessionCookie } from '../../http/session.js';

/**
 * Signs a user in: the old session (if any) is dropped to prevent fixation, a new one is stored in
 * the database and its cookie set, the CSRF token is replaced; the language cookie follows the user's language.
 */
export async function startSession(tx: DbOrTx, request: FastifyRequest, reply: FastifyReply, user: { id: number; language: string }): Promise<void> {
  await destroyBrowserSession(tx, request.cookies[SESSION_COOKIE]);
  const cookie = await createBrowserSession(tx, user.id);
  setSessionCookie(request, reply, cookie);
  rotateCsrfToken(request, reply);
  setLanguageCookie(request, reply, user.language);
}

/** The language choice the pages follow (it wins over Accept-Language). */
export function setLanguageCookie(request: FastifyRequest, reply: FastifyReply, language: string): void {
  reply.setCookie(LANGUAGE_COOKIE, language, { path: '/', sameSite: 'lax', secure: request.protocol === 'https', maxAge: 365 * 24 * 3600 });
}

export async function endSession(db: DbOrTx, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await destroyBrowserSession(db, request.cookies[SESSION_COOKIE]);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
  rotateCsrfToken(request, reply);
}
