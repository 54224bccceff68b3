import type { FastifyReply, FastifyRequest } from 'fastify';

/** The cookie that carries one success message across a POST-redirect-GET (signed, so only the server writes it). */
const FLASH_COOKIE = 'messages';

/** Answers 302 to `location` with a message (an English catalogue key) for the next page. */
export function redirectWithMessage(request: FastifyRequest, reply: FastifyReply, location: string, message: string): FastifyReply {
  reply.setCookie(FLASH_COOKIE, message, { path: '/', sameSite: 'lax', httpOnly: true, secure: request.protocol === 'https', signed: true });
  return reply.redirect(location, 302);
}

/** The message the previous request left, read once: the cookie is cleared. */
export function takeMessage(request: FastifyRequest, reply: FastifyReply): string | null {
  const raw = request.cookies[FLASH_COOKIE];
  if (raw === undefined) return null;
  reply.clearCookie(FLASH_COOKIE, { path: '/' });
  const unsigned = request.unsignCookie(raw);
  return unsigned.valid && unsigned.value ? unsigned.value : null;
}
