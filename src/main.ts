import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { seedDemoIfEmpty } from './cli/demo.js';

async function start(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }

  const database: Database = await openDatabase(config);
  await database.migrate();
  if (config.seedDemo) {
    const logins = await seedDemoIfEmpty(database.db, join(config.dataDir, 'media'));
    if (logins) {
      console.log('Demo data loaded. Demo logins (username / password):');
      for (const login of logins) console.log(`  ${login.username.padEnd(12)} ${login.password.padEnd(14)} ${login.role}`);
    }
  }

  const app: FastifyInstance = await buildApp({ config, database });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close(); // stops accepting, drains in-flight requests
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));

  const address = await app.listen({ host: config.host, port: config.port });
  console.log(`Allmende is running at ${address}/ (${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`);
}

start().catch((error: unknown) => {
  console.error(`Allmende could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
