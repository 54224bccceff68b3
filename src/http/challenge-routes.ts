import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Type } from 'typebox';
import { issueChallenge } from './challenge.js';

/**
 * The spam challenge's endpoint and the ALTCHA widget's files, served by Allmende itself (no CDN):
 * the CSP-friendly build without inlined workers, its stylesheet, the SHA-256 worker and the
 * German texts. Read once at start from the installed package.
 */
const altchaDist = join(dirname(createRequire(import.meta.url).resolve('altcha')), '..');
const WIDGET_FILES: Record<string, { path: string; type: string }> = {
  'altcha.js': { path: 'external/altcha.min.js', type: 'text/javascript; charset=utf-8' },
  'altcha.css': { path: 'external/altcha.css', type: 'text/css; charset=utf-8' },
  'sha-worker.js': { path: 'workers/sha.js', type: 'text/javascript; charset=utf-8' },
  'de.js': { path: 'i18n/de.js', type: 'text/javascript; charset=utf-8' },
};

const ChallengeResponse = Type.Object(
  {
    parameters: Type.Object({
      algorithm: Type.String(),
      nonce: Type.String(),
      salt: Type.String(),
      cost: Type.Integer(),
      keyLength: Type.Integer(),
      keyPrefix: Type.String(),
      expiresAt: Type.Optional(Type.Integer()),
    }),
    signature: Type.Optional(Type.String()),
  },
  { description: 'A proof-of-work challenge (ALTCHA v2) for the spam check of open forms' },
);

export async function challengeRoutes(app: FastifyInstance): Promise<void> {
  const files = new Map(Object.entries(WIDGET_FILES).map(([name, file]) => [name, { body: readFileSync(join(altchaDist, file.path)), type: file.type }]));

  app.get('/challenge/', { schema: { hide: true, response: { 200: ChallengeResponse } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return issueChallenge(app.ctx.config);
  });

  app.get('/static/altcha/:file', { schema: { hide: true, params: Type.Object({ file: Type.String({ maxLength: 40 }) }) } }, async (request, reply) => {
    const file = files.get((request.params as { file: string }).file);
    if (!file) return reply.code(404).type('text/plain').send('Not found');
    return reply.type(file.type).header('cache-control', 'public, max-age=86400').send(file.body);
  });
}
