import { test } from 'node:test';
import { IDEA_WRITES, MODULE_ACTIONS, PROJECT_ACTIONS, runMatrix } from './matrix.js';

// The table lives in ./matrix.ts; this file asserts everything but the idea writes (matrix-ideas.test.ts).
test('the permission matrix, projects, modules, reading, comments, ratings, reports, moderation, follows: every actor × resource, through HTTP', async (t) => {
  await runMatrix(t, { project: PROJECT_ACTIONS, module: MODULE_ACTIONS.filter((action) => !IDEA_WRITES.includes(action)) });
});
