import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { allContentTypes } from '../../core/contenttypes/registry.js';

const ContentTypeSchema = Type.Object({ id: Type.Integer(), app_label: Type.String(), model: Type.String() });

/** GET /api/contenttypes/: the stable content type ids the comments and ratings routes take. */
export async function contentTypeRoutes(app: FastifyInstance): Promise<void> {
  app.get('/api/contenttypes/', { schema: { tags: ['contenttypes'], response: { 200: Type.Array(ContentTypeSchema) } } }, async () =>
    [...allContentTypes().values()].map((ct) => ({ id: ct.id, app_label: ct.appLabel, model: ct.model })).sort((a, b) => a.id - b.id),
  );
}
