import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

const MapConfigAnswer = Type.Object({
  tiles: Type.String({ description: 'Leaflet URL template of the tiles (MAP_TILES_URL)' }),
  attribution: Type.String({ description: 'HTML attribution of the tiles (MAP_ATTRIBUTION)' }),
  geocoder: Type.Union([Type.String(), Type.Null()], { description: 'Nominatim-compatible address search (GEOCODER_URL), null when off' }),
});

/** The maps' configuration for the map script, on pages that do not carry it (the dashboard's area). */
export async function mapRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { maps } = app.ctx.config;
  app.get('/maps/config/', { schema: { tags: ['maps'], summary: 'The tiles, their attribution and the geocoder of the maps', response: { 200: MapConfigAnswer } } }, async () => ({
    tiles: maps.tilesUrl,
    attribution: maps.attribution,
    geocoder: maps.geocoderUrl,
  }));
}
