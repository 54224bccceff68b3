import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { Browser } from '../../me/accounts/client.js';
import { load, tokenHeader } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { RIGHTS_RECHECK_MS } from '../../../src/http/live.js';
import { EVENT, eventWorld } from './world.js';
import { openStream } from './sse.js';

/**
 * Issue 36.2: a stream is authorised when it opens and again whenever its project's pages change
 * (access, draft state, moderators, participants, organisation roles): it closes when the viewer
 * may no longer see it, and is downgraded (with a `reset`, so the page reads itself again) when
 * the viewer may see less. The re-check runs on a timer, mocked here.
 */
const streamPath = `/api/modules/${EVENT}/interactiveevents/live/`;
type Timers = { mock: { timers: { enable(options: { apis: 'setInterval'[] }): void; tick(ms: number): void } } };

async function listening(context: Timers): Promise<{ t: TestApp; port: number; as: (username: string) => Promise<Browser> }> {
  context.mock.timers.enable({ apis: ['setInterval'] });
  const t = await createTestApp();
  await load(t.db, eventWorld());
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const as = async (username: string) => {
    const browser = new Browser(t.app);
    assert.equal((await browser.login(username, `${username}-password`)).status, 302);
    return browser;
  };
  return { t, port: (t.app.server.address() as AddressInfo).port, as };
}

test('a moderator removed from the project stops getting hidden questions on an open stream', async (context) => {
  const { t, port, as } = await listening(context);
  const moderatorHeaders = await tokenHeader(t.db, 3);
  const stream = await openStream(port, streamPath, moderatorHeaders);
  await stream.next((e) => e.id !== undefined);
  const initiator = await as('initiator');
  assert.equal((await initiator.post('/org/dashboard/projects/project/moderators/', { action: 'remove_member', user_id: '3' })).status, 302);
  context.mock.timers.tick(RIGHTS_RECHECK_MS);
  await stream.next((e) => e.event === 'reset');
  const hidden = await t.request({ method: 'PATCH', url: `/api/modules/${EVENT}/interactiveevents/livequestions/1/`, headers: await tokenHeader(t.db, 2), payload: { is_hidden: true } });
  assert.equal(hidden.status, 200);
  assert.deepEqual(JSON.parse((await stream.next((e) => e.event === 'question_hidden')).data ?? '{}'), { id: 1 });
  assert.ok(!stream.events.some((e) => e.event === 'question'), 'the hidden text no longer reaches the former moderator');
  stream.close();
});

test('an anonymous stream of a project made private ends, and hears no new question', async (context) => {
  const { t, port, as } = await listening(context);
  const stream = await openStream(port, streamPath);
  await stream.next((e) => e.id !== undefined);
  const moderatorStream = await openStream(port, streamPath, await tokenHeader(t.db, 3));
  await moderatorStream.next((e) => e.id !== undefined);
  const initiator = await as('initiator');
  const saved = await initiator.postMultipart('/org/dashboard/projects/project/basic/', { name: 'Project', description: 'Now private', access: 'PRIVATE' });
  assert.equal(saved.status, 302, saved.text.slice(0, 300));
  context.mock.timers.tick(RIGHTS_RECHECK_MS);
  await stream.ended();
  assert.equal((await t.request({ method: 'POST', url: `/api/modules/${EVENT}/interactiveevents/livequestions/`, headers: await tokenHeader(t.db, 4), payload: { text: 'Only for members now', category: 11 } })).status, 201);
  const asked = await moderatorStream.next((e) => e.event === 'question');
  assert.match(asked.data ?? '', /Only for members now/, 'a moderator keeps the stream');
  assert.ok(!stream.events.some((e) => e.event === 'question'), 'the ended stream got nothing');
  assert.equal((await t.request({ method: 'GET', url: streamPath })).status, 404, 'and may not open again');
  moderatorStream.close();
});

test("the moderation queue's stream ends when its moderator is removed from the project", async (context) => {
  const { t, port, as } = await listening(context);
  const stream = await openStream(port, '/api/userdashboard/moderation/1/live/', await tokenHeader(t.db, 3));
  assert.equal(stream.response.statusCode, 200);
  await stream.next((e) => e.id !== undefined);
  const kept = await openStream(port, '/api/userdashboard/moderation/1/live/', await tokenHeader(t.db, 2));
  await kept.next((e) => e.id !== undefined);
  const initiator = await as('initiator');
  assert.equal((await initiator.post('/org/dashboard/projects/project/moderators/', { action: 'remove_member', user_id: '3' })).status, 302);
  context.mock.timers.tick(RIGHTS_RECHECK_MS);
  await stream.ended();
  assert.ok(!kept.response.complete, "the initiator's stream stays open");
  kept.close();
});

test("an initiator removed from the organisation loses the moderation queue's stream", async (context) => {
  const { t, port, as } = await listening(context);
  const stream = await openStream(port, '/api/userdashboard/moderation/1/live/', await tokenHeader(t.db, 2));
  assert.equal(stream.response.statusCode, 200);
  await stream.next((e) => e.id !== undefined);
  const admin = await as('admin');
  assert.equal((await admin.post('/backoffice/organisations/org/', { action: 'remove_initiator', user_id: '2' })).status, 302);
  context.mock.timers.tick(RIGHTS_RECHECK_MS);
  await stream.ended();
});

test('a deactivated account loses its open streams', async (context) => {
  const { t, port, as } = await listening(context);
  const stream = await openStream(port, '/api/userdashboard/moderation/1/live/', await tokenHeader(t.db, 3));
  await stream.next((e) => e.id !== undefined);
  const admin = await as('admin');
  assert.equal((await admin.post('/backoffice/users/', { action: 'deactivate', user_id: '3' })).status, 302);
  context.mock.timers.tick(RIGHTS_RECHECK_MS);
  await stream.ended();
});
