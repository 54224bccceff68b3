import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { withDatabase } from '../../../src/db/admin.js';
import { postgresSuite } from '../../database.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { load, tokenHeader } from '../../fixtures.js';
import { EVENT, eventWorld } from './world.js';
import { openStream } from './sse.js';

const streamPath = `/api/modules/${EVENT}/interactiveevents/live/`;
const open = (port: number, headers: Record<string, string> = {}, path = streamPath) => openStream(port, path, headers);
const ask = (t: TestApp, text: string) => t.request({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, payload: { text, category: 11 } });

async function listening(overrides = {}): Promise<{ t: TestApp; port: number }> {
  const t = await createTestApp(overrides);
  await load(t.db, eventWorld());
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  return { t, port: (t.app.server.address() as AddressInfo).port };
}

test('the event stream answers text/event-stream and sends a new question with its id', async () => {
  const { t, port } = await listening();
  const stream = await open(port);
  assert.equal(stream.response.statusCode, 200);
  assert.match(String(stream.response.headers['content-type']), /^text\/event-stream/);
  await stream.next((e) => e.event === undefined && e.comment === undefined); // the retry line
  assert.equal((await ask(t, 'Is the stream live?')).status, 201);
  const event = await stream.next((e) => e.event === 'question');
  assert.match(event.id ?? '', /^\d+:\d+:[\d,]*$/, 'the id is the position the stream reached');
  const data = JSON.parse(event.data ?? '{}') as { text: string; likes: { count: number } };
  assert.equal(data.text, 'Is the stream live?');
  assert.equal(data.likes.count, 0);
  // A like counts for the session of a page view (issue 36.3).
  const page = await t.request({ method: 'GET', url: '/org/interactiveevents/town-hall/' });
  const pairs = ([] as string[]).concat((page.headers['set-cookie'] as string | string[] | undefined) ?? []).map((c) => c.split(';')[0]);
  const csrf = pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '';
  const liked = await t.request({ method: 'POST', url: `/api/livequestions/1/likes/`, headers: { cookie: pairs.join('; '), 'x-csrftoken': csrf }, payload: { value: true } });
  assert.equal(liked.status, 201);
  const likes = await stream.next((e) => e.event === 'likes');
  assert.deepEqual(JSON.parse(likes.data ?? '{}'), { id: 1, count: 1 });
  stream.close();
});

test('a client that reconnects with Last-Event-ID gets what it missed, nothing twice', async () => {
  const { t, port } = await listening();
  const first = await open(port);
  await ask(t, 'First');
  const seen = await first.next((e) => e.event === 'question');
  first.close();
  await ask(t, 'Second, while away');
  await ask(t, 'Third, while away');
  const again = await open(port, { 'last-event-id': seen.id ?? '' });
  const missed = await again.next((e) => e.event === 'question' && (e.data ?? '').includes('Third'));
  const texts = again.events.filter((e) => e.event === 'question').map((e) => (JSON.parse(e.data ?? '{}') as { text: string }).text);
  assert.deepEqual(texts, ['Second, while away', 'Third, while away']);
  assert.notEqual(missed.id, seen.id);
  again.close();
  // A page passes the position it was rendered at: the stream starts right after it.
  const fromPage = await open(port, {}, `${streamPath}?lastEventId=${missed.id}`);
  await ask(t, 'Fourth');
  await fromPage.next((e) => e.event === 'question');
  assert.deepEqual(fromPage.events.filter((e) => e.event).map((e) => (JSON.parse(e.data ?? '{}') as { text: string }).text), ['Fourth']);
  fromPage.close();
});

test('visitors hear that a question was hidden; moderators get the question itself', async () => {
  const { t, port } = await listening();
  const visitor = await open(port);
  const moderatorHeaders = await tokenHeader(t.db, 3);
  const moderator = await open(port, moderatorHeaders);
  const hidden = await t.request({ method: 'PATCH', url: `/api/modules/${EVENT}/interactiveevents/livequestions/1/`, headers: moderatorHeaders, payload: { is_hidden: true } });
  assert.equal(hidden.status, 200);
  const seenByVisitor = await visitor.next((e) => e.event === 'question_hidden');
  assert.deepEqual(JSON.parse(seenByVisitor.data ?? '{}'), { id: 1 });
  const seenByModerator = await moderator.next((e) => e.event === 'question');
  assert.equal((JSON.parse(seenByModerator.data ?? '{}') as { is_hidden: boolean }).is_hidden, true);
  assert.ok(!visitor.events.some((e) => e.event === 'question'), 'the hidden text never reaches a visitor');
  visitor.close();
  moderator.close();
});

test('a quiet stream gets a heartbeat comment', async (context) => {
  context.mock.timers.enable({ apis: ['setInterval'] });
  const { port } = await listening();
  const stream = await open(port);
  context.mock.timers.tick(15_000);
  assert.equal((await stream.next((e) => e.comment === 'heartbeat')).comment, 'heartbeat');
  stream.close();
});

test('one address holds at most CONNECTIONS_PER_IP streams; the next is told 429', async () => {
  const { t, port } = await listening({ connections: { headersTimeoutMs: 10_000, requestTimeoutMs: 60_000, keepAliveTimeoutMs: 5_000, connectionsPerIp: 2 } });
  const streams = [await open(port), await open(port)];
  const over = await t.app.inject({ method: 'GET', url: streamPath, remoteAddress: '127.0.0.1' });
  assert.equal(over.statusCode, 429);
  for (const s of streams) s.close();
  assert.equal((await t.request({ method: 'GET', url: '/api/modules/12/interactiveevents/live/' })).status, 404, 'a private event streams nothing to outsiders');
});

/**
 * Writers of one topic take no lock, so an event may commit after one with a higher id. A stream
 * still gets both, and a client that reconnects with the position it had after the later id gets
 * the earlier one when it commits. PostgreSQL only: PGlite runs one transaction at a time.
 */
if (postgresSuite) test('an event that commits after a later one is neither lost live nor on reconnect, and its writer waited for nobody', async () => {
  const { t, port } = await listening();
  const [named] = ((await t.db.execute(sql`select current_database() as name`)) as unknown as { rows: { name: string }[] }).rows;
  assert.ok(named && process.env.TEST_DATABASE_URL);
  const slow = new pg.Client({ connectionString: withDatabase(process.env.TEST_DATABASE_URL, named.name) });
  await slow.connect();
  try {
    const stream = await open(port);
    await stream.next((e) => e.id !== undefined);
    await slow.query('begin');
    await slow.query(`insert into live_events (topic, event, data) values ('ie:${EVENT}', 'likes', '{"id":1,"count":41}')`);
    await slow.query(`select pg_notify('allmende_live', 'ie:${EVENT}')`);
    assert.equal((await ask(t, 'Committed first, with the higher id')).status, 201, 'the second writer does not wait for the first');
    const later = await stream.next((e) => e.event === 'question');
    const reconnecting = await open(port, { 'last-event-id': later.id ?? '' });
    await slow.query('commit');
    const earlier = await stream.next((e) => e.event === 'likes');
    assert.deepEqual(JSON.parse(earlier.data ?? '{}'), { id: 1, count: 41 });
    assert.deepEqual(JSON.parse((await reconnecting.next((e) => e.event === 'likes')).data ?? '{}'), { id: 1, count: 41 });
    assert.deepEqual(reconnecting.events.filter((e) => e.event).map((e) => e.event), ['likes'], 'the reconnecting client gets only what it had not seen');
    const afterwards = await open(port, { 'last-event-id': later.id ?? '' });
    assert.deepEqual(JSON.parse((await afterwards.next((e) => e.event === 'likes')).data ?? '{}'), { id: 1, count: 41 }, 'replayed from the table');
    assert.deepEqual(afterwards.events.filter((e) => e.event).map((e) => e.event), ['likes']);
    for (const s of [stream, reconnecting, afterwards]) s.close();
  } finally {
    await slow.end();
  }
});

test('a client away longer than events are kept, or with a position this database never gave, is told to reset', async (context) => {
  context.mock.timers.enable({ apis: ['setInterval'] });
  const { t, port } = await listening();
  const first = await open(port);
  const position = (await first.next((e) => e.id !== undefined)).id ?? '';
  first.close();
  assert.equal((await ask(t, 'Asked while the client was away')).status, 201);
  await t.db.execute(sql`update live_events set created = now() - interval '2 hours'`);
  context.mock.timers.tick(10 * 60 * 1000); // the purge runs every 10 minutes
  const purged = async () => ((await t.db.execute(sql`select count(*)::int as n from live_purged`)) as unknown as { rows: { n: number }[] }).rows[0].n;
  while ((await purged()) === 0) await new Promise((resolve) => setImmediate(resolve));
  const back = await open(port, { 'last-event-id': position });
  await back.next((e) => e.event === 'reset');
  assert.ok(!back.events.some((e) => e.event === 'question'), 'nothing is replayed over a gap');
  back.close();
  const forged = await open(port, { 'last-event-id': '9:3:' });
  await forged.next((e) => e.event === 'reset');
  forged.close();
});
