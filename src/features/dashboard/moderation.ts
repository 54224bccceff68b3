import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { eq } from 'drizzle-orm';
import { projects, organisations } from '../../db/schema/index.js';
import { fieldErrors, notFound, permissionDenied } from '../../http/errors.js';
import { renderContext } from '../../http/render.js';
import { PathId } from '../../http/responses.js';
import { userPageContext } from '../../web/context.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { pagerLinks, pastTheEnd } from '../../web/pager.js';
import { sendPage } from '../../web/render.js';
import { type ModerationChanges, moderateComment } from '../comments/services.js';
import { isGone } from '../comments/serialize.js';
import { loadModerationComment, loadModerationComments } from '../moderation/queries.js';
import { serializeModerationComment } from '../moderation/serialize.js';
import { loadProjectContext } from '../projects/queries.js';
import { canModerate } from '../projects/rules.js';
import { ModerationDetailPage, moderationDetailPath, ModerationPage } from './moderation-pages.js';
import { followedProjects, isProjectModerator, moderatedProjects } from './queries.js';
import { sidebarOf } from './sidebar.js';

const Slug = Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' });
const DetailParams = Type.Object({ slug: Slug });
const DetailQuery = Type.Object({ page: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000000 })) });
export const MODERATION_PAGE_SIZE = 50;
const ActionParams = Type.Object({ slug: Slug, id: PathId });

/** The moderation form actions and what each changes (the moderation API's services). */
const ACTIONS: Record<string, ModerationChanges> = {
  read: { isReviewed: true },
  unread: { isReviewed: false },
  block: { isBlocked: true },
  unblock: { isBlocked: false },
};

/** The moderation dashboard pages: the moderated projects, and one project's comments with read/unread and block/unblock forms. */
export async function moderationPageRoutes(app: FastifyInstance): Promise<void> {
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
    if (!canModerate(context)) throw permissionDenied();
    return project;
  }

  const sidebarFor = async (userId: number) => sidebarOf(db, userId, await followedProjects(db, userId));

  app.get('/userdashboard/moderation/', pageRoute(), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    if (!(await isProjectModerator(db, page.user.id))) throw permissionDenied();
    const list = await moderatedProjects(db, page.user.id);
    return sendPage(reply, ModerationPage({ page, sidebar: await sidebarFor(page.user.id), projects: list }));
  });

  app.get('/userdashboard/moderation/detail/:slug/', pageRoute({ params: DetailParams, querystring: DetailQuery }), async (request, reply) => {
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const project = await moderatedProject(page.user, (request.params as { slug: string }).slug);
    const number = (request.query as { page?: number }).page ?? 1;
    const { count, rows } = await loadModerationComments(db, project.id, { isReviewed: null, hasReports: null }, '-num_reports', { size: MODERATION_PAGE_SIZE, number });
    if (pastTheEnd(number, MODERATION_PAGE_SIZE, count)) throw notFound();
    const pager = pagerLinks(moderationDetailPath(project.slug), number, MODERATION_PAGE_SIZE, count);
    const ctx = renderContext(request, page.user, config);
    const comments = rows.map((row) => ({ ...serializeModerationComment(row, ctx), path: row.path, isGone: isGone(row) }));
    return sendPage(reply, ModerationDetailPage({ page, sidebar: await sidebarFor(page.user.id), data: { project, comments, pager } }));
  });

  app.post('/userdashboard/moderation/detail/:slug/comments/:id/', pageRoute({ params: ActionParams, body: FormBody }), async (request: FastifyRequest, reply) => {
    checkCsrf(request);
    const { slug, id } = request.params as { slug: string; id: number };
    const page = await userPageContext(request, reply);
    if (!page) return reply;
    const changes = ACTIONS[field(request.body as FormBody, 'action')];
    if (!changes) throw fieldErrors({ action: ['This is not one of the allowed values.'] });
    const project = await moderatedProject(page.user, slug);
    if (!(await loadModerationComment(db, project.id, id))) throw notFound();
    const origin = renderContext(request, page.user, config).origin;
    await db.transaction((tx) => moderateComment(tx, id, changes, { origin }));
    return reply.redirect(`${moderationDetailPath(project.slug)}#comment-${id}`, 302);
  });
}
