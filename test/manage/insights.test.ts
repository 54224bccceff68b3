import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { test } from 'node:test';
import { asc, sql } from 'drizzle-orm';
import { projectInsightDays, projectInsightParticipants } from '../../src/db/schema/index.js';
import { Browser } from '../me/accounts/client.js';
import { tokenHeader } from '../fixtures.js';
import { dashboardApp, dashboardWorld, signedIn } from './world.js';

/** Ideas, a comment and a reply on two days and a rating, loaded through the services (loaddata). */
function insightWorld() {
  return {
    ...dashboardWorld(),
    ideas: [{ id: 1, module: 1, creator: 4, name: 'More trees', description: 'Plant trees', created: '2026-03-01T10:00:00Z' }],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea' as const, id: 1 }, comment: 'Yes', created: '2026-03-02T10:00:00Z' },
      { id: 2, creator: 4, target: { type: 'comment' as const, id: 1 }, comment: 'Thanks', created: '2026-03-02T11:00:00Z' },
    ],
    ratings: [{ creator: 5, target: { type: 'idea' as const, id: 1 }, value: 1 }],
  };
}

const number = (html: string, name: string) => new RegExp(`<dt>${name}</dt><dd>(\\d+)</dd>`).exec(html)?.[1];

test('statistics: ideas, comments, ratings and participants are counted as they are written; the dashboard always shows them, the public result tab only when the initiator chooses', async () => {
  const { app, db, request } = await dashboardApp(insightWorld());
  const idea = await request({ method: 'POST', url: '/api/modules/1/ideas/', headers: await tokenHeader(db, 6), payload: { name: 'Bike lanes', description: 'Wide ones', category: 1 } });
  assert.equal(idea.status, 201);
  const types = (await request({ method: 'GET', url: '/api/contenttypes/' })).body as { id: number; model: string }[];
  const ideaType = types.find((ct) => ct.model === 'idea')?.id;
  const comment = await request({ method: 'POST', url: `/api/contenttypes/${ideaType}/objects/1/comments/`, headers: await tokenHeader(db, 5), payload: { comment: 'And benches' } });
  assert.equal(comment.status, 201);

  const initiator = await signedIn(app, 'initiator');
  const dashboard = (await initiator.get('/org/dashboard/projects/project/result/')).text;
  assert.deepEqual(
    ['Active participants', 'Ideas', 'Comments', 'Ratings'].map((name) => number(dashboard, name)),
    ['3', '2', '3', '1'],
  );
  assert.match(dashboard, /<svg viewBox="0 0 640 220" role="img" aria-labelledby="insights-chart-title insights-chart-desc"/);
  assert.match(dashboard, /<title id="insights-chart-title">Participation over time<\/title>/);
  assert.match(dashboard, /<desc id="insights-chart-desc">From March 1, 2026 to [^:]+: 3 active participants, 6 contributions.<\/desc>/);
  assert.equal((dashboard.match(/<polyline /g) ?? []).length, 2);

  const visitor = new Browser(app);
  assert.doesNotMatch((await visitor.get('/org/projects/project/?tab=result')).text, /Statistics/);
  assert.equal((await initiator.post('/org/dashboard/projects/project/result/', { result: '<p>Done</p>', show_insights: 'on' })).status, 302);
  const shown = (await visitor.get('/org/projects/project/?tab=result')).text;
  assert.equal(number(shown, 'Comments'), '3');
  assert.match(shown, /Participation over time/);
  const german = await signedIn(app, 'coinit');
  assert.match((await german.get('/org/projects/project/?tab=result')).text, /<dt>Aktive Teilnehmende<\/dt><dd>3<\/dd>/);
});

test('statistics: the migration\'s backfill gives the counters the services keep', async () => {
  const { db } = await dashboardApp(insightWorld());
  const read = async () => ({
    days: await db.select().from(projectInsightDays).orderBy(asc(projectInsightDays.projectId), asc(projectInsightDays.day)),
    participants: await db.select().from(projectInsightParticipants).orderBy(asc(projectInsightParticipants.projectId), asc(projectInsightParticipants.userId)),
  });
  const kept = await read();
  assert.equal(kept.participants.length, 2);
  assert.deepEqual(kept.days.slice(0, 2).map(({ day, ideas, comments, participants }) => [day, ideas, comments, participants]), [
    ['2026-03-01', 1, 0, 1],
    ['2026-03-02', 0, 2, 1],
  ]);
  await db.delete(projectInsightDays);
  await db.delete(projectInsightParticipants);
  const migration = readFileSync(new URL('../../src/db/migrations/0005_project_insights.sql', import.meta.url), 'utf8');
  for (const statement of migration.slice(migration.indexOf('-- Backfill')).split('--> statement-breakpoint')) await db.execute(sql.raw(statement));
  assert.deepEqual(await read(), kept);
});
