import type { FastifyRequest } from 'fastify';
import { chooseLanguage, type Lang } from '../i18n/index.js';

export const LANGUAGE_COOKIE = 'language';

/**
 * The language of a response: an explicit choice (the language cookie set by the switcher), then
 * the signed-in user's language, then Accept-Language, then English.
 */
export function requestLanguage(request: FastifyRequest, user?: { language: string } | null): Lang {
  return chooseLanguage({
    explicit: request.cookies?.[LANGUAGE_COOKIE],
    user: user?.language,
    acceptLanguage: request.headers['accept-language'],
  });
}
