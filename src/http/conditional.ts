import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { createHash } from 'node:crypto';
import { constants } from 'node:zlib';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Answer GET with a strong ETag of the body, and If-None-Match with 304 (see registerConditionalRequests).
     * A handler that knows its body's tag sends it with `sendTagged`, and the body is not hashed again.
     */
    etag?: boolean;
  }
}

/** A strong validator of a JSON body: its SHA-1, base64url. */
export const tagOf = (body: string | Buffer) => `"${createHash('sha1').update(body).digest('base64url')}"`;

/** The content-coding suffix this module adds to the tag of a compressed representation. */
const CODING_SUFFIX = /-(br|gzip|deflate|zstd)"$/;

/** The tag of If-None-Match that names this body (in any content-coding), or null. */
function matchingTag(header: string | undefined, tag: string): string | null {
  if (!header) return null;
  for (const raw of header.split(',')) {
    const candidate = raw.trim();
    if (candidate === '*') return tag;
    // If-None-Match compares weakly (RFC 9110 13.1.2).
    if (candidate.replace(/^W\//, '').replace(CODING_SUFFIX, '"') === tag) return candidate;
  }
  return null;
}

/**
 * ETag and If-None-Match for the routes with `config: { etag: true }`: a 200 to GET gets a strong
 * ETag of its body; when If-None-Match names it, the answer is 304 without a body. The answer
 * depends on who asks (language, the caller's own ratings), so it is private and is revalidated.
 */
async function conditional(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (!reply.routeOptions.config.etag || reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
  const known = reply.getHeader('etag');
  const tag = typeof known === 'string' ? known : tagOf(payload);
  reply.header('etag', tag).header('cache-control', 'private, no-cache').header('vary', 'Accept-Language, Authorization, Cookie');
  const matched = matchingTag(request.headers['if-none-match'], tag);
  if (!matched) return payload;
  reply.code(304).header('etag', matched).removeHeader('content-type').removeHeader('content-length');
  return null;
}

/** A body as the route's response schema serialises it (for a 200), as text to keep. */
export function serialized(reply: FastifyReply, value: unknown): string {
  const body = reply.serialize(value);
  return typeof body === 'string' ? body : Buffer.from(body as Buffer).toString();
}

/** Sends a JSON body serialised before (`serialized`) and its tag (`tagOf` of that body). */
export function sendTagged(reply: FastifyReply, answer: { body: string; tag: string }): FastifyReply {
  return reply.header('etag', answer.tag).type('application/json; charset=utf-8').send(answer.body);
}

/** After compression: a compressed body is another representation, so its strong tag differs ("…-br"). */
function tagCompressed(route: RouteOptions) {
  const onSend = async (_request: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const coding = reply.getHeader('content-encoding');
    const tag = reply.getHeader('etag');
    if (typeof coding === 'string' && typeof tag === 'string' && !CODING_SUFFIX.test(tag)) reply.header('etag', tag.replace(/"$/, `-${coding}"`));
    return payload;
  };
  route.onSend = [...(Array.isArray(route.onSend) ? route.onSend : route.onSend ? [route.onSend] : []), onSend];
}

/**
 * Conditional requests and compression (gzip or brotli, when the client asks) for every answer of
 * 1 KB and more. Register before any route.
 */
export async function registerConditionalRequests(app: FastifyInstance): Promise<void> {
  app.addHook('onSend', conditional);
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    // Brotli's default (quality 11) is for files compressed once; answers are compressed per request.
    brotliOptions: { params: { [constants.BROTLI_PARAM_QUALITY]: 4 } },
    zlibOptions: { level: 6 },
  });
  app.addHook('onRoute', (route) => {
    if (route.config?.etag) tagCompressed(route);
  });
}
