import type { FastifyReply, FastifyRequest } from 'fastify';
import { notFound, permissionDenied } from '../../http/errors.js';
import { loadProjectContext } from '../../core/projects/queries.js';
import { managedOrganisation } from '../../web/guards.js';
import { doneMessage } from '../../web/paths.js';
import { moduleMissing, projectMissing, publishCheck } from './completeness.js';
import { unwrittenPlatformPages } from '../../core/legal/queries.js';
import { type DashboardProject, findModule, loadDashboardProject, loadModules } from './queries.js';
import { canEditProjectInDashboard } from '../../core/projects/rules.js';
import type { FrameData } from './views.js';
import { listDistricts } from '../../features/places/queries.js';

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
    districts: current === 'basic' ? await listDistricts(request.server.ctx.db) : [],
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
