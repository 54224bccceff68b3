import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import sharp from 'sharp';
import { actions, follows } from '../../../src/db/schema/index.js';
import { ideas } from '../../../src/features/ideas/schema.js';
import { createComment } from '../../../src/features/comments/services.js';
import { createBrowserSession, CSRF_COOKIE, CSRF_HEADER, SESSION_COOKIE } from '../../../src/http/session.js';
import { basicWorldWith, daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

type Json = Record<string, unknown>;

const IDEA_FIELDS = [
  'pk',
  'name',
  'description',
  'creator',
  'created',
  'reference_number',
  'image',
  'comment_count',
  'positive_rating_count',
  'negative_rating_count',
  'labels',
  'category',
  'content_type',
  'user_rating',
  'has_rating_permission',
  'has_commenting_permission',
  'has_changing_permission',
  'has_deleting_permission',
  'custom_fields',
];

/** basicWorld plus module 2 (same project, no categories, label 2) and module 3 (category 3). */
function world() {
  const running = [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }];
  return basicWorldWith({
    modules: [
      { id: 2, project: 1, name: 'Plain', phases: running, labels: [{ id: 2, name: 'Other' }] },
      { id: 3, project: 1, name: 'Third', phases: running, categories: [{ id: 3, name: 'Elsewhere' }] },
    ],
    ideas: [{ id: 100, module: 2, creator: 6, name: 'Old idea', description: '<p>Old <b>text</b></p>', created: '2022-07-01T15:00:00Z' }],
  });
}

function multipart(fields: [string, string][], file?: { name: string; data: Buffer; type: string }) {
  const boundary = '----allmendeTestBoundary';
  const parts: Buffer[] = fields.map(([name, value]) => Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`));
  if (file) {
    parts.push(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${file.name}"; filename="upload"\r\nContent-Type: ${file.type}\r\n\r\n`));
    parts.push(file.data, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(parts), contentType: `multipart/form-data; boundary=${boundary}` };
}

const png = (width: number, height: number) => sharp({ create: { width, height, channels: 3, background: { r: 200, g: 50, b: 50 } } }).png().toBuffer();

test('the idea API', async (t) => {
  const { db, request, config, database } = await createTestApp();
  await load(db, world());
  const user = await tokenHeader(db, 5);
  const moderator = await tokenHeader(db, 3);
  const post = (moduleId: number, payload: Json, headers = user) => request({ method: 'POST', url: `/api/modules/${moduleId}/ideas/`, headers, payload });
  const form = (moduleId: number, body: string, extra: Record<string, string> = {}) =>
    request({ method: 'POST', url: `/api/modules/${moduleId}/ideas/`, headers: { ...user, 'content-type': 'application/x-www-form-urlencoded', ...extra }, payload: body });

  await t.test('create with JSON answers 201 with every IdeaSerializer field in order', async () => {
    const response = await post(1, { name: 'Bike lane', description: '<p>Paint <em>it</em> green</p>', category: 1, labels: [1] });
    assert.equal(response.status, 201, response.text);
    const body = response.body as Json;
    assert.deepEqual(Object.keys(body), IDEA_FIELDS);
    assert.equal(body.name, 'Bike lane');
    assert.equal(body.description, 'Paint it green');
    assert.equal(body.creator, 'user');
    assert.deepEqual(body.category, { id: 1, name: 'Traffic' });
    assert.deepEqual(body.labels, [{ id: 1, name: 'Urgent' }]);
    assert.equal(body.content_type, 4);
    assert.equal(body.reference_number, `${new Date().getUTCFullYear()}-${String(body.pk).padStart(5, '0')}`);
    assert.equal(body.image, null);
    assert.equal(body.user_rating, null);
    assert.equal(body.comment_count, 0);
    assert.equal(body.has_changing_permission, true);
    const read = await request({ method: 'GET', url: `/api/modules/1/ideas/${String(body.pk)}/`, headers: user });
    assert.deepEqual(body, read.body, 'the answer of the write shows the idea as a later read does');
  });

  await t.test('create form-encoded (repeated labels, Accept: application/json) answers JSON', async () => {
    const response = await form(2, 'name=Form+idea&description=Plain&labels=2&labels=2', { accept: 'application/json' });
    assert.equal(response.status, 201, response.text);
    assert.match(String(response.headers['content-type']), /application\/json/);
    assert.deepEqual((response.body as Json).labels, [{ id: 2, name: 'Other' }]);
    assert.equal((response.body as Json).category, null);
  });

  await t.test('creating an idea records its "add" action and makes the creator follow the project', async () => {
    const response = await post(2, { name: 'Followed', description: 'x' });
    const pk = (response.body as Json).pk as number;
    const [action] = await db.select().from(actions).where(and(eq(actions.objType, 'idea'), eq(actions.objId, pk)));
    assert.equal(action.verb, 'add');
    assert.equal(action.actorId, 5);
    assert.equal(action.targetType, 'project');
    const [follow] = await db.select().from(follows).where(and(eq(follows.creatorId, 5), eq(follows.projectId, 1)));
    assert.equal(follow.enabled, true);
  });

  await t.test('D2: a module with categories requires one of its own categories', async () => {
    assert.deepEqual((await post(1, { name: 'n', description: 'd' })).body, { category: ['This field is required.'] });
    assert.deepEqual((await post(1, { name: 'n', description: 'd', category: null })).body, { category: ['This field is required.'] });
    assert.deepEqual((await form(1, 'name=n&description=d&category=')).body, { category: ['This field is required.'] });
    const foreign = await post(1, { name: 'n', description: 'd', category: 3 });
    assert.equal(foreign.status, 400);
    assert.deepEqual(foreign.body, { category: ['Invalid pk "3" - object does not exist.'] });
    for (const category of ['abc', 99999999999, -1]) {
      const response = await post(1, { name: 'n', description: 'd', category });
      assert.equal(response.status, 400, `category ${category}`);
      assert.ok((response.body as Json).category);
    }
  });

  await t.test('D2: a module without categories takes no category, an empty one or null', async () => {
    assert.equal((await post(2, { name: 'n', description: 'd' })).status, 201);
    assert.equal((await post(2, { name: 'n', description: 'd', category: null })).status, 201);
    assert.equal((await form(2, 'name=n&description=d&category=')).status, 201);
    assert.equal((await post(2, { name: 'n', description: 'd', category: 1 })).status, 400);
  });

  await t.test("labels must be the module's own", async () => {
    const response = await post(1, { name: 'n', description: 'd', category: 1, labels: [2] });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { labels: ['Invalid pk "2" - object does not exist.'] });
    assert.equal((await form(1, 'name=n&description=d&category=1&labels=x')).status, 400);
  });

  await t.test('name and description are required, not blank, and name has at most 120 characters', async () => {
    assert.deepEqual((await post(2, { description: 'd' })).body, { name: ['This field is required.'] });
    assert.deepEqual((await post(2, { name: 'n' })).body, { description: ['This field is required.'] });
    assert.deepEqual((await post(2, { name: '   ', description: 'd' })).body, { name: ['This field may not be blank.'] });
    assert.deepEqual((await post(2, { name: 'x'.repeat(121), description: 'd' })).body, { name: ['Ensure this field has no more than 120 characters.'] });
    assert.deepEqual((await form(2, 'name=a%00b&description=d')).body, { name: ['Null characters are not allowed.'] });
  });

  await t.test('malformed bodies are 400, unknown media types 415 and oversized uploads 413, never 500', async () => {
    const bad = await request({ method: 'POST', url: '/api/modules/2/ideas/', headers: { ...user, 'content-type': 'application/json' }, payload: '{"name": ' });
    assert.equal(bad.status, 400);
    assert.ok((bad.body as Json).detail);
    const list = await request({ method: 'POST', url: '/api/modules/2/ideas/', headers: { ...user, 'content-type': 'application/json' }, payload: '[1, 2]' });
    assert.equal(list.status, 400);
    const text = await request({ method: 'POST', url: '/api/modules/2/ideas/', headers: { ...user, 'content-type': 'text/plain' }, payload: 'hello' });
    assert.equal(text.status, 415);
    for (const [type, payload] of [
      ['multipart/form-data', 'garbage'],
      ['multipart/form-data; boundary=xyz', '--xyz\r\nContent-Disposition: form-data; name="name"\r\n\r\nabc'],
    ]) {
      const response = await request({ method: 'POST', url: '/api/modules/2/ideas/', headers: { ...user, 'content-type': type }, payload });
      assert.equal(response.status, 400, type);
      assert.match(String((response.body as Json).detail), /^Multipart form parse error/);
    }
    const huge = multipart([['name', 'n'], ['description', 'd']], { name: 'image', data: Buffer.alloc(5.5 * 1024 * 1024), type: 'image/png' });
    const tooLarge = await request({ method: 'POST', url: '/api/modules/2/ideas/', headers: { ...user, 'content-type': huge.contentType }, payload: huge.payload });
    assert.equal(tooLarge.status, 413);
  });

  await t.test('a missing module, a missing idea and ids that are no int32 answer 404', async () => {
    for (const url of ['/api/modules/999/ideas/', '/api/modules/abc/ideas/', '/api/modules/2147483648/ideas/', '/api/modules/1/ideas/100/', '/api/modules/2/ideas/0/', '/api/modules/2/ideas/99999999999/', '/api/modules/2/ideas/x/']) {
      const response = await request({ method: 'GET', url, headers: user });
      assert.equal(response.status, 404, url);
      assert.deepEqual(response.body, { detail: 'Not found.' });
    }
    assert.equal((await post(999, { name: 'n', description: 'd' })).status, 404);
    assert.equal((await request({ method: 'PATCH', url: '/api/modules/2/ideas/12345/', headers: user, payload: {} })).status, 404);
    assert.equal((await request({ method: 'DELETE', url: '/api/modules/abc/ideas/1/', headers: user })).status, 404);
  });

  await t.test('anonymous callers list and retrieve ideas of a public project with every has_* false', async () => {
    const response = await request({ method: 'GET', url: '/api/modules/2/ideas/' });
    assert.equal(response.status, 200);
    const list = response.body as Json[];
    assert.ok(list.length >= 1);
    for (const idea of list) {
      assert.deepEqual(
        [idea.has_rating_permission, idea.has_commenting_permission, idea.has_changing_permission, idea.has_deleting_permission],
        [false, false, false, false],
      );
    }
    assert.equal((await request({ method: 'POST', url: '/api/modules/2/ideas/', payload: { name: 'n', description: 'd' } })).status, 401);
  });

  await t.test('ideas are listed newest first; description is plain text; created is a localised date', async () => {
    const list = (await request({ method: 'GET', url: '/api/modules/2/ideas/' })).body as Json[];
    const old = list[list.length - 1];
    assert.equal(old.pk, 100);
    assert.equal(old.description, 'Old text');
    assert.equal(old.created, 'July 1, 2022');
    assert.equal(old.reference_number, '2022-00100');
    const german = (await request({ method: 'GET', url: '/api/modules/2/ideas/100/', headers: { 'accept-language': 'de' } })).body as Json;
    assert.equal(german.created, '1. Juli 2022');
  });

  await t.test('comment_count counts comments and their direct replies; ratings and the caller\'s rating show', async () => {
    const c1 = await createComment(db, { creatorId: 5, target: { type: 'idea', id: 100 }, comment: 'one' });
    await createComment(db, { creatorId: 6, target: { type: 'idea', id: 100 }, comment: 'two', isBlocked: true });
    const reply = await createComment(db, { creatorId: 6, target: { type: 'comment', id: c1.id }, comment: 'reply' });
    await createComment(db, { creatorId: 5, target: { type: 'comment', id: reply.id }, comment: 'reply to reply' });
    await load(db, {
      ratings: [
        { creator: 5, target: { type: 'idea', id: 100 }, value: 1 },
        { creator: 4, target: { type: 'idea', id: 100 }, value: 1 },
        { creator: 3, target: { type: 'idea', id: 100 }, value: -1 },
      ],
    });
    const body = (await request({ method: 'GET', url: '/api/modules/2/ideas/100/', headers: user })).body as Json;
    assert.equal(body.comment_count, 3);
    assert.equal(body.positive_rating_count, 2);
    assert.equal(body.negative_rating_count, 1);
    assert.deepEqual(Object.keys(body.user_rating as Json), ['id', 'value']);
    assert.equal((body.user_rating as Json).value, 1);
    const other = (await request({ method: 'GET', url: '/api/modules/2/ideas/100/', headers: await tokenHeader(db, 6) })).body as Json;
    assert.equal(other.user_rating, null);
  });

  await t.test('PUT replaces name, description, category and labels; PATCH changes only what it names', async () => {
    const created = (await post(1, { name: 'Before', description: 'd', category: 1, labels: [1] })).body as Json;
    const url = `/api/modules/1/ideas/${created.pk}/`;
    const patched = await request({ method: 'PATCH', url, headers: user, payload: { description: '<b>new</b>' } });
    assert.equal(patched.status, 200);
    assert.equal((patched.body as Json).name, 'Before');
    assert.equal((patched.body as Json).description, 'new');
    assert.deepEqual((patched.body as Json).labels, [{ id: 1, name: 'Urgent' }]);
    assert.equal((await request({ method: 'PUT', url, headers: user, payload: { name: 'Only name' } })).status, 400);
    const put = await request({ method: 'PUT', url, headers: user, payload: { name: 'After', description: 'e', category: 2 } });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual([(put.body as Json).name, (put.body as Json).category, (put.body as Json).labels], ['After', { id: 2, name: 'Parks' }, []]);
    const kept = await request({ method: 'PATCH', url, headers: user, payload: { category: null } });
    assert.deepEqual([kept.status, (kept.body as Json).category], [200, { id: 2, name: 'Parks' }], 'an empty category keeps the current one');
    const [row] = await db.select({ modified: ideas.modified }).from(ideas).where(eq(ideas.id, created.pk as number));
    assert.ok(row.modified);
    assert.equal((await request({ method: 'PATCH', url, headers: await tokenHeader(db, 6), payload: { name: 'stolen' } })).status, 403);
  });

  await t.test('an edit with an empty category (an untouched dropdown) keeps the idea\'s category; one without a category of the module still needs one', async () => {
    const created = (await post(1, { name: 'Kept', description: 'd', category: 2 })).body as Json;
    const url = `/api/modules/1/ideas/${created.pk}/`;
    const put = await request({ method: 'PUT', url, headers: { ...user, 'content-type': 'application/x-www-form-urlencoded' }, payload: 'name=Kept+too&description=e&category=' });
    assert.equal(put.status, 200, put.text);
    assert.deepEqual((put.body as Json).category, { id: 2, name: 'Parks' });
    const patch = await request({ method: 'PATCH', url, headers: user, payload: { category: '', name: 'Renamed' } });
    assert.deepEqual([patch.status, (patch.body as Json).category, (patch.body as Json).name], [200, { id: 2, name: 'Parks' }, 'Renamed']);
    await db.update(ideas).set({ categoryId: null }).where(eq(ideas.id, created.pk as number));
    const without = await request({ method: 'PATCH', url, headers: user, payload: { category: '' } });
    assert.deepEqual([without.status, without.body], [400, { category: ['This field is required.'] }]);
  });

  await t.test('DELETE answers 204 and removes the idea and its actions', async () => {
    const created = (await post(2, { name: 'Short-lived', description: 'd' })).body as Json;
    const url = `/api/modules/2/ideas/${created.pk}/`;
    assert.equal((await request({ method: 'DELETE', url, headers: await tokenHeader(db, 6) })).status, 403);
    const response = await request({ method: 'DELETE', url, headers: user });
    assert.equal(response.status, 204);
    assert.equal(response.text, '');
    assert.equal((await request({ method: 'GET', url, headers: user })).status, 404);
    assert.equal((await db.select().from(actions).where(and(eq(actions.objType, 'idea'), eq(actions.objId, created.pk as number)))).length, 0);
  });

  await t.test('multipart: an image of at least 600×400 is stored and served; image_deleted=true removes it', async () => {
    const upload = multipart([['name', 'With image'], ['description', 'd'], ['labels', '2']], { name: 'image', data: await png(600, 400), type: 'image/png' });
    const response = await request({ method: 'POST', url: '/api/modules/2/ideas/', headers: { ...user, 'content-type': upload.contentType }, payload: upload.payload });
    assert.equal(response.status, 201, response.text);
    const body = response.body as Json;
    assert.match(String(body.image), /^http:\/\/localhost(:80)?\/media\/ideas\/images\/[\w-]+\.png$/);
    assert.deepEqual(body.labels, [{ id: 2, name: 'Other' }]);
    const path = new URL(String(body.image)).pathname;
    assert.equal((await request({ method: 'GET', url: path })).status, 200);
    const file = join(config.dataDir, path);
    assert.ok(existsSync(file));
    const remove = multipart([['image_deleted', 'true']]);
    const patched = await request({ method: 'PATCH', url: `/api/modules/2/ideas/${body.pk}/`, headers: { ...user, 'content-type': remove.contentType }, payload: remove.payload });
    assert.equal(patched.status, 200, patched.text);
    assert.equal((patched.body as Json).image, null);
    assert.equal(existsSync(file), false);
  });

  await t.test('multipart: a small image or a file that is no image is a field error', async () => {
    const small = multipart([['name', 'n'], ['description', 'd']], { name: 'image', data: await png(599, 400), type: 'image/png' });
    const response = await request({ method: 'POST', url: '/api/modules/2/ideas/', headers: { ...user, 'content-type': small.contentType }, payload: small.payload });
    assert.equal(response.status, 400);
    assert.deepEqual(response.body, { image: ['Image must be at least 600 pixels wide and 400 pixels tall.'] });
    const text = multipart([['name', 'n'], ['description', 'd']], { name: 'image', data: Buffer.from('not an image'), type: 'image/png' });
    const bad = await request({ method: 'POST', url: '/api/modules/2/ideas/', headers: { ...user, 'content-type': text.contentType }, payload: text.payload });
    assert.equal(bad.status, 400);
    assert.ok((bad.body as Json).image);
    const missing = multipart([['description', 'd']]);
    const noName = await request({ method: 'POST', url: '/api/modules/2/ideas/', headers: { ...user, 'content-type': missing.contentType }, payload: missing.payload });
    assert.deepEqual(noName.body, { name: ['This field is required.'] });
  });

  await t.test('a browser session may add ideas with the CSRF token, not without', async () => {
    const session = await createBrowserSession(db, 5);
    const url = '/api/modules/2/ideas/';
    const payload = { name: 'From the browser', description: 'd' };
    const without = await request({ method: 'POST', url, cookies: { [SESSION_COOKIE]: session }, payload });
    assert.equal(without.status, 403);
    // The token a page hands out (signed with the app's secret: a made-up value does not pass).
    const csrf = /csrftoken=([^;]+)/.exec(String((await request({ method: 'GET', url: '/accounts/login/' })).headers['set-cookie']))?.[1] ?? '';
    const withToken = await request({ method: 'POST', url, cookies: { [SESSION_COOKIE]: session, [CSRF_COOKIE]: csrf }, headers: { [CSRF_HEADER]: csrf }, payload });
    assert.equal(withToken.status, 201, withToken.text);
  });

  await t.test('moderators may add ideas outside any phase', async () => {
    await load(db, { modules: [{ id: 4, project: 1, name: 'Closed', phases: [{ type: 'a4_candy_ideas:collect', start_date: '2020-01-01T00:00:00Z', end_date: '2020-02-01T00:00:00Z' }] }] });
    assert.equal((await post(4, { name: 'n', description: 'd' })).status, 403);
    assert.equal((await post(4, { name: 'n', description: 'd' }, moderator)).status, 201);
  });

  await t.test('the number of SQL statements of a list does not grow with the number of ideas', async () => {
    await load(db, { modules: [{ id: 5, project: 1, name: 'Many', phases: [], labels: [{ id: 5, name: 'L' }], categories: [{ id: 5, name: 'C' }] }] });
    const statements = async () => {
      const before = database.stats.queries;
      const response = await request({ method: 'GET', url: '/api/modules/5/ideas/', headers: user });
      assert.equal(response.status, 200);
      return { count: database.stats.queries - before, items: (response.body as Json[]).length };
    };
    const add = async (n: number, from: number) => {
      const records = Array.from({ length: n }, (_, i) => ({ id: from + i, module: 5, creator: 1 + (i % 6), name: `idea ${i}`, description: 'd', category: 5, labels: [5] }));
      await load(db, { ideas: records });
      for (const record of records) await createComment(db, { creatorId: 5, target: { type: 'idea', id: record.id }, comment: 'c' });
    };
    await add(1, 1000);
    const one = await statements();
    await add(49, 2000);
    const fifty = await statements();
    assert.deepEqual([one.items, fifty.items], [1, 50]);
    assert.equal(fifty.count, one.count);
  });
});
