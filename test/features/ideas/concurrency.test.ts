import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'drizzle-orm';
import { basicWorld, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

test('20 concurrent writers adding ideas lose nothing: every idea, its action, one follow per writer', async () => {
  const { db, request } = await createTestApp();
  const fixture = basicWorld();
  const writers = Array.from({ length: 20 }, (_, i) => ({ id: 100 + i, username: `writer${i}`, email: `writer${i}@example.org`, language: 'en' as const }));
  fixture.users = [...(fixture.users ?? []), ...writers];
  await load(db, fixture);
  const headers = await Promise.all(writers.map((writer) => tokenHeader(db, writer.id)));

  const perWriter = 3;
  const answers = await Promise.all(
    headers.flatMap((auth, w) =>
      Array.from({ length: perWriter }, (_, n) =>
        request({ method: 'POST', url: '/api/modules/1/ideas/', headers: auth, payload: { name: `Idea ${w}.${n}`, description: 'x', category: 1, labels: [1] } }),
      ),
    ),
  );
  assert.deepEqual(new Set(answers.map((a) => a.status)), new Set([201]), answers.find((a) => a.status !== 201)?.text);
  assert.equal(new Set(answers.map((a) => (a.body as { pk: number }).pk)).size, 60, 'every answer names its own idea');

  const counts = (await db.execute(
    sql.raw(`SELECT (SELECT count(*) FROM ideas WHERE module_id = 1) ideas,
      (SELECT count(*) FROM idea_labels) labels,
      (SELECT count(*) FROM actions WHERE verb = 'add' AND obj_type = 'idea') actions,
      (SELECT count(*) FROM follows WHERE project_id = 1 AND creator_id >= 100) follows`),
  )) as unknown as { rows: Record<string, string | number>[] };
  const row = Object.fromEntries(Object.entries(counts.rows[0]).map(([k, v]) => [k, Number(v)]));
  assert.deepEqual(row, { ideas: 60, labels: 60, actions: 60, follows: 20 });
});

test('adding an idea costs a constant, small number of SQL statements (the write itself is one and answers)', async () => {
  const { db, database, request } = await createTestApp();
  await load(db, basicWorld());
  const auth = await tokenHeader(db, 5);
  const statements = async (labels: number[]) => {
    const before = database.stats.queries;
    const response = await request({ method: 'POST', url: '/api/modules/1/ideas/', headers: auth, payload: { name: 'Counted', description: 'x', category: 1, labels } });
    assert.equal(response.status, 201);
    return database.stats.queries - before;
  };
  const plain = await statements([]);
  assert.equal(plain, 2, 'the token with the module and its rule context (one statement), the insert that answers with the idea');
  assert.equal(await statements([1]), plain, 'labels cost no extra statement');
});
