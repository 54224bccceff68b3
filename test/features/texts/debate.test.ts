import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { comments, modules } from '../../../src/db/schema/index.js';
import { subjects } from '../../../src/features/debate/schema.js';
import { Browser } from '../../me/accounts/client.js';
import { load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { signedIn } from '../../manage/world.js';
import { textsWorld } from './world.js';

const t = await createTestApp();
await load(t.db, textsWorld());
const subjectUrl = async (id: number) => {
  const [row] = await t.db.select().from(subjects).where(eq(subjects.id, id));
  return `/org/subjects/${row.created.getUTCFullYear()}-${String(id).padStart(5, '0')}/`;
};

test('the module page lists the subjects, each linked by its title to its page; search and ordering in the address', async () => {
  const page = await new Browser(t.app).get('/org/projects/module/debate/');
  assert.equal(page.status, 200);
  const first = await subjectUrl(1);
  assert.match(page.text, new RegExp(`<a href="${first}">Opening hours</a>`));
  assert.ok(page.text.indexOf('Bicycle parking') < page.text.indexOf('Opening hours'), 'alphabetical by default');
  assert.match(page.text, /When should the library open\?/);
  const searched = await new Browser(t.app).get('/org/projects/module/debate/?subject_search=open');
  assert.doesNotMatch(searched.text, /Bicycle parking/);
  assert.equal((await new Browser(t.app).get('/org/projects/module/debate/?subject_ordering=nonsense')).status, 400);
  const subject = await new Browser(t.app).get(first);
  assert.match(subject.text, /<h1>Opening hours<\/h1>/);
  assert.equal((await new Browser(t.app).get(first.replace('/org/', '/other-org/'))).status, 404);
});

test('participants comment on a subject with the comment categories; after the phase they cannot (403), moderators still can', async () => {
  const member = await signedIn(t.app, 'member');
  const url = await subjectUrl(1);
  const page = await member.get(url);
  assert.match(page.text, /name="comment_categories"/, 'the categories are offered on debates');
  const posted = await member.post('/comments/on/subject/1/', { comment: 'Open on Sundays', comment_categories: ['sug', 'que'] });
  assert.equal(posted.status, 302);
  const [row] = await t.db.select().from(comments).where(eq(comments.comment, 'Open on Sundays'));
  assert.equal(row.commentCategories, '[sug,que]');
  assert.match((await member.get('/org/projects/module/debate/?subject_ordering=-comment_count')).text, /1 contribution/);
  // The API: subject is content type 14; after the phase ended a participant is refused, a moderator is not.
  const memberToken = await tokenHeader(t.db, 4);
  const late = await t.app.inject({ method: 'POST', url: '/api/contenttypes/14/objects/3/comments/', headers: memberToken, payload: { comment: 'Too late' } });
  assert.equal(late.statusCode, 403);
  const anonymous = await t.app.inject({ method: 'POST', url: '/api/contenttypes/14/objects/1/comments/', payload: { comment: 'Who am I' } });
  assert.equal(anonymous.statusCode, 401);
  const moderator = await t.app.inject({ method: 'POST', url: '/api/contenttypes/14/objects/3/comments/', headers: await tokenHeader(t.db, 3), payload: { comment: 'Closing remark' } });
  assert.equal(moderator.statusCode, 201);
  const ct = await t.app.inject({ url: '/api/contenttypes/' });
  const models = (ct.json() as { model: string }[]).map((c) => c.model);
  for (const model of ['chapter', 'paragraph', 'subject', 'topic']) assert.ok(models.includes(model), model);
});

test('moderators and initiators add, edit and delete subjects; limits are checked; others are refused', async () => {
  const moderator = await signedIn(t.app, 'moderator');
  const create = '/org/subjects/create/module/debate/';
  assert.equal((await moderator.get(create)).status, 200);
  const long = await moderator.post(create, { name: 'x'.repeat(121), description: 'y'.repeat(351) });
  assert.equal(long.status, 400);
  assert.match(long.text, /id="id_name_errors"[^>]*><li>Ensure this field has no more than 120 characters\./);
  assert.match(long.text, /id="id_description_errors"[^>]*><li>Ensure this field has no more than 350 characters\./);
  const created = await moderator.post(create, { name: 'Noise', description: 'Too loud?' });
  assert.equal(created.status, 302);
  const [row] = await t.db.select().from(subjects).where(eq(subjects.name, 'Noise'));
  const url = await subjectUrl(row.id);
  assert.match(created.location ?? '', new RegExp(`^${url}`));
  assert.equal((await moderator.post(`${url}update/`, { name: 'Noise at night', description: '' })).status, 302);
  assert.equal((await t.db.select().from(subjects).where(eq(subjects.id, row.id)))[0].name, 'Noise at night');

  // The dashboard's Subjects component lists them and goes back to itself.
  const initiator = await signedIn(t.app, 'initiator');
  const panel = await initiator.get('/org/dashboard/modules/debate/subject_edit/');
  assert.equal(panel.status, 200);
  assert.match(panel.text, /Noise at night/);
  const fromPanel = await initiator.post(`${create}?next=/org/dashboard/modules/debate/subject_edit/`, { name: 'From the dashboard', description: '' });
  assert.equal(fromPanel.location, '/org/dashboard/modules/debate/subject_edit/');

  // Participants, another organisation's initiator: 403; anonymous: login.
  assert.equal((await (await signedIn(t.app, 'member')).get(create)).status, 403);
  assert.equal((await (await signedIn(t.app, 'other')).post(`${url}update/`, { name: 'Taken', description: '' })).status, 403);
  assert.equal((await (await signedIn(t.app, 'other')).post(create, { name: 'Taken', description: '' })).status, 403);
  assert.equal((await new Browser(t.app).get(create)).location, `/accounts/login/?next=${create}`);
  assert.equal((await initiator.get('/org/subjects/create/module/text/')).status, 404, 'only in debates');

  const confirm = await moderator.get(`${url}delete/`);
  assert.match(confirm.text, /Do you really want to delete the subject/);
  assert.equal((await moderator.post(`${url}delete/`, {})).location, '/org/projects/module/debate/');
  assert.equal((await t.db.select().from(subjects).where(eq(subjects.id, row.id))).length, 0);
});

test('publishing a debate needs a subject; loaddata keeps ids and names a refused subject', async () => {
  const initiator = await signedIn(t.app, 'initiator');
  await initiator.post('/org/dashboard/projects/draft-plan/blueprints/debate/', {});
  const [module] = await t.db.select().from(modules).where(and(eq(modules.projectId, 2), eq(modules.blueprintType, 'DB')));
  const basics = await initiator.get(`/org/dashboard/modules/${module.slug}/module_basic/`);
  assert.match(basics.text, /Subjects: at least one subject/);
  const other = await createTestApp();
  await assert.rejects(load(other.db, { ...textsWorld(), subjects: [{ id: 1, module: 99, name: 'Lost' }] }), /subjects\[0\]\.module: no module 99/);
});
