import type { FastifyInstance } from 'fastify';
import { createReadStream } from 'node:fs';
import { Type } from 'typebox';
import { ensureVariant, isImagePath, VARIANT_WIDTHS, type VariantWidth } from '../media/variants.js';

/** A year: stored images never change under their name (each upload gets a new random one). */
export const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', gif: 'image/gif' };
const isVariantWidth = (width: number): width is VariantWidth => (VARIANT_WIDTHS as readonly number[]).includes(width);

/** The smaller copies of stored images for `srcset`, made on the first request when missing (media/variants.ts). */
export async function mediaVariantRoutes(app: FastifyInstance, options: { mediaDir: string }): Promise<void> {
  app.get('/media/variants/:width/*', { schema: { hide: true, params: Type.Object({ width: Type.String({ maxLength: 6 }), '*': Type.String({ maxLength: 500 }) }) } }, async (request, reply) => {
    const params = request.params as { width: string; '*': string };
    const width = Number(/^w(\d+)$/.exec(params.width)?.[1]);
    const relative = params['*'];
    const notFound = () => reply.code(404).type('text/plain').send('Not found');
    if (!isVariantWidth(width) || !isImagePath(relative)) return notFound();
    const file = await ensureVariant(options.mediaDir, relative, width);
    if (!file) return notFound();
    return reply.type(TYPES[relative.split('.').pop() ?? ''] ?? 'application/octet-stream').header('cache-control', MEDIA_CACHE_CONTROL).send(createReadStream(file));
  });
}
