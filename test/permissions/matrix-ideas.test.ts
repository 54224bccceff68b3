import { test } from 'node:test';
import { IDEA_WRITES, runMatrix } from './matrix.js';

// The table lives in ./matrix.ts; this file asserts its idea writes, matrix-projects-comments.test.ts the rest.
test('the permission matrix, writing ideas: every actor × resource, through HTTP', async (t) => {
  await runMatrix(t, { project: [], module: IDEA_WRITES });
});
