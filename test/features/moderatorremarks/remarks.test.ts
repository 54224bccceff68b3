import assert from 'node:assert/strict';
import { test } from 'node:test';
import { moderatorRemarks } from '../../../src/db/schema/index.js';
import { remarkableContentTypes } from '../../../src/core/modules/registry.js';
import { tokenHeader } from '../../fixtures.js';
import { Browser } from '../../me/accounts/client.js';
import { dashboardApp, dashboardWorld, signedIn } from '../../manage/world.js';

const SECRET = 'Doppelt? Mit Idee 1 vergleichen.';
const IDEA = '/org/ideas/2026-00001/';
const REMARK = '/moderatorremarks/4/1/';
const API = '/api/contenttypes/4/objects/1/moderatorremarks/';

/** The dashboard world (two organisations) with an idea by the member (user 4) in project 1 and one in the other organisation's project. */
function remarkWorld() {
  const world = dashboardWorld();
  return {
    ...world,
    modules: [...(world.modules ?? []), { id: 2, project: 4, name: 'Foreign ideas', phases: [{ type: 'a4_candy_ideas:collect', start_date: '2026-01-01T00:00:00Z', end_date: '2027-12-31T00:00:00Z' }] }],
    ideas: [
      { id: 1, module: 1, creator: 4, name: 'More trees', description: '<p>Plant trees</p>', created: '2026-03-01T10:00:00Z' },
      { id: 2, module: 2, creator: 6, name: 'Foreign idea', description: '<p>Elsewhere</p>', created: '2026-03-01T10:00:00Z' },
    ],
  };
}

test('the contract: ideas, map ideas and proposals take a remark', () => {
  assert.deepEqual(remarkableContentTypes().map((c) => c.kind).sort(), ['idea', 'mapidea', 'proposal']);
});

test('a moderator keeps a remark on the idea page; moderators and initiators see it there, in the moderation queue and the export; the author and the public never', async () => {
  const t = await dashboardApp(remarkWorld());
  const moderator = await signedIn(t.app, 'moderator');
  const page = await moderator.get(IDEA);
  assert.match(page.text, new RegExp(`<form method="post" action="${REMARK}" class="remark-form"`));
  const saved = await moderator.post(REMARK, { remark: SECRET, next: IDEA });
  assert.equal(saved.status, 302);
  assert.equal(saved.location, IDEA);
  const [row] = await t.db.select().from(moderatorRemarks);
  assert.equal(row.remark, SECRET);
  assert.equal(row.creatorId, 3);

  for (const who of ['moderator', 'initiator', 'coinit', 'admin']) assert.match((await (await signedIn(t.app, who)).get(IDEA)).text, /Doppelt\? Mit Idee 1 vergleichen./, who);
  for (const who of ['member', 'user', 'other']) assert.doesNotMatch((await (await signedIn(t.app, who)).get(IDEA)).text, /Doppelt\?|remark-form/, who);
  assert.doesNotMatch((await new Browser(t.app).get(IDEA)).text, /Doppelt\?|remark-form/, 'anonymous');

  const queue = await moderator.get('/userdashboard/moderation/detail/project/');
  assert.match(queue.text, /<h2 id="remarks-heading">Moderator remarks<\/h2>/);
  assert.match(queue.text, /Doppelt\? Mit Idee 1 vergleichen./);
  assert.match(queue.text, /href="\/moderatorremarks\/4\/1\/\?next=\/userdashboard\/moderation\/detail\/project\/"/);

  const csv = (await (await signedIn(t.app, 'initiator')).download(`/org/dashboard/modules/${(await moduleSlugOf(t))}/export/ideas.csv`)).body.toString('utf8');
  assert.match(csv.split('\n')[0], /,Feedback,Remark\r?$/);
  assert.match(csv, /Doppelt\? Mit Idee 1 vergleichen\./);

  // The idea API tells nobody, not even the moderator.
  for (const userId of [3, 4, 5]) {
    const api = await t.request({ method: 'GET', url: '/api/modules/1/ideas/', headers: await tokenHeader(t.db, userId) });
    assert.equal(api.status, 200);
    assert.doesNotMatch(api.text, /Doppelt/, String(userId));
  }

  // An empty remark deletes it.
  assert.equal((await moderator.post(REMARK, { remark: '  ', next: IDEA })).status, 302);
  assert.equal((await t.db.select().from(moderatorRemarks)).length, 0);
});

async function moduleSlugOf(t: Awaited<ReturnType<typeof dashboardApp>>) {
  const rows = (await t.db.execute('select slug from modules where id = 1')) as unknown as { rows: { slug: string }[] };
  return rows.rows[0].slug;
}

test('who may keep a remark: the project’s moderators, its organisation’s initiators and superusers; the author, others and the other organisation’s initiator may not', async () => {
  const t = await dashboardApp(remarkWorld());
  const anonymous = await new Browser(t.app).post(REMARK, { remark: 'x' });
  assert.equal(anonymous.status, 302);
  assert.match(anonymous.location ?? '', /^\/accounts\/login\//);
  const expected: [string, number][] = [
    ['admin', 302],
    ['initiator', 302],
    ['coinit', 302],
    ['moderator', 302],
    ['member', 403],
    ['user', 403],
    ['other', 403],
  ];
  for (const [who, status] of expected) {
    const browser = await signedIn(t.app, who);
    assert.equal((await browser.post(REMARK, { remark: `by ${who}` })).status, status, who);
    assert.equal((await browser.get(REMARK)).status, status === 302 ? 200 : 403, `${who} form`);
  }
  // The other organisation's initiator keeps remarks on his own project's ideas, not under this organisation's.
  assert.equal((await (await signedIn(t.app, 'other')).post('/moderatorremarks/4/2/', { remark: 'mine' })).status, 302);
  assert.equal((await (await signedIn(t.app, 'initiator')).post('/moderatorremarks/4/2/', { remark: 'not mine' })).status, 403);
  assert.deepEqual((await t.db.select({ pk: moderatorRemarks.objectPk, remark: moderatorRemarks.remark }).from(moderatorRemarks).orderBy(moderatorRemarks.objectPk)), [
    { pk: 1, remark: 'by moderator' },
    { pk: 2, remark: 'mine' },
  ]);
  // Not a remarkable kind, or no such item: 404.
  assert.equal((await (await signedIn(t.app, 'admin')).post('/moderatorremarks/8/1/', { remark: 'x' })).status, 404);
  assert.equal((await (await signedIn(t.app, 'admin')).post('/moderatorremarks/4/999/', { remark: 'x' })).status, 404);
});

test('a too long remark is refused beside the field, and nothing is saved', async () => {
  const t = await dashboardApp(remarkWorld());
  const moderator = await signedIn(t.app, 'moderator');
  const refused = await moderator.post(REMARK, { remark: 'x'.repeat(4001), next: IDEA });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_remark_errors"[^>]*><li>Ensure this field has no more than 4000 characters./);
  assert.equal((await t.db.select().from(moderatorRemarks)).length, 0);
});

test('the remark API (a+ moderatorremarks): moderators and initiators read, create and change it; everybody else is refused', async () => {
  const t = await dashboardApp(remarkWorld());
  const as = async (userId: number) => tokenHeader(t.db, userId);
  assert.equal((await t.request({ method: 'GET', url: API })).status, 401);
  for (const userId of [4, 5, 6]) {
    assert.equal((await t.request({ method: 'GET', url: API, headers: await as(userId) })).status, 403, String(userId));
    assert.equal((await t.request({ method: 'POST', url: API, headers: await as(userId), payload: { remark: 'x' } })).status, 403, String(userId));
  }
  const created = await t.request({ method: 'POST', url: API, headers: await as(3), payload: { remark: SECRET } });
  assert.equal(created.status, 201);
  const body = created.body as { id: number; remark: string; item_content_type: number; item_object_id: number; creator: number };
  assert.deepEqual({ remark: body.remark, ct: body.item_content_type, pk: body.item_object_id, creator: body.creator }, { remark: SECRET, ct: 4, pk: 1, creator: 3 });
  const listed = await t.request({ method: 'GET', url: API, headers: await as(2) });
  assert.deepEqual((listed.body as { remark: string }[]).map((r) => r.remark), [SECRET]);
  const changed = await t.request({ method: 'PUT', url: `${API}${body.id}/`, headers: await as(2), payload: { remark: 'Kein Duplikat.' } });
  assert.equal(changed.status, 200);
  assert.equal((changed.body as { remark: string }).remark, 'Kein Duplikat.');
  assert.equal((await t.request({ method: 'PATCH', url: `${API}${body.id + 1}/`, headers: await as(2), payload: { remark: 'x' } })).status, 404);
  const long = await t.request({ method: 'PATCH', url: `${API}${body.id}/`, headers: await as(2), payload: { remark: 'x'.repeat(4001) } });
  assert.equal(long.status, 400);
  assert.deepEqual(long.body, { remark: ['Ensure this field has no more than 4000 characters.'] });
  assert.equal((await t.request({ method: 'PUT', url: `${API}${body.id}/`, headers: await as(5), payload: { remark: 'x' } })).status, 403);
  assert.equal((await t.request({ method: 'GET', url: '/api/contenttypes/4/objects/2/moderatorremarks/', headers: await as(2) })).status, 403, 'the other organisation’s idea');
});
