/**
 * Runs the whole suite with node's test runner (its summary line is what CI reads).
 * With TEST_DATABASE_URL set, the suite runs on PostgreSQL: a migrated template database is
 * created for this run, every test clones it, and everything is dropped at the end.
 * A test file that hangs fails after 20 minutes (a file takes one or two on a quiet machine), and a
 * file whose tests are done exits even if a handle is left open: a hang costs minutes, not the CI budget.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { withClient, withDatabase } from '../src/db/admin.js';
import { openPostgres } from '../src/db/client.js';

/** The suite: every `*.test.ts` below test/, in a stable order (long-running runs such as the fuzz suite are named otherwise). */
export const TEST_FILES = readdirSync('test', { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.test.ts'))
  .map((file) => join('test', file))
  .sort();

async function main(): Promise<number> {
  const files = process.argv.slice(2).length ? process.argv.slice(2) : TEST_FILES;
  const adminUrl = process.env.TEST_DATABASE_URL;
  const env: NodeJS.ProcessEnv = { ...process.env, NODE_ENV: 'test' };
  let template: string | null = null;
  if (adminUrl) {
    const prefix = `allmende_t${randomBytes(3).toString('hex')}`;
    template = `${prefix}_tpl`;
    await withClient(adminUrl, (c) => c.query(`CREATE DATABASE "${template}"`));
    const database = openPostgres(withDatabase(adminUrl, template), { max: 1 });
    await database.migrate();
    await database.close();
    env.TEST_TEMPLATE_DB = template;
    console.log(`Running the suite on PostgreSQL (template ${template}).`);
  } else {
    console.log('Running the suite on PGlite.');
  }
  try {
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-timeout=1200000', '--test-force-exit', '--test-reporter=spec', ...files], {
      stdio: 'inherit',
      env,
    });
    return result.status ?? 1;
  } finally {
    if (adminUrl && template) {
      const prefix = template.replace(/_tpl$/, '');
      await withClient(adminUrl, async (c) => {
        const { rows } = await c.query<{ datname: string }>('SELECT datname FROM pg_database WHERE datname LIKE $1', [`${prefix}%`]);
        for (const { datname } of rows) await c.query(`DROP DATABASE IF EXISTS "${datname}" WITH (FORCE)`);
      });
    }
  }
}

process.exitCode = await main();
