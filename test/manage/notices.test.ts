import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { actions, outbox, phases, users } from '../../src/db/schema/index.js';
import { createSystemActions } from '../../src/core/actions/system.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const MINUTE = 60_000;
const at = (now: Date, minutes: number) => new Date(now.getTime() + minutes * MINUTE).toISOString();

test('phase start (C7) and phase end (C8) e-mails reach each follower exactly once, also with two runs at once', async () => {
  const { db, config } = await createTestApp();
  const now = new Date('2026-03-02T10:00:00Z');
  const world = basicWorld();
  await load(db, {
    ...world,
    users: (world.users ?? []).map((u) => (u.username === 'other' ? { ...u, language: 'de' as const } : u)),
    modules: [
      { id: 1, project: 1, name: 'Ideas', phases: [{ name: 'Collect ideas', type: 'a4_candy_ideas:collect', start_date: at(now, -20), end_date: at(now, 24 * 60) }] },
      { id: 2, project: 1, name: 'Hidden', is_draft: true, phases: [{ type: 'a4_candy_ideas:collect', start_date: at(now, -10), end_date: at(now, 60) }] },
    ],
    follows: [{ creator: 5, project: 1 }, { creator: 6, project: 1 }, { creator: 4, project: 1, enabled: false }],
  });
  await db.update(users).set({ getNotifications: false }).where(eq(users.id, 4));
  const options = { now, origin: config.baseUrl, timeZone: config.timeZone };

  const runs = await Promise.all([createSystemActions(db, options), createSystemActions(db, options)]);
  const total = (key: 'started' | 'projectsStarted' | 'scheduled' | 'mails') => runs.reduce((sum, r) => sum + r[key], 0);
  assert.deepEqual([total('started'), total('projectsStarted'), total('scheduled'), total('mails')], [1, 1, 1, 6], 'three followers (the moderator follows by himself), two e-mails each');
  const again = await createSystemActions(db, { ...options, now: new Date(now.getTime() + 15 * MINUTE) });
  assert.deepEqual(again, { started: 0, projectsStarted: 0, scheduled: 0, mails: 0 });

  const mails = await db.select().from(outbox);
  const of = (to: string, kind: string) => mails.filter((m) => m.recipient === to && m.kind === kind);
  assert.equal(of('user@example.org', 'phase_started').length, 1);
  assert.equal(of('user@example.org', 'phase_ending').length, 1);
  assert.equal(of('member@example.org', 'phase_started').length, 0, 'a disabled follow gets nothing');
  assert.match(of('user@example.org', 'phase_started')[0].subject, /Here we go: Project starts now!/);
  assert.match(of('user@example.org', 'phase_started')[0].body, /"Collect ideas"[\s\S]*http:\/\/localhost:80\/org\/projects\/project\//);
  assert.match(of('user@example.org', 'phase_ending')[0].body, /ends on .*3.*2026/);
  // Why it came is said once, in the footer the delivery adds (test/me/accounts/mail-consent.test.ts), not in the text as well.
  for (const kind of ['phase_started', 'phase_ending']) assert.doesNotMatch(of('user@example.org', kind)[0].body, /because/, kind);
  assert.match(of('other@example.org', 'phase_ending')[0].subject, /Beteiligung endet bald/);
  assert.equal((await db.select().from(actions).where(eq(actions.verb, 'start'))).length, 2, 'phase and project start, once each');

  // An end moved by more than 48 hours is a new date: one new reminder once it comes near.
  await db.update(phases).set({ endDate: new Date(now.getTime() + 5 * 24 * 60 * MINUTE) }).where(eq(phases.moduleId, 1));
  const later = new Date(now.getTime() + 4 * 24 * 60 * MINUTE);
  const moved = await createSystemActions(db, { ...options, now: later });
  assert.deepEqual([moved.scheduled, moved.mails], [1, 3]);
  assert.equal((await db.select().from(outbox).where(and(eq(outbox.kind, 'phase_ending'), eq(outbox.recipient, 'user@example.org')))).length, 2);
});
