import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { comments, notifications } from '../../../src/db/schema/index.js';
import { results } from '../../../src/features/results/schema.js';
import { Browser } from '../../me/accounts/client.js';
import { dashboardApp, dashboardWorld, signedIn } from '../../manage/world.js';
import { tokenHeader } from '../../fixtures.js';

/*
 * A result's discussion (issue 39.3): comments as on every item, decided by the project (no module,
 * no phase). The world: organisation 1 ("org") with the public project 1 (moderator 3, participant
 * 4), the draft project 2, the archived project 3 and the private project 5 (participant 4,
 * moderator 3); users 1 admin, 2 initiator, 3 moderator, 4 member, 5 user, 6 other (an initiator of
 * organisation 2). A result in each, made by the initiator.
 */
const RESULT = 18;
const IN = { public: 901, draft: 902, archived: 903, private: 905 } as const;
type Where = keyof typeof IN;
const USERS = { admin: 1, initiator: 2, moderator: 3, member: 4, user: 5, other: 6 } as const;
type Who = keyof typeof USERS | 'anonymous';
const api = (where: Where, rest = '') => `/api/contenttypes/${RESULT}/objects/${IN[where]}/comments/${rest}`;

async function world() {
  const fixture = dashboardWorld();
  const t = await dashboardApp({ ...fixture, projects: [...(fixture.projects ?? []), { id: 5, slug: 'private-plan', name: 'Private plan', organisation: 1, access: 'PRIVATE', participants: [4], moderators: [3] }] });
  await t.db.insert(results).values(Object.values(IN).map((id) => ({ id, projectId: id - 900, title: `Playground ${id}`, creatorId: USERS.initiator })));
  const as = async (who: Who) => (who === 'anonymous' ? {} : tokenHeader(t.db, USERS[who]));
  const post = async (who: Who, where: Where, comment = 'What about the benches?') => t.request({ method: 'POST', url: api(where), headers: await as(who), payload: { comment } });
  return { ...t, as, post };
}

test('the comment API on a result: whoever takes part in the project writes; anonymous 401, others 403; archived and draft projects only for those who moderate', async () => {
  const t = await world();
  const expected: Record<Where, Record<Who, number>> = {
    public: { anonymous: 401, user: 201, member: 201, other: 201, moderator: 201, initiator: 201, admin: 201 },
    archived: { anonymous: 401, user: 403, member: 403, other: 403, moderator: 403, initiator: 201, admin: 201 },
    draft: { anonymous: 401, user: 403, member: 403, other: 403, moderator: 403, initiator: 201, admin: 201 },
    private: { anonymous: 401, user: 403, member: 201, other: 403, moderator: 201, initiator: 201, admin: 201 },
  };
  const got: Record<string, Record<string, number>> = {};
  for (const where of Object.keys(expected) as Where[]) {
    got[where] = {};
    for (const who of Object.keys(expected[where]) as Who[]) got[where][who] = (await t.post(who, where)).status;
  }
  assert.deepEqual(got, expected);

  // Reading: who sees the project (a private or draft project's discussion stays inside).
  const read = async (who: Who, where: Where) => (await t.request({ method: 'GET', url: api(where), headers: await t.as(who) })).status;
  assert.deepEqual(
    { public: await read('anonymous', 'public'), archived: await read('anonymous', 'archived'), private: await read('anonymous', 'private'), privateUser: await read('user', 'private'), draft: await read('user', 'draft') },
    { public: 200, archived: 200, private: 401, privateUser: 403, draft: 403 },
  );
  const list = await t.request({ method: 'GET', url: api('public'), headers: await t.as('user') });
  const body = list.body as { count: number; has_commenting_permission: boolean; results: { comment: string }[] };
  assert.equal(body.count, 6);
  assert.equal(body.has_commenting_permission, true);
  const archived = (await t.request({ method: 'GET', url: api('archived'), headers: await t.as('user') })).body as { has_commenting_permission: boolean };
  assert.equal(archived.has_commenting_permission, false);
  // A result that does not exist, or an id beyond any, is a 404.
  assert.equal((await t.request({ method: 'GET', url: `/api/contenttypes/${RESULT}/objects/999/comments/` })).status, 404);
});

test('on a result: replies, editing and deleting one’s own comment, the author of the result told, the comment gone with the result', async () => {
  const t = await world();
  const created = await t.post('user', 'public');
  assert.equal(created.status, 201);
  const id = (created.body as { id: number }).id;
  const [row] = await t.db.select().from(comments).where(eq(comments.id, id));
  assert.deepEqual([row.contentType, row.objectPk, row.projectId], ['result', IN.public, 1]);
  // The result's author (the initiator) hears of it, with a link to the comment on the result's page.
  const [told] = await t.db.select().from(notifications).where(and(eq(notifications.recipientId, USERS.initiator), eq(notifications.kind, 'comment_on_content')));
  assert.ok(told, 'the result’s author is told');
  assert.match(told.targetUrl, new RegExp(`/org/results/${IN.public}/\\?comment=${id}$`));

  const reply = await t.request({ method: 'POST', url: `/api/contenttypes/8/objects/${id}/comments/`, headers: await t.as('member'), payload: { comment: 'Yes, two of them.' } });
  assert.equal(reply.status, 201);
  const edited = await t.request({ method: 'PATCH', url: api('public', `${id}/`), headers: await t.as('user'), payload: { comment: 'What about three benches?' } });
  assert.equal(edited.status, 200);
  assert.equal((edited.body as { comment: string }).comment, 'What about three benches?');
  assert.equal((await t.request({ method: 'PATCH', url: api('public', `${id}/`), headers: await t.as('member'), payload: { comment: 'Not mine' } })).status, 403);
  const mine = await t.post('member', 'public', 'To be deleted');
  assert.equal((await t.request({ method: 'DELETE', url: api('public', `${(mine.body as { id: number }).id}/`), headers: await t.as('member') })).status, 200);

  // Deleting the result takes its discussion with it.
  const initiator = await signedIn(t.app, 'initiator');
  assert.equal((await initiator.post(`/org/results/${IN.public}/delete/`, {})).status, 302);
  assert.deepEqual(await t.db.select().from(comments).where(eq(comments.objectPk, IN.public)), []);
  assert.deepEqual(await t.db.select().from(comments).where(eq(comments.id, id)), []);
});

test('the result page shows the discussion: the form for those who take part, the login for visitors, the guidance for others; in German too', async () => {
  const t = await world();
  const path = `/org/results/${IN.public}/`;
  const user = await signedIn(t.app, 'user');
  const page = await user.get(path);
  assert.equal(page.status, 200);
  assert.match(page.text, /Comments \(0\)/);
  assert.match(page.text, new RegExp(`<form method="post" action="/comments/on/result/${IN.public}/"`));

  // Writing by the page's form goes back to the comment on the result's page.
  const posted = await user.post(`/comments/on/result/${IN.public}/`, { comment: 'Benches, please.' });
  assert.equal(posted.status, 302);
  assert.match(posted.location ?? '', new RegExp(`^${path}\\?comment=\\d+#comment-\\d+$`));
  const shown = await user.get(posted.location ?? '');
  assert.match(shown.text, /Benches, please./);
  assert.match(shown.text, /Comments \(1\)/);
  const blank = await user.post(`/comments/on/result/${IN.public}/`, { comment: '   ' });
  assert.equal(blank.status, 400);

  const visitor = await new Browser(t.app).get(path);
  assert.match(visitor.text, /Please log in to comment./);
  assert.doesNotMatch(visitor.text, /action="\/comments\/on\/result\//);
  const german = await new Browser(t.app, { 'accept-language': 'de' }).get(path);
  assert.match(german.text, /Kommentare \(1\)/);
  assert.match(german.text, /Bitte melden Sie sich an, um zu kommentieren./);

  // An archived project: the discussion stays readable, nobody but those who moderate writes.
  const archived = await user.get(`/org/results/${IN.archived}/`);
  assert.equal(archived.status, 200);
  assert.doesNotMatch(archived.text, /action="\/comments\/on\/result\//);
  assert.equal((await user.post(`/comments/on/result/${IN.archived}/`, { comment: 'Late' })).status, 403);
  // A private project's result: a plain user neither reads nor writes.
  assert.equal((await user.get(`/org/results/${IN.private}/`)).status, 403);
  assert.equal((await user.post(`/comments/on/result/${IN.private}/`, { comment: 'Let me in' })).status, 403);
  const member = await signedIn(t.app, 'member');
  assert.equal((await member.post(`/comments/on/result/${IN.private}/`, { comment: 'Inside' })).status, 302);
});

test('the moderation queue lists a result’s comments under the result’s name, linked to its page; moderators block and answer them with feedback', async () => {
  const t = await world();
  const created = await t.post('user', 'public', 'Rude words');
  const id = (created.body as { id: number }).id;
  const moderator = await signedIn(t.app, 'moderator');
  const queue = await moderator.get('/userdashboard/moderation/detail/project/');
  assert.equal(queue.status, 200);
  assert.match(queue.text, /Rude words/);
  assert.match(queue.text, new RegExp(`Playground ${IN.public}`));
  assert.match(queue.text, new RegExp(`/org/results/${IN.public}/\\?comment=${id}`));
  // The API's queue too.
  const listed = await t.request({ method: 'GET', url: '/api/userdashboard/moderation/1/comments/', headers: await t.as('moderator') });
  const item = (listed.body as { pk: number; comment_url: string }[]).find((c) => c.pk === id);
  assert.equal(item?.comment_url, `http://localhost:80/org/results/${IN.public}/?comment=${id}`);

  assert.equal((await moderator.post(`/comments/${id}/moderate/`, { action: 'block' })).status, 302);
  assert.equal((await t.db.select().from(comments).where(eq(comments.id, id)))[0].isBlocked, true);
  const feedback = await t.request({ method: 'POST', url: `/api/comments/${id}/moderatorfeedback/`, headers: await t.as('moderator'), payload: { feedback_text: 'Please keep it civil.' } });
  assert.equal(feedback.status, 201);
  const reported = await t.request({ method: 'POST', url: '/api/reports/', headers: await t.as('member'), payload: { content_type: 8, object_pk: id, description: 'Rude' } });
  assert.equal(reported.status, 201);
  // A plain user moderates nothing.
  const user = await signedIn(t.app, 'user');
  assert.equal((await user.post(`/comments/${id}/moderate/`, { action: 'unblock' })).status, 403);
});
