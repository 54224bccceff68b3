import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { checkCsrf, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { managedOrganisation } from '../../web/guards.js';
import { doneMessage, newsletterListPath, withDone } from '../../web/paths.js';
import { NewsletterFormPage, NewsletterListPage } from './views.js';
import { listNewsletters, newsletterDraftValues, newsletterProjects } from './queries.js';
import { readNewsletterForm } from './rules.js';
import { sendNewsletter } from './services.js';

const OrgParams = Type.Object({ org: Slug });
const ListQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const CreateQuery = Type.Object({ project: Type.Optional(Type.String({ maxLength: 12 })), draft: Type.Optional(Type.Integer({ minimum: 1, maximum: 2147483647 })) });

/** Newsletters to a project's followers, from the organisation's dashboard (§B18; initiators and superusers, §B1). */
export async function newsletterRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get('/:org/dashboard/communication/newsletters/', pageRoute({ params: OrgParams, querystring: ListQuery }), async (request, reply) => {
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const { page, organisation } = managed;
    return sendPage(reply, NewsletterListPage({ page, organisation, list: await listNewsletters(db, organisation.id), done: doneMessage(request.query.done) }));
  });

  app.get('/:org/dashboard/communication/newsletters/create/', pageRoute({ params: OrgParams, querystring: CreateQuery }), async (request, reply) => {
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const { page, organisation } = managed;
    const draft = request.query.draft === undefined ? null : await newsletterDraftValues(db, organisation.id, request.query.draft);
    const values = draft ?? { sender_name: organisation.name, project: request.query.project ?? '' };
    return sendPage(reply, NewsletterFormPage({ page, organisation, projects: await newsletterProjects(db, organisation.id), values, errors: {} }));
  });

  app.post('/:org/dashboard/communication/newsletters/create/', pageRoute({ params: OrgParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const { page, organisation, actor } = managed;
    const projects = await newsletterProjects(db, organisation.id);
    const { values, errors, input } = readNewsletterForm(request.body, projects.map((p) => p.id));
    if (!input) return sendPage(reply, NewsletterFormPage({ page, organisation, projects, values, errors }), 400);
    await db.transaction((tx) => sendNewsletter(tx, organisation, actor.id, input, { origin: actor.origin, secretKey: app.ctx.config.secretKey }));
    return reply.redirect(withDone(newsletterListPath(organisation.slug), 'newsletter_sent'), 302);
  });
}
