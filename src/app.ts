import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parse as parseQuery } from 'node:querystring';
import { fileURLToPath } from 'node:url';
import type { Config } from './config.js';
import type { Database, Db } from './db/client.js';
import { accountApiRoutes } from './features/accounts-api/routes.js';
import { authRoutes } from './features/auth/routes.js';
import { healthRoutes } from './features/health/routes.js';
import { ideaRoutes } from './features/ideas/routes.js';
import { appModuleRoutes } from './features/modules/routes.js';
import { appProjectRoutes } from './features/projects/routes.js';
import { registerSharedReads, type SharedReads } from './http/shared-reads.js';
import { commentRoutes } from './features/comments/routes.js';
import { contentTypeRoutes } from './features/contenttypes/routes.js';
import { followRoutes } from './features/follows/routes.js';
import { moderationRoutes } from './features/moderation/routes.js';
import { moderatorFeedbackRoutes } from './features/moderatorfeedback/routes.js';
import { ratingRoutes } from './features/ratings/routes.js';
import { reportRoutes } from './features/reports/routes.js';
import { registerMailDelivery } from './mail/delivery.js';
import { scheduleSystemNotices } from './features/actions/system.js';
import { accountRoutes } from './features/accounts/routes.js';
import { accountExportRoutes } from './features/accounts/export.js';
import { accountSettingsRoutes } from './features/accounts/settings.js';
import { dashboardPages } from './features/dashboard/pages.js';
import { profileRoutes } from './features/profiles/routes.js';
import { type Authentication, authenticator } from './http/auth.js';
import { registerJsonBodies } from './http/bodies.js';
import { challengeRoutes } from './http/challenge-routes.js';
import { MEDIA_CACHE_CONTROL, mediaVariantRoutes } from './http/media-routes.js';
import { registerConditionalRequests } from './http/conditional.js';
import { capConnectionsPerIp, serverTimeouts } from './http/connections.js';
import { frameworkErrors, registerErrorHandling } from './http/errors.js';
import { BODY_LIMITS } from './http/limits.js';
import { logOptions } from './http/logging.js';
import { sharedCompilers } from './http/schema-compilers.js';
import { apiTrailingSlash } from './http/urls.js';
import { registerFiniteNumbers } from './http/validation.js';
import { usersvcRoutes } from './usersvc/routes.js';
import { renderErrorPage } from './web/errors.js';
import { commentPages } from './features/comments/pages.js';
import { ideaPages } from './features/ideas/pages.js';
import { modulePages } from './features/modules/pages.js';
import { organisationPages } from './features/organisations/pages.js';
import { projectPages } from './features/projects/pages.js';
import { profilePages } from './features/profiles/pages.js';
import { projectDashboardRoutes } from './features/projectdashboard/routes.js';
import { inviteRoutes } from './features/invites/routes.js';
import { backofficeRoutes } from './features/backoffice/routes.js';
import { legalPages } from './features/legal/pages.js';
import { newsletterRoutes } from './features/newsletters/routes.js';
import { reportNewsletterDeliveries } from './features/newsletters/services.js';
import { organisationSettingsRoutes } from './features/organisations/settings-routes.js';

export interface AppContext {
  config: Config;
  database: Database;
  db: Db;
  /** Identical reads running at the same time share one statement (src/http/shared-reads.ts). */
  reads: SharedReads;
}

declare module 'fastify' {
  interface FastifyInstance {
    ctx: AppContext;
  }
}

export const staticDir = fileURLToPath(new URL('./web/static', import.meta.url));

export interface AppDeps {
  config: Config;
  database: Database;
  /** Where request logs go (default stdout); tests read them. */
  logStream?: { write(line: string): void };
  /** Extra Fastify options. */
  fastify?: FastifyServerOptions;
}

/** SMTP when SMTP_URL is set; in development without it, files under DATA_DIR/mail and the console; else only the outbox. */
function mailDeliveryOptions(config: Config, db: Db) {
  const afterNewsletterBatch = (ids: number[]) => reportNewsletterDeliveries(db, ids, config.baseUrl);
  if (config.smtpUrl) return { db, smtpUrl: config.smtpUrl, from: config.mailFrom, afterNewsletterBatch };
  if (config.env === 'development' && config.dataDir) return { db, mailDir: join(config.dataDir, 'mail'), from: config.mailFrom, afterNewsletterBatch };
  return null;
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

  app.decorate('ctx', { config, database, db: database.db, reads: registerSharedReads(app) });
  const authenticate = authenticator(database.db, config.secretKey);
  app.decorateRequest('auth', function (this: { _auth?: Promise<Authentication> } & Parameters<typeof authenticate>[0]) {
    this._auth ??= authenticate(this);
    return this._auth;
  });

  registerErrorHandling(app, renderErrorPage);
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
        imgSrc: ["'self'", 'data:'],
        formAction: ["'self'"],
      },
    },
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
  await app.register(fastifyStatic, { root: staticDir, prefix: '/static/', decorateReply: false, index: false });
  const mediaDir = config.dataDir ? join(config.dataDir, 'media') : '';
  if (mediaDir) {
    mkdirSync(mediaDir, { recursive: true });
    // Stored images keep their content under their name: cached for a year (src/http/media-routes.ts).
    await app.register(fastifyStatic, { root: mediaDir, prefix: '/media/', decorateReply: false, index: false, cacheControl: false, setHeaders: (res) => void res.header('cache-control', MEDIA_CACHE_CONTROL) });
    await app.register(mediaVariantRoutes, { mediaDir });
  }
  app.get('/api/schema/', { schema: { hide: true } }, async () => app.swagger());
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) => reply.redirect('/static/favicon.svg', 301));

  // Then one register call per feature.
  await app.register(healthRoutes);
  await app.register(challengeRoutes);
  await app.register(organisationPages);
  await app.register(legalPages);
  await app.register(projectPages);
  await app.register(modulePages);
  await app.register(ideaPages);
  await app.register(commentPages);
  await app.register(profilePages);
  await app.register(authRoutes);
  await app.register(accountApiRoutes);
  await app.register(appProjectRoutes);
  await app.register(appModuleRoutes);
  await app.register(ideaRoutes);
  await app.register(usersvcRoutes);
  registerMailDelivery(app, mailDeliveryOptions(config, database.db));
  const notices = scheduleSystemNotices(database.db, { origin: config.baseUrl, timeZone: config.timeZone }, (error) => app.log.error({ err: error }, 'system notices failed'));
  app.addHook('onClose', async () => notices.stop());
  await app.register(contentTypeRoutes);
  await app.register(commentRoutes);
  await app.register(ratingRoutes);
  await app.register(reportRoutes);
  await app.register(followRoutes);
  await app.register(moderationRoutes);
  await app.register(moderatorFeedbackRoutes);
  await app.register(accountRoutes);
  await app.register(accountSettingsRoutes);
  await app.register(accountExportRoutes);
  await app.register(dashboardPages);
  await app.register(profileRoutes);
  await app.register(projectDashboardRoutes);
  await app.register(inviteRoutes);
  await app.register(backofficeRoutes);
  await app.register(newsletterRoutes);
  await app.register(organisationSettingsRoutes);

  return app;
}
