import { ConfigError, loadConfig, type Config } from '../config.js';
import { openDatabase } from '../db/client.js';
import { buildUsersvcApp } from './app.js';

/** The original service's port, used when PORT is not set (the platform keeps 8004). */
const DEFAULT_PORT = 7001;

function configOrExit(): Config {
  try {
    const config = loadConfig();
    return process.env.PORT ? config : { ...config, port: DEFAULT_PORT };
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(`Configuration error: ${error.message}`);
      process.exit(2);
    }
    throw error;
  }
}

async function start(): Promise<void> {
  const config = configOrExit();
  const database = await openDatabase(config);
  await database.migrate();
  const app = await buildUsersvcApp({ config, database });
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    app.log.info({ signal }, 'shutting down');
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void stop('SIGTERM'));
  process.on('SIGINT', () => void stop('SIGINT'));
  await app.listen({ host: config.host, port: config.port });
  console.log(`The user/session service is running at http://${config.host}:${config.port}/ (${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL'})`);
}

start().catch((error: unknown) => {
  console.error(`The user/session service could not start: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
