import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../accounts/client.js';

/**
 * The pages citizens load most (issue 23.2) send at most 4 SQL statements, for anonymous visitors
 * and signed-in users alike, whatever the number of ideas: the start page, the project page and the
 * module page with its idea list.
 */
test('the start, project and module pages send at most 4 statements, anonymous or signed in, with 1 idea or 30', async () => {
  const { app, db, database } = await createTestApp();
  const world = basicWorld();
  world.modules = (world.modules ?? []).map((module) => ({ ...module, slug: 'ideas-module' }));
  world.ideas = [{ id: 1, module: 1, creator: 5, name: 'Idea 1', description: 'x', category: 1, labels: [1] }];
  world.comments = [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Nice' }];
  await load(db, world);
  const user = new Browser(app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  const pages = ['/', '/org/projects/project/', '/org/projects/module/ideas-module/'];
  const statements = async () => {
    const counts: Record<string, number> = {};
    for (const [who, browser] of [['visitor', new Browser(app)], ['user', user]] as const) {
      for (const url of pages) {
        const before = database.stats.queries;
        const page = await browser.get(url);
        assert.equal(page.status, 200, url);
        counts[`${who} ${url}`] = database.stats.queries - before;
      }
    }
    return counts;
  };
  const one = await statements();
  for (const [page, count] of Object.entries(one)) assert.ok(count <= 4, `${page}: ${count} statements`);
  await load(db, { ideas: Array.from({ length: 29 }, (_, i) => ({ id: 2 + i, module: 1, creator: 4, name: `Idea ${2 + i}`, description: 'x', labels: [1] })) });
  assert.deepEqual(await statements(), one, 'thirty ideas take the statements of one');
});
