import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { denied } from '../../http/auth.js';
import { subjects } from './schema.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { modulePath } from '../../core/urls.js';
import { legacyItemReference, moduleWhereMay, viewableItem } from '../moduletypes/items.js';
import { backTo, isReference, ItemQuery, itemThread, ModuleParams, NextQuery, RefOrSlugParams, RefParams } from '../moduletypes/item-routing.js';
import { loadSubjects, subjectPath, subjectPlaces } from './queries.js';
import { canAddSubject, canChangeSubject, type SubjectInput, subjectInputErrors } from './rules.js';
import { createSubject, deleteSubject, updateSubject } from './services.js';
import { SubjectDeletePage, SubjectFormPage, SubjectPage } from './views.js';

/** The debate's pages (§9): a subject with its comments, and adding, editing and deleting subjects (moderators and initiators). */
export async function debatePages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  /** A subject its viewer may see, by reference number inside the organisation; 404 otherwise (login for anonymous visitors of hidden ones). */
  async function visibleSubject(page: PageContext, params: { org: string; ref: string }) {
    const { pk, module, context } = await viewableItem(db, params, subjectPlaces, page.user);
    const [subject] = await loadSubjects(db, { moduleId: module.id, subjectId: pk });
    if (!subject) throw notFound();
    return { module, context, subject, path: subjectPath(params.org, subject.created, subject.id) };
  }

  app.get('/:org/subjects/:ref/', pageRoute({ params: RefOrSlugParams, querystring: ItemQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    if (!isReference(request.params.ref)) {
      const ref = await legacyItemReference(db, subjects, request.params.ref);
      if (!ref) throw notFound();
      const seen = await visibleSubject(page, { org: request.params.org, ref }).catch(() => null);
      if (!seen) throw notFound();
      return reply.redirect(seen.path, 301);
    }
    const { module, context, subject, path } = await visibleSubject(page, request.params);
    const change = canChangeSubject(context) ? { edit: `${path}update/`, remove: `${path}delete/` } : null;
    const thread = await itemThread(app.ctx, { request, query: request.query, page, context }, { type: 'subject', id: subject.id }, path);
    return sendPage(reply, <SubjectPage page={page} data={{ orgSlug: request.params.org, module, subject, change, thread }} />);
  });

  const values = (body: FormBody): SubjectInput => ({ name: field(body, 'name'), description: field(body, 'description') });
  const translate = (page: PageContext) => (key: string, vars?: Record<string, string | number>) => t(page.lang, key, vars);
  const addable = (page: PageContext, params: { org: string; slug: string }) => moduleWhereMay(db, params, 'DB', canAddSubject, page.user);

  const createRoute = '/:org/subjects/create/module/:slug/';
  app.get(createRoute, pageRoute({ params: ModuleParams, querystring: NextQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const module = await addable(page, request.params);
    const cancel = backTo(request, modulePath(request.params.org, module.slug));
    const data = { orgSlug: request.params.org, module, title: t(page.lang, 'Add subject'), action: request.url, cancel, values: { name: '', description: '' }, errors: {} };
    return sendPage(reply, <SubjectFormPage page={page} data={data} />);
  });

  app.post(createRoute, pageRoute({ params: ModuleParams, querystring: NextQuery, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await pageContext(request, reply);
    const module = await addable(page, request.params);
    const user = page.user;
    if (!user) throw denied(null);
    const input = values(request.body);
    const errors = subjectInputErrors(input, translate(page));
    const cancel = backTo(request, modulePath(request.params.org, module.slug));
    if (Object.keys(errors).length) {
      return sendPage(reply, <SubjectFormPage page={page} data={{ orgSlug: request.params.org, module, title: t(page.lang, 'Add subject'), action: request.url, cancel, values: input, errors }} />, 400);
    }
    const created = await db.transaction((tx) => createSubject(tx, { ...input, moduleId: module.id, creatorId: user.id }));
    return redirectWithMessage(request, reply, backTo(request, subjectPath(request.params.org, created.created, created.id)), 'The subject has been saved.');
  });

  /** A subject the signed-in viewer may change (403 for who may see it but not change it). */
  async function changeable(request: FastifyRequest, reply: FastifyReply, params: { org: string; ref: string }) {
    const page = await pageContext(request, reply);
    const loaded = await visibleSubject(page, params);
    if (!page.user) throw denied(null);
    if (!canChangeSubject(loaded.context)) throw permissionDenied();
    return { page, ...loaded };
  }

  app.get('/:org/subjects/:ref/update/', pageRoute({ params: RefParams, querystring: NextQuery }), async (request, reply) => {
    const { page, module, subject, path } = await changeable(request, reply, request.params);
    const data = { orgSlug: request.params.org, module, title: t(page.lang, 'Edit subject'), action: request.url, cancel: backTo(request, path), values: { name: subject.name, description: subject.description }, errors: {} };
    return sendPage(reply, <SubjectFormPage page={page} data={data} />);
  });

  app.post('/:org/subjects/:ref/update/', pageRoute({ params: RefParams, querystring: NextQuery, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const { page, module, subject, path } = await changeable(request, reply, request.params);
    const input = values(request.body);
    const errors = subjectInputErrors(input, translate(page));
    if (Object.keys(errors).length) {
      return sendPage(reply, <SubjectFormPage page={page} data={{ orgSlug: request.params.org, module, title: t(page.lang, 'Edit subject'), action: request.url, cancel: backTo(request, path), values: input, errors }} />, 400);
    }
    await db.transaction((tx) => updateSubject(tx, subject.id, input));
    return redirectWithMessage(request, reply, backTo(request, path), 'The subject has been saved.');
  });

  app.get('/:org/subjects/:ref/delete/', pageRoute({ params: RefParams, querystring: NextQuery }), async (request, reply) => {
    const { page, subject, path } = await changeable(request, reply, request.params);
    return sendPage(reply, <SubjectDeletePage page={page} subject={subject} action={request.url} cancel={backTo(request, path)} />);
  });

  app.post('/:org/subjects/:ref/delete/', pageRoute({ params: RefParams, querystring: NextQuery, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const { module, subject } = await changeable(request, reply, request.params);
    await db.transaction((tx) => deleteSubject(tx, subject.id));
    return redirectWithMessage(request, reply, backTo(request, modulePath(request.params.org, module.slug)), 'The subject has been deleted.');
  });
}

