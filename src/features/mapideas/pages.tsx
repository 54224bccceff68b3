import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { ideaPagesOf } from '../ideas/pages.js';
import { placeHooks } from './place.js';
import { MAPIDEA_KIND } from './queries.js';

const MapConfigAnswer = Type.Object({ tiles: Type.String(), attribution: Type.String(), geocoder: Type.Union([Type.String(), Type.Null()]) });

/** The map ideas' pages (`/<org>/mapideas/…`, the idea pages with a place) and the maps' configuration for the map script. */
export async function mapIdeaPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { maps } = app.ctx.config;
  await app.register(ideaPagesOf(MAPIDEA_KIND, placeHooks(MAPIDEA_KIND, maps)));
  // The tiles, their attribution and the geocoder, for maps on pages that do not carry them (the dashboard's area).
  app.get('/maps/config/', { schema: { hide: true, response: { 200: MapConfigAnswer } } }, async () => ({ tiles: maps.tilesUrl, attribution: maps.attribution, geocoder: maps.geocoderUrl }));
}
