import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { denied } from '../../http/auth.js';
import { topics } from './schema.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, fieldList, FormBody, pageRoute, RepeatedFormBody } from '../../web/forms.js';
import { loginRedirectUrl, sendPage } from '../../web/render.js';
import { modulePath } from '../../core/urls.js';
import { toggleRating } from '../ratings/services.js';
import { type ItemModule, legacyItemReference, moduleWhereMay, viewableItem } from '../moduletypes/items.js';
import { backTo, isReference, ItemQuery, itemThread, ModuleParams, NextQuery, RefOrSlugParams, RefParams } from '../moduletypes/item-routing.js';
import { loadTopics, topicPath, topicPlaces, type TopicRow } from './queries.js';
import { canAddTopic, canChangeTopic, canRateTopic, type TopicInput, topicInputErrors } from './rules.js';
import { createTopic, deleteTopic, updateTopic } from './services.js';
import { TopicDeletePage, type TopicFormValues, TopicFormPage, TopicPage } from './views.js';
import { loadResultsOf } from '../results/queries.js';
import { BecamePartOf } from '../results/views.js';

const EMPTY: TopicFormValues = { name: '', description: '', category: '', labels: [] };
const toId = (value: string) => (/^\d{1,9}$/.test(value) ? Number(value) : -1);

/** The prioritisation's pages (§8): a topic with its ratings and comments; adding, editing and deleting topics (moderators and initiators). */
export async function topicPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  /** A topic its viewer may see, by reference number inside the organisation; login or 403 for one they may not see, as an idea's page (issue 36.13); 404 for none. */
  async function visibleTopic(page: PageContext, params: { org: string; ref: string }) {
    const { pk, module, context } = await viewableItem(db, params, topicPlaces, page.user, 'denied');
    const [topic] = await loadTopics(db, { moduleId: module.id, topicId: pk }, page.user?.id ?? null);
    if (!topic) throw notFound();
    return { module, context, topic, path: topicPath(params.org, topic.created, topic.id) };
  }

  app.get('/:org/topicprio/:ref/', pageRoute({ params: RefOrSlugParams, querystring: ItemQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    if (!isReference(request.params.ref)) {
      const ref = await legacyItemReference(db, topics, request.params.ref);
      if (!ref) throw notFound();
      const seen = await visibleTopic(page, { org: request.params.org, ref }).catch(() => null);
      if (!seen) throw notFound();
      return reply.redirect(seen.path, 301);
    }
    const { module, context, topic, path } = await visibleTopic(page, request.params);
    const data = {
      orgSlug: request.params.org,
      module,
      topic,
      path,
      mayRate: page.user !== null && canRateTopic(context),
      change: canChangeTopic(context) ? { edit: `${path}update/`, remove: `${path}delete/` } : null,
      thread: await itemThread(app.ctx, { request, query: request.query, page, context }, { type: 'topic', id: topic.id }, path),
      results: <BecamePartOf lang={page.lang} results={await loadResultsOf(db, 'topic', topic.id)} />,
    };
    return sendPage(reply, <TopicPage page={page} data={data} />);
  });

  app.post('/:org/topicprio/:ref/rate/', pageRoute({ params: RefParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await pageContext(request, reply);
    if (!page.user) return reply.redirect(loginRedirectUrl(request.url.replace(/rate\/$/, '')), 302);
    const user = page.user;
    const { context, topic, path } = await visibleTopic(page, request.params);
    const value = field(request.body, 'value');
    if (value !== '1' && value !== '-1') throw notFound();
    if (!canRateTopic(context)) throw permissionDenied();
    await db.transaction((tx) => toggleRating(tx, user.id, { type: 'topic', id: topic.id }, Number(value)));
    return reply.redirect(path, 302);
  });

  const values = (body: RepeatedFormBody): TopicFormValues => ({ name: field(body, 'name'), description: field(body, 'description', false), category: field(body, 'category'), labels: fieldList(body, 'labels') });
  const input = (v: TopicFormValues): TopicInput => ({ name: v.name, description: v.description, categoryId: v.category ? toId(v.category) : null, labelIds: v.labels.map(toId) });
  const stored = (topic: TopicRow): TopicFormValues => ({ name: topic.name, description: topic.description, category: topic.category ? String(topic.category.id) : '', labels: topic.labels.map((l) => String(l.id)) });
  const translate = (page: PageContext) => (key: string, vars?: Record<string, string | number>) => t(page.lang, key, vars);
  const form = (page: PageContext, org: string, module: ItemModule, title: string, action: string, cancel: string, v: TopicFormValues, errors: Record<string, string[]>) => (
    <TopicFormPage page={page} data={{ orgSlug: org, module, title: t(page.lang, title), action, cancel, values: v, errors }} />
  );

  const addable = (page: PageContext, params: { org: string; slug: string }) => moduleWhereMay(db, params, 'TP', canAddTopic, page.user);

  const createRoute = '/:org/topicprio/create/module/:slug/';
  app.get(createRoute, pageRoute({ params: ModuleParams, querystring: NextQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const module = await addable(page, request.params);
    return sendPage(reply, form(page, request.params.org, module, 'Add topic', request.url, backTo(request, modulePath(request.params.org, module.slug)), EMPTY, {}));
  });

  app.post(createRoute, pageRoute({ params: ModuleParams, querystring: NextQuery, body: RepeatedFormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await pageContext(request, reply);
    const module = await addable(page, request.params);
    const user = page.user;
    if (!user) throw denied(null);
    const posted = values(request.body);
    const errors = topicInputErrors(input(posted), module, translate(page));
    if (Object.keys(errors).length) return sendPage(reply, form(page, request.params.org, module, 'Add topic', request.url, backTo(request, modulePath(request.params.org, module.slug)), posted, errors), 400);
    const created = await db.transaction((tx) => createTopic(tx, { ...input(posted), moduleId: module.id, creatorId: user.id }));
    return redirectWithMessage(request, reply, backTo(request, topicPath(request.params.org, created.created, created.id)), 'The topic has been saved.');
  });

  /** A topic the signed-in viewer may change (403 for who may see it but not change it). */
  async function changeable(request: FastifyRequest, reply: FastifyReply, params: { org: string; ref: string }) {
    const page = await pageContext(request, reply);
    const loaded = await visibleTopic(page, params);
    if (!page.user) throw denied(null);
    if (!canChangeTopic(loaded.context)) throw permissionDenied();
    return { page, ...loaded };
  }

  app.get('/:org/topicprio/:ref/update/', pageRoute({ params: RefParams, querystring: NextQuery }), async (request, reply) => {
    const { page, module, topic, path } = await changeable(request, reply, request.params);
    return sendPage(reply, form(page, request.params.org, module, 'Edit topic', request.url, backTo(request, path), stored(topic), {}));
  });

  app.post('/:org/topicprio/:ref/update/', pageRoute({ params: RefParams, querystring: NextQuery, body: RepeatedFormBody }), async (request, reply) => {
    checkCsrf(request);
    const { page, module, topic, path } = await changeable(request, reply, request.params);
    const posted = values(request.body);
    const errors = topicInputErrors(input(posted), module, translate(page));
    if (Object.keys(errors).length) return sendPage(reply, form(page, request.params.org, module, 'Edit topic', request.url, backTo(request, path), posted, errors), 400);
    await db.transaction((tx) => updateTopic(tx, topic.id, input(posted)));
    return redirectWithMessage(request, reply, backTo(request, path), 'The topic has been saved.');
  });

  app.get('/:org/topicprio/:ref/delete/', pageRoute({ params: RefParams, querystring: NextQuery }), async (request, reply) => {
    const { page, topic, path } = await changeable(request, reply, request.params);
    return sendPage(reply, <TopicDeletePage page={page} topic={topic} action={request.url} cancel={backTo(request, path)} />);
  });

  app.post('/:org/topicprio/:ref/delete/', pageRoute({ params: RefParams, querystring: NextQuery, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const { module, topic } = await changeable(request, reply, request.params);
    await db.transaction((tx) => deleteTopic(tx, topic.id));
    return redirectWithMessage(request, reply, backTo(request, modulePath(request.params.org, module.slug)), 'The topic has been deleted.');
  });
}
