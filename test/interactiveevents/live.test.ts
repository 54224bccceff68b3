import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { createTestApp, type TestApp } from '../helpers.js';
import { load, tokenHeader } from '../fixtures.js';
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
  assert.match(event.id ?? '', /^\d+$/);
  const data = JSON.parse(event.data ?? '{}') as { text: string; likes: { count: number } };
  assert.equal(data.text, 'Is the stream live?');
  assert.equal(data.likes.count, 0);
  const liked = await t.request({ method: 'POST', url: `/api/livequestions/1/likes/`, payload: { value: true } });
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
  assert.ok(Number(missed.id) > Number(seen.id));
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
