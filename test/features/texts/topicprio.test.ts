import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq, sql } from 'drizzle-orm';
import { modules, ratings } from '../../../src/db/schema/index.js';
import { topicLabels, topics } from '../../../src/features/topicprio/schema.js';
import { Browser } from '../../me/accounts/client.js';
import { load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { signedIn } from '../../manage/world.js';
import { textsWorld } from './world.js';

const t = await createTestApp();
await load(t.db, textsWorld());
const topicUrl = async (id: number) => {
  const [row] = await t.db.select().from(topics).where(eq(topics.id, id));
  return `/org/topicprio/${row.created.getUTCFullYear()}-${String(id).padStart(5, '0')}/`;
};

test('the module page lists the topics by name with category and labels; filter by category, order by rating', async () => {
  const browser = new Browser(t.app);
  const page = await browser.get('/org/projects/module/prio/');
  assert.equal(page.status, 200);
  assert.match(page.text, new RegExp(`<a href="${await topicUrl(1)}">Zebra crossings</a>`));
  assert.ok(page.text.indexOf('Apples for schools') < page.text.indexOf('Zebra crossings'), 'alphabetical');
  assert.match(page.text, /Category: <\/span>Schools/);
  assert.match(page.text, /Label: <\/span>Cheap/);
  const streets = await browser.get('/org/projects/module/prio/?topic_category=10');
  assert.doesNotMatch(streets.text, /Apples for schools/);
  await t.db.insert(ratings).values({ contentType: 'topic', objectPk: 1, creatorId: 5, value: 1 });
  const popular = await browser.get('/org/projects/module/prio/?topic_ordering=-positive_rating_count');
  assert.ok(popular.text.indexOf('Zebra crossings') < popular.text.indexOf('Apples for schools'), 'most popular first');
  const detail = await browser.get(await topicUrl(2));
  assert.match(detail.text, /<h1>Apples for schools<\/h1>/);
  assert.match(detail.text, /Log in to rate/);
});

test("the list takes adhocracy+'s ?ordering=, and an idea list on the same kind of page is not confused by it (issue 36.13)", async () => {
  const browser = new Browser(t.app);
  const popular = await browser.get('/org/projects/module/prio/?ordering=-positive_rating_count'); // topic 1 has the rating of the first test
  assert.equal(popular.status, 200);
  assert.ok(popular.text.indexOf('Zebra crossings') < popular.text.indexOf('Apples for schools'), 'most popular first');
  const byName = (await browser.get('/org/projects/module/prio/?ordering=name')).text;
  assert.ok(byName.indexOf('Apples for schools') < byName.indexOf('Zebra crossings'), 'by name');
  assert.equal((await browser.get('/org/projects/module/prio/?ordering=nonsense')).status, 400);
  const [ideaModule] = await t.db.select({ slug: modules.slug }).from(modules).where(eq(modules.id, 1));
  assert.equal((await browser.get(`/org/projects/module/${ideaModule.slug}/?ordering=name`)).status, 200, "an idea list falls back to its own default order");
});

test('an outsider signed in gets 403 for a topic of a private project, an anonymous visitor the login (issue 36.13)', async () => {
  const [prio] = await t.db.select({ id: modules.id, projectId: modules.projectId }).from(modules).where(eq(modules.slug, 'prio'));
  const url = await topicUrl(2);
  await t.db.execute(sql`update projects set access = 'PRIVATE' where id = ${prio.projectId}`);
  try {
    const outsider = new Browser(t.app);
    assert.equal((await outsider.login('other', 'other-password')).status, 302);
    assert.equal((await outsider.get(url)).status, 403);
    const anonymous = await new Browser(t.app).get(url);
    assert.equal(anonymous.status, 302);
    assert.match(anonymous.location ?? '', /^\/accounts\/login\//);
  } finally {
    await t.db.execute(sql`update projects set access = 'PUBLIC' where id = ${prio.projectId}`);
  }
});

test('participants rate pro and contra (again withdraws) and comment; after the phase they may not (403)', async () => {
  const member = await signedIn(t.app, 'member');
  const url = await topicUrl(2);
  assert.match((await member.get(url)).text, /aria-pressed="false">0 agree/);
  assert.equal((await member.post(`${url}rate/`, { value: '1' })).status, 302);
  assert.match((await member.get(url)).text, /aria-pressed="true">1 agrees/);
  await member.post(`${url}rate/`, { value: '-1' });
  const mine = await t.db.select().from(ratings).where(and(eq(ratings.contentType, 'topic'), eq(ratings.objectPk, 2), eq(ratings.creatorId, 4)));
  assert.deepEqual(mine.map((r) => r.value), [-1]);
  assert.equal((await member.post('/comments/on/topic/2/', { comment: 'Yes, apples' })).status, 302);
  assert.match((await member.get(url)).text, /Yes, apples/);
  // The content-type API: topic (15) is rateable and commentable; after the phase a participant is refused.
  const token = await tokenHeader(t.db, 4);
  const rated = await t.app.inject({ method: 'POST', url: '/api/contenttypes/15/objects/1/ratings/', headers: token, payload: { value: 1 } });
  assert.equal(rated.statusCode, 201, rated.body);
  const late = await t.app.inject({ method: 'POST', url: '/api/contenttypes/15/objects/3/ratings/', headers: token, payload: { value: 1 } });
  assert.equal(late.statusCode, 403);
  assert.equal((await member.post(`${await topicUrl(3)}rate/`, { value: '1' })).status, 403);
  const subjectRating = await t.app.inject({ method: 'POST', url: '/api/contenttypes/14/objects/1/ratings/', headers: token, payload: { value: 1 } });
  assert.equal(subjectRating.statusCode, 404, 'subjects are not rateable');
});

test('moderators and initiators add, edit and delete topics with category and labels; others are refused', async () => {
  const moderator = await signedIn(t.app, 'moderator');
  const create = '/org/topicprio/create/module/prio/';
  const refused = await moderator.post(create, { name: 'Parks', description: '' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_description_errors"[^>]*><li>This field is required\./);
  assert.match(refused.text, /id="id_category_errors"[^>]*><li>This field is required\./);
  const created = await moderator.post(create, { name: 'Parks', description: '<p>Green</p>', category: '10', labels: ['10'] });
  assert.equal(created.status, 302);
  const [row] = await t.db.select().from(topics).where(eq(topics.name, 'Parks'));
  assert.deepEqual((await t.db.select().from(topicLabels).where(eq(topicLabels.topicId, row.id))).map((l) => l.labelId), [10]);
  const url = await topicUrl(row.id);
  assert.equal((await moderator.post(`${url}update/`, { name: 'Parks and gardens', description: '<p>Green</p>', category: '11' })).status, 302);
  const [edited] = await t.db.select().from(topics).where(eq(topics.id, row.id));
  assert.equal(edited.categoryId, 11);
  assert.equal((await t.db.select().from(topicLabels).where(eq(topicLabels.topicId, row.id))).length, 0);
  assert.equal((await moderator.post(create, { name: 'Bad', description: '<p>x</p>', category: '1' })).status, 400, 'a category of another module');

  assert.equal((await (await signedIn(t.app, 'member')).get(create)).status, 403);
  assert.equal((await (await signedIn(t.app, 'other')).post(`${url}delete/`, {})).status, 403);
  assert.equal((await new Browser(t.app).post(`${url}update/`, { name: 'x' })).location?.startsWith('/accounts/login/'), true);

  const panel = await (await signedIn(t.app, 'initiator')).get('/org/dashboard/modules/prio/topic_edit/');
  assert.match(panel.text, /Parks and gardens/);
  assert.equal((await moderator.post(`${url}delete/`, {})).location, '/org/projects/module/prio/');
  assert.equal((await t.db.select().from(topics).where(eq(topics.id, row.id))).length, 0);
});

test('publishing a prioritisation needs a topic; loaddata checks a topic\'s category against its module', async () => {
  const initiator = await signedIn(t.app, 'initiator');
  await initiator.post('/org/dashboard/projects/draft-plan/blueprints/topic-prioritization/', {});
  const [module] = await t.db.select().from(modules).where(and(eq(modules.projectId, 2), eq(modules.blueprintType, 'TP')));
  assert.match((await initiator.get(`/org/dashboard/modules/${module.slug}/module_basic/`)).text, /Topics: at least one topic/);
  const other = await createTestApp();
  await assert.rejects(load(other.db, { ...textsWorld(), topics: [{ id: 1, module: 13, name: 'Lost', category: 1 }] }), /topics\[0\]\.category: no category 1 in module 13/);
});
