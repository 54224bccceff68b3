import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { apiErrors } from '../../http/responses.js';
import { projects } from '../../db/schema/index.js';
import { requireUser } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { loadProjectContext, loadProjectContexts } from '../../core/projects/context.js';
import { canFollowProject } from '../../core/follows/rules.js';
import { type FollowRow, loadFollow, loadFollows } from '../../core/follows/queries.js';
import { setFollow } from '../../core/follows/services.js';

const FollowSchema = Type.Object({
  project: Type.String(),
  follows: Type.Integer(),
  enabled: Type.Boolean(),
  created: Type.String(),
  modified: Type.Union([Type.String(), Type.Null()]),
});
const SlugParams = Type.Object({ project_slug: Type.String({ minLength: 1, maxLength: 512 }) });
const FollowBody = Type.Object({ enabled: Type.Boolean() });

/** FollowSerializer: the project's slug, its number of enabled follows, and this follow's state. */
const serializeFollow = (row: FollowRow) => ({
  project: row.projectSlug,
  follows: row.followers,
  enabled: row.enabled,
  created: row.created.toISOString(),
  modified: row.modified ? row.modified.toISOString() : null,
});

export async function followRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get(
    '/api/follows/',
    { schema: { tags: ['follows'], querystring: Type.Object({ enabled: Type.Optional(Type.Boolean()) }), response: { 200: Type.Array(FollowSchema), ...apiErrors } } },
    async (request) => {
      const user = await requireUser(request);
      const rows = await loadFollows(db, user.id, request.query.enabled);
      // Only projects the user may still see (and so follow): a project made private or draft, or a
      // participation that ended, must not show through the follow list.
      const contexts = await loadProjectContexts(db, rows.map((row) => row.projectId), user);
      return rows.filter((row) => {
        const context = contexts.get(row.projectId);
        return context !== undefined && canFollowProject(context);
      }).map(serializeFollow);
    },
  );

  /** The project behind a slug, if the user may see it. */
  const projectFor = async (request: FastifyRequest, slug: string) => {
    const user = await requireUser(request);
    const [project] = await db.select({ id: projects.id }).from(projects).where(eq(projects.slug, slug));
    const context = project ? await loadProjectContext(db, project.id, user) : null;
    if (!project || !context || !canFollowProject(context)) throw notFound();
    return { user, projectId: project.id };
  };

  app.get('/api/follows/:project_slug/', { schema: { tags: ['follows'], params: SlugParams, response: { 200: FollowSchema, ...apiErrors } } }, async (request) => {
    const { user, projectId } = await projectFor(request, request.params.project_slug);
    const row = await loadFollow(db, user.id, projectId);
    if (!row) throw notFound();
    return serializeFollow(row);
  });

  /** PUT creates the follow when missing; PATCH changes an existing one. */
  const save = (createMissing: boolean) => async (request: FastifyRequest<{ Params: { project_slug: string }; Body: { enabled?: boolean } }>) => {
    const { user, projectId } = await projectFor(request, request.params.project_slug);
    const existing = await loadFollow(db, user.id, projectId);
    if (!existing && !createMissing) throw notFound();
    const enabled = request.body.enabled ?? existing?.enabled ?? true;
    await db.transaction((tx) => setFollow(tx, user.id, projectId, enabled));
    const row = await loadFollow(db, user.id, projectId);
    if (!row) throw notFound();
    return serializeFollow(row);
  };
  app.put('/api/follows/:project_slug/', { schema: { tags: ['follows'], params: SlugParams, body: FollowBody, response: { 200: FollowSchema, ...apiErrors } } }, save(true));
  app.patch(
    '/api/follows/:project_slug/',
    { schema: { tags: ['follows'], params: SlugParams, body: Type.Partial(FollowBody), response: { 200: FollowSchema, ...apiErrors } } },
    save(false),
  );
}
