/**
 * Runs the whole suite with node's test runner (its summary line is what CI reads).
 * With TEST_DATABASE_URL set, the suite runs on PostgreSQL: a migrated template database is
 * created for this run, every test clones it, and everything is dropped at the end.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { withClient, withDatabase } from '../src/db/admin.js';
import { openPostgres } from '../src/db/client.js';

/** The suite, listed explicitly. */
export const TEST_FILES = [
  'test/foundation/config.test.ts',
  'test/foundation/server.test.ts',
  'test/foundation/loaddata.test.ts',
  'test/foundation/cli.test.ts',
  'test/foundation/services.test.ts',
  'test/foundation/dates.test.ts',
  'test/foundation/lifecycle.test.ts',
  'test/api/robustness.test.ts',
  'test/accounts/account-api.test.ts',
  'test/auth/jwt.test.ts',
  'test/auth/login.test.ts',
  'test/auth/throttle.test.ts',
  'test/ideas/rules.test.ts',
  'test/ideas/permissions.test.ts',
  'test/ideas/api.test.ts',
  'test/projects/app-projects.test.ts',
  'test/modules/app-modules.test.ts',
  'test/appapi/openapi.test.ts',
  'test/usersvc/config.test.ts',
  'test/usersvc/users.test.ts',
  'test/usersvc/sessions.test.ts',
  'test/usersvc/services.test.ts',
  'test/usersvc/protocol.test.ts',
  'test/usersvc/proxy.test.ts',
  'test/usersvc/standalone.test.ts',
  'test/moderation/api.test.ts',
  'test/comments/comments.test.ts',
  'test/comments/targets.test.ts',
  'test/comments/rules.test.ts',
  'test/moderation/feedback.test.ts',
  'test/comments/ratings-reports-follows.test.ts',
  'test/mail/delivery.test.ts',
  'test/accounts/accounts.test.ts',
  'test/accounts/oidc.test.ts',
  'test/dashboard/dashboard.test.ts',
  'test/dashboard/feed-plan.test.ts',
  'test/browser/browser.test.ts',
  'test/pages/public.test.ts',
  'test/pages/moderation.test.ts',
];

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
    const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', '--test-concurrency=2', '--test-reporter=spec', ...files], {
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
