import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { comments } from '../../src/db/schema/index.js';
import { createComment } from '../../src/features/comments/services.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';
import { Browser } from '../me/accounts/client.js';

const LIST = '/userdashboard/moderation/';
const DETAIL = '/userdashboard/moderation/detail/project/';

/** basicWorld plus project 2 moderated by user 6, idea 1 with comments: 1 reported and unread, 2 a reply, 3 reviewed, 4 on project 2. */
function moderationWorld(): Fixture {
  const world = basicWorld();
  return {
    ...world,
    projects: [...(world.projects ?? []), { id: 2, slug: 'second', name: 'Second project', organisation: 1, moderators: [6] }],
    modules: [...(world.modules ?? []), { id: 2, project: 2, name: 'More ideas', phases: [] }],
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Trees', description: 'Plant them', created: '2024-03-05T14:07:00Z' },
      { id: 2, module: 2, creator: 5, name: 'Benches', description: 'Sit', created: '2024-03-05T14:07:00Z' },
    ],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'Rude <words>' },
      { id: 2, creator: 4, target: { type: 'comment', id: 1 }, comment: 'A reply' },
      { id: 3, creator: 4, target: { type: 'idea', id: 1 }, comment: 'Old news', is_reviewed: true },
      { id: 4, creator: 5, target: { type: 'idea', id: 2 }, comment: 'Elsewhere' },
    ],
    reports: [{ creator: 4, target: { type: 'comment', id: 1 }, description: 'rude' }],
  };
}

async function world() {
  const t = await createTestApp();
  await load(t.db, moderationWorld());
  const as = async (username: string, headers: Record<string, string> = {}) => {
    const browser = new Browser(t.app, headers);
    assert.equal((await browser.login(username, `${username}-password`)).status, 302);
    return browser;
  };
  return { ...t, as };
}

test('anonymous visitors are sent to the login page', async () => {
  const { app } = await world();
  for (const path of [LIST, DETAIL]) {
    const response = await new Browser(app).get(path);
    assert.equal(response.status, 302);
    assert.equal(response.location, `/accounts/login/?next=${path}`);
  }
});

test('the moderation page: whoever may moderate a project (moderators, initiators, superusers), with unread counts', async () => {
  const { as } = await world();
  const moderator = await as('moderator');
  const page = await moderator.get(LIST);
  assert.equal(page.status, 200);
  assert.match(page.text, new RegExp(`<a href="${DETAIL}">Project</a>`));
  assert.match(page.text, /1 unread reported comment · 2 unread comments/);
  assert.doesNotMatch(page.text, /Second project/);
  assert.match(page.text, /<a href="\/userdashboard\/moderation\/" aria-current="page">Moderation<\/a>/);
  // Moderators follow their projects, so the organisation is in the sidebar.
  assert.match(page.text, /<a href="\/org\/">Organisation<\/a>/);
  for (const username of ['initiator', 'admin']) {
    const list = await (await as(username)).get(LIST);
    assert.equal(list.status, 200, username);
    assert.match(list.text, /Second project/, username);
  }
  for (const username of ['user', 'member']) {
    const refused = await (await as(username)).get(LIST);
    assert.equal(refused.status, 403, username);
    assert.match(refused.text, /Permission denied/);
  }
});

test('the Moderation tab shows for everyone who may moderate a project', async () => {
  const { as } = await world();
  for (const username of ['moderator', 'initiator', 'admin']) {
    assert.match((await (await as(username)).get('/userdashboard/overview/')).text, /href="\/userdashboard\/moderation\/"/, username);
  }
  for (const username of ['user', 'member']) {
    assert.doesNotMatch((await (await as(username)).get('/userdashboard/overview/')).text, /href="\/userdashboard\/moderation\/"/, username);
  }
});

test('the queue filters unread, reported and blocked comments, names the idea of each and shows the reasons of reports', async () => {
  const { as, db } = await world();
  await db.update(comments).set({ isBlocked: true }).where(eq(comments.id, 3));
  const moderator = await as('moderator');
  const ids = (text: string) => [...text.matchAll(/<li id="comment-(\d+)"/g)].map((m) => Number(m[1])).sort();
  assert.deepEqual(ids((await moderator.get(DETAIL)).text), [1, 2, 3]);
  assert.deepEqual(ids((await moderator.get(`${DETAIL}?filter=unread`)).text), [1, 2]);
  assert.deepEqual(ids((await moderator.get(`${DETAIL}?filter=reported`)).text), [1]);
  assert.deepEqual(ids((await moderator.get(`${DETAIL}?filter=blocked`)).text), [3]);
  const page = await moderator.get(DETAIL);
  assert.match(page.text, /On: <a href="\/org\/ideas\/2024-00001\/">Trees<\/a>/);
  assert.match(page.text, /<strong>member<\/strong>: <span class="pre-line">rude<\/span>/);
  assert.equal((await moderator.get(`${DETAIL}?filter=nonsense`)).status, 400);
});

test('the detail page: the project moderator, initiator and superuser; others 403; unknown projects 404', async () => {
  const { as } = await world();
  for (const username of ['moderator', 'initiator', 'admin']) assert.equal((await (await as(username)).get(DETAIL)).status, 200, username);
  for (const username of ['other', 'user', 'member']) assert.equal((await (await as(username)).get(DETAIL)).status, 403, username);
  assert.equal((await (await as('moderator')).get('/userdashboard/moderation/detail/nope/')).status, 404);
  const page = await (await as('moderator')).get(DETAIL);
  assert.match(page.text, /Rude &lt;words>|Rude/);
  assert.doesNotMatch(page.text, /<words>/);
  assert.match(page.text, /A reply/);
  assert.match(page.text, /Old news/);
  assert.doesNotMatch(page.text, /Elsewhere/);
  assert.match(page.text, /href="\/org\/ideas\/2024-00001\/\?comment=1#comment-1"/);
  // Most reported first.
  assert.ok(page.text.indexOf('id="comment-1"') < page.text.indexOf('id="comment-3"'));
});

test('mark read/unread and block/unblock through the forms (CSRF and permission checked)', async () => {
  const { as, db } = await world();
  const moderator = await as('moderator');
  await moderator.get(DETAIL);
  const state = async () => (await db.select().from(comments).where(eq(comments.id, 1)))[0];
  const action = (browser: Browser, name: string, id = 1, csrf = true) => browser.post(`${DETAIL}comments/${id}/`, { action: name }, csrf);
  assert.equal((await action(moderator, 'read', 1, false)).status, 403);
  const read = await action(moderator, 'read');
  assert.equal(read.status, 302);
  assert.equal(read.location, `${DETAIL}#comment-1`);
  assert.equal((await state()).isReviewed, true);
  await action(moderator, 'unread');
  assert.equal((await state()).isReviewed, false);
  await action(moderator, 'block');
  assert.equal((await state()).isBlocked, true);
  assert.match((await moderator.get(DETAIL)).text, /Unblock/);
  await action(moderator, 'unblock');
  assert.equal((await state()).isBlocked, false);
  assert.equal((await action(moderator, 'explode')).status, 400);
  assert.equal((await action(moderator, 'read', 4)).status, 404);
  assert.equal((await action(moderator, 'read', 99999999999)).status, 404);
  const outsider = await as('other');
  await outsider.get(LIST);
  assert.equal((await action(outsider, 'block')).status, 403);
  assert.equal((await state()).isBlocked, false);
});

test('the moderation pages in German', async () => {
  const { as } = await world();
  const moderator = await as('moderator');
  await moderator.post('/i18n/setlang/', { language: 'de', next: LIST });
  const list = await moderator.get(LIST);
  assert.match(list.text, /1 ungelesener gemeldeter Kommentar ·/);
  const detail = await moderator.get(DETAIL);
  assert.match(detail.text, /Als gelesen markieren/);
  assert.match(detail.text, /Blockieren/);
});

test('the detail page pages through many comments, 50 a page', async () => {
  const { as, db } = await world();
  await db.transaction(async (tx) => {
    for (let i = 0; i < 50; i++) await createComment(tx, { creatorId: 6, target: { type: 'idea', id: 1 }, comment: `Extra ${i}` });
  });
  const moderator = await as('moderator');
  const first = await moderator.get(DETAIL);
  assert.equal(first.text.match(/class="moderation-comment"/g)?.length, 50);
  assert.match(first.text, new RegExp(`href="${DETAIL}\\?page=2"`));
  const second = await moderator.get(`${DETAIL}?page=2`);
  assert.equal(second.status, 200);
  assert.equal(second.text.match(/class="moderation-comment"/g)?.length, 3);
  assert.equal((await moderator.get(`${DETAIL}?page=3`)).status, 404);
});
