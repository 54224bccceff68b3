import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { apiErrors, notModified, PathId } from '../../http/responses.js';
import { requireUser } from '../../http/auth.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { checkPageInRange, pageLinks, PageParam, pageNumber } from '../../http/pagination.js';
import { type RenderContext, renderContext } from '../../http/render.js';
import { sendTagged, serialized } from '../../http/conditional.js';
import { KeptAnswers } from '../../http/kept-answers.js';
import { CommentText, commentText } from '../comments/input.js';
import { type ModerationChanges, moderateComment } from '../comments/services.js';
import { loadVersionedProjectContext, projectContextsOfViewers } from '../../core/projects/context.js';
import { showAll } from '../../http/live.js';
import { moderationTopic } from '../../core/projects/live-topics.js';
import { canModerateComments } from './rules.js';
import { loadModerationComment, loadModerationComments, type ModerationOrdering, type Tristate } from './queries.js';
import { ModerationCommentSchema, serializeModerationComment } from './serialize.js';

const ProjectParams = Type.Object({ project_pk: PathId });
const CommentParams = Type.Object({ project_pk: PathId, pk: PathId });
const ListQuery = Type.Object({
  is_reviewed: Type.Optional(Type.String()),
  has_reports: Type.Optional(Type.String()),
  ordering: Type.Optional(Type.String()),
  num_of_comments: Type.Optional(Type.String()),
  page: PageParam,
});
const PageSchema = Type.Object({
  count: Type.Integer(),
  next: Type.Union([Type.String(), Type.Null()]),
  previous: Type.Union([Type.String(), Type.Null()]),
  results: Type.Array(ModerationCommentSchema),
});
const UpdateBody = Type.Object({
  comment: CommentText,
  is_blocked: Type.Optional(Type.Boolean()),
  is_moderator_marked: Type.Optional(Type.Boolean()),
});
const ORDERINGS: readonly ModerationOrdering[] = ['created', '-created', 'num_reports', '-num_reports'];
const MAX_PAGE_SIZE = 1000;

/** "true" / "false" in any case; anything else (such as "all") means no filter. */
function tristate(value: string): Tristate {
  const v = value.toLowerCase();
  return v === 'true' ? true : v === 'false' ? false : null;
}

/** num_of_comments turns pagination on (DRF ignores an invalid size and answers unpaginated). */
function pageOf(query: { num_of_comments?: string; page?: string }): { size: number; number: number } | null {
  if (!query.num_of_comments || !/^\d+$/.test(query.num_of_comments) || Number(query.num_of_comments) < 1) return null;
  const size = Math.min(Number(query.num_of_comments), MAX_PAGE_SIZE);
  return { size, number: pageNumber(query.page) };
}

export async function moderationRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;
  const base = '/api/userdashboard/moderation/:project_pk/comments/';

  /** Superusers, the project's moderators and its organisation's initiators; with the version of the project's pages. */
  const moderator = async (request: FastifyRequest, projectPk: number) => {
    const user = await requireUser(request);
    const project = await loadVersionedProjectContext(db, projectPk, user);
    if (!project) throw notFound();
    if (!canModerateComments(project.context)) throw permissionDenied();
    return { ctx: renderContext(request, user, config), pageVersion: project.pageVersion, userId: user.id };
  };

  /**
   * The list is the same for every moderator of the project: it is kept per address and language
   * under the version of the project's pages (db/versions.ts: comments, reports, feedback and their
   * authors count there) and the whole second, and sent with its ETag (a 304 when it is unchanged).
   * A kept answer costs two statements: the token, and the project's context with its version.
   */
  const lists = app.ctx.memory.keep(new KeptAnswers());
  app.get(
    base,
    {
      config: { etag: true },
      schema: { tags: ['moderation'], params: ProjectParams, querystring: ListQuery, response: { 200: Type.Union([Type.Array(ModerationCommentSchema), PageSchema]), ...notModified, ...apiErrors } },
    },
    async (request, reply) => {
      const { ctx, pageVersion } = await moderator(request, request.params.project_pk);
      const kept = await lists.get(`${request.url}\u0001${ctx.lang}`, pageVersion, new Date(), async () => serialized(reply, await list(request.params.project_pk, request.query, request.url, ctx)));
      return sendTagged(reply, { ...kept, body: kept.body ?? '' });
    },
  );

  /** The list as the API answers it (a page with its links when `num_of_comments` asks for one). */
  async function list(projectPk: number, query: Static<typeof ListQuery>, url: string, ctx: RenderContext) {
    const filter = { isReviewed: tristate(query.is_reviewed ?? 'false'), hasReports: tristate(query.has_reports ?? 'all') };
    const ordering = ORDERINGS.find((o) => o === query.ordering) ?? '-num_reports';
    const page = pageOf(query);
    const { count, rows } = await loadModerationComments(db, projectPk, filter, ordering, page);
    const results = rows.map((row) => serializeModerationComment(row, ctx));
    if (!page) return results;
    checkPageInRange(page.number, page.size, count);
    return {
      count,
      ...pageLinks(new URL(url, ctx.origin).toString(), page.number, page.size, count),
      results,
    };
  }

  const show = async (projectPk: number, commentPk: number, ctx: Parameters<typeof serializeModerationComment>[1]) => {
    const row = await loadModerationComment(db, projectPk, commentPk);
    if (!row) throw notFound();
    return serializeModerationComment(row, ctx);
  };

  app.get(`${base}:pk/`, { schema: { tags: ['moderation'], params: CommentParams, response: { 200: ModerationCommentSchema, ...apiErrors } } }, async (request) => {
    const { ctx } = await moderator(request, request.params.project_pk);
    return show(request.params.project_pk, request.params.pk, ctx);
  });

  /** Applies moderation changes: never touches `modified`, records no action. */
  const change = async (request: FastifyRequest, params: { project_pk: number; pk: number }, changes: ModerationChanges) => {
    const { project_pk: projectPk, pk } = params;
    const { ctx } = await moderator(request, projectPk);
    if (!(await loadModerationComment(db, projectPk, pk))) throw notFound();
    if (changes.comment !== undefined) commentText(changes.comment);
    await db.transaction((tx) => moderateComment(tx, pk, changes, { origin: ctx.origin }));
    return show(projectPk, pk, ctx);
  };

  const fromBody = (body: { comment?: string; is_blocked?: boolean; is_moderator_marked?: boolean }): ModerationChanges => ({
    comment: body.comment,
    isBlocked: body.is_blocked,
    isModeratorMarked: body.is_moderator_marked,
  });
  app.put(
    `${base}:pk/`,
    { schema: { tags: ['moderation'], params: CommentParams, body: UpdateBody, response: { 200: ModerationCommentSchema, ...apiErrors } } },
    (request) => change(request, request.params, fromBody(request.body)),
  );
  app.patch(
    `${base}:pk/`,
    { schema: { tags: ['moderation'], params: CommentParams, body: Type.Partial(UpdateBody), response: { 200: ModerationCommentSchema, ...apiErrors } } },
    (request) => change(request, request.params, fromBody(request.body)),
  );
  app.post(`${base}:pk/mark_read/`, { schema: { tags: ['moderation'], params: CommentParams, response: { 200: ModerationCommentSchema, ...apiErrors } } }, (request) =>
    change(request, request.params, { isReviewed: true }),
  );
  app.post(`${base}:pk/mark_unread/`, { schema: { tags: ['moderation'], params: CommentParams, response: { 200: ModerationCommentSchema, ...apiErrors } } }, (request) =>
    change(request, request.params, { isReviewed: false }),
  );

  /** The queue's live stream (text/event-stream): `comment` {id}, `report` {type, id}, `moderation` {id} or {ids} (docs/api.md, "Live channel"). */
  app.get(
    '/api/userdashboard/moderation/:project_pk/live/',
    { schema: { tags: ['moderation'], params: ProjectParams, querystring: Type.Object({ lastEventId: Type.Optional(Type.String({ maxLength: 4200 })) }), produces: ['text/event-stream'], response: { 200: Type.String({ description: 'text/event-stream' }), ...apiErrors } } },
    async (request, reply) => {
      const projectId = request.params.project_pk;
      const { pageVersion, userId } = await moderator(request, projectId);
      return app.ctx.live.stream(request, reply, moderationTopic(projectId), showAll, {
        projectId,
        version: pageVersion,
        viewer: userId,
        key: moderationTopic(projectId),
        recheck: async (viewers) => {
          const contexts = await projectContextsOfViewers(db, projectId, viewers);
          return new Map(viewers.map((viewer) => { const context = contexts.get(viewer); return [viewer, context && canModerateComments(context) ? showAll : null]; }));
        },
      });
    },
  );
}
