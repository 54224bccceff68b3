import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { currentUser, denied } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { errorResponses, optionalAuth, PathId, rejectOtherMethods } from '../../http/responses.js';
import { contentTypeId } from '../../core/contenttypes/registry.js';
import { loadProjectContext } from '../../core/projects/queries.js';
import { type ExportRow, loadResultsForExport } from './queries.js';
import { canViewResults } from './rules.js';
import type { ContentKind } from '../../db/schema/index.js';

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

const ResultSchema = Type.Object(
  {
    id: Type.Integer(),
    parent: Nullable(Type.Integer()),
    title: Type.String(),
    description: Type.String({ description: 'Rich text (HTML)' }),
    category: Type.String(),
    district: Type.String(),
    point: Nullable(Type.Object({ lat: Type.Number(), lng: Type.Number() })),
    start_date: Nullable(Type.String({ format: 'date' })),
    end_date: Nullable(Type.String({ format: 'date' })),
    budget_planned: Nullable(Type.Integer({ description: 'Whole euros' })),
    budget_spent: Nullable(Type.Integer({ description: 'Whole euros' })),
    status: Nullable(Type.Object({ id: Type.Integer(), name: Type.String(), progress: Type.Integer({ description: 'The status’s default progress' }) })),
    progress: Type.Integer({ minimum: 0, maximum: 100, description: 'As the pages show it: its own, else the mean of its sub-results’, else its status’s' }),
    contributions: Type.Array(Type.Object({ content_type: Type.Integer(), object_pk: Type.Integer() }), { description: 'The contributions it answers (ideas, map ideas, proposals, topics, polls)' }),
  },
  { description: 'A result of a project (issue 39): what became of its contributions' },
);

const serializeResult = (row: ExportRow) => ({
  id: row.id,
  parent: row.parentId,
  title: row.title,
  description: row.description,
  category: row.category,
  district: row.district,
  point: row.lat !== null && row.lng !== null ? { lat: row.lat, lng: row.lng } : null,
  start_date: row.startDate,
  end_date: row.endDate,
  budget_planned: row.budgetPlanned,
  budget_spent: row.budgetSpent,
  status: row.statusId !== null && row.statusName !== null ? { id: row.statusId, name: row.statusName, progress: row.statusProgress ?? 0 } : null,
  progress: row.effective,
  contributions: row.linked.map((link) => {
    const [kind, pk] = link.split(':');
    return { content_type: contentTypeId(kind as ContentKind), object_pk: Number(pk) };
  }),
});

/** The app API's read of a project's results: whoever sees the project (401/403 otherwise, 404 for none). */
export async function resultRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  app.get(
    '/api/projects/:id/results/',
    {
      schema: {
        tags: ['Results'],
        summary: 'The results of a project, with their status, progress, budgets and linked contributions',
        security: optionalAuth,
        params: Type.Object({ id: PathId }),
        response: { 200: Type.Array(ResultSchema), ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const user = await currentUser(request);
      const context = await loadProjectContext(db, request.params.id, user ? { id: user.id, isSuperuser: user.isSuperuser } : null);
      if (!context) throw notFound();
      if (!canViewResults(context)) throw denied(user);
      return (await loadResultsForExport(db, request.params.id)).map(serializeResult);
    },
  );
  rejectOtherMethods(app, '/api/projects/:id/results/', ['GET']);
}
