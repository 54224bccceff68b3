import type { FastifyReply, FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { LANGUAGE_COOKIE } from '../../http/i18n.js';
import { createBrowserSession, destroyBrowserSession, SESSION_COOKIE, setSessionCookie } from '../../http/session.js';

/**
 * THROTTLE CALL SITE — the one place page logins ask the shared login throttle (src/http/throttle.ts,
 * built in the auth issue) before checking a password; it should throw the 429 `throttled()` error
 * when the caller's IP or this account had too many failures. Until that module is merged this is a
 * no-op; wiring it in is one line here.
 */
export async function throttleLogin(_request: FastifyRequest, _login: string): Promise<void> {
  // await checkLoginThrottle(request, login);
}

/** Tells the throttle about a failed page login (see throttleLogin). */
export async function recordLoginFailure(_request: FastifyRequest, _login: string): Promise<void> {
  // await recordThrottledFailure(request, login);
}

/**
 * Signs a user in: the old session (if any) is dropped to prevent fixation, a new one is stored in
 * the database and its cookie set; the language cookie follows the user's language.
 */
export async function startSession(tx: DbOrTx, request: FastifyRequest, reply: FastifyReply, user: { id: number; language: string }): Promise<void> {
  await destroyBrowserSession(tx, request.cookies[SESSION_COOKIE]);
  const cookie = await createBrowserSession(tx, user.id);
  setSessionCookie(request, reply, cookie);
  setLanguageCookie(request, reply, user.language);
}

/** The language choice the pages follow (it wins over Accept-Language). */
export function setLanguageCookie(request: FastifyRequest, reply: FastifyReply, language: string): void {
  reply.setCookie(LANGUAGE_COOKIE, language, { path: '/', sameSite: 'lax', secure: request.protocol === 'https', maxAge: 365 * 24 * 3600 });
}

export async function endSession(db: DbOrTx, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  await destroyBrowserSession(db, request.cookies[SESSION_COOKIE]);
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}
