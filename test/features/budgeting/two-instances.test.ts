import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import '../../../src/module-types.js';
import { buildApp } from '../../../src/app.js';
import { testConfig } from '../../../src/config.js';
import { withClient, withDatabase } from '../../../src/db/admin.js';
import { type Database, openPostgres } from '../../../src/db/client.js';
import { budgetBallotChoices, budgetBallots } from '../../../src/features/budgeting/schema.js';
import { generateVoteCodes } from '../../../src/features/budgeting/ballot-services.js';
import { Browser } from '../../me/accounts/client.js';
import { clonePostgresTemplate } from '../../database.js';
import { load } from '../../fixtures.js';
import { BUDGET_MODULES, budgetWorld, proposalId, seedProposals } from './world.js';

/*
 * Two app instances on one PostgreSQL database, as in a scaled-out deployment: a vote code used
 * through both at once casts exactly one ballot, and a participant's ballot changed through both at
 * once stays one ballot. Needs PostgreSQL (as on this machine and in CI); skipped without it, except
 * on CI (CI=true), where it fails.
 */
const ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

async function reachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return `PostgreSQL at ${ADMIN_URL} is not reachable (${error instanceof Error ? error.message : String(error)}); set TEST_DATABASE_URL`;
  } finally {
    await client.end().catch(() => undefined);
  }
}

const missing = await reachable();
if (missing && process.env.CI === 'true') throw new Error(`the two-instance ballot test needs PostgreSQL on CI: ${missing}`);
const skip = missing ?? false;

async function scratchDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const clone = await clonePostgresTemplate();
  if (clone) return clone;
  const name = `allmende_ballots_${randomBytes(5).toString('hex')}`;
  await withClient(ADMIN_URL, (client) => client.query(`CREATE DATABASE "${name}"`));
  const url = withDatabase(ADMIN_URL, name);
  const migrator = openPostgres(url, { max: 1 });
  await migrator.migrate();
  await migrator.close();
  return { url, drop: () => withClient(ADMIN_URL, (client) => client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`)).then(() => undefined) };
}

const instances: { app: FastifyInstance; database: Database }[] = [];
let scratch: { url: string; drop(): Promise<void> } | null = null;

before(async () => {
  if (skip) return;
  scratch = await scratchDatabase();
  for (let i = 0; i < 2; i++) {
    const database = openPostgres(scratch.url, { max: 5 });
    const app = await buildApp({ config: testConfig(), database });
    await app.ready();
    instances.push({ app, database });
  }
  const db = instances[0].database.db;
  await load(db, budgetWorld());
  await seedProposals(db);
});

after(async () => {
  for (const { app, database } of instances) {
    await app.close();
    await database.close();
  }
  await scratch?.drop();
});

const V = BUDGET_MODULES.voting;
const choice = [String(proposalId(V, 1)), String(proposalId(V, 2))];

test('a vote code used through two instances at once casts exactly one ballot', { skip }, async () => {
  const db = instances[0].database.db;
  const [code] = await db.transaction((tx) => generateVoteCodes(tx, V, 1, testConfig().secretKey));
  const voters = Array.from({ length: 8 }, (_, i) => new Browser(instances[i % 2].app));
  for (const voter of voters) await voter.get('/org/budgeting/module/voting/code/');
  const answers = await Promise.all(voters.map((voter) => voter.post('/org/budgeting/module/voting/code/', { code, cast: '1', proposal: choice })));
  assert.deepEqual(answers.map((a) => a.status).sort(), [200, 400, 400, 400, 400, 400, 400, 400]);
  const ballots = await db.select().from(budgetBallots).where(eq(budgetBallots.moduleId, V));
  assert.equal(ballots.length, 1);
  assert.equal((await db.select().from(budgetBallotChoices).where(eq(budgetBallotChoices.ballotId, ballots[0].id))).length, 2);
});

test("a participant's ballot changed through two instances at once stays one ballot with one whole choice", { skip }, async () => {
  const db = instances[0].database.db;
  const members = await Promise.all(
    [0, 1].map(async (i) => {
      const browser = new Browser(instances[i].app);
      assert.equal((await browser.login('member', 'member-password')).status, 302);
      return browser;
    }),
  );
  const choices = [choice, [String(proposalId(V, 1)), String(proposalId(V, 3))], [String(proposalId(V, 4))], [String(proposalId(V, 2)), String(proposalId(V, 3))]];
  const answers = await Promise.all(choices.map((chosen, i) => members[i % 2].post('/org/budgeting/module/voting/ballot/', { proposal: chosen })));
  for (const answer of answers) assert.equal(answer.status, 302);
  const ballots = await db.select().from(budgetBallots).where(eq(budgetBallots.userId, 4));
  assert.equal(ballots.length, 1);
  const chosen = (await db.select().from(budgetBallotChoices).where(eq(budgetBallotChoices.ballotId, ballots[0].id))).map((c) => String(c.proposalId)).sort();
  assert.ok(
    choices.some((c) => JSON.stringify([...c].sort()) === JSON.stringify(chosen)),
    `one of the posted ballots, whole: ${chosen.join(',')}`,
  );
});
