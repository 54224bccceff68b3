import { emptySiteFrame } from '../core/legal/content.js';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorAnswer } from '../http/errors.js';
import { requestLanguage } from '../http/i18n.js';
import { ensureCsrfToken } from '../http/session.js';
import { type Lang, t } from '../i18n/index.js';
import { type PageContext, pageContext } from './context.js';
import { Layout } from './layout.js';
import { loginRedirectUrl, sendPage } from './render.js';

/** The title and explanation of an error page, by status (English keys, German in de.ts). */
function errorTexts(lang: Lang, answer: ErrorAnswer): { title: string; message: string } {
  const detail = typeof answer.body.detail === 'string' ? answer.body.detail : '';
  switch (answer.status) {
    case 403:
      if (/CSRF/.test(detail)) {
        return { title: t(lang, 'Permission denied'), message: t(lang, 'The form could not be sent because its security token is missing or expired. Please reload the page and try again.') };
      }
      return { title: t(lang, 'Permission denied'), message: t(lang, 'You do not have permission to view this page.') };
    case 404:
      return { title: t(lang, 'Page not found'), message: t(lang, 'The page you were looking for does not exist.') };
    case 405:
      return { title: t(lang, 'Method not allowed'), message: t(lang, 'This page cannot be used this way.') };
    case 429:
      return { title: t(lang, 'Too many requests'), message: t(lang, 'Please wait a moment and try again.') };
    default:
      if (answer.status >= 500) return { title: t(lang, 'Server error'), message: t(lang, 'Sorry, something went wrong. Please try again later.') };
      return { title: t(lang, 'Bad request'), message: t(lang, 'The request could not be processed.') };
  }
}

export function ErrorPage({ page, answer }: { page: PageContext; answer: ErrorAnswer }) {
  const { title, message } = errorTexts(page.lang, answer);
  return (
    <Layout page={page} title={title}>
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <a href="/">{t(page.lang, 'Go to the start page')}</a>
      </p>
    </Layout>
  );
}

/** The page context of an error page; when looking up the user fails (it may be the error itself), anonymous. */
async function errorPageContext(request: FastifyRequest, reply: FastifyReply): Promise<PageContext> {
  try {
    return await pageContext(request, reply);
  } catch {
    const { config } = request.server.ctx;
    return { user: null, lang: requestLanguage(request, null), timeZone: config.timeZone, csrf: ensureCsrfToken(request, reply), path: request.url, origin: config.baseUrl, ...emptySiteFrame() };
  }
}

/**
 * The shared error handler's HTML renderer: the error in the page layout, status and headers kept.
 * A page an anonymous visitor may not see (`denied(null)`, 401) sends them to the login page and
 * back (participation-facts §A5.4); a signed-in user gets the 403 page.
 */
export async function renderErrorPage(request: FastifyRequest, reply: FastifyReply, answer: ErrorAnswer): Promise<FastifyReply> {
  if (answer.status === 401) return reply.redirect(loginRedirectUrl(request.method === 'GET' ? request.url : request.url.split('?')[0]), 302);
  const page = await errorPageContext(request, reply);
  return sendPage(reply.headers(answer.headers), ErrorPage({ page, answer }), answer.status);
}
