import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'drizzle-orm';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { titleSlugLookup } from '../../src/features/idealike/legacy.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const IDEAS = 3_000;

function world(): Fixture {
  const base = basicWorld();
  return {
    ...base,
    projects: [...(base.projects ?? []), { id: 2, slug: 'secret', name: 'Secret', organisation: 1, access: 'PRIVATE', participants: [4] }],
    modules: [...(base.modules ?? []), { id: 2, slug: 'secret-ideas', project: 2, name: 'Secret ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(5) }] }],
    ideas: [{ id: 1, module: 2, creator: 4, name: 'Hidden plan', description: 'd' }],
  };
}

test('issue 21 finding 3: an old idea address is an index look-up, not a slugify over every idea', async () => {
  const { app, db, database } = await createTestApp();
  await load(db, world());
  await db.execute(sql.raw(`INSERT INTO ideas (module_id, creator_id, name, description) SELECT 1, 5, 'Grüne Höfe Nummer ' || g, 'x' FROM generate_series(1, ${IDEAS}) g`));
  await db.execute(sql.raw('ANALYZE ideas'));
  const visitor = new Browser(app);
  const before = database.stats.queries;
  const answer = await visitor.get('/org/ideas/grune-hofe-nummer-2345/');
  assert.equal(answer.status, 301);
  assert.ok(database.stats.queries - before <= 8, `${database.stats.queries - before} statements`);
  const missing = database.stats.queries;
  assert.equal((await visitor.get('/org/ideas/no-such-idea-at-all-2/')).status, 404);
  // A stored slug, two readings, then the table of moved pages (the old a+ CMS addresses) before the 404,
  // and the 404 page's frame (web/site-links.ts: a page that is not kept reads it fresh).
  assert.ok(database.stats.queries - missing <= 5, `${database.stats.queries - missing} statements: a stored slug, two readings, the moved pages, the frame`);

  // The look-up reads the index range of its slug, never the table.
  const plan = await db.execute(sql`EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) ${titleSlugLookup(db, 'grune-hofe-nummer-2345', 0, ideas).getSQL()}`);
  const text = (plan as unknown as { rows: Record<string, string>[] }).rows.map((row) => Object.values(row)[0]).join('\n');
  assert.match(text, /Index (Only )?Scan using ideas_title_slug_idx on ideas[^\n]*rows=1(\.00)? loops=1/, text);
  assert.doesNotMatch(text, /Seq Scan|Rows Removed/, text);
});

test('issue 21 finding 4: an old address of a hidden idea answers exactly as for a missing one', async () => {
  const { app, db } = await createTestApp();
  await load(db, world());
  const visitors = [new Browser(app), new Browser(app)];
  await visitors[1].login('user', 'user-password');
  for (const visitor of visitors) {
    const hidden = await visitor.get('/org/ideas/hidden-plan/');
    const missing = await visitor.get('/org/ideas/hidden-plam/');
    assert.equal(hidden.status, 404);
    assert.equal(hidden.location, undefined);
    // The bell's live position is the moment of the reading (PostgreSQL's snapshot, which other sessions move), not a hint.
    const same = (text: string, slug: string) => text.replaceAll(slug, 'X').replace(/data-live-last="[^"]*"/g, 'data-live-last=""');
    assert.equal(same(hidden.text, 'hidden-plan'), same(missing.text, 'hidden-plam'));
  }
  const member = new Browser(app);
  await member.login('member', 'member-password');
  assert.equal((await member.get('/org/ideas/hidden-plan/')).status, 301, 'a participant of the private project is sent on');
});
