import type { FastifyRequest } from 'fastify';
import type { Config } from '../config.js';
import type { Lang } from '../i18n/index.js';
import { requestLanguage } from './i18n.js';

/** What serialisers need from a request: its language, the site's time zone and the origin for absolute URLs. */
export interface RenderContext {
  lang: Lang;
  timeZone: string;
  origin: string;
}

export function renderContext(request: FastifyRequest, user: { language: string } | null, config: Config): RenderContext {
  return { lang: requestLanguage(request, user), timeZone: config.timeZone, origin: config.baseUrl };
}
