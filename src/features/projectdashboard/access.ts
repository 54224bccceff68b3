import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, permissionDenied } from '../../http/errors.js';
import { renderContext } from '../../http/render.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { loginRedirectUrl } from '../../web/render.js';
import { loadOrganisationContext } from '../organisations/queries.js';
import { canManageOrganisation } from '../organisations/rules.js';
import { loadProjectContext } from '../projects/queries.js';
import { canEditProjectInDashboard } from './rules.js';
import { moduleMissing, projectMissing, publishCheck } from './completeness.js';
import { unwrittenPlatformPages } from '../legal/queries.js';
import type { FrameData } from './pages.js';
import { doneMessage } from './paths.js';
import { type DashboardProject, findModule, loadDashboardProject, loadModules } from './queries.js';
import type { Actor } from './services.js';

/** Who may open which dashboard page: every dashboard route starts here, and asks the rules. */
export const contextUser = (page: PageContext) => (page.user ? { id: page.user.id, isSuperuser: page.user.isSuperuser } : null);

/** The signed-in initiator's (or superuser's) view of an organisation; anonymous visitors go to the login page (null), others get 403, unknown slugs 404. */
export async function managedOrganisation(request: FastifyRequest, reply: FastifyReply, orgSlug: string) {
  const page = await pageContext(request, reply);
  if (!page.user) {
    await reply.redirect(loginRedirectUrl(request.url), 302);
    return null;
  }
  const loaded = await loadOrganisationContext(request.server.ctx.db, orgSlug, contextUser(page));
  if (!loaded) throw notFound();
  if (!canManageOrganisation(loaded.context)) throw permissionDenied();
  const actor: Actor = { id: page.user.id, username: page.user.username, origin: renderContext(request, page.user, request.server.ctx.config).origin };
  return { page, organisation: loaded.organisation, actor, user: { id: page.user.id, isSuperuser: page.user.isSuperuser } };
}

/** The same for a project of that organisation (a project of another organisation is not found). */
export async function managedProject(request: FastifyRequest, reply: FastifyReply, params: { org: string; slug: string }) {
  const managed = await managedOrganisation(request, reply, params.org);
  if (!managed) return null;
  const { db } = request.server.ctx;
  const project = await loadDashboardProject(db, { orgSlug: params.org, slug: params.slug });
  if (!project) throw notFound();
  const context = await loadProjectContext(db, project.id, managed.user);
  if (!context || !canEditProjectInDashboard(context)) throw permissionDenied();
  return { ...managed, project };
}

/** What the project dashboard's frame shows: the menu with missing marks and the publication state. */
export async function frameData(request: FastifyRequest, project: DashboardProject, current: string, extra: Partial<FrameData> = {}): Promise<FrameData> {
  const modules = await loadModules(request.server.ctx.db, { projectId: project.id });
  return {
    organisation: { slug: project.organisationSlug, name: project.organisationName },
    project,
    modules,
    missing: [...projectMissing(project), ...modules.flatMap(moduleMissing)],
    check: publishCheck(project, modules, await unwrittenPlatformPages(request.server.ctx.db)),
    current,
    done: doneMessage((request.query as { done?: string } | undefined)?.done),
    ...extra,
  };
}


/** A module of the organisation that the user may manage, with its project; null after a login redirect. */
export async function managedModule(request: FastifyRequest, reply: FastifyReply, orgSlug: string, moduleSlug: string) {
  const managed = await managedOrganisation(request, reply, orgSlug);
  if (!managed) return null;
  const { db } = request.server.ctx;
  const found = await findModule(db, orgSlug, moduleSlug);
  const project = found && (await loadDashboardProject(db, { id: found.projectId }));
  if (!found || !project) throw notFound();
  const context = await loadProjectContext(db, project.id, managed.user);
  if (!context || !canEditProjectInDashboard(context)) throw permissionDenied();
  const [module] = await loadModules(db, { moduleIds: [found.id] });
  return { ...managed, project, module };
}
