import { negotiate } from '@fastify/accept-negotiator';
import compress from '@fastify/compress';
import type { FastifyInstance, FastifyReply, FastifyRequest, RouteOptions } from 'fastify';
import { createHash } from 'node:crypto';
import type { IncomingHttpHeaders } from 'node:http';
import { promisify } from 'node:util';
// The module object (not named imports): tests count the codings by watching zlib.gzip and zlib.brotliCompress.
import zlib from 'node:zlib';

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

/** The content-codings answers are sent in, preferred first; "identity" is always acceptable. */
const CODINGS = ['br', 'gzip'] as const;
export type Coding = (typeof CODINGS)[number];

/** Answers smaller than this are sent as they are: a coding would save too little. */
const CODING_THRESHOLD = 1024;

// Brotli's default (quality 11) is for files compressed once; answers are compressed per request.
const brotliOptions = { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } };
const zlibOptions = { level: 6 };

/**
 * The content-coding for a request, or null (identity), negotiated as @fastify/compress does it
 * (test/api/conditional.test.ts checks that both agree): its negotiator over CODINGS, after
 * reading `*` and x-gzip as gzip; no coding without Accept-Encoding or with X-No-Compression.
 */
function contentCoding(headers: IncomingHttpHeaders): Coding | null {
  const accepted = headers['accept-encoding'];
  if (accepted === undefined || headers['x-no-compression'] !== undefined) return null;
  return negotiate(accepted.toLowerCase().replace(/\*|x-gzip/g, 'gzip'), [...CODINGS]);
}

/** A body in a content-coding, with the options @fastify/compress uses for every other answer (off the main thread). */
export function encode(body: string, coding: Coding): Promise<Buffer> {
  return coding === 'br' ? promisify(zlib.brotliCompress)(body, brotliOptions) : promisify(zlib.gzip)(body, zlibOptions);
}

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
 * depends on who asks (the language comes from the language cookie, the token's user and
 * Accept-Language; without a token it is a 401; some lists hold the caller's own ratings) and on
 * Accept-Encoding (from 1 KB on), so it is private, is revalidated, and names all of them in Vary
 * (the 304 too). Vary's names are in lower case, as @fastify/compress looks for its own.
 */
async function conditional(request: FastifyRequest, reply: FastifyReply, payload: unknown) {
  if (!reply.routeOptions.config.etag || reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
  const known = reply.getHeader('etag');
  const tag = typeof known === 'string' ? known : tagOf(payload);
  reply.header('etag', tag).header('cache-control', 'private, no-cache').header('vary', 'accept-encoding, accept-language, authorization, cookie');
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

/** A JSON body serialised before (`serialized`), its tag (`tagOf` of that body) and its coded forms. */
interface TaggedAnswer {
  body: string;
  tag: string;
  /** The body in a content-coding (`encode`), computed once and kept with the body. */
  coded: (coding: Coding) => Promise<Buffer>;
}

/**
 * Sends a tagged answer. When the client accepts a coding, the body is large and the answer will
 * not be a 304, it sends the kept coded bytes with Content-Encoding: @fastify/compress then
 * leaves them alone and the hooks of this module add the coding to the tag and Vary.
 */
export async function sendTagged(reply: FastifyReply, answer: TaggedAnswer): Promise<FastifyReply> {
  reply.header('etag', answer.tag).type('application/json; charset=utf-8');
  const { headers } = reply.request;
  const coding = matchingTag(headers['if-none-match'], answer.tag) ? null : contentCoding(headers);
  const small = answer.body.length < CODING_THRESHOLD && Buffer.byteLength(answer.body) < CODING_THRESHOLD;
  if (!coding || small) return reply.send(answer.body);
  const bytes = await answer.coded(coding);
  return reply.header('content-encoding', coding).send(bytes);
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
  await app.register(compress, { encodings: [...CODINGS], threshold: CODING_THRESHOLD, brotliOptions, zlibOptions });
  app.addHook('onRoute', (route) => {
    if (route.config?.etag) tagCompressed(route);
  });
}
