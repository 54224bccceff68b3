import cluster from 'node:cluster';
import { setFlagsFromString } from 'node:v8';
import { buildApp } from './app.js';
import { runPrimary, type WorkerMessage } from './cluster.js';
import { ConfigError, loadConfig, type Config } from './config.js';
import { openDatabase, type Database } from './db/client.js';
import { seedDemoIfEmpty } from './cli/demo.js';
import { operatorExists } from './core/users/queries.js';
import { setupAnnouncement } from './operate/setup/rules.js';
import { afterMigrate } from './features/moduletypes/contract.js';

/**
 * V8 lets the old generation grow to up to 4 × what survived the last full collection before the
 * next one; under the load of 347 KB answers a worker then held 160–270 MB, of which ≈ 35 MB was
 * live. 1.5 × keeps it at 140–160 MB at the same req/s (docs/performance.md, "Memory"). V8 reads
 * the factor at each full collection, so setting it here covers every worker and the
 * single-process server, however started.
 */
setFlagsFromString('--heap-growing-percent=50');

function configOrExit(): Config {
  try {
    return loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

/** Migrations and the demo data, once per start (before any worker serves). */
async function prepare(config: Config, database: Database): Promise<void> {
  await database.migrate();
  // The module types' fixes of stored data (the budgets' vote codes kept in the clear from before).
  for (const line of await afterMigrate(database.db, config)) console.log(line);
  const logins = config.seedDemo ? await seedDemoIfEmpty(database.db, config) : null;
  if (logins) {
    console.log('Demo data loaded. Demo logins (username / password):');
    for (const login of logins) console.log(`  ${login.username.padEnd(12)} ${login.password.padEnd(14)} ${login.role}`);
  }
  if (!(await operatorExists(database.db))) console.log(setupAnnouncement(config.baseUrl, config.secretKey));
}

const describe = (config: Config, database: Database) =>
  database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : `PostgreSQL, ${config.webConcurrency} worker${config.webConcurrency === 1 ? '' : 's'}`;

/** Serves the port from this process until SIGTERM/SIGINT (or, in a worker, until the primary is gone). */
async function serve(config: Config, database: Database): Promise<string> {
  const app = await buildApp({ config, database });
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
  if (cluster.isWorker) process.on('disconnect', () => void stop('primary gone'));
  return app.listen({ host: config.host, port: config.port });
}

async function start(): Promise<void> {
  const config = configOrExit();
  if (cluster.isWorker) {
    const poolSize = Math.max(1, Math.floor(config.databasePoolSize / config.webConcurrency));
    const address = await serve(config, await openDatabase(config, poolSize));
    process.send?.({ type: 'listening', address } satisfies WorkerMessage);
    return;
  }
  if (config.webConcurrency > 1) {
    if (!config.redisUrl) console.warn('REDIS_URL is not set: each worker throttles failed logins on its own');
    const database = await openDatabase(config, 1);
    await prepare(config, database);
    await database.close();
    const address = await runPrimary(config.webConcurrency);
    console.log(`Allmende is running at ${address}/ (PostgreSQL, ${config.webConcurrency} workers)`);
    return;
  }
  const database = await openDatabase(config, config.databasePoolSize);
  await prepare(config, database);
  const address = await serve(config, database);
  console.log(`Allmende is running at ${address}/ (${describe(config, database)})`);
}

start().catch((error: unknown) => {
  console.error(`Allmende could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
