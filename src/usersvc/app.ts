import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { Config } from '../config.js';
import type { Database } from '../db/client.js';
import { LiveHub } from '../http/live.js';
import { openMedia } from '../media/store.js';
import { logOptions } from '../http/logging.js';
import { SharedReads } from '../http/shared-reads.js';
import { ProcessMemory } from '../http/process-memory.js';
import { registerPlainErrors, registerPlainNotFound } from './errors.js';
import { usersvcRoutes } from './routes.js';

interface UsersvcAppDeps {
  config: Config;
  database: Database;
  fastify?: FastifyServerOptions;
}

/** The user/session service on its own: the same routes as inside the platform, nothing else. */
export async function buildUsersvcApp(deps: UsersvcAppDeps): Promise<FastifyInstance> {
  const { config, database } = deps;
  const app = Fastify({
    logger: logOptions(config.logLevel),
    trustProxy: config.trustProxy,
    routerOptions: { maxParamLength: 500, ignoreTrailingSlash: false },
    bodyLimit: 1024 * 1024,
    ...deps.fastify,
  });
  // The service shares no reads and stores no media; a bare instance fills the shared context type without a hook on every answer.
  app.decorate('ctx', { config, database, db: database.db, reads: new SharedReads(), live: new LiveHub(database, { streamsPerIp: 0 }), media: openMedia('directory', { dataDir: '', db: database.db }), memory: new ProcessMemory() }); // the hub is never started: the service streams nothing
  registerPlainErrors(app);
  registerPlainNotFound(app);
  await app.register(usersvcRoutes);
  return app;
}
