import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { type FooterOrganisation, Layout } from '../../web/layout.js';
import { sendPage } from '../../web/render.js';
import { RichText } from '../../web/rich-text.js';
import { inLanguage, loadOrganisationText, loadPlatformPage } from '../../core/legal/queries.js';
import { ORGANISATION_TEXT_KEYS, ORGANISATION_TEXTS, PLATFORM_PAGE_KEYS, PLATFORM_PAGES } from '../../core/legal/texts.js';

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
