import type { FastifyInstance } from 'fastify';
import { ideaPagesOf } from '../idealike/pages.js';
import { placeHooks } from './place.js';
import { MAPIDEA_KIND } from './queries.js';
import { mapRoutes } from './routes.js';

/** The map ideas' pages (`/<org>/mapideas/…`, the idea pages with a place) and the maps' configuration. */
export async function mapIdeaPages(app: FastifyInstance): Promise<void> {
  await app.register(ideaPagesOf(MAPIDEA_KIND, placeHooks(MAPIDEA_KIND, app.ctx.config.maps)));
  await app.register(mapRoutes);
}
