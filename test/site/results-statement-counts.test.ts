import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';
import { statementRounds } from './statements.js';
import { results, resultStatuses } from '../../src/features/results/schema.js';

/**
 * The project page's Results tab (issue 39) sends at most 4 SQL statements, for anonymous visitors
 * and signed-in users alike, with 1 result or 30 (some nested, some with a place), filtered or not.
 */
// test: own process (what other files' apps left in the process would change the counts)
test('the Results tab sends at most 4 statements, anonymous or signed in, with 1 result or 30', async () => {
  const { app, db, database } = await createTestApp();
  await load(db, basicWorld());
  const [status] = await db.insert(resultStatuses).values({ organisationId: 1, name: 'planned', progress: 0 }).returning();
  const [first] = await db.insert(results).values({ projectId: 1, title: 'Result 1', statusId: status.id, category: 'Parks', district: 'North', lat: 52.5, lng: 13.4 }).returning();
  const user = new Browser(app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  const pages = ['/org/projects/project/?tab=result', `/org/projects/project/?tab=result&status=${status.id}&district=North`];
  const statements = await statementRounds(app, database, user, pages);
  const one = await statements();
  for (const [page, count] of Object.entries(one)) assert.ok(count <= 4, `${page}: ${count} statements`);
  await db.insert(results).values(Array.from({ length: 29 }, (_, i) => ({ projectId: 1, title: `Result ${i + 2}`, statusId: status.id, parentId: i % 3 === 0 ? first.id : null, district: i % 2 ? 'North' : 'South', lat: i % 2 ? 52.4 : null, lng: i % 2 ? 13.3 : null })));
  const thirty = await statements();
  assert.deepEqual(thirty, one, 'thirty results take the statements of one');
  const tab = await new Browser(app).get('/org/projects/project/?tab=result');
  assert.match(tab.text, /Result 30/, 'the results are shown');
});
