import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { notificationInappOptouts, notifications, outbox, phases, users } from '../../../src/db/schema/index.js';
import { createSystemActions } from '../../../src/core/actions/system.js';
import { tokenHeader } from '../../fixtures.js';
import { dashboardApp, dashboardWorld, signedIn } from '../../manage/world.js';
import { Browser } from '../accounts/client.js';

const CENTRE = '/userdashboard/notifications/';
const KINDS = ['comment_on_content', 'reply_to_comment', 'idea_feedback', 'comment_feedback', 'comment_blocked', 'phase_started', 'phase_ending', 'event_soon', 'event_added', 'event_update', 'event_cancelled', 'report_to_moderators', 'new_project', 'project_deleted', 'result_linked', 'result_status'];

/** Organisation 1's project with user 5's idea; user 4 (member) comments on it. */
async function notificationsApp() {
  const world = dashboardWorld();
  return dashboardApp({ ...world, ideas: [{ id: 1, module: 1, creator: 5, name: 'My idea', description: 'x', category: 1 }] });
}
type App = Awaited<ReturnType<typeof notificationsApp>>;

const comment = async (t: App, userId: number, text: string) =>
  t.app.inject({ method: 'POST', url: '/api/contenttypes/4/objects/1/comments/', headers: await tokenHeader(t.db, userId), payload: { comment: text } });
const bell = (html: string) => /data-bell-count[^>]*>([^<]*)</.exec(html)?.[1];
const ofUser = (t: App, userId: number) => t.db.select().from(notifications).where(eq(notifications.recipientId, userId)).orderBy(notifications.id);

test('a comment on my idea lands in my notification centre with the e-mail; the bell counts it on every page; opening it reads it and leads to the comment', async () => {
  const t = await notificationsApp();
  assert.equal((await comment(t, 4, 'Nice idea')).statusCode, 201);
  const [row] = await ofUser(t, 5);
  assert.ok(row, 'recorded for the idea’s author');
  assert.equal(row.kind, 'comment_on_content');
  assert.equal(row.read, false);
  assert.match(row.targetUrl, /^\/org\/.*comment/, 'a path on this site that leads to the comment');
  assert.deepEqual(row.context, { project: 'Project', actor: 'member' }, 'no contribution’s words are copied');
  assert.equal((await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'comment_on_content')))).length, 1, 'the e-mail goes out too');
  assert.equal((await ofUser(t, 4)).length, 0, 'the actor is not told about their own comment');

  const user = await signedIn(t.app, 'user');
  for (const path of ['/', '/org/projects/project/', '/account/']) assert.equal(bell((await user.get(path)).text), '1', `the bell on ${path}`);
  const anonymous = await new Browser(t.app).get('/');
  assert.doesNotMatch(anonymous.text, /data-bell-stream/, 'no bell without an account');

  const centre = await user.get(CENTRE);
  assert.equal(centre.status, 200);
  assert.match(centre.text, /member commented on your contribution in the project &quot;Project&quot;\./);
  assert.match(centre.text, /Unread \(1\)/);
  const opened = await user.get(`${CENTRE}${row.id}/`);
  assert.equal(opened.status, 302);
  assert.equal(opened.location, row.targetUrl);
  const [after] = await ofUser(t, 5);
  assert.equal(after.read, true);
  assert.ok(after.readAt instanceof Date);
  assert.equal(bell((await user.get('/')).text), '0');
  assert.match((await user.get(`${CENTRE}?unread=1`)).text, /You have no unread notifications\./);

  const german = await signedIn(t.app, 'coinit');
  await t.db.insert(notifications).values({ recipientId: 7, kind: 'comment_on_content', message: row.message, context: row.context });
  assert.match((await german.get(CENTRE)).text, /member hat Ihren Beitrag im Projekt „Project“ kommentiert\./);
});

test('another user’s notification cannot be read or marked, by page or API: 404 as if it did not exist, and it stays unread', async () => {
  const t = await notificationsApp();
  await comment(t, 4, 'Nice idea');
  const [row] = await ofUser(t, 5);
  const other = await signedIn(t.app, 'member');
  const admin = await signedIn(t.app, 'admin');
  for (const browser of [other, admin]) {
    assert.equal((await browser.get(`${CENTRE}${row.id}/`)).status, 404);
    assert.equal((await browser.post(`${CENTRE}${row.id}/read/`, {})).status, 404);
    assert.doesNotMatch((await browser.get(CENTRE)).text, /commented on your contribution/);
  }
  for (const userId of [4, 1]) {
    const headers = await tokenHeader(t.db, userId);
    assert.equal((await t.app.inject({ method: 'GET', url: `/api/notifications/${row.id}/`, headers })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'POST', url: `/api/notifications/${row.id}/read/`, headers })).statusCode, 404);
    assert.equal((await t.app.inject({ method: 'POST', url: '/api/notifications/read_all/', headers })).statusCode, 200);
    const list = (await t.app.inject({ method: 'GET', url: '/api/notifications/', headers })).json();
    assert.equal(list.count, 0);
  }
  assert.equal((await ofUser(t, 5))[0].read, false, 'still unread');
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/notifications/' })).statusCode, 401);
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/notifications/live/' })).statusCode, 401);
  assert.equal((await new Browser(t.app).get(CENTRE)).location, `/accounts/login/?next=${CENTRE}`);
  assert.equal((await other.post(`${CENTRE}${row.id}/read/`, {}, false)).status, 403, 'CSRF');
  for (const id of ['0', 'abc', '99999999999']) assert.equal((await other.get(`${CENTRE}${id}/`)).status, 404, id);
});

test('the API lists the user’s notifications in their language, counts the unread and marks one or all read', async () => {
  const t = await notificationsApp();
  await comment(t, 4, 'First');
  await comment(t, 3, 'Second');
  const headers = await tokenHeader(t.db, 5);
  const unread = () => t.app.inject({ method: 'GET', url: '/api/notifications/unread/', headers }).then((r) => r.json());
  assert.deepEqual(await unread(), { unread: 2, max: 100 });
  const list = await t.app.inject({ method: 'GET', url: '/api/notifications/', headers: { ...headers, 'accept-language': 'de' } });
  assert.equal(list.statusCode, 200);
  const body = list.json();
  assert.equal(body.count, 2);
  assert.equal(body.unread, 2);
  const [newest, oldest] = body.results;
  assert.equal(newest.notification_type, 'comment_on_content');
  assert.equal(newest.message, 'moderator commented on your contribution in the project "Project".', 'the user’s language (en) before the header’s');
  assert.match(newest.target_url, /^http:\/\/localhost:80\/org\//);
  assert.equal(oldest.read, false);
  const marked = await t.app.inject({ method: 'POST', url: `/api/notifications/${oldest.id}/read/`, headers });
  assert.equal(marked.statusCode, 200);
  assert.equal(marked.json().read, true);
  assert.deepEqual(await unread(), { unread: 1, max: 100 });
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/notifications/?unread=true', headers })).json().count, 1);
  assert.deepEqual((await t.app.inject({ method: 'POST', url: '/api/notifications/read_all/', headers })).json(), { marked: 1 });
  assert.deepEqual(await unread(), { unread: 0, max: 100 });
  assert.equal((await t.app.inject({ method: 'GET', url: '/api/notifications/?page=9', headers })).statusCode, 404);
  assert.equal((await t.app.inject({ method: 'DELETE', url: `/api/notifications/${oldest.id}/`, headers })).statusCode, 405);
});

test('each kind goes in the app and by e-mail as the settings say, side by side on the settings page', async () => {
  const t = await notificationsApp();
  const user = await signedIn(t.app, 'user');
  const page = await user.get('/account/notifications/');
  assert.match(page.text, /name="in_app" value="comment_on_content" checked/);
  assert.match(page.text, /Someone comments on my contribution: in the app/);

  // In the app only: no e-mail about comments, but the notification.
  const others = KINDS.filter((k) => k !== 'comment_on_content');
  assert.equal((await user.post('/account/notifications/', { in_app_shown: '1', notification: others, in_app: KINDS })).status, 302);
  await comment(t, 4, 'One');
  assert.equal((await ofUser(t, 5)).length, 1);
  assert.equal((await t.db.select().from(outbox).where(eq(outbox.kind, 'comment_on_content'))).length, 0);

  // By e-mail only.
  assert.equal((await user.post('/account/notifications/', { in_app_shown: '1', notification: KINDS, in_app: others })).status, 302);
  assert.deepEqual((await t.db.select().from(notificationInappOptouts)).map((o) => [o.userId, o.kind]), [[5, 'comment_on_content']]);
  assert.match((await user.get('/account/notifications/')).text, /name="in_app" value="comment_on_content"\/>/);
  await comment(t, 4, 'Two');
  assert.equal((await ofUser(t, 5)).length, 1, 'no new notification');
  assert.equal((await t.db.select().from(outbox).where(eq(outbox.kind, 'comment_on_content'))).length, 1);

  // A form without the in-app switches leaves them as they are.
  assert.equal((await user.post('/account/notifications/', { notification: KINDS })).status, 302);
  assert.equal((await t.db.select().from(notificationInappOptouts)).length, 1);
  // Turning all e-mail off leaves the notification centre.
  await t.db.update(users).set({ getNotifications: false }).where(eq(users.id, 5));
  await t.db.delete(notificationInappOptouts);
  await comment(t, 4, 'Three');
  assert.equal((await ofUser(t, 5)).length, 2);
});

test('the phase notices reach the followers’ notification centres once, leading to the project', async () => {
  const t = await notificationsApp();
  const now = new Date();
  const { db, config } = t;
  await t.app.inject({ method: 'PUT', url: '/api/follows/project/', headers: await tokenHeader(db, 5), payload: { enabled: true } });
  await db.update(phases).set({ startDate: new Date(now.getTime() - 10 * 60_000), endDate: new Date(now.getTime() + 24 * 3600_000) }).where(eq(phases.moduleId, 1));
  const options = { now, origin: config.baseUrl, timeZone: config.timeZone };
  await createSystemActions(db, options);
  await createSystemActions(db, options);
  const rows = (await ofUser(t, 5)).filter((r) => r.kind.startsWith('phase_'));
  assert.deepEqual(rows.map((r) => r.kind), ['phase_started', 'phase_ending'], 'once each, however often the job runs');
  for (const row of rows) assert.equal(row.targetUrl, '/org/projects/project/');
});

test('a new project tells the other initiators in the app; a deleted one too, leading to the project list', async () => {
  const t = await notificationsApp();
  const initiator = await signedIn(t.app, 'initiator');
  const created = await initiator.post('/org/dashboard/projects/create/', { name: 'Fresh plan', description: 'Short', access: 'PUBLIC' });
  assert.equal(created.status, 302);
  const [fresh] = await ofUser(t, 7);
  assert.equal(fresh.kind, 'new_project');
  assert.deepEqual(fresh.context, { project: 'Fresh plan', organisation: 'Organisation', actor: 'initiator' });
  assert.equal((await ofUser(t, 2)).length, 0, 'not the initiator who made it');
  assert.equal((await ofUser(t, 6)).length, 0, 'not another organisation’s');

  assert.equal((await initiator.post('/org/dashboard/projects/fresh-plan/delete/', {})).status, 302);
  const rows = await ofUser(t, 7);
  assert.deepEqual(rows.map((r) => r.kind), ['project_deleted'], 'the new project’s notice went with the project');
  assert.equal(rows[0].targetUrl, '/org/dashboard/projects/');
  assert.equal(rows[0].projectId, null);
});

test('loaddata keeps notifications as adhocracy+ had them, read or not; a target off the site leads nowhere', async () => {
  const world = dashboardWorld();
  const t = await dashboardApp({
    ...world,
    notifications: [
      { recipient: 5, kind: 'event_added', message: 'A new event %(event)s was added.', context: { event: 'Walk' }, target_url: '/org/projects/project/', project: 1, created: '2026-03-01T10:00:00Z' },
      { recipient: 5, kind: 'comment_on_post', message: 'Old news', target_url: 'https://evil.example/', read: true, created: '2026-02-01T10:00:00Z' },
    ],
  });
  const rows = await ofUser(t, 5);
  assert.deepEqual(rows.map((r) => [r.kind, r.read, r.targetUrl]), [['event_added', false, '/org/projects/project/'], ['comment_on_post', true, '']]);
  assert.deepEqual(rows[1].readAt, new Date('2026-02-01T10:00:00Z'));
  const user = await signedIn(t.app, 'user');
  assert.equal(bell((await user.get('/')).text), '1');
  const centre = await user.get(CENTRE);
  assert.match(centre.text, /A new event Walk was added\./);
  assert.match(centre.text, /Old news/);
  assert.doesNotMatch(centre.text, /evil\.example/);
});

test('a page kept for its viewer still shows the viewer’s own bell of now, and its stream starts where that count was read', async () => {
  const t = await notificationsApp();
  const user = await signedIn(t.app, 'user');
  const list = await user.get('/org/projects/project/');
  const ideaPath = /href="(\/org\/ideas\/\d{4}-\d{5}\/)"/.exec(list.text)?.[1];
  assert.ok(ideaPath);
  const first = await user.get(ideaPath);
  assert.equal(bell(first.text), '0');
  assert.match(first.text, /data-unread="0"/);
  // Nothing on the idea's page changes (its version stays): only the viewer's notifications.
  await t.db.insert(notifications).values({ recipientId: 5, kind: 'new_project', message: 'Hello', context: {} });
  const second = await user.get(ideaPath);
  assert.equal(bell(second.text), '1');
  assert.match(second.text, /data-unread="1"/);
  const position = (html: string) => /data-live-last="([^"]*)"/.exec(html)?.[1];
  assert.match(String(position(second.text)), /^\d+:\d+:/);
  assert.notEqual(position(second.text), position(first.text));
});
