import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';

/**
 * Static files under names that carry their content's hash (issue 36.12): a page links
 * `/static/v/<hash>/site.css` (`staticUrl`), which is cached for a year as it can never change;
 * the next version of the file has another hash. `/static/<name>` stays for what links it
 * directly (cached briefly, as before). A link with an outdated hash is sent on to the current one.
 */

/** A year: a hashed name never stands for other content. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
const TYPES: Record<string, string> = { '.css': 'text/css; charset=utf-8', '.js': 'text/javascript; charset=utf-8', '.svg': 'image/svg+xml', '.png': 'image/png' };

let root: string | null = null;
const hashes = new Map<string, string | null>();

/** The directory whose files `staticUrl` names (app.ts, once at start). */
export function useStaticDir(dir: string): void {
  if (root !== dir) hashes.clear();
  root = dir;
}

/** A file's path inside the static directory, or null for what is outside it or no file. */
function fileOf(name: string): string | null {
  if (!root || !/^[\w./-]{1,200}$/.test(name) || name.includes('..')) return null;
  const path = normalize(join(root, name));
  return path.startsWith(root + sep) && existsSync(path) && statSync(path).isFile() ? path : null;
}

/** The first 16 hex digits of the file's SHA-256, computed once per process (the files do not change while it runs). */
function hashOf(name: string): string | null {
  if (!hashes.has(name)) {
    const path = fileOf(name);
    hashes.set(name, path ? createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 16) : null);
  }
  return hashes.get(name) ?? null;
}

/** `/static/<name>` as the address that carries the file's hash; unchanged for what is not a file of the static directory. */
export function staticUrl(url: string): string {
  if (!url.startsWith('/static/')) return url;
  const name = url.slice('/static/'.length);
  const hash = hashOf(name);
  return hash ? `/static/v/${hash}/${name}` : url;
}

/** GET /static/v/<hash>/<name>: the file, cached for a year; an outdated hash answers 301 to the current address. */
export async function hashedStaticRoutes(app: FastifyInstance): Promise<void> {
  app.get(
    '/static/v/:hash/*',
    { schema: { hide: true, params: Type.Object({ hash: Type.String({ pattern: '^[0-9a-f]{16}$' }), '*': Type.String({ maxLength: 200 }) }) } },
    async (request, reply) => {
      const { hash, '*': name } = request.params as { hash: string; '*': string };
      const path = fileOf(name);
      const current = hashOf(name);
      if (!path || !current) return reply.code(404).type('text/plain').send('Not found');
      if (current !== hash) return reply.redirect(`/static/v/${current}/${name}`, 301);
      return reply
        .header('cache-control', IMMUTABLE)
        .type(TYPES[extname(path)] ?? 'application/octet-stream')
        .send(readFileSync(path));
    },
  );
}
