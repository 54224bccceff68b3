import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, eq } from 'drizzle-orm';
import { actions, follows, notifications, offlineEvents, outbox, projects } from '../../../src/db/schema/index.js';
import { sendEventSoonNotices } from '../../../src/features/offlineevents/notices.js';
import { Browser } from '../../me/accounts/client.js';
import { dashboardApp, signedIn } from '../../manage/world.js';

const LIST = '/org/dashboard/projects/project/offlineevents/';
const CREATE = `${LIST}create/`;
const HOUR = 3600 * 1000;

/** A `datetime-local` value of the test platform's time zone, `days` from now at 18:00. */
function localDay(days: number) {
  const d = new Date(Date.now() + days * 24 * HOUR);
  return `${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, '0')}-${String(d.getUTCDate()).padStart(2, '0')}T18:00`;
}

const VALID = { name: 'Bürgerversammlung im Rathaus', event_type: 'Versammlung', date: localDay(5), description: '<p>Wir stellen die Ideen vor.</p>' };

async function addEvent(t: Awaited<ReturnType<typeof dashboardApp>>, projectId: number, name: string, date: Date) {
  const [row] = await t.db.insert(offlineEvents).values({ projectId, creatorId: 2, slug: name.toLowerCase().replace(/\W+/g, '-'), name, eventType: 'Workshop', date, description: '<p>Come.</p>' }).returning();
  return row;
}

test('an initiator adds an event: errors beside the fields and nothing saved, then the event in the list, the timeline and on its own page', async () => {
  const t = await dashboardApp();
  const initiator = await signedIn(t.app, 'initiator');
  const form = await initiator.get(CREATE);
  assert.equal(form.status, 200);
  assert.match(form.text, /enctype="multipart\/form-data"/);

  const bad = await initiator.post(CREATE, { name: '', event_type: 'x'.repeat(31), date: '2026-02-30T10:00', description: '<p> </p>' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /id="id_name_errors"[^>]*><li>This field is required./);
  assert.match(bad.text, /id="id_event_type_errors"[^>]*><li>Ensure this field has no more than 30 characters./);
  assert.match(bad.text, /id="id_date_errors"[^>]*><li>Enter a valid date and time./);
  assert.match(bad.text, /id="id_description_errors"[^>]*><li>This field is required./);
  assert.equal((await t.db.select().from(offlineEvents)).length, 0);

  const saved = await initiator.post(CREATE, VALID);
  assert.equal(saved.status, 302);
  assert.equal(saved.location, `${LIST}?done=event_saved`);
  const [event] = await t.db.select().from(offlineEvents);
  assert.equal(event.slug, 'burgerversammlung-im-rathaus');
  assert.equal(event.projectId, 1);
  const [added] = await t.db.select().from(actions).where(and(eq(actions.objType, 'offlineevent'), eq(actions.objId, event.id)));
  assert.equal(added.verb, 'add');
  assert.equal(added.projectId, 1);

  const list = await initiator.get(`${LIST}?done=event_saved`);
  assert.match(list.text, /The event has been saved./);
  assert.match(list.text, /Bürgerversammlung im Rathaus/);

  // The timeline shows the running module's entry and the event, linked to its page.
  const projectPage = await new Browser(t.app).get('/org/projects/project/');
  assert.match(projectPage.text, /class="timeline-event"><a href="\/org\/offlineevents\/burgerversammlung-im-rathaus\/"><strong>Bürgerversammlung im Rathaus<\/strong>/);
  const eventPage = await new Browser(t.app).get('/org/offlineevents/burgerversammlung-im-rathaus/');
  assert.equal(eventPage.status, 200);
  assert.match(eventPage.text, /<h1 id="event-heading">Bürgerversammlung im Rathaus<\/h1>/);
  assert.match(eventPage.text, /Wir stellen die Ideen vor./);
  assert.doesNotMatch(eventPage.text, /Edit events/);

  // A second event with the same name gets its own slug.
  assert.equal((await initiator.post(CREATE, VALID)).status, 302);
  assert.deepEqual((await t.db.select({ slug: offlineEvents.slug }).from(offlineEvents).orderBy(offlineEvents.id)).map((r) => r.slug), ['burgerversammlung-im-rathaus', 'burgerversammlung-im-rathaus-2']);
});

test('editing keeps the slug; deleting removes the event and its actions; an event of another project is not found under this one', async () => {
  const t = await dashboardApp();
  const initiator = await signedIn(t.app, 'initiator');
  const event = await addEvent(t, 1, 'Site visit', new Date(Date.now() + 10 * 24 * HOUR));
  const other = await addEvent(t, 2, 'Draft meeting', new Date(Date.now() + 10 * 24 * HOUR));
  const edit = await initiator.get(`${LIST}site-visit/update/`);
  assert.equal(edit.status, 200);
  assert.match(edit.text, /value="Site visit"/);
  const bad = await initiator.post(`${LIST}site-visit/update/`, { ...VALID, date: '' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /id="id_date_errors"[^>]*><li>This field is required./);
  assert.equal((await initiator.post(`${LIST}site-visit/update/`, { ...VALID, name: 'Site visit at the river' })).status, 302);
  const [changed] = await t.db.select().from(offlineEvents).where(eq(offlineEvents.id, event.id));
  assert.equal(changed.name, 'Site visit at the river');
  assert.equal(changed.slug, 'site-visit');
  assert.equal((await initiator.get(`${LIST}${other.slug}/update/`)).status, 404);
  assert.equal((await initiator.post(`${LIST}${other.slug}/delete/`, {})).status, 404);
  assert.equal((await initiator.post(`${LIST}site-visit/delete/`, {})).status, 302);
  assert.equal((await t.db.select().from(offlineEvents).where(eq(offlineEvents.id, event.id))).length, 0);
  assert.equal((await t.db.select().from(actions).where(and(eq(actions.objType, 'offlineevent'), eq(actions.objId, event.id)))).length, 0);
});

test('the document: only a PDF (the error beside the field, nothing saved), served from the media store and linked from the event page', async () => {
  const t = await dashboardApp();
  const initiator = await signedIn(t.app, 'initiator');
  const notPdf = await initiator.postMultipart(CREATE, VALID, { name: 'document', filename: 'agenda.pdf', type: 'application/pdf', data: Buffer.from('<html>not a pdf</html>') });
  assert.equal(notPdf.status, 400);
  assert.match(notPdf.text, /id="id_document_errors"[^>]*><li>The document must be a PDF file./);
  assert.equal((await t.db.select().from(offlineEvents)).length, 0);
  const pdf = Buffer.from('%PDF-1.4\n%test agenda\n');
  assert.equal((await initiator.postMultipart(CREATE, VALID, { name: 'document', filename: 'agenda.pdf', type: 'application/pdf', data: pdf })).status, 302);
  const [event] = await t.db.select().from(offlineEvents);
  assert.match(event.document ?? '', /^offlineevents\/documents\/[0-9a-f]{64}\.pdf$/);
  const page = await new Browser(t.app).get(`/org/offlineevents/${event.slug}/`);
  assert.match(page.text, new RegExp(`href="/media/${event.document}"`));
  const file = await new Browser(t.app).download(`/media/${event.document}`);
  assert.equal(file.status, 200);
  assert.equal(file.headers['content-type'], 'application/pdf');
  assert.deepEqual(file.body, pdf);
  // "Remove the document" clears it.
  assert.equal((await initiator.postMultipart(`${LIST}${event.slug}/update/`, { ...VALID, document_clear: 'on' })).status, 302);
  const [cleared] = await t.db.select().from(offlineEvents);
  assert.equal(cleared.document, null);
});

test('who may manage events: the organisation’s initiators and superusers; moderators, members, others and the other organisation’s initiator may not', async () => {
  const t = await dashboardApp();
  await addEvent(t, 1, 'Site visit', new Date(Date.now() + 10 * 24 * HOUR));
  const anonymous = await new Browser(t.app).get(LIST);
  assert.equal(anonymous.status, 302);
  assert.match(anonymous.location ?? '', /^\/accounts\/login\//);
  const expected: [string, number][] = [
    ['admin', 200],
    ['initiator', 200],
    ['coinit', 200],
    ['moderator', 403],
    ['member', 403],
    ['user', 403],
    ['other', 403],
  ];
  for (const [username, status] of expected) {
    const browser = await signedIn(t.app, username);
    assert.equal((await browser.get(LIST)).status, status, `${username} list`);
    assert.equal((await browser.get(`${LIST}site-visit/update/`)).status, status, `${username} edit`);
    if (status !== 200) {
      assert.equal((await browser.post(CREATE, VALID)).status, status, `${username} add`);
      assert.equal((await browser.post(`${LIST}site-visit/delete/`, {})).status, status, `${username} delete`);
    }
  }
  assert.equal((await t.db.select().from(offlineEvents)).length, 1);
});

test('who may see an event: as who may see its project (public, draft, private), and only under its own organisation', async () => {
  const t = await dashboardApp();
  await addEvent(t, 1, 'Public meeting', new Date(Date.now() + 10 * 24 * HOUR));
  await addEvent(t, 2, 'Draft meeting', new Date(Date.now() + 10 * 24 * HOUR));
  await addEvent(t, 4, 'Foreign meeting', new Date(Date.now() + 10 * 24 * HOUR));
  // One login per user (a login hashes a password: the slow part of this file).
  const browsers = new Map<string, Browser>();
  const browserOf = async (username: string) => {
    const known = browsers.get(username);
    if (known) return known;
    const browser = await signedIn(t.app, username);
    browsers.set(username, browser);
    return browser;
  };
  const status = async (username: string | null, url: string) => (username ? await browserOf(username) : new Browser(t.app)).get(url).then((r) => r.status);
  // Public project: everyone.
  for (const who of [null, 'user', 'other']) assert.equal(await status(who, '/org/offlineevents/public-meeting/'), 200, String(who));
  // Draft project: the organisation's initiators and superusers; anonymous visitors are sent to the login.
  assert.equal(await status(null, '/org/offlineevents/draft-meeting/'), 302);
  for (const who of ['user', 'member', 'moderator', 'other']) assert.equal(await status(who, '/org/offlineevents/draft-meeting/'), 403, who);
  for (const who of ['initiator', 'admin']) assert.equal(await status(who, '/org/offlineevents/draft-meeting/'), 200, who);
  // Private project: its participants and moderators, not other users.
  await t.db.update(projects).set({ access: 'PRIVATE' }).where(eq(projects.id, 1));
  for (const who of ['member', 'moderator', 'initiator']) assert.equal(await status(who, '/org/offlineevents/public-meeting/'), 200, who);
  for (const who of ['user', 'other']) assert.equal(await status(who, '/org/offlineevents/public-meeting/'), 403, who);
  // An event is found only under its own organisation.
  assert.equal(await status(null, '/other-org/offlineevents/public-meeting/'), 404);
  assert.equal(await status(null, '/org/offlineevents/foreign-meeting/'), 404);
  assert.equal(await status(null, '/other-org/offlineevents/foreign-meeting/'), 200);
  assert.equal(await status(null, '/org/offlineevents/no-such-event/'), 404);
});

test('"event soon": once per event to the followers who may see the project, with a start action; drafts and far events wait', async () => {
  const t = await dashboardApp();
  const now = new Date();
  const soon = await addEvent(t, 1, 'Soon meeting', new Date(now.getTime() + 48 * HOUR));
  await addEvent(t, 1, 'Later meeting', new Date(now.getTime() + 100 * HOUR));
  await addEvent(t, 2, 'Draft meeting', new Date(now.getTime() + 24 * HOUR));
  await t.db.insert(follows).values([
    { creatorId: 5, projectId: 1 },
    { creatorId: 4, projectId: 1 },
    { creatorId: 5, projectId: 2 },
  ]);
  const options = { origin: 'https://allmende.example', timeZone: 'Europe/Berlin', now };
  // The fixture's moderator follows the project too (a moderator follows the projects he moderates).
  assert.deepEqual(await sendEventSoonNotices(t.db, options), { events: 1, mails: 3 });
  assert.deepEqual(await sendEventSoonNotices(t.db, options), { events: 0, mails: 0 }, 'never twice');
  const mails = await t.db.select().from(outbox).where(eq(outbox.kind, 'event_soon'));
  assert.deepEqual(mails.map((m) => m.recipient).sort(), ['member@example.org', 'moderator@example.org', 'user@example.org']);
  assert.match(mails[0].subject, /Event in project Project/);
  assert.match(mails[0].body, /https:\/\/allmende.example\/org\/offlineevents\/soon-meeting\//);
  assert.doesNotMatch(mails[0].body, /because/, 'why it came is said once, in the footer the delivery adds');
  const [start] = await t.db.select().from(actions).where(and(eq(actions.objType, 'offlineevent'), eq(actions.objId, soon.id), eq(actions.verb, 'start')));
  assert.equal(start.timestamp.getTime(), soon.date.getTime());

  // A follower of a project that turned private, without a role in it, hears nothing more.
  const later = await addEvent(t, 1, 'Private meeting', new Date(now.getTime() + 30 * HOUR));
  await t.db.update(projects).set({ access: 'PRIVATE' }).where(eq(projects.id, 1));
  assert.deepEqual(await sendEventSoonNotices(t.db, options), { events: 1, mails: 2 });
  const privateMails = await t.db.select().from(outbox).where(and(eq(outbox.kind, 'event_soon'), eq(outbox.recipient, 'user@example.org')));
  assert.equal(privateMails.length, 1, 'the plain user heard of the first event only');
  assert.match((await t.db.select().from(outbox).where(eq(outbox.recipient, 'member@example.org'))).at(-1)?.body ?? '', new RegExp(later.slug));
});

test('followers hear, in the app and by e-mail, that an event was added, moved or cancelled (a+ 2026); not of a new title, a draft project or their own change', async () => {
  const t = await dashboardApp();
  await t.db.insert(follows).values([
    { creatorId: 5, projectId: 1 },
    { creatorId: 2, projectId: 1 },
    { creatorId: 5, projectId: 2 },
  ]);
  const initiator = await signedIn(t.app, 'initiator');
  const told = async (kind: string) => {
    const inApp = await t.db.select({ recipient: notifications.recipientId, url: notifications.targetUrl }).from(notifications).where(eq(notifications.kind, kind)).orderBy(notifications.recipientId);
    const mails = await t.db.select({ to: outbox.recipient, subject: outbox.subject, body: outbox.body }).from(outbox).where(eq(outbox.kind, kind)).orderBy(outbox.recipient);
    return { inApp, mails };
  };

  assert.equal((await initiator.post(CREATE, { ...VALID, name: 'Site visit' })).status, 302);
  const added = await told('event_added');
  // The user and the project's moderator (who follows what he moderates); never the initiator who added it.
  assert.deepEqual(added.inApp, [{ recipient: 3, url: '/org/offlineevents/site-visit/' }, { recipient: 5, url: '/org/offlineevents/site-visit/' }]);
  assert.deepEqual(added.mails.map((m) => m.to), ['moderator@example.org', 'user@example.org']);
  assert.match(added.mails[1].subject, /^Event added to project Project$/);
  assert.match(added.mails[1].body, /the event "Site visit" was added to the project "Project"\. It takes place on .+ More about it: http.*\/org\/offlineevents\/site-visit\//);

  const update = `${LIST}site-visit/update/`;
  assert.equal((await initiator.post(update, { ...VALID, name: 'Site visit at the park' })).status, 302);
  assert.equal((await told('event_update')).mails.length, 0, 'a new title alone is no news');
  assert.equal((await initiator.post(update, { ...VALID, name: 'Site visit at the park', date: localDay(9) })).status, 302);
  const moved = await told('event_update');
  assert.deepEqual(moved.inApp.map((n) => n.recipient), [3, 5]);
  assert.match(moved.mails[1].body, /now takes place on/);

  assert.equal((await initiator.post(`${LIST}site-visit/delete/`, {})).status, 302);
  const cancelled = await told('event_cancelled');
  assert.deepEqual(cancelled.inApp, [{ recipient: 3, url: '/org/projects/project/' }, { recipient: 5, url: '/org/projects/project/' }], 'the event is gone: its notice leads to the project');
  assert.match(cancelled.mails[1].subject, /^Event Site visit at the park in project Project cancelled$/);

  // The user turns "event added" off in the app, not by e-mail: the e-mail still comes, the notification does not.
  const user = await signedIn(t.app, 'user');
  const kinds = ['event_soon', 'event_added', 'event_update', 'event_cancelled'];
  assert.equal((await user.post('/account/notifications/', { notification: kinds, in_app: kinds.filter((k) => k !== 'event_added'), in_app_shown: '1' })).status, 302);
  assert.equal((await initiator.post(CREATE, { ...VALID, name: 'Walk' })).status, 302);
  assert.deepEqual((await told('event_added')).inApp.map((n) => n.recipient), [3, 3, 5]);
  assert.deepEqual((await told('event_added')).mails.map((m) => m.to), ['moderator@example.org', 'moderator@example.org', 'user@example.org', 'user@example.org']);

  // A draft project's events tell nobody.
  assert.equal((await initiator.post('/org/dashboard/projects/draft-plan/offlineevents/create/', { ...VALID, name: 'Draft walk' })).status, 302);
  assert.equal((await t.db.select().from(notifications).where(eq(notifications.recipientId, 5))).filter((n) => n.context.event === 'Draft walk').length, 0);
});

test('the export of a project’s events: CSV with the link, the type and the date, for the initiators only', async () => {
  const t = await dashboardApp();
  await addEvent(t, 1, 'Site visit', new Date('2026-12-07T17:00:00Z'));
  const initiator = await signedIn(t.app, 'initiator');
  const csv = await initiator.download(`${LIST}export.csv`);
  assert.equal(csv.status, 200);
  const text = csv.body.toString('utf8');
  assert.match(text, /Title/);
  assert.match(text, /\/org\/offlineevents\/site-visit\//);
  assert.match(text, /Site visit/);
  assert.match(text, /Workshop/);
  assert.match(text, /2026-12-07T18:00:00\+01:00/);
  assert.equal((await initiator.download(`${LIST}export.xlsx`)).status, 200);
  assert.equal((await (await signedIn(t.app, 'moderator')).download(`${LIST}export.csv`)).status, 403);
});
