import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ApiError, notFound } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { type FooterOrganisation, Layout } from '../../web/layout.js';
import { sendPage } from '../../web/render.js';
import { RichText } from '../../web/rich-text.js';
import { inLanguage, loadOrganisationText, loadPlatformPage } from '../../core/legal/queries.js';
import { loadContentPage } from '../../core/legal/content.js';
import { CONTACT_LIMIT_PER_HOUR, checkContactMessage, type ContactMessage } from '../../core/legal/rules.js';
import { sendContactMessage } from '../../core/legal/services.js';
import { CONTACT_PATH } from '../../core/legal/texts.js';
import { challengePassed, honeypotFilled, issueQuestion } from '../../http/challenge.js';
import { renderContext } from '../../http/render.js';
import { takeRateLimited } from '../../http/throttle.js';
import { checkCsrf, field, FormBody } from '../../web/forms.js';
import { redirectWithMessage } from '../../web/flash.js';
import { ContactPage } from './views.js';
import { ORGANISATION_TEXT_KEYS, ORGANISATION_TEXTS, PLATFORM_PAGE_KEYS, PLATFORM_PAGES } from '../../core/legal/texts.js';

const SlugParams = Type.Object({ page: Type.String({ minLength: 1, maxLength: 100, pattern: '^[-a-z0-9]+$' }) });
const OrgParams = Type.Object({ org: Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' }) });

/** The platform's legal pages (/pages/<key>/) and an organisation's legal texts (/<org>/imprint/ …). */
export async function legalPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  for (const key of PLATFORM_PAGE_KEYS) {
    app.get(`/pages/${key}/`, pageRoute(), async (request, reply) => {
      const page = await pageContext(request, reply);
      const body = inLanguage(await loadPlatformPage(db, key), page.lang);
      return sendPage(reply, TextPage({ page, title: t(page.lang, PLATFORM_PAGES[key]), body, empty: t(page.lang, 'This page has not been written yet.') }));
    });
  }

  // The operator's content pages (a+ CMS) share the legal pages' address; the legal keys' own routes come first.
  app.get('/pages/:page/', pageRoute({ params: SlugParams }), async (request, reply) => {
    const found = await loadContentPage(db, { slug: request.params.page });
    if (!found) throw notFound();
    const page = await pageContext(request, reply);
    const title = inLanguage(found.title, page.lang) || found.slug;
    return sendPage(reply, TextPage({ page, title, body: inLanguage(found.body, page.lang), empty: t(page.lang, 'This page has not been written yet.') }));
  });

  const emptyMessage: ContactMessage = { name: '', email: '', subject: '', message: '' };
  const question = () => issueQuestion(app.ctx.config.secretKey);
  app.get(CONTACT_PATH, pageRoute(), async (request, reply) => {
    const page = await pageContext(request, reply);
    return sendPage(reply, ContactPage({ page, values: { ...emptyMessage, email: page.user?.email ?? '' }, errors: {}, question: question() }));
  });

  app.post(CONTACT_PATH, pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await pageContext(request, reply);
    const fields = (name: string) => field(request.body, name);
    // A robot that filled in the honeypot learns nothing: the usual answer, and nothing sent.
    if (honeypotFilled(fields)) return redirectWithMessage(request, reply, CONTACT_PATH, 'Thank you. Your message has been sent.');
    const values: ContactMessage = { name: fields('name'), email: fields('email'), subject: fields('subject'), message: field(request.body, 'message', false).trim() };
    const refuse = (errors: Record<string, string[]>, status = 400) => sendPage(reply, ContactPage({ page, values, errors, question: question() }), status);
    const errors = checkContactMessage(values);
    if (Object.keys(errors).length) return refuse(errors);
    if (!(await challengePassed(db, app.ctx.config.secretKey, fields))) return refuse({ challenge: ['The spam check was not passed. Please try again.'] });
    try {
      await takeRateLimited(app.ctx, `contact:${request.ip}`, CONTACT_LIMIT_PER_HOUR, 3600);
    } catch (error) {
      if (!(error instanceof ApiError) || error.statusCode !== 429) throw error;
      reply.headers(error.headers);
      return refuse({ non_field_errors: ['Too many messages from here. Please try again later.'] }, 429);
    }
    const origin = renderContext(request, page.user, app.ctx.config).origin;
    await db.transaction((tx) => sendContactMessage(tx, values, origin));
    return redirectWithMessage(request, reply, CONTACT_PATH, 'Thank you. Your message has been sent.');
  });

  for (const key of ORGANISATION_TEXT_KEYS) {
    app.get(`/:org/${key}/`, pageRoute({ params: OrgParams }), async (request, reply) => {
      const loaded = await loadOrganisationText(db, request.params.org, key);
      if (!loaded || !loaded.body.trim()) throw notFound();
      const page = await pageContext(request, reply);
      const title = `${t(page.lang, ORGANISATION_TEXTS[key].title)} — ${loaded.organisation.name}`;
      return sendPage(reply, TextPage({ page, title, body: loaded.body, organisation: loaded.organisation }));
    });
  }
}

export function TextPage({ page, title, body, empty, organisation }: { page: PageContext; title: string; body: string; empty?: string; organisation?: FooterOrganisation }) {
  return (
    <Layout page={page} title={title} organisation={organisation}>
      <h1>{title}</h1>
      {body ? <RichText html={body} /> : <p>{empty}</p>}
    </Layout>
  );
}
