import assert from 'node:assert/strict';
import { test } from 'node:test';
import { sql } from 'drizzle-orm';
import { createTestApp } from '../../helpers.js';
import { load } from '../../fixtures.js';
import { EVENT, eventWorld } from './world.js';

/**
 * The event page shows what a person reads (issue 40): a page of the open questions, newest first,
 * the answered ones folded behind a link, whatever the number of questions asked.
 */
const EVENT_PAGE = '/org/interactiveevents/town-hall/';

test('the event page shows the open questions newest first, 30 to a page, and folds the answered ones', async () => {
  const t = await createTestApp();
  const world = eventWorld();
  const base = new Date('2026-01-01T18:00:00Z').getTime();
  world.live_questions = [
    ...(world.live_questions ?? []),
    ...Array.from({ length: 35 }, (_, i) => ({ id: 100 + i, module: EVENT, text: `Open question ${i + 1}`, affiliation: 11, created: new Date(base + i * 60_000).toISOString() })),
    ...Array.from({ length: 3 }, (_, i) => ({ id: 200 + i, module: EVENT, text: `Answered question ${i + 1}`, affiliation: 11, is_answered: true })),
  ];
  await load(t.db, world);
  const questionsOf = (html: string) => [...html.matchAll(/<p class="live-question-text">([^<]+)<\/p>/g)].map((m) => m[1]);

  const first = await t.request({ method: 'GET', url: EVENT_PAGE });
  assert.equal(first.status, 200);
  assert.match(first.text, /Questions \(36\)/, 'all open questions are counted');
  const firstPage = questionsOf(first.text);
  assert.equal(firstPage.length, 30);
  assert.equal(firstPage[0], 'Will the park stay open?', 'newest first (the fixture question was asked now)');
  assert.equal(firstPage[1], 'Open question 35');
  assert.ok(!first.text.includes('Answered question 1'), 'the answered questions are folded');
  assert.match(first.text, /Answered questions \(3\)/);
  assert.ok(first.text.includes(`href="${EVENT_PAGE}?answered=1"`));
  assert.ok(first.text.includes(`href="${EVENT_PAGE}?page=2"`));

  const second = await t.request({ method: 'GET', url: `${EVENT_PAGE}?page=2` });
  assert.deepEqual(questionsOf(second.text), ['Open question 6', 'Open question 5', 'Open question 4', 'Open question 3', 'Open question 2', 'Open question 1']);
  assert.equal((await t.request({ method: 'GET', url: `${EVENT_PAGE}?page=3` })).status, 404, 'past the end');

  const answered = await t.request({ method: 'GET', url: `${EVENT_PAGE}?answered=1` });
  assert.deepEqual(questionsOf(answered.text).sort(), ['Answered question 1', 'Answered question 2', 'Answered question 3']);
  assert.ok(answered.text.includes(`href="${EVENT_PAGE}"`), 'back to the open questions');
});

test('a like costs three statements before its answer (the session; the question with its event; the like with its live event) and the announcement after it, and counts once per session', async () => {
  const t = await createTestApp();
  await load(t.db, eventWorld());
  const visit = await t.request({ method: 'GET', url: EVENT_PAGE });
  const pairs = ([] as string[]).concat((visit.headers['set-cookie'] as string | string[] | undefined) ?? []).map((c) => c.split(';')[0]);
  const headers = { cookie: pairs.join('; '), 'x-csrftoken': pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '' };
  const count = async () => ((await t.request({ method: 'GET', url: `/api/modules/${EVENT}/interactiveevents/livequestions/` })).body as { id: number; likes: { count: number } }[]).find((q) => q.id === 1)?.likes.count;
  for (const round of [1, 2]) {
    const before = t.database.stats.queries;
    const liked = await t.request({ method: 'POST', url: '/api/livequestions/1/likes/', headers, payload: { value: true } });
    assert.equal(liked.status, 201);
    assert.ok(t.database.stats.queries - before <= 4, `round ${round}: ${t.database.stats.queries - before} statements`);
    assert.equal(await count(), 1, 'liking twice stays one like');
  }
  assert.equal((await t.request({ method: 'POST', url: '/api/livequestions/2/likes/', headers, payload: { value: true } })).status, 404, 'a hidden question is not there for a visitor');
  assert.equal((await t.request({ method: 'POST', url: '/api/livequestions/999/likes/', headers, payload: { value: true } })).status, 404);
  assert.equal((await t.request({ method: 'POST', url: '/api/livequestions/1/likes/', payload: { value: true } })).status, 403, 'no session, no like');
});

test('asking costs two statements before the answer (the event with its affiliations; the question with its live event), and the stream and the list show it', async () => {
  const t = await createTestApp();
  await load(t.db, eventWorld());
  const before = t.database.stats.queries;
  const asked = await t.request({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text: 'Is the square open late?', category: 11 } });
  assert.equal(asked.status, 201);
  assert.ok(t.database.stats.queries - before <= 3, `${t.database.stats.queries - before} statements`);
  const question = asked.body as { id: number; text: string; category: string; likes: { count: number; session_like: boolean } };
  assert.deepEqual([question.text, question.category, question.likes], ['Is the square open late?', 'Residents', { count: 0, session_like: false }]);
  const listed = (await t.request({ method: 'GET', url: `/api/modules/${EVENT}/interactiveevents/livequestions/` })).body as { id: number }[];
  assert.ok(listed.some((q) => q.id === question.id));
  const stored = (await t.db.execute(sql`SELECT event, data FROM live_events WHERE topic = ${`ie:${EVENT}`} ORDER BY id DESC LIMIT 1`)) as unknown as { rows: { event: string; data: Record<string, unknown> }[] };
  const [event] = stored.rows;
  assert.equal(event.event, 'question');
  // Issue 40: and when it was asked, so that a participant's page shows it without fetching anything.
  const { created, ...answered } = event.data;
  assert.deepEqual(answered, question, 'the live event carries the question as the answer does');
  assert.match(String(created), /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  const [row] = ((await t.db.execute(sql`SELECT created FROM live_questions WHERE id = ${question.id}`)) as unknown as { rows: { created: Date | string }[] }).rows;
  assert.equal(created, new Date(row.created).toISOString(), 'as it was stored');
});

test('a question alone, as the live page fetches it: its item with the headings’ counts, nothing of a question the viewer does not see in the open list', async () => {
  const t = await createTestApp();
  const world = eventWorld();
  world.live_questions = [...(world.live_questions ?? []), { id: 20, module: EVENT, text: 'Answered already', affiliation: 11, is_answered: true }];
  await load(t.db, world);
  const page = await t.request({ method: 'GET', url: EVENT_PAGE });
  assert.match(page.text, /<ul class="live-questions" data-live-questions="\/org\/interactiveevents\/town-hall\/questions\/" data-live-new>/, 'the open list says where its questions’ fragments are');
  const open = await t.request({ method: 'GET', url: `${EVENT_PAGE}questions/1/` });
  assert.equal(open.status, 200);
  assert.ok(!open.text.startsWith('<!DOCTYPE'), 'a fragment, not a document');
  assert.match(open.text, /<li id="question-1"/);
  assert.match(open.text, /<h2 id="questions-heading">Questions \(1\)<\/h2>/, 'the hidden question is not counted for a visitor');
  assert.match(open.text, /<h2 id="answered-heading">Answered questions \(1\)<\/h2>/);
  for (const id of [2, 20]) {
    const gone = await t.request({ method: 'GET', url: `${EVENT_PAGE}questions/${id}/` });
    assert.equal(gone.status, 200, `question ${id}`);
    assert.ok(!gone.text.includes('<li'), `question ${id} is not in a visitor's open list`);
  }
  assert.equal((await t.request({ method: 'GET', url: `${EVENT_PAGE}questions/4/` })).status, 200, "another event's question");
  assert.ok(!(await t.request({ method: 'GET', url: `${EVENT_PAGE}questions/4/` })).text.includes('Staff only'));
});
