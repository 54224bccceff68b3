import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type AuthUser, currentUser, denied } from '../../http/auth.js';
import { ApiError, fieldErrors, notFound, permissionDenied } from '../../http/errors.js';
import { type LiveEvent, type LiveView, showAll } from '../../http/live.js';
import { apiErrors, optionalAuth, PathId } from '../../http/responses.js';
import { anonymousWriteForged, browserSessionKey, likeSessionKey, SESSION_COOKIE, visitorKey } from '../../http/session.js';
import { loadModuleContext, type LoadedModuleContext, loadVersionedModuleContext, moduleContextsOfViewers } from '../../core/projects/context.js';
import { listQuestions, loadQuestion, prepareAskContext, prepareLikeContext } from './queries.js';
import { canAskQuestion, canLikeQuestion, canModerateEvent, canViewEvent, LIKE_NEEDS_SESSION, QUESTION_MAX } from './rules.js';
import { questionsTopic, serializeQuestion } from './serialize.js';
import { changeQuestion, createQuestion, setLike } from './services.js';

/**
 * The Interactive Event's API, compatible with adhocracy+ (§6.3), and its live channel:
 * GET /api/modules/{moduleId}/interactiveevents/live/ streams the event's changes
 * (text/event-stream; docs/api.md, "Live channel").
 */

export const IE_BLUEPRINT = 'IE';

const ModuleParams = Type.Object({ pk: PathId });
const QuestionParams = Type.Object({ pk: PathId, id: PathId });
const Flag = Type.Optional(Type.Union([Type.Literal('true'), Type.Literal('false'), Type.Literal('1'), Type.Literal('0'), Type.Literal('True'), Type.Literal('False')]));
const ListQuery = Type.Object({
  ordering: Type.Optional(Type.Union([Type.Literal('like_count'), Type.Literal('-like_count'), Type.Literal('created'), Type.Literal('-created')])),
  is_answered: Flag,
  is_live: Flag,
  is_hidden: Flag,
  format: Type.Optional(Type.String({ maxLength: 10 })),
});
const QuestionSchema = Type.Object({
  id: Type.Integer(),
  text: Type.String(),
  category: Type.Union([Type.String(), Type.Null()]),
  likes: Type.Object({ count: Type.Integer(), session_like: Type.Boolean() }),
  is_answered: Type.Boolean(),
  is_on_shortlist: Type.Boolean(),
  is_hidden: Type.Boolean(),
  is_live: Type.Boolean(),
});
// Null first: the schema compiler coerces types, and would read null as the integer 0.
const CategoryValue = Type.Union([Type.Null(), Type.Integer({ minimum: 1, maximum: 2147483647 }), Type.String({ maxLength: 20 })]);
const CreateBody = Type.Object({ text: Type.String({ minLength: 1, maxLength: QUESTION_MAX }), category: Type.Optional(CategoryValue) });
const FlagsBody = Type.Object({ is_answered: Type.Optional(Type.Boolean()), is_on_shortlist: Type.Optional(Type.Boolean()), is_hidden: Type.Optional(Type.Boolean()), is_live: Type.Optional(Type.Boolean()) });
const LikeBody = Type.Object({ value: Type.Boolean() });

const flag = (value: string | undefined) => (value === undefined ? undefined : value === 'true' || value === '1' || value === 'True');
const ruleUser = (user: AuthUser | null) => (user ? { id: user.id, isSuperuser: user.isSuperuser } : null);

/** Whether a module's context is an event its viewer may see. */
export const isVisibleEvent = (context: LoadedModuleContext) => context.module.blueprintType === IE_BLUEPRINT && canViewEvent(context);

/** The event's context for the viewer: 404 for what they may not see (another type, a private or draft project). */
export async function eventContext(db: FastifyInstance['ctx']['db'], moduleId: number, user: AuthUser | null): Promise<LoadedModuleContext> {
  const context = await loadModuleContext(db, moduleId, ruleUser(user));
  if (!context || !isVisibleEvent(context)) throw notFound();
  return context;
}

/** The visitors' variant of each hidden question's event, made once for all their streams (its bytes are then encoded once too). */
const hiddenVariants = new WeakMap<LiveEvent, LiveEvent>();

/** What a viewer's stream shows of an event: hidden questions only to moderators (the others are told it went). */
const visitorView: LiveView = (event) => {
  if (event.event !== 'question' || event.data.is_hidden !== true) return event;
  let variant = hiddenVariants.get(event);
  if (!variant) hiddenVariants.set(event, (variant = { ...event, event: 'question_hidden', data: { id: event.data.id } }));
  return variant;
};
/** (One function per view, so that a stream's re-check sees whether its view changed.) */
const viewForEvent = (moderator: boolean): LiveView => (moderator ? showAll : visitorView);

/** A viewer's view of the event's stream now, or null when they may no longer see the event. */
const eventView = (context: LoadedModuleContext | undefined): LiveView | null => (context && isVisibleEvent(context) ? viewForEvent(canModerateEvent(context)) : null);

/**
 * The affiliation a new question names, checked against the module's: required where the module
 * has some (adhocracy+'s widget sends the id, "" or null), null where it has none.
 */
export function readAffiliation(sent: unknown, affiliations: { id: number; name: string }[]): { categoryId: number | null; category: string | null } | { error: string } {
  const blank = sent === undefined || sent === null || sent === '';
  if (!affiliations.length) return blank ? { categoryId: null, category: null } : { error: `Invalid pk "${String(sent)}" - object does not exist.` };
  if (blank) return { error: 'This field is required.' };
  const id = typeof sent === 'number' ? sent : /^\d{1,9}$/.test(String(sent)) ? Number(sent) : NaN;
  if (Number.isNaN(id)) return { error: 'Incorrect type. Expected pk value, received str.' };
  const chosen = affiliations.find((a) => a.id === id);
  return chosen ? { categoryId: id, category: chosen.name } : { error: `Invalid pk "${id}" - object does not exist.` };
}

function refuseForged(request: FastifyRequest): void {
  if (anonymousWriteForged(request)) throw new ApiError(403, { detail: 'CSRF Failed: CSRF token missing or incorrect.' });
}

export async function interactiveEventRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, live } = app.ctx;
  const tags = ['interactiveevents'];
  const askContext = prepareAskContext(db);
  const likeContext = prepareLikeContext(db);

  app.get(
    '/api/modules/:pk/interactiveevents/livequestions/',
    { schema: { tags, security: optionalAuth, params: ModuleParams, querystring: ListQuery, response: { 200: Type.Array(QuestionSchema), ...apiErrors } } },
    async (request) => {
      const user = await currentUser(request);
      const context = await eventContext(db, request.params.pk, user);
      const { ordering, is_answered, is_live, is_hidden } = request.query;
      const rows = await listQuestions(db, context.module.id, {
        session: await likeSessionKey(db, request),
        withHidden: canModerateEvent(context),
        isAnswered: flag(is_answered),
        isLive: flag(is_live),
        isHidden: flag(is_hidden),
        ordering: ordering === 'like_count' || ordering === '-like_count' ? ordering : undefined,
      });
      if (ordering === '-created') rows.reverse();
      return rows.map(serializeQuestion);
    },
  );

  app.post(
    '/api/modules/:pk/interactiveevents/livequestions/',
    { schema: { tags, security: optionalAuth, params: ModuleParams, body: CreateBody, response: { 201: QuestionSchema, ...apiErrors } } },
    async (request, reply) => {
      const user = await currentUser(request);
      refuseForged(request);
      // The event's context with its affiliations in one statement; the question with its live event in another.
      const loaded = await askContext(request.params.pk, ruleUser(user));
      if (!loaded || !isVisibleEvent(loaded.context)) throw notFound();
      const { context, affiliations } = loaded;
      if (!canAskQuestion(context)) throw permissionDenied();
      const affiliation = readAffiliation(request.body.category, affiliations);
      if ('error' in affiliation) throw fieldErrors({ category: [affiliation.error] });
      const text = request.body.text.trim();
      if (!text) throw fieldErrors({ text: ['This field may not be blank.'] });
      const row = await createQuestion(db, { moduleId: context.module.id, text, ...affiliation });
      return reply.status(201).send(serializeQuestion(row));
    },
  );

  app.patch(
    '/api/modules/:pk/interactiveevents/livequestions/:id/',
    { schema: { tags, params: QuestionParams, body: FlagsBody, response: { 200: QuestionSchema, ...apiErrors } } },
    async (request) => {
      const user = await currentUser(request);
      const context = await eventContext(db, request.params.pk, user);
      if (!canModerateEvent(context)) throw denied(user);
      const moduleId = context.module.id;
      if (!(await loadQuestion(db, moduleId, request.params.id))) throw notFound();
      const { is_answered, is_on_shortlist, is_hidden, is_live } = request.body;
      await db.transaction((tx) => changeQuestion(tx, moduleId, request.params.id, { isAnswered: is_answered, isOnShortlist: is_on_shortlist, isHidden: is_hidden, isLive: is_live }));
      const row = await loadQuestion(db, moduleId, request.params.id, await likeSessionKey(db, request));
      if (!row) throw notFound();
      return serializeQuestion(row);
    },
  );

  app.post(
    '/api/livequestions/:pk/likes/',
    { schema: { tags, security: optionalAuth, params: ModuleParams, body: LikeBody, response: { 201: Type.Object({}), ...apiErrors } } },
    async (request, reply) => {
      const user = await currentUser(request);
      refuseForged(request);
      // App clients (token, JWT) like as their user; browsers as their session, as adhocracy+ does, or else as the visitor identity a page view gave them.
      const appClient = user && request.headers.authorization ? user : null;
      // The event's context, the question and the session in one statement; the like and its event in another.
      const loaded = await likeContext(request.params.pk, appClient ? null : browserSessionKey(request.cookies[SESSION_COOKIE]), ruleUser(user));
      if (!loaded || loaded.extras.hidden === null || !isVisibleEvent(loaded.context)) throw notFound();
      const { context, extras } = loaded;
      if (extras.hidden && !canModerateEvent(context)) throw notFound();
      if (!canLikeQuestion(context)) throw permissionDenied();
      const session = appClient ? `user:${appClient.id}` : (extras.session ?? visitorKey(request));
      if (!session) throw permissionDenied(LIKE_NEEDS_SESSION);
      await setLike(db, context.module.id, request.params.pk, session, request.body.value);
      return reply.status(201).send({});
    },
  );

  app.get(
    '/api/modules/:pk/interactiveevents/live/',
    { schema: { tags, security: optionalAuth, params: ModuleParams, querystring: Type.Object({ lastEventId: Type.Optional(Type.String({ maxLength: 4200 })) }), produces: ['text/event-stream'], response: { 200: Type.String({ description: 'text/event-stream' }), ...apiErrors } } },
    async (request, reply) => {
      const user = await currentUser(request);
      const loaded = await loadVersionedModuleContext(db, request.params.pk, ruleUser(user));
      const view = eventView(loaded?.context);
      if (!loaded || !view) throw notFound();
      const moduleId = loaded.context.module.id;
      return live.stream(request, reply, questionsTopic(moduleId), view, {
        projectId: loaded.context.project.projectId,
        version: loaded.pageVersion,
        viewer: user?.id ?? 0,
        key: questionsTopic(moduleId),
        recheck: async (viewers) => {
          const contexts = await moduleContextsOfViewers(db, moduleId, viewers);
          return new Map(viewers.map((viewer) => [viewer, eventView(contexts.get(viewer))]));
        },
      });
    },
  );
}
