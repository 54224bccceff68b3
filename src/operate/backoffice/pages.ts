import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { eq } from 'drizzle-orm';
import { organisations } from '../../db/schema/index.js';
import { notFound } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { checkCsrf, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { organisationNameError } from '../../core/organisations/rules.js';
import { operator } from './access.js';
import { accountCare, initiatorRefusal, USER_SEARCH_MAX_LENGTH } from './rules.js';
import { accountCareRoutes } from './account-pages.js';
import { contentRoutes } from './content-pages.js';
import { siteContentRoutes } from './site-pages.js';
import { figureRoutes } from './figure-pages.js';
import { mapPlaceRoutes } from './map-pages.js';
import { OrganisationPage, OrganisationsPage, ProjectsPage, UsersPage } from './views.js';
import { appointInitiator, changeKeepingASuperuser, changeUser, createOrganisation, findUser, listOrganisations, loadCareTarget, listProjects, organisationPeople, searchUsers, setArchived, setOrganisationRole, updateOrganisation } from './services.js';

const NOTICES: Record<string, string> = { saved: 'Your changes have been saved.', created: 'The organisation was created.', deleted: 'The account has been deleted.' };
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })), search: Type.Optional(Type.String({ maxLength: USER_SEARCH_MAX_LENGTH })) });
const OrgParams = Type.Object({ org: Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' }) });
const notice = (done: string | undefined) => (done && NOTICES[done]) || null;

const idOf = (value: string | undefined) => {
  const n = Number(value);
  return Number.isInteger(n) && n >= 1 && n <= 2147483647 ? n : null;
};

/** The back-office for platform operators (§D): organisations, initiators and members, users, projects. */
export async function backofficeRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;
  await fastify.register(contentRoutes);
  await fastify.register(siteContentRoutes);
  await fastify.register(figureRoutes);
  await fastify.register(accountCareRoutes);
  await fastify.register(mapPlaceRoutes);

  app.get('/backoffice/', pageRoute(), async (_request, reply) => reply.redirect('/backoffice/organisations/', 302));

  app.get('/backoffice/organisations/', pageRoute({ querystring: DoneQuery }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return sendPage(reply, OrganisationsPage({ page, organisations: await listOrganisations(db), name: '', notice: notice(request.query.done) }));
  });

  app.post('/backoffice/organisations/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const name = (request.body.name ?? '').trim();
    const error = organisationNameError(name);
    if (error) return sendPage(reply, OrganisationsPage({ page, organisations: await listOrganisations(db), name, error: t(page.lang, error), notice: null }), 400);
    const created = await db.transaction((tx) => createOrganisation(tx, name));
    return reply.redirect(`/backoffice/organisations/${created.slug}/?done=created`, 302);
  });

  async function organisationPage(request: FastifyRequest, reply: FastifyReply, slug: string, form: { values?: Record<string, string>; errors?: Record<string, string[]>; status?: number; done?: string }) {
    const page = await operator(request, reply);
    if (!page) return reply;
    const [organisation] = await db.select().from(organisations).where(eq(organisations.slug, slug));
    if (!organisation) throw notFound();
    const data = {
      organisation,
      initiators: await organisationPeople(db, organisation.id, 'initiator'),
      members: await organisationPeople(db, organisation.id, 'member'),
      values: form.values ?? {},
      errors: form.errors ?? {},
      notice: notice(form.done),
    };
    return sendPage(reply, OrganisationPage({ page, data }), form.status ?? 200);
  }

  app.get('/backoffice/organisations/:org/', pageRoute({ params: OrgParams, querystring: DoneQuery }), async (request, reply) =>
    organisationPage(request, reply, request.params.org, { done: request.query.done }),
  );

  app.post('/backoffice/organisations/:org/', pageRoute({ params: OrgParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const [organisation] = await db.select().from(organisations).where(eq(organisations.slug, request.params.org));
    if (!organisation) throw notFound();
    const body = request.body;
    const back = `/backoffice/organisations/${organisation.slug}/?done=saved`;
    const action = body.action ?? '';
    if (action === 'settings') {
      const values = { name: (body.name ?? '').trim(), language: body.language ?? '', enable_geolocation: body.enable_geolocation ? 'on' : '', is_supporting: body.is_supporting ? 'on' : '' };
      const errors: Record<string, string[]> = {};
      const nameError = organisationNameError(values.name);
      if (nameError) errors.name = [t(page.lang, nameError)];
      if (!['de', 'en'].includes(values.language)) errors.non_field_errors = [t(page.lang, 'Select a valid choice.')];
      if (Object.keys(errors).length) return organisationPage(request, reply, organisation.slug, { values, errors, status: 400 });
      await db.transaction((tx) => updateOrganisation(tx, organisation.id, { name: values.name, language: values.language, enableGeolocation: values.enable_geolocation === 'on', isSupporting: values.is_supporting === 'on' }));
      return reply.redirect(back, 302);
    }
    const match = /^(add|remove)_(initiator|member)$/.exec(action);
    if (!match) return organisationPage(request, reply, organisation.slug, { errors: { non_field_errors: [t(page.lang, 'Select a valid choice.')] }, status: 400 });
    const role = match[2] as 'initiator' | 'member';
    const field = `${role}_name`;
    const user = match[1] === 'add' ? await findUser(db, (body[field] ?? '').trim()) : idOf(body.user_id) ? { id: idOf(body.user_id) as number } : null;
    if (!user) {
      return organisationPage(request, reply, organisation.slug, { values: { [field]: body[field] ?? '' }, errors: { [field]: [t(page.lang, 'No user with this username or e-mail address.')] }, status: 400 });
    }
    const refusal = role === 'initiator' && match[1] === 'add' && 'emailVerified' in user ? initiatorRefusal(user) : null;
    if (refusal) return organisationPage(request, reply, organisation.slug, { values: { [field]: body[field] ?? '' }, errors: { [field]: [t(page.lang, refusal)] }, status: 400 });
    const actor = { username: page.user?.username ?? '', origin: app.ctx.config.baseUrl };
    await db.transaction((tx) =>
      role === 'initiator' && match[1] === 'add' ? appointInitiator(tx, organisation, user.id, actor) : setOrganisationRole(tx, organisation.id, role, user.id, match[1] === 'add'),
    );
    return reply.redirect(back, 302);
  });

  app.get('/backoffice/users/', pageRoute({ querystring: DoneQuery }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    const search = (request.query.search ?? '').trim();
    return sendPage(reply, UsersPage({ page, users: await searchUsers(db, search), search, notice: notice(request.query.done) }));
  });

  app.post('/backoffice/users/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const id = idOf(request.body.user_id);
    const action = request.body.action;
    if (!id || (action !== 'deactivate' && action !== 'activate' && action !== 'staff' && action !== 'unstaff')) {
      return sendPage(reply, UsersPage({ page, users: await searchUsers(db, ''), search: '', notice: 'Select a valid choice.' }), 400);
    }
    const target = await loadCareTarget(db, id);
    const care = target && page.user ? accountCare(page.user.id, target, target.activeSuperusers) : null;
    const allowed = action === 'staff' || action === 'unstaff' ? care?.staff : care?.[action];
    if (!allowed) {
      const message = id === page.user?.id && action === 'deactivate' ? 'You cannot deactivate yourself.' : 'This is not possible for this account.';
      return sendPage(reply, UsersPage({ page, users: await searchUsers(db, ''), search: '', notice: message }), 400);
    }
    const done = await db.transaction((tx) => (action === 'deactivate' ? changeKeepingASuperuser(tx, page.user?.id ?? 0, id, () => changeUser(tx, id, action).then(() => true)) : changeUser(tx, id, action).then(() => true)));
    if (!done) return sendPage(reply, UsersPage({ page, users: await searchUsers(db, ''), search: '', notice: 'This is not possible for this account.' }), 400);
    return reply.redirect('/backoffice/users/?done=saved', 302);
  });

  app.get('/backoffice/projects/', pageRoute({ querystring: DoneQuery }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return sendPage(reply, ProjectsPage({ page, projects: await listProjects(db), notice: notice(request.query.done) }));
  });

  app.post('/backoffice/projects/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const id = idOf(request.body.project_id);
    const action = request.body.action;
    if (!id || (action !== 'archive' && action !== 'unarchive')) return sendPage(reply, ProjectsPage({ page, projects: await listProjects(db), notice: 'Select a valid choice.' }), 400);
    await db.transaction((tx) => setArchived(tx, id, action === 'archive'));
    return reply.redirect('/backoffice/projects/?done=saved', 302);
  });
}
