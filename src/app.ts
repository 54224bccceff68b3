import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { parse as parseQuery } from 'node:querystring';
import { fileURLToPath } from 'node:url';
import './module-types.js';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import { authenticator } from './http/auth.js';
import { registerAfterAnswer } from './http/after-answer.js';
import { registerJsonBodies } from './http/bodies.js';
import { challengeRoutes } from './http/challenge-routes.js';
import { mediaRoutes } from './http/media-routes.js';
import { type Media, openMedia } from './media/store.js';
import { registerConditionalRequests } from './http/conditional.js';
import { capConnectionsPerIp, serverTimeouts } from './http/connections.js';
import { frameworkErrors, registerErrorHandling } from './http/errors.js';
import { movedPageTarget } from './core/legal/queries.js';
import { BODY_LIMITS } from './http/limits.js';
import { logOptions } from './http/logging.js';
import { sharedCompilers } from './http/schema-compilers.js';
import { apiTrailingSlash } from './http/urls.js';
import { registerFiniteNumbers } from './http/validation.js';
import { registerSharedReads, type SharedReads } from './http/shared-reads.js';
import { ProcessMemory } from './http/process-memory.js';
import { hashedStaticRoutes, useStaticDir } from './web/static-files.js';
import { LiveHub, liveRedisChannel } from './http/live.js';
import { renderErrorPage } from './web/errors.js';
import { forgetSiteFrame } from './web/site-links.js';
import { startBackgroundWork } from './jobs/background.js';
import { moduleTypePlugins } from './features/moduletypes/contract.js';
import { participationWing } from './features/plugin.js';
import { apiWing } from './api/plugin.js';
import { siteWing } from './site/plugin.js';
import { meWing } from './me/plugin.js';
import { manageWing } from './manage/plugin.js';
import { operateWing } from './operate/plugin.js';
import { usersvcRoutes } from './usersvc/routes.js';

interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** Identical reads running at the same time share one statement (src/http/shared-reads.ts). */
  reads: SharedReads;
  /** This process's live channel: its listener and open event streams (src/http/live.ts). */
  live: LiveHub;
  /** Uploaded media in the store MEDIA_STORE names (src/media/store.ts). */
  media: Media;
  /** What this process keeps from the database (kept pages and answers, counters): forgotten together (src/http/process-memory.ts). */
  memory: ProcessMemory;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

const staticDir = fileURLToPath(new URL('./web/static', import.meta.url));
const leafletDir = join(dirname(createRequire(import.meta.url).resolve('leaflet/package.json')), 'dist');

/** The CSP source of a map URL (template): its origin, a `{s}` subdomain as `*`; none without a URL. */
function mapSources(url: string | null): string[] {
  const match = url ? /^(https?:\/\/[^/]+)/.exec(url) : null;
  return match ? [match[1].replace(/\{s\}/g, '*').replace(/\{[a-z]+\}/g, '*')] : [];
}

/**
 * One entry plugin per wing, by ring: the app API of the floor's concepts, participation on any
 * content, the public site, the citizen's own pages, the initiator's dashboard, the operator's
 * back-office, and the user/session service; each wing registers its folders. docs/architecture.md maps them.
 */
const WINGS: ((app: FastifyInstance) => Promise<void>)[] = [apiWing, participationWing, siteWing, meWing, manageWing, operateWing, usersvcRoutes];

interface AppDeps {
  config: Config;
  database: Database;
  /** Where request logs go (default stdout); tests read them. */
  logStream?: { write(line: string): void };
  /** The Redis channel of the live channel with REDIS_URL (default `liveRedisChannel(REDIS_PREFIX)`; tests pick their own). */
  liveChannel?: string;
  /** Extra Fastify options. */
  fastify?: FastifyServerOptions;
}

export async function buildApp(deps: AppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: { ...logOptions(config.logLevel), ...(deps.logStream ? { stream: deps.logStream } : {}) },
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: false },
    rewriteUrl: apiTrailingSlash,
    bodyLimit: BODY_LIMITS.bodyBytes,
    frameworkErrors: frameworkErrors(),
    schemaController: { compilersFactory: sharedCompilers },
    ...serverTimeouts(config.connections),
    ...deps.fastify,
  }).withTypeProvider<TypeBoxTypeProvider>();
  if (!config.trustProxy) capConnectionsPerIp(app.server, config.connections.connectionsPerIp);

  const redis = config.redisUrl ? { url: config.redisUrl, channel: deps.liveChannel ?? liveRedisChannel(config.redisPrefix) } : null;
  const live = new LiveHub(database, { streamsPerIp: config.connections.connectionsPerIp, redis });
  await live.start();
  live.registerHooks(app);
  registerAfterAnswer(app, database.db);
  app.addHook('preClose', () => live.close()); // open streams would hold the close
  const media = openMedia(config.mediaStore, { dataDir: config.dataDir, db: database.db });
  const memory = new ProcessMemory();
  memory.keep({ forget: () => void forgetSiteFrame(database.db) });
  app.decorate('ctx', { config, database, db: database.db, reads: registerSharedReads(app), live, media, memory });
  app.decorateRequest('auth', authenticator(database.db, config.secretKey));

  registerErrorHandling(app, renderErrorPage, (path) => movedPageTarget(database.db, path));
  registerJsonBodies(app);
  registerFiniteNumbers(app);

  // External plugins first.
  await app.register(cookie, { secret: config.secretKey });
  await app.register(formbody, { parser: (body) => parseQuery(body) });
  await registerConditionalRequests(app);
  await app.register(multipart, { limits: { fileSize: BODY_LIMITS.fileBytes, files: BODY_LIMITS.files, fields: BODY_LIMITS.fields, fieldSize: BODY_LIMITS.fieldBytes } });
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // The map tiles come from their own host (MAP_TILES_URL); the address search asks the geocoder (GEOCODER_URL).
        imgSrc: ["'self'", 'data:', ...mapSources(config.maps.tilesUrl)],
        connectSrc: ["'self'", ...mapSources(config.maps.geocoderUrl)],
        formAction: ["'self'"],
      },
    },
    // Django's default (SECURE_REFERRER_POLICY): with helmet's no-referrer a browser sends
    // `Origin: null` on its own form posts, which the CSRF origin check (http/session.ts) refuses.
    referrerPolicy: { policy: 'same-origin' },
  });
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Allmende API', version: '1.0.0', description: 'The participation platform API.' },
      components: {
        securitySchemes: {
          token: { type: 'apiKey', in: 'header', name: 'Authorization', description: 'Token <key> from POST /api/login/' },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          session: { type: 'apiKey', in: 'cookie', name: 'sessionid' },
        },
      },
      security: [{ token: [] }, { session: [] }, { bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });
  useStaticDir(staticDir);
  await app.register(hashedStaticRoutes);
  await app.register(fastifyStatic, { root: staticDir, prefix: '/static/', decorateReply: false, index: false });
  // Leaflet, from its npm package, served by Allmende itself (no CDN).
  await app.register(fastifyStatic, { root: leafletDir, prefix: '/static/leaflet/', decorateReply: false, index: false });
  await app.register(mediaRoutes, { media });
  app.get('/api/schema/', { schema: { hide: true } }, async () => app.swagger());
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/static/favicon.svg', 301));

  // Then the background work, the challenge, and one entry plugin per wing; last the module types' own, from the registry.
  startBackgroundWork(app, config, database);
  await app.register(challengeRoutes);
  for (const wing of WINGS) await app.register(wing);
  for (const plugin of moduleTypePlugins()) await app.register(plugin);

  return app;
}
