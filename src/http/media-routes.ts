import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { isMediaPath, type Media, mediaType, pathHash, sha256 } from '../media/store.js';
import { isImagePath, VARIANT_WIDTHS, type VariantWidth } from '../media/variants.js';

/** A year: stored media never change under their path (new content gets a new path). */
const MEDIA_CACHE_CONTROL = 'public, max-age=31536000, immutable';

const isVariantWidth = (width: number): width is VariantWidth => (VARIANT_WIDTHS as readonly number[]).includes(width);

/** Whether If-None-Match names the tag (weakly, as RFC 9110 13.1.2 compares). */
const matches = (header: string | undefined, tag: string) => Boolean(header?.split(',').some((raw) => raw.trim() === '*' || raw.trim().replace(/^W\//, '') === tag));

/**
 * /media/<path> from the media store (directory or database, src/media/store.ts), with the smaller
 * copies for `srcset` (variants/w<width>/<path>) made on the first request when missing. Every
 * answer is cached for a year; its ETag is the content's SHA-256 (read from a content-addressed
 * path, computed for older names), and If-None-Match gets a 304.
 */
export async function mediaRoutes(app: FastifyInstance, options: { media: Media }): Promise<void> {
  const { media } = options;
  app.get('/media/*', { schema: { hide: true, params: Type.Object({ '*': Type.String({ maxLength: 600 }) }) } }, async (request, reply) => {
    const path = (request.params as { '*': string })['*'];
    const variant = /^variants\/w(\d+)\/(.+)$/.exec(path);
    let data: Buffer | null = null;
    if (variant) {
      const width = Number(variant[1]);
      if (isVariantWidth(width) && isImagePath(variant[2])) data = await media.variant(variant[2], width);
    } else if (isMediaPath(path)) {
      data = await media.read(path);
    }
    if (!data) return reply.code(404).type('text/plain').send('Not found');
    const tag = `"${pathHash(path) ?? sha256(data)}"`;
    reply.header('cache-control', MEDIA_CACHE_CONTROL).header('etag', tag);
    if (matches(request.headers['if-none-match'], tag)) return reply.code(304).send();
    return reply.type(mediaType(path)).send(data);
  });
}
