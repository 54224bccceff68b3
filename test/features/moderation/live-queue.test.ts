import assert from 'node:assert/strict';
import type { AddressInfo } from 'node:net';
import { test } from 'node:test';
import { eq, inArray } from 'drizzle-orm';
import { comments } from '../../../src/db/schema/index.js';
import { Browser } from '../../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { openStream } from '../interactiveevents/sse.js';

const DETAIL = '/userdashboard/moderation/detail/project/';

async function world() {
  const t = await createTestApp();
  await load(t.db, {
    ...basicWorld(),
    ideas: [{ id: 1, module: 1, creator: 5, name: 'Trees', description: 'x', category: 1 }],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'One' },
      { id: 2, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Two' },
      { id: 3, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Three', is_reviewed: true },
    ],
  });
  const as = async (username: string) => {
    const browser = new Browser(t.app);
    assert.equal((await browser.login(username, `${username}-password`)).status, 302);
    return browser;
  };
  return { ...t, as };
}

const states = async (db: Awaited<ReturnType<typeof world>>['db']) =>
  (await db.select({ id: comments.id, isReviewed: comments.isReviewed, isBlocked: comments.isBlocked }).from(comments).where(inArray(comments.id, [1, 2, 3])).orderBy(comments.id)).map(
    (c) => `${c.id}:${c.isReviewed ? 'read' : 'unread'}${c.isBlocked ? ',blocked' : ''}`,
  );

test('moderators act on a selection of comments at once and undo the last action', async () => {
  const { as, db } = await world();
  const moderator = await as('moderator');
  const queue = await moderator.get(DETAIL);
  assert.match(queue.text, /<input type="checkbox" id="select-1" name="ids" value="1" form="bulk-form"\/>/);
  assert.match(queue.text, /data-live-stream="\/api\/userdashboard\/moderation\/1\/live\/"/);

  const read = await moderator.post(`${DETAIL}bulk/`, { action: 'read', ids: ['1', '2'], filter: 'all', page: '1' });
  assert.equal(read.status, 302);
  assert.deepEqual(await states(db), ['1:read', '2:read', '3:read']);
  assert.match((await moderator.get(DETAIL)).text, /Undo the last action/);
  const undone = await moderator.post(`${DETAIL}undo/`, { filter: 'all', page: '1' });
  assert.equal(undone.status, 302);
  assert.deepEqual(await states(db), ['1:unread', '2:unread', '3:read'], 'the comments are as they were');
  assert.doesNotMatch((await moderator.get(DETAIL)).text, /Undo the last action/);

  await moderator.post(`${DETAIL}bulk/`, { action: 'block', ids: ['2', '3'] });
  assert.deepEqual(await states(db), ['1:unread', '2:unread,blocked', '3:read,blocked']);
  await moderator.post(`${DETAIL}comments/1/`, { action: 'read' });
  await moderator.post(`${DETAIL}undo/`, {});
  assert.deepEqual(await states(db), ['1:unread', '2:unread,blocked', '3:read,blocked'], 'undo takes back the last action only');
  await moderator.post(`${DETAIL}bulk/`, { action: 'unblock', ids: ['2', '3'] });
  assert.deepEqual(await states(db), ['1:unread', '2:unread', '3:read']);

  assert.equal((await moderator.post(`${DETAIL}bulk/`, { action: 'delete', ids: ['1'] })).status, 400);
  const user = await as('user');
  assert.equal((await user.post(`${DETAIL}bulk/`, { action: 'read', ids: ['1'] })).status, 403);
  assert.equal((await user.post(`${DETAIL}undo/`, {})).status, 403);
  assert.equal((await db.select().from(comments).where(eq(comments.id, 1)))[0].isReviewed, false);
});

test('the queue hears new comments and reports as they arrive; only its moderators may listen', async () => {
  const t = await world();
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  const port = (t.app.server.address() as AddressInfo).port;
  const path = '/api/userdashboard/moderation/1/live/';
  assert.equal((await t.request({ method: 'GET', url: path })).status, 401);
  assert.equal((await t.request({ method: 'GET', url: path, headers: await tokenHeader(t.db, 5) })).status, 403);
  const stream = await openStream(port, path, await tokenHeader(t.db, 3));
  assert.equal(stream.response.statusCode, 200);
  const author = await tokenHeader(t.db, 5);
  const commented = await t.request({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: author, payload: { comment: 'A new comment' } });
  assert.equal(commented.status, 201);
  const comment = await stream.next((e) => e.event === 'comment');
  assert.equal((JSON.parse(comment.data ?? '{}') as { id: number }).id, (commented.body as { id: number }).id);
  const reported = await t.request({ method: 'POST', url: '/api/reports/', headers: await tokenHeader(t.db, 6), payload: { content_type: 4, object_pk: '1', description: 'Spam' } });
  assert.equal(reported.status, 201, JSON.stringify(reported.body));
  assert.deepEqual(JSON.parse((await stream.next((e) => e.event === 'report')).data ?? '{}'), { type: 'idea', id: 1 });
  stream.close();
});
