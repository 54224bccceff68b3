import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq, inArray } from 'drizzle-orm';
import { outbox, users } from '../../src/db/schema/index.js';
import { createSystemActions } from '../../src/core/actions/system.js';
import { createComment } from '../../src/features/comments/services.js';
import { createIdea } from '../../src/features/idealike/services.js';
import { IDEA_KIND } from '../../src/features/ideas/idea-kind.js';
import { dashboardApp, dashboardWorld, signedIn } from '../manage/world.js';

/**
 * A private project whose participant "user" (5) follows it and wants newsletters; the initiator
 * removes him. He still follows the project, but may no longer see it.
 */
async function removedParticipant() {
  const world = dashboardWorld();
  const now = Date.now();
  const t = await dashboardApp({
    ...world,
    projects: (world.projects ?? []).map((p) => (p.id === 1 ? { ...p, access: 'PRIVATE' as const, participants: [4, 5] } : p)),
    modules: (world.modules ?? []).map((m) => ({ ...m, phases: [{ type: 'a4_candy_ideas:collect', start_date: new Date(now - 10 * 60_000).toISOString(), end_date: new Date(now + 24 * 3600_000).toISOString() }] })),
    follows: [{ creator: 5, project: 1 }, { creator: 4, project: 1 }],
  });
  await t.db.update(users).set({ getNewsletters: true }).where(inArray(users.id, [4, 5]));
  const ideaId = await createIdea(t.db, { moduleId: 1, creatorId: 5, name: 'Before removal', description: 'x' }, IDEA_KIND);
  const initiator = await signedIn(t.app, 'initiator');
  const removed = await initiator.post('/org/dashboard/projects/project/participants/', { action: 'remove_member', user_id: '5' });
  assert.equal(removed.status, 302);
  return { ...t, initiator, ideaId };
}

const mailsTo = async (db: Awaited<ReturnType<typeof removedParticipant>>['db'], recipient: string, kind: string) =>
  db.select().from(outbox).where(and(eq(outbox.recipient, recipient), eq(outbox.kind, kind)));

test('issue 21 finding 6: a newsletter about a private project skips a removed participant who still follows it', async () => {
  const { db, initiator } = await removedParticipant();
  const sent = await initiator.post('/org/dashboard/communication/newsletters/create/', { sender_name: 'City', sender_email: 'team@example.org', project: '1', subject: 'Inside news', body: '<p>Secret plans</p>' });
  assert.equal(sent.status, 302);
  assert.equal((await mailsTo(db, 'user@example.org', 'newsletter')).length, 0);
  assert.equal((await mailsTo(db, 'member@example.org', 'newsletter')).length, 1, 'those who may see it still get it');
});

test('issue 21 finding 6: phase e-mails and notices skip a removed participant', async () => {
  const { db, ideaId } = await removedParticipant();
  await createSystemActions(db, { origin: 'http://localhost', timeZone: 'Europe/Berlin' });
  assert.equal((await mailsTo(db, 'user@example.org', 'phase_started')).length, 0);
  assert.equal((await mailsTo(db, 'member@example.org', 'phase_started')).length, 1);
  await createComment(db, { creatorId: 3, target: { type: 'idea', id: ideaId }, comment: 'Private discussion' }, { origin: 'http://localhost' });
  assert.equal((await mailsTo(db, 'user@example.org', 'comment_on_content')).length, 0, 'no notice about a project he may no longer see');
});
