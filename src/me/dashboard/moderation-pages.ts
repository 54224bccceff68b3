import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { eq } from 'drizzle-orm';
import { projects, organisations } from '../../db/schema/index.js';
import { moderationDetailPath } from '../../core/urls.js';
import { fieldErrors, notFound, permissionDenied } from '../../http/errors.js';
import { renderContext } from '../../http/render.js';
import { PathId, Slug } from '../../http/responses.js';
import { userPageContext } from '../../web/context.js';
import { checkCsrf, field, fieldList, FormBody, pageRoute, RepeatedFormBody } from '../../web/forms.js';
import { livePosition } from '../../http/live.js';
import { checkPageInRange, pageLinks, PageParam, pageNumber } from '../../http/pagination.js';
import { loadProjectRemarks } from '../../features/moderatorremarks/queries.js';
import { canSeeRemarks } from '../../features/moderatorremarks/rules.js';
import { sendPage } from '../../web/render.js';
import { loadThreadObjectNames } from '../../features/comments/queries.js';
import { MODERATION_ACTIONS, type ModerationState, moderateComment, moderationStates, restoreModeration } from '../../features/comments/services.js';
import { countModerationComments, loadModerationComment, loadModerationComments, type ModerationFilter } from '../../features/moderation/queries.js';
import { queueCommentOf } from '../../features/moderation/view-model.js';
import { canModerateComments, canViewModerationDashboard } from '../../features/moderation/rules.js';
import { loadProjectContext, loadProjectContexts } from '../../core/projects/context.js';
import { loadReportedObjects, loadReportsOf } from '../../features/reports/queries.js';
import { reportableContentTypes } from '../../core/modules/registry.js';
import { markReportsHandled } from '../../features/reports/services.js';
import { redirectWithMessage } from '../../web/flash.js';
import { loadProjectExportModules } from '../../features/exports/queries.js';
import { mayExportModule } from '../../features/exports/rules.js';
import { MODERATION_FILTERS, type ModerationFilterName, ModerationDetailPage, ModerationPage, queuePath, type QueuePlace, type ReportedGroup } from './moderation-views.js';
import { moderatedProjects } from './queries.js';
import { followedProjects } from '../../core/projects/tiles.js';
import { sidebarOf } from './sidebar.js';

const DetailParams = Type.Object({ slug: Slug });
const DetailQuery = Type.Object({
  page: PageParam,
  filter: Type.Optional(Type.Union([Type.Literal('all'), Type.Literal('unread'), Type.Literal('reported'), Type.Literal('blocked')])),
});
const MODERATION_PAGE_SIZE = 50;
const ActionParams = Type.Object({ slug: Slug, id: PathId });

/** The actions the selection form offers. */
const BULK_ACTIONS = ['read', 'unread', 'block', 'unblock'];
const BULK_MAX = 100;
/** The last action's undo: the comments' states before it, in a signed cookie of the queue's path. */
const UNDO_COOKIE = 'moderation_undo';

function rememberUndo(request: FastifyRequest, reply: FastifyReply, slug: string, projectId: number, states: ModerationState[]): void {
  const value = JSON.stringify({ p: projectId, s: states.map((x) => [x.id, +x.isReviewed, +x.isBlocked, +x.isModeratorMarked]) });
  reply.setCookie(UNDO_COOKIE, value, { path: moderationDetailPath(slug), httpOnly: true, sameSite: 'lax', secure: request.protocol === 'https', signed: true, maxAge: 3600 });
}

/** The undo kept for this project, or null (none, another project's, or tampered with). */
function keptUndo(request: FastifyRequest, projectId: number): ModerationState[] | null {
  const raw = request.cookies[UNDO_COOKIE];
  if (!raw) return null;
  const unsigned = request.unsignCookie(raw);
  if (!unsigned.valid || unsigned.value === null) return null;
  try {
    const parsed = JSON.parse(unsigned.value) as { p: number; s: [number, number, number, number][] };
    if (parsed.p !== projectId || !Array.isArray(parsed.s)) return null;
    return parsed.s.map(([id, reviewed, blocked, marked]) => ({ id: Number(id), isReviewed: reviewed === 1, isBlocked: blocked === 1, isModeratorMarked: marked === 1 }));
  } catch {
    return null;
  }
}

/** The filter and page an action form came from (issue 22.5: the queue keeps its place); anything else is the first page of "all". */
function placeOf(body: FormBody): QueuePlace {
  const filter = MODERATION_FILTERS.map(([name]) => name).find((name) => name === field(body, 'filter')) ?? 'all';
  const page = Number(field(body, 'page'));
  return { filter, page: Number.isSafeInteger(page) && page > 1 && page < 1e6 ? page : 1 };
}

/** The queue's filters: unread, reported, blocked (the moderation API's filters). */
const FILTERS: Record<ModerationFilterName, ModerationFilter> = {
  all: { isReviewed: null, hasReports: null },
  unread: { isReviewed: false, hasReports: null },
  reported: { isReviewed: null, hasReports: true },
  blocked: { isReviewed: null, hasReports: null, isBlocked: true },
};

/**
 * The moderation pages: the projects the user may moderate (moderators, initiators of the
 * organisation, superusers: `canModerate`), and one project's comments with filters, reports and
 * read/unread and block/unblock forms.
 */
export async function moderationPageRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  /** A project by slug that the user may moderate (change_moderation_comment): 404 when missing, 403 otherwise. */
  async function moderatedProject(user: { id: number; isSuperuser: boolean }, slug: string) {
    const [project] = await db
      .select({ id: projects.id, name: projects.name, slug: projects.slug, organisationSlug: organisations.slug })
      .from(projects)
      .innerJoin(organisations, eq(organisations.id, projects.organisationId))
      .where(eq(projects.slug, slug));
    const context = project && (await loadProjectContext(db, project.id, user));
    if (!project || !context) throw notFound();
    if (!canModerateComments(context)) throw permissionDenied();
    return { project, context };
  }

  /** The place to come back to after an action; when the action emptied the last page (the item left the filter), the page now last. */
  async function keptPlace(projectId: number, place: QueuePlace): Promise<QueuePlace> {
    if (place.page === 1) return place;
    const last = Math.max(1, Math.ceil((await countModerationComments(db, projectId, FILTERS[place.filter])) / MODERATION_PAGE_SIZE));
    return { ...place, page: Math.min(place.page, last) };
  }

  const sidebarFor = async (user: { id: number; isSuperuser: boolean }) => sidebarOf(db, user, await followedProjects(db, user.id));

  app.get('/userdashboard/moderation/', pageRoute(), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const candidates = await moderatedProjects(db, page.user);
    const contexts = await loadProjectContexts(db, candidates.map((p) => p.id), page.user);
    const list = candidates.filter((p) => {
      const context = contexts.get(p.id);
      return context !== undefined && canModerateComments(context);
    });
    if (!canViewModerationDashboard(page.user, list.length > 0)) throw permissionDenied();
    return sendPage(reply, ModerationPage({ page, sidebar: await sidebarFor(page.user), projects: list }));
  });

  app.get('/userdashboard/moderation/detail/:slug/', pageRoute({ params: DetailParams, querystring: DetailQuery }), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const { project, context } = await moderatedProject(page.user, request.params.slug);
    const exports = (await loadProjectExportModules(db, project.id)).filter((m) => mayExportModule(context, m)).map((m) => ({ name: m.name || m.slug, slug: m.slug }));
    const number = pageNumber(request.query.page);
    const filter = request.query.filter ?? 'all';
    const { count, rows } = await loadModerationComments(db, project.id, FILTERS[filter], '-num_reports', { size: MODERATION_PAGE_SIZE, number });
    checkPageInRange(number, MODERATION_PAGE_SIZE, count);
    const pager = pageLinks(request.url, number, MODERATION_PAGE_SIZE, count);
    const ctx = renderContext(request, page.user, config);
    const reports = await loadReportsOf(db, 'comment', rows.map((r) => r.id));
    const objects = await loadThreadObjectNames(db, rows);
    const comments = rows.map((row) => queueCommentOf(row, { reports, objects }, ctx));
    const reportedObjects = filter === 'all' || filter === 'reported' ? await loadReportedObjects(db, project.id) : [];
    const reported: ReportedGroup[] = reportableContentTypes().flatMap((kind) => {
      const items = reportedObjects.filter((o) => o.kind === kind.kind);
      return items.length && kind.reportedNames ? [{ kind: kind.kind, names: kind.reportedNames, items }] : [];
    });
    const place = { filter, page: number };
    const live = { stream: `/api/userdashboard/moderation/${project.id}/live/`, last: await livePosition(db) };
    const undo = keptUndo(request, project.id) !== null;
    const remarks = canSeeRemarks(context) ? await loadProjectRemarks(db, project.id) : [];
    return sendPage(reply, ModerationDetailPage({ page, sidebar: await sidebarFor(page.user), data: { project, exports, comments, pager, filter, filters: MODERATION_FILTERS, reported, place, live, undo, remarks } }));
  });

  app.post('/userdashboard/moderation/detail/:slug/comments/:id/', pageRoute({ params: ActionParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const { slug, id } = request.params;
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const changes = MODERATION_ACTIONS[field(request.body, 'action')];
    if (!changes) throw fieldErrors({ action: ['This is not one of the allowed values.'] });
    const { project } = await moderatedProject(page.user, slug);
    if (!(await loadModerationComment(db, project.id, id))) throw notFound();
    const origin = renderContext(request, page.user, config).origin;
    const before = await moderationStates(db, project.id, [id]);
    await db.transaction((tx) => moderateComment(tx, id, changes, { origin }));
    rememberUndo(request, reply, project.slug, project.id, before);
    return reply.redirect(`${queuePath(project.slug, await keptPlace(project.id, placeOf(request.body)))}#comment-${id}`, 302);
  });

  // Issue 26: one action on the selected comments of the page (mark read or unread, block, unblock); undone as one.
  app.post('/userdashboard/moderation/detail/:slug/bulk/', pageRoute({ params: DetailParams, body: RepeatedFormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const action = field(request.body, 'action');
    const changes = BULK_ACTIONS.includes(action) ? MODERATION_ACTIONS[action] : undefined;
    if (!changes) throw fieldErrors({ action: ['This is not one of the allowed values.'] });
    const { project } = await moderatedProject(page.user, request.params.slug);
    const ids = [...new Set(fieldList(request.body, 'ids').map(Number))].filter((n) => Number.isSafeInteger(n) && n > 0).slice(0, BULK_MAX);
    const place = await keptPlace(project.id, placeOf(request.body as FormBody));
    if (!ids.length) return redirectWithMessage(request, reply, queuePath(project.slug, place), 'Select at least one comment.');
    const before = await moderationStates(db, project.id, ids);
    const origin = renderContext(request, page.user, config).origin;
    await db.transaction(async (tx) => {
      for (const state of before) await moderateComment(tx, state.id, changes, { origin });
    });
    rememberUndo(request, reply, project.slug, project.id, before);
    return redirectWithMessage(request, reply, queuePath(project.slug, place), 'The selected comments were changed.');
  });

  // Issue 26: the last action in this queue, undone (the comments' earlier states come back, without mails).
  app.post('/userdashboard/moderation/detail/:slug/undo/', pageRoute({ params: DetailParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const { project } = await moderatedProject(page.user, request.params.slug);
    const states = keptUndo(request, project.id);
    const place = await keptPlace(project.id, placeOf(request.body));
    if (!states) return redirectWithMessage(request, reply, queuePath(project.slug, place), 'There is nothing to undo.');
    await db.transaction((tx) => restoreModeration(tx, project.id, states));
    reply.clearCookie(UNDO_COOKIE, { path: moderationDetailPath(project.slug) });
    return redirectWithMessage(request, reply, queuePath(project.slug, place), 'The last action was undone.');
  });

  // Issue 22.4: a moderator marks the open reports of a comment or of a reported object of any kind of the project as handled.
  app.post('/userdashboard/moderation/detail/:slug/reports/', pageRoute({ params: DetailParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const kind = field(request.body, 'kind');
    const id = Number(field(request.body, 'id'));
    const reportedKind = reportableContentTypes().find((c) => c.kind === kind)?.kind;
    if ((kind !== 'comment' && !reportedKind) || !Number.isSafeInteger(id) || id < 1) throw fieldErrors({ kind: ['This is not one of the allowed values.'] });
    const { project } = await moderatedProject(page.user, request.params.slug);
    const inProject = reportedKind ? (await loadReportedObjects(db, project.id)).some((o) => o.kind === reportedKind && o.id === id) : Boolean(await loadModerationComment(db, project.id, id));
    if (!inProject) throw notFound();
    await db.transaction((tx) => markReportsHandled(tx, { type: reportedKind ?? 'comment', id }, page.user.id));
    return redirectWithMessage(request, reply, `${queuePath(project.slug, await keptPlace(project.id, placeOf(request.body)))}#${kind}-${id}`, 'The reports were marked as handled.');
  });
}
