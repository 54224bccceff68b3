import assert from 'node:assert/strict';
import { test } from 'node:test';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';
import { statementRounds } from './statements.js';

/**
 * The pages citizens load most (issue 23.2) send at most 4 SQL statements, for anonymous visitors
 * and signed-in users alike, whatever the number of ideas or comments: the start page, the project
 * page, the module page with its idea list and the idea page with its comment thread.
 */
// test: own process (what other files' apps left in the process — compiled statements, read image widths, kept answers — would change the counts)
test('the start, project, module and idea pages send at most 4 statements, anonymous or signed in, with 1 idea or 30, 1 comment or 30 with replies', async () => {
  const { app, db, database } = await createTestApp();
  const world = basicWorld();
  world.modules = (world.modules ?? []).map((module) => ({ ...module, slug: 'ideas-module' }));
  world.ideas = [{ id: 1, module: 1, creator: 5, name: 'Idea 1', description: 'x', category: 1, labels: [1], created: '2024-03-01T10:00:00Z' }];
  world.comments = [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Nice' }];
  world.ratings = [{ creator: 5, target: { type: 'comment', id: 1 }, value: 1 }];
  await load(db, world);
  const user = new Browser(app);
  assert.equal((await user.login('user', 'user-password')).status, 302);
  const pages = ['/', '/org/projects/project/', '/org/projects/module/ideas-module/', '/org/ideas/2024-00001/'];
  const statements = await statementRounds(app, database, user, pages);
  const one = await statements();
  for (const [page, count] of Object.entries(one)) assert.ok(count <= 4, `${page}: ${count} statements`);
  await load(db, {
    ideas: Array.from({ length: 29 }, (_, i) => ({ id: 2 + i, module: 1, creator: 4, name: `Idea ${2 + i}`, description: 'x', labels: [1] })),
    comments: [
      ...Array.from({ length: 29 }, (_, i) => ({ id: 2 + i, creator: 3 + (i % 4), target: { type: 'idea' as const, id: 1 }, comment: `Comment ${2 + i}` })),
      ...Array.from({ length: 30 }, (_, i) => ({ id: 100 + i, creator: 3 + (i % 4), target: { type: 'comment' as const, id: 21 + (i % 10) }, comment: `Reply ${i}` })),
    ],
    ratings: Array.from({ length: 10 }, (_, i) => ({ creator: 3 + (i % 4), target: { type: 'comment' as const, id: 100 + i }, value: 1 })),
    comment_feedback: [{ comment: 2, creator: 3, feedback_text: 'Read' }],
  });
  const thirty = await statements();
  assert.deepEqual(thirty, one, 'thirty ideas and comments take the statements of one');
  const idea = await new Browser(app).get('/org/ideas/2024-00001/');
  assert.match(idea.text, /Reply 29/, 'the replies are shown');
});
