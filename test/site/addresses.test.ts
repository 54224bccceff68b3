import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { eq } from 'drizzle-orm';
import { projectInvites } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { legacyIdeaSlug } from '../../src/features/idealike/legacy.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';

/** basicWorld plus ideas with titles adhocracy+ made slugs of, one in a private project. */
function addressWorld(): Fixture {
  const world = basicWorld();
  const created = '2024-03-05T10:00:00Z';
  return {
    ...world,
    projects: [...(world.projects ?? []), { id: 2, slug: 'secret', name: 'Secret', organisation: 1, access: 'PRIVATE', participants: [4] }],
    modules: [...(world.modules ?? []), { id: 2, slug: 'secret-ideas', project: 2, name: 'Secret ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(5) }] }],
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'More trees!', description: 'a', category: 1, created },
      { id: 2, module: 1, creator: 5, name: 'More  trees', description: 'b', category: 1, created },
      { id: 3, module: 1, creator: 5, name: 'Plan 2030', description: 'c', category: 1, created },
      { id: 4, module: 2, creator: 4, name: 'Hidden plan', description: 'd', created },
      { id: 5, module: 1, creator: 5, name: 'Grüne Höfe – jetzt!', description: 'e', category: 1, created },
      { id: 6, module: 1, creator: 5, name: "Die Straße's Ende", description: 'f', category: 1, created },
      { id: 7, module: 1, creator: 5, name: 'GRÜNE höfe jetzt', description: 'g', category: 1, created },
      { id: 8, module: 1, creator: 5, name: 'Old title', description: 'h', category: 1, created },
      // Loaded with the slug adhocracy+ gave it, which differs from what its title makes today.
      { id: 9, module: 1, creator: 5, name: 'Alter Titel', description: 'i', category: 1, created, slug: 'alter-titel' },
      { id: 10, module: 1, creator: 5, name: 'More trees', description: 'j', category: 1, created, slug: 'baeume-3' },
    ],
  };
}

test('Django-style slugs as adhocracy+ made them', () => {
  assert.equal(legacyIdeaSlug('More trees!'), 'more-trees');
  assert.equal(legacyIdeaSlug('Grüne Höfe – jetzt'), 'grune-hofe-jetzt');
  assert.equal(legacyIdeaSlug('a.b_c'), 'ab_c');
  assert.equal(legacyIdeaSlug('x'.repeat(80)).length, 50);
  assert.equal(legacyIdeaSlug("Die Straße's Ende"), 'die-straes-ende', 'Django drops ß and apostrophes');
  assert.equal(legacyIdeaSlug('Éclair\u00a0für\u2003Café'), 'eclair-fur-cafe', 'spaces that NFKD makes ASCII separate words');
});

test('old addresses: legacy idea slugs, references without zeros, the invitation accept link', async () => {
  const { app, db } = await createTestApp();
  await load(db, addressWorld());
  const visitor = new Browser(app);
  const redirects: [string, string][] = [
    ['/org/ideas/more-trees/', '/org/ideas/2024-00001/'],
    ['/org/ideas/more-trees-2/', '/org/ideas/2024-00002/'],
    ['/org/ideas/plan-2030/', '/org/ideas/2024-00003/'],
    // Titles with umlauts, ß and punctuation: the database makes the slug the way Django did.
    ['/org/ideas/grune-hofe-jetzt/', '/org/ideas/2024-00005/'],
    ['/org/ideas/grune-hofe-jetzt-2/', '/org/ideas/2024-00007/'],
    ['/org/ideas/die-straes-ende/', '/org/ideas/2024-00006/'],
    ['/org/ideas/2024-1/?comment=7', '/org/ideas/2024-00001/?comment=7'],
    ['/org/ideas/2024-000002/', '/org/ideas/2024-00002/'],
  ];
  for (const [from, to] of redirects) {
    const answer = await visitor.get(from);
    assert.equal(answer.status, 301, from);
    assert.equal(answer.headers.location, to, from);
  }
  assert.equal((await visitor.get('/org/ideas/2024-00001/')).status, 200);
  // An idea renamed since adhocracy+ without a stored slug: its old slug is gone with the old title.
  await db.update(ideas).set({ name: 'New title' }).where(eq(ideas.id, 8));
  assert.equal((await visitor.get('/org/ideas/old-title/')).status, 404);
  assert.equal((await visitor.get('/org/ideas/new-title/')).headers.location, '/org/ideas/2024-00008/');
  // An idea loaded with its adhocracy+ slug is found by it after a rename; an idea with a stored slug
  // takes no part in the slugs made from titles ("More trees" #10 is not more-trees-3).
  await db.update(ideas).set({ name: 'Neuer Titel' }).where(eq(ideas.id, 9));
  for (const [from, to] of [['/org/ideas/alter-titel/', '/org/ideas/2024-00009/'], ['/org/ideas/Alter-Titel/', '/org/ideas/2024-00009/'], ['/org/ideas/baeume-3/', '/org/ideas/2024-00010/']]) {
    const answer = await visitor.get(from);
    assert.equal(answer.status, 301, from);
    assert.equal(answer.headers.location, to, from);
  }
  assert.equal((await visitor.get('/org/ideas/neuer-titel/')).status, 404, 'the new title makes no address for an idea with a stored slug');
  for (const missing of ['/org/ideas/more-trees-3/', '/org/ideas/no-such-idea/', '/other/ideas/more-trees/', '/org/ideas/2023-1/']) {
    assert.equal((await visitor.get(missing)).status, 404, missing);
  }
  // An idea of a private project: its old address tells nothing to those who may not see it (issue 21, finding 4).
  assert.equal((await visitor.get('/org/ideas/hidden-plan/')).status, 404);
  // A participant of the private project is sent on.
  const member = new Browser(app);
  await member.login('member', 'member-password');
  assert.equal((await member.get('/org/ideas/hidden-plan/')).headers.location, '/org/ideas/2024-00004/');

  const [invite] = await db.insert(projectInvites).values({ projectId: 1, role: 'participant', email: 'new@example.org' }).returning();
  const accept = await visitor.get(`/org/projects/participant-invites/${invite.token}/accept/`);
  assert.equal(accept.status, 301);
  assert.equal(accept.headers.location, `/org/projects/participant-invites/${invite.token}/`);
  assert.equal((await visitor.get(`/org/projects/moderator-invites/${invite.token}/accept/`)).status, 404);
});
