import assert from 'node:assert/strict';
import { test } from 'node:test';
import sharp from 'sharp';
import { and, asc, eq } from 'drizzle-orm';
import { actions, notifications, outbox } from '../../../src/db/schema/index.js';
import { resultEntries, resultLinks, results, resultStatuses } from '../../../src/features/results/schema.js';
import { polls } from '../../../src/features/polls/schema.js';
import { NestingRefused, updateResult } from '../../../src/features/results/services.js';
import { ideaPath } from '../../../src/core/urls.js';
import { Browser } from '../../me/accounts/client.js';
import { signedIn } from '../../manage/world.js';
import { daysFromNow, load } from '../../fixtures.js';
import { BRIDGE, PARK, resultsApp } from './world.js';

const MANAGE = '/org/results/project/project/';
/** The proposals were made today: their reference number has this year. */
const parkPage = ideaPath('org', new Date(), PARK, 'budgeting');

async function winnersBecomeResults(t: Awaited<ReturnType<typeof resultsApp>>) {
  const initiator = await signedIn(t.app, 'initiator');
  const list = await initiator.get(MANAGE);
  assert.equal(list.status, 200);
  assert.match(list.text, /Winners of &quot;Budget counted&quot;|Winners of "Budget counted"/);
  const made = await initiator.post(`${MANAGE}winners/`, { module: '32' });
  assert.equal(made.status, 302);
  assert.equal(made.location, `${MANAGE}?done=winners`);
  return initiator;
}

test('an initiator turns the winners of a budget vote into results in one click: titled, with their budget, planned, linked; again changes nothing', async () => {
  const t = await resultsApp();
  const initiator = await winnersBecomeResults(t);
  const rows = await t.db.select().from(results).orderBy(asc(results.id));
  assert.deepEqual(
    rows.map((r) => [r.title, r.budgetPlanned, r.projectId, r.progress]),
    [
      ['Park 32', 50_000, 1, null],
      ['Bridge 32', 30_000, 1, null],
    ],
    "no progress of their own: their status's 0 % until they have parts or get one",
  );
  const statuses = await t.db.select().from(resultStatuses).where(eq(resultStatuses.organisationId, 1)).orderBy(asc(resultStatuses.position));
  assert.deepEqual(statuses.map((s) => [s.name, s.progress]), [['planned', 0], ['in progress', 40], ['done', 100]]);
  assert.ok(rows.every((r) => r.statusId === statuses[0].id));
  const links = await t.db.select().from(resultLinks).orderBy(asc(resultLinks.resultId));
  assert.deepEqual(links.map((l) => [l.resultId, l.contentType, l.objectPk]), [[rows[0].id, 'proposal', PARK], [rows[1].id, 'proposal', BRIDGE]]);
  const again = await initiator.post(`${MANAGE}winners/`, { module: '32' });
  assert.equal(again.location, `${MANAGE}?done=none`);
  assert.equal((await t.db.select().from(results)).length, 2);
  // A module of the project without a vote has no winners to take.
  assert.equal((await initiator.post(`${MANAGE}winners/`, { module: '1' })).status, 404);
});

test('a timeline entry moves a result to "done": the change is recorded old → new, the proposal page, the feed, the notification centre and a mail tell its author', async () => {
  const t = await resultsApp();
  const initiator = await winnersBecomeResults(t);
  const [park] = await t.db.select().from(results).where(eq(results.title, 'Park 32'));
  const [done] = await t.db.select().from(resultStatuses).where(eq(resultStatuses.name, 'done'));

  // Linking told the author: a mail, a notification, a feed entry.
  const linked = await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'result_linked')));
  assert.equal(linked.length, 2);
  assert.match(linked[0].body, /became part of the result "(Park|Bridge) 32"/);

  const bad = await initiator.post(`/org/results/${park.id}/entries/`, { date: '2026-02-30', text: '', status: '', progress: '' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /id="id_date_errors"[^>]*><li>Enter a valid date./);
  assert.match(bad.text, /id="id_text_errors"[^>]*><li>Write what happened, or choose a new status or progress./);
  assert.equal((await t.db.select().from(resultEntries)).length, 0);

  const added = await initiator.post(`/org/results/${park.id}/entries/`, { date: '2026-11-30', text: 'The playground is open.', status: String(done.id), progress: '' });
  assert.equal(added.status, 302);
  const [entry] = await t.db.select().from(resultEntries);
  assert.equal(entry.text, 'The playground is open.');
  assert.deepEqual(entry.changes, [
    { field: 'status', from: 'planned', to: 'done' },
    { field: 'progress', from: '0', to: '100' },
  ]);

  const page = await new Browser(t.app).get(`/org/results/${park.id}/`);
  assert.equal(page.status, 200);
  assert.match(page.text, /The playground is open./);
  assert.match(page.text, /Status: planned → done/);
  assert.match(page.text, /Progress: 0 % → 100 %/);
  assert.doesNotMatch(page.text, /Add a timeline entry/, 'visitors do not write the timeline');

  const author = await signedIn(t.app, 'user');
  const proposal = await author.get(parkPage);
  assert.equal(proposal.status, 200);
  assert.match(proposal.text, new RegExp(`This became part of: <a href="/org/results/${park.id}/">Park 32</a> — done, 100 %`));

  const feed = await author.get('/userdashboard/overview/');
  assert.match(feed.text, /Your contribution became part of the result <a href="\/org\/results\/\d+\/">Park 32<\/a>/);
  assert.match(feed.text, new RegExp(`The result <a href="/org/results/${park.id}/">Park 32</a> of your contribution is now &quot;done&quot; \\(100 %\\)|The result <a href="/org/results/${park.id}/">Park 32</a> of your contribution is now "done" \\(100 %\\)`));

  const [mail] = await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'result_status')));
  assert.match(mail.body, /the result "Park 32" of the project "Project" is now "done" \(100 %\)/);
  assert.match(mail.body, /The playground is open./);
  const inapp = await t.db.select().from(notifications).where(and(eq(notifications.recipientId, 5), eq(notifications.kind, 'result_status')));
  assert.equal(inapp.length, 1);
  assert.equal(inapp[0].targetUrl, `/org/results/${park.id}/`);
  // The actor hears nothing of her own change.
  assert.equal((await t.db.select().from(notifications).where(eq(notifications.recipientId, 2))).length, 0);
  const feedActions = await t.db.select().from(actions).where(and(eq(actions.objType, 'result'), eq(actions.targetCreatorId, 5)));
  assert.deepEqual(feedActions.map((a) => a.verb).sort(), ['add', 'add', 'update']);
});

test('editing a result records its status, progress and budget changes in the timeline; a bad form keeps the values and says why beside each field', async () => {
  const t = await resultsApp();
  const initiator = await winnersBecomeResults(t);
  const [bridge] = await t.db.select().from(results).where(eq(results.title, 'Bridge 32'));
  const [progressing] = await t.db.select().from(resultStatuses).where(eq(resultStatuses.name, 'in progress'));
  const form = { title: 'Bridge 32', description: '<p>Over the creek.</p>', category: 'Traffic', district: 'North', lat: '52.5', lng: '13.4', start_date: '2026-01-01', end_date: '2026-12-31', budget_planned: '30000', budget_spent: '12000', status: String(progressing.id), progress: '', parent: '' };
  const bad = await initiator.post(`/org/results/${bridge.id}/update/`, { ...form, title: ' ', lat: '95', end_date: '2025-01-01', progress: '120', parent: String(bridge.id) });
  assert.equal(bad.status, 400);
  for (const [name, message] of [['title', 'This field is required.'], ['lat', 'Enter a latitude from -90 to 90.'], ['end_date', 'The end must not be before the start.'], ['progress', 'Enter a number from 0 to 100.'], ['parent', 'Select a valid choice.']])
    assert.match(bad.text, new RegExp(`id="id_${name}_errors"[^>]*><li>${message.replace(/[.()]/g, '\\$&')}`), name);
  assert.match(bad.text, /value="North"/);

  assert.equal((await initiator.post(`/org/results/${bridge.id}/update/`, form)).status, 302);
  const [entry] = await t.db.select().from(resultEntries);
  assert.deepEqual(entry.changes, [
    { field: 'status', from: 'planned', to: 'in progress' },
    { field: 'progress', from: '0', to: '40' },
    { field: 'budget_spent', from: null, to: '12000' },
  ]);
  // No change, no entry.
  assert.equal((await initiator.post(`/org/results/${bridge.id}/update/`, { ...form, progress: '40' })).status, 302);
  assert.equal((await t.db.select().from(resultEntries)).length, 1);
});

test('the Results tab: overall progress, the list filtered by status, category and district, sub-results whose parent shows their mean', async () => {
  const t = await resultsApp();
  const initiator = await winnersBecomeResults(t);
  const [park, bridge] = await t.db.select().from(results).orderBy(asc(results.id));
  const [progressing] = await t.db.select().from(resultStatuses).where(eq(resultStatuses.name, 'in progress'));
  await initiator.post(`/org/results/${bridge.id}/update/`, { title: 'Bridge 32', description: '', category: 'Traffic', district: 'North', lat: '', lng: '', start_date: '', end_date: '', budget_planned: '30000', budget_spent: '', status: String(progressing.id), progress: '', parent: '' });
  // A parent without progress of its own shows the mean of its parts: (0 + 40) / 2 = 20.
  const parent = await initiator.post(`${MANAGE}create/`, { title: 'Green quarter', description: '', category: '', district: '', lat: '', lng: '', start_date: '', end_date: '', budget_planned: '', budget_spent: '', status: '', progress: '', parent: '' });
  assert.equal(parent.status, 302);
  const [quarter] = await t.db.select().from(results).where(eq(results.title, 'Green quarter'));
  await t.db.update(results).set({ parentId: quarter.id }).where(eq(results.id, park.id));
  await t.db.update(results).set({ parentId: quarter.id }).where(eq(results.id, bridge.id));

  const visitor = new Browser(t.app);
  const tab = await visitor.get('/org/projects/project/?tab=result');
  assert.equal(tab.status, 200);
  assert.match(tab.text, /Overall progress: <span class="result-progress"><progress[^>]*value="20"/);
  assert.match(tab.text, /Green quarter/);
  assert.match(tab.text, /Park 32/);
  const filtered = await visitor.get(`/org/projects/project/?tab=result&status=${progressing.id}`);
  assert.match(filtered.text, /Bridge 32/);
  assert.doesNotMatch(filtered.text, /href="\/org\/results\/\d+\/">Park 32/);
  const byDistrict = await visitor.get('/org/projects/project/?tab=result&district=North');
  assert.match(byDistrict.text, /Bridge 32/);
  assert.doesNotMatch(byDistrict.text, /href="\/org\/results\/\d+\/">Green quarter/);
  assert.match((await visitor.get('/org/')).text, /<a href="\/org\/results\/">What became of it<\/a>/, 'the organisation page leads to the overview');
  const overview = await visitor.get('/org/results/');
  assert.equal(overview.status, 200);
  assert.match(overview.text, /Green quarter/);
  assert.match(overview.text, /<a href="\/org\/projects\/project\/\?tab=result">Project<\/a>/);
});

test("a contribution's page shows its result's progress as the result's page does, also when it is made of the parts' parts", async () => {
  const t = await resultsApp();
  await winnersBecomeResults(t);
  const [park] = await t.db.select().from(results).orderBy(asc(results.id));
  // The park has no progress of its own; its part, the playground, neither (its status says 0 %), but the playground's parts do: 100 and 50.
  await t.db.update(results).set({ progress: null }).where(eq(results.id, park.id));
  const [playground] = await t.db.insert(results).values({ projectId: 1, title: 'Playground', parentId: park.id, statusId: park.statusId }).returning();
  await t.db.insert(results).values([
    { projectId: 1, title: 'Slide', parentId: playground.id, progress: 100 },
    { projectId: 1, title: 'Swings', parentId: playground.id, progress: 50 },
  ]);
  const visitor = new Browser(t.app);
  assert.match((await visitor.get(`/org/results/${park.id}/`)).text, /<progress[^>]*value="75"/);
  assert.match((await visitor.get(parkPage)).text, new RegExp(`This became part of: <a href="/org/results/${park.id}/">Park 32</a> — planned, 75 %`));
});

test('who may: initiators and the project moderators edit, others are refused; a private project’s results are private', async () => {
  const t = await resultsApp();
  await winnersBecomeResults(t);
  const [park] = await t.db.select().from(results).orderBy(asc(results.id));
  const moderator = await signedIn(t.app, 'moderator');
  assert.equal((await moderator.get(MANAGE)).status, 200);
  assert.equal((await moderator.get(`/org/results/${park.id}/update/`)).status, 200);
  for (const name of ['user', 'other']) {
    const browser = await signedIn(t.app, name);
    assert.equal((await browser.get(MANAGE)).status, 403, name);
    assert.equal((await browser.post(`/org/results/${park.id}/entries/`, { date: '2026-01-01', text: 'x', status: '', progress: '' })).status, 403, name);
  }
  const anonymous = await new Browser(t.app).get(MANAGE);
  assert.equal(anonymous.status, 302);
  // A result of organisation 1 is not found under organisation 2's address.
  assert.equal((await new Browser(t.app).get(`/other-org/results/${park.id}/`)).status, 404);

  // A result of the private project 5: its participants and moderators see it, nobody else.
  const [secret] = await t.db.insert(results).values({ projectId: 5, title: 'Secret plan' }).returning();
  assert.equal((await (await signedIn(t.app, 'member')).get(`/org/results/${secret.id}/`)).status, 200);
  assert.equal((await (await signedIn(t.app, 'user')).get(`/org/results/${secret.id}/`)).status, 403);
  assert.equal((await new Browser(t.app).get(`/org/results/${secret.id}/`)).status, 302);
  assert.doesNotMatch((await new Browser(t.app).get('/org/results/')).text, /Secret plan/);
});

test('an organisation keeps its statuses: add one with its default progress, refuse a bad one, delete one; only its initiators', async () => {
  const t = await resultsApp();
  const initiator = await signedIn(t.app, 'initiator');
  const defaults = await initiator.get('/org/results/statuses/');
  assert.match(defaults.text, /These are the default statuses/);
  assert.match(defaults.text, /<td>in progress<\/td><td>The work is under way.<\/td><td>40 %<\/td>/);
  assert.equal((await t.db.select().from(resultStatuses)).length, 0, 'a read stores nothing; the defaults are stored with the first write');
  const bad = await initiator.post('/org/results/statuses/', { name: '', description: '', progress: '101' });
  assert.equal(bad.status, 400);
  assert.match(bad.text, /id="id_name_errors"/);
  assert.match(bad.text, /id="id_progress_errors"[^>]*><li>Enter a number from 0 to 100./);
  assert.equal((await t.db.select().from(resultStatuses)).length, 0, 'a refused form stores nothing');
  assert.equal((await initiator.post('/org/results/statuses/', { name: 'Tendered', description: 'The work is tendered.', progress: '20' })).status, 302);
  assert.deepEqual((await t.db.select().from(resultStatuses).orderBy(asc(resultStatuses.position))).map((s) => s.name), ['planned', 'in progress', 'done', 'Tendered']);
  const [tendered] = await t.db.select().from(resultStatuses).where(eq(resultStatuses.name, 'Tendered'));
  assert.equal(tendered.progress, 20);
  // A result that shows the status's default keeps it when the default changes or the status goes (never without an entry).
  const [tender] = await t.db.insert(results).values({ projectId: 1, title: 'Tender', statusId: tendered.id }).returning();
  const shown = async () => /<progress[^>]*value="(\d+)"/.exec((await new Browser(t.app).get(`/org/results/${tender.id}/`)).text)?.[1];
  assert.equal(await shown(), '20');
  assert.match((await initiator.get(`/org/results/statuses/${tendered.id}/`)).text, /value="Tendered"/);
  const refused = await initiator.post(`/org/results/statuses/${tendered.id}/`, { name: 'Tendered', description: '', progress: 'x' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_progress_errors"[^>]*><li>Enter a whole number./);
  assert.equal((await initiator.post(`/org/results/statuses/${tendered.id}/`, { name: 'Tendered', description: '', progress: '25' })).status, 302);
  assert.equal((await t.db.select().from(resultStatuses).where(eq(resultStatuses.id, tendered.id)))[0].progress, 25);
  assert.equal(await shown(), '20');
  assert.equal((await (await signedIn(t.app, 'other')).post(`/org/results/statuses/${tendered.id}/delete/`, {})).status, 403);
  assert.equal((await (await signedIn(t.app, 'moderator')).get('/org/results/statuses/')).status, 403);
  assert.equal((await initiator.post(`/org/results/statuses/${tendered.id}/delete/`, {})).status, 302);
  assert.equal((await t.db.select().from(resultStatuses).where(eq(resultStatuses.name, 'Tendered'))).length, 0);
  assert.equal(await shown(), '20');
  assert.equal((await t.db.select().from(resultEntries)).length, 0, 'no progress moved');
});

test('an editor links a topic of the project to a result and removes the link; the topic page says what it became part of; a contribution of another project is refused', async () => {
  const t = await resultsApp();
  await load(t.db, {
    modules: [{ id: 40, slug: 'prio', project: 1, name: 'Priorities', description: 'Rate', blueprint_type: 'TP', phases: [{ type: 'a4_candy_topicprio:prioritize', name: 'Prioritize', description: 'Rate', start_date: daysFromNow(-5), end_date: daysFromNow(5) }] }],
    topics: [{ id: 1, module: 40, creator: 4, name: 'Zebra crossings', description: '<p>More crossings</p>' }],
  });
  const moderator = await signedIn(t.app, 'moderator');
  assert.equal((await moderator.post(`${MANAGE}create/`, { title: 'Safer crossings', description: '', category: '', district: '', lat: '', lng: '', start_date: '', end_date: '', budget_planned: '', budget_spent: '', status: '', progress: '', parent: '' })).status, 302);
  const [result] = await t.db.select().from(results);
  const edit = await moderator.get(`/org/results/${result.id}/update/`);
  assert.match(edit.text, /value="topic:1"/);
  assert.match(edit.text, new RegExp(`value="proposal:${PARK}"`));
  // Module 33's proposals belong to organisation 2's project.
  assert.equal((await moderator.post(`/org/results/${result.id}/links/`, { link: ['topic:1', 'proposal:331'] })).status, 404);
  assert.equal((await t.db.select().from(resultLinks)).length, 0);
  assert.equal((await moderator.post(`/org/results/${result.id}/links/`, { link: ['topic:1'] })).status, 302);
  const topic = await new Browser(t.app).get(`/org/topicprio/${new Date().getUTCFullYear()}-00001/`);
  assert.match(topic.text, new RegExp(`This became part of: <a href="/org/results/${result.id}/">Safer crossings</a> — no status, 0 %`));
  const [told] = await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'member@example.org'), eq(outbox.kind, 'result_linked')));
  assert.match(told.body, /became part of the result "Safer crossings"/);
  assert.equal((await moderator.post(`/org/results/${result.id}/links/`, { remove: 'topic:1' })).status, 302);
  assert.doesNotMatch((await new Browser(t.app).get(`/org/topicprio/${new Date().getUTCFullYear()}-00001/`)).text, /This became part of/);
});

test('a timeline entry may carry an image: stored and shown with its alt text; a file that is no image is refused beside the field, nothing saved', async () => {
  const t = await resultsApp();
  const initiator = await winnersBecomeResults(t);
  const [park] = await t.db.select().from(results).orderBy(asc(results.id));
  const fields = { date: '2026-11-30', text: 'The slide is up.', status: '', progress: '' };
  const refused = await initiator.postMultipart(`/org/results/${park.id}/entries/`, fields, { name: 'image', filename: 'x.png', type: 'image/png', data: Buffer.from('no image') });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_image_errors"/);
  assert.equal((await t.db.select().from(resultEntries)).length, 0);
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 90, b: 200 } } }).png().toBuffer();
  assert.equal((await initiator.postMultipart(`/org/results/${park.id}/entries/`, fields, { name: 'image', filename: 'slide.png', type: 'image/png', data: png })).status, 302);
  const [entry] = await t.db.select().from(resultEntries);
  assert.match(entry.image ?? '', /^results\/images\/[0-9a-f]{64}\.png$/);
  const page = await new Browser(t.app).get(`/org/results/${park.id}/`);
  assert.match(page.text, new RegExp(`<img class="result-entry-image" src="/media/${entry.image}" alt="Image of the entry of`));
  assert.equal((await new Browser(t.app).download(`/media/${entry.image}`)).status, 200);
});

test('deleting a result removes its timeline images from the media store, unless another entry still shows the same picture; deleting the project removes the rest', async () => {
  const t = await resultsApp();
  const initiator = await winnersBecomeResults(t);
  const [park, bridge] = await t.db.select().from(results).orderBy(asc(results.id));
  const picture = (blue: number) => sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 10, g: 90, b: blue } } }).png().toBuffer();
  const entry = async (resultId: number, png: Buffer) => {
    const fields = { date: '2026-11-30', text: 'Photo of the site', status: '', progress: '' };
    assert.equal((await initiator.postMultipart(`/org/results/${resultId}/entries/`, fields, { name: 'image', filename: 'site.png', type: 'image/png', data: png })).status, 302);
    const [row] = await t.db.select().from(resultEntries).where(eq(resultEntries.resultId, resultId)).orderBy(asc(resultEntries.id));
    return row.image ?? '';
  };
  const shared = await entry(park.id, await picture(200));
  assert.equal(await entry(bridge.id, await picture(200)), shared, 'the same picture is one file');
  const [sub] = await t.db.insert(results).values({ projectId: 1, title: 'Slide', parentId: park.id }).returning();
  const own = await entry(sub.id, await picture(100));
  const served = async (path: string) => (await new Browser(t.app).download(`/media/${path}`)).status;
  assert.equal(await served(own), 200);

  assert.equal((await initiator.post(`/org/results/${park.id}/delete/`, {})).status, 302);
  assert.equal(await served(own), 404, "the sub-result's image went with it");
  assert.equal(await served(shared), 200, 'the other result still shows the same picture');

  const last = await entry(bridge.id, await picture(50));
  assert.equal((await initiator.post('/org/dashboard/projects/project/delete/', {})).status, 302);
  assert.equal(await served(shared), 404);
  assert.equal(await served(last), 404);
});

test('the link form offers every contribution of the project, 50 a page, searchable by name, without those linked already (en, de)', async () => {
  const t = await resultsApp();
  await load(t.db, {
    modules: [{ id: 40, slug: 'prio', project: 1, name: 'Priorities', description: 'Rate', blueprint_type: 'TP', phases: [{ type: 'a4_candy_topicprio:prioritize', name: 'Prioritize', description: 'Rate', start_date: daysFromNow(-5), end_date: daysFromNow(5) }] }],
    topics: Array.from({ length: 520 }, (_, i) => ({ id: i + 1, module: 40, creator: 4, name: `Topic ${String(i + 1).padStart(4, '0')}`, description: '<p>x</p>' })),
  });
  const initiator = await winnersBecomeResults(t);
  const [park] = await t.db.select().from(results).orderBy(asc(results.id));
  const edit = `/org/results/${park.id}/update/`;
  const offered = (html: string) => [...html.matchAll(/name="link" value="([^"]+)"/g)].map((m) => m[1]);
  const first = (await initiator.get(edit)).text;
  const total = Number(/(\d+) contributions of the project are not linked yet\./.exec(first)?.[1]);
  assert.ok(total > 520, `every topic and the other proposals: ${total}`);
  assert.equal(offered(first).length, 50);
  assert.ok(!offered(first).includes(`proposal:${PARK}`), 'the linked proposal is not offered again');
  assert.match(first, new RegExp(`<a href="${edit}\\?page=2">Next page</a>`));
  const pages = Math.ceil(total / 50);
  const last = (await initiator.get(`${edit}?page=${pages}`)).text;
  assert.equal(offered(last).length, total - (pages - 1) * 50);
  assert.equal((await initiator.get(`${edit}?page=${pages + 1}`)).status, 404);

  const found = (await initiator.get(`${edit}?q=${encodeURIComponent('topic 0513')}`)).text;
  assert.deepEqual(offered(found), ['topic:513']);
  assert.match(found, /1 contribution not linked yet contains &quot;topic 0513&quot;\./);
  assert.match(found, /<input type="search" id="id_q" name="q" value="topic 0513"/);
  assert.match((await initiator.get(`${edit}?q=${encodeURIComponent('Topic_%')}`)).text, /0 contributions not linked yet contain &quot;Topic_%&quot;\./, 'no wildcards: the text as typed');
  assert.deepEqual(offered((await initiator.get(`${edit}?q=TOPIC+0513`)).text), ['topic:513'], 'any case');
  const many = (await initiator.get(`${edit}?q=Topic+04`)).text;
  assert.match(many, /100 contributions not linked yet contain &quot;Topic 04&quot;\./);
  assert.match(many, new RegExp(`<a href="${edit}\\?q=Topic\\+04&amp;page=2">Next page</a>`));
  assert.equal((await initiator.post(`/org/results/${park.id}/links/`, { link: ['topic:513'] })).status, 302);
  assert.match((await initiator.get(`${edit}?q=${encodeURIComponent('topic 0513')}`)).text, /0 contributions not linked yet contain &quot;topic 0513&quot;\./);
  const german = new Browser(t.app, { 'accept-language': 'de' });
  await german.login('initiator', 'initiator-password');
  await german.post('/i18n/setlang/', { language: 'de' });
  assert.match((await german.get(`${edit}?q=Topic+0514`)).text, /1 noch nicht verknüpfter Beitrag enthält „Topic 0514“\./);
});

test("a result answers one question of a poll: the poll's page says what it became part of beside that question, also while the poll hides its votes (en, de)", async () => {
  const t = await resultsApp();
  await load(t.db, {
    modules: [{ id: 41, slug: 'survey', project: 1, name: 'Survey', description: 'Tell us', blueprint_type: 'PO', phases: [{ type: 'a4polls:voting', name: 'Voting', description: 'Vote', start_date: daysFromNow(-5), end_date: daysFromNow(5) }] }],
    polls: [{ id: 1, module: 41, creator: 2 }],
    questions: [
      { id: 1, poll: 1, label: 'Which colour should the benches have?' },
      { id: 2, poll: 1, label: 'Where should the fountain go?' },
    ],
    choices: [
      { id: 1, question: 1, label: 'Green' },
      { id: 2, question: 2, label: 'Square' },
    ],
  });
  const initiator = await winnersBecomeResults(t);
  const [park] = await t.db.select().from(results).orderBy(asc(results.id));
  const edit = (await initiator.get(`/org/results/${park.id}/update/?q=fountain`)).text;
  assert.match(edit, /<input type="checkbox" id="id_link_0" name="link" value="pollquestion:2"\/> <label for="id_link_0">Where should the fountain go\?<\/label>/);
  assert.equal((await initiator.post(`/org/results/${park.id}/links/`, { link: ['pollquestion:2'] })).status, 302);
  const linked = (await initiator.get(`/org/results/${park.id}/`)).text;
  assert.match(linked, /<a href="\/org\/projects\/module\/survey\/#poll-question-2">Where should the fountain go\?<\/a>/, "the link leads to the question's place");
  /** The question's place on the poll's page: its heading and what the page says beside it. */
  const besideQuestion = (html: string, id: number) => new RegExp(`<li[^>]* id="poll-question-${id}"><h4>([^<]*)</h4>(<aside[^>]*>.*?</aside>)?`).exec(html);
  const page = (await new Browser(t.app).get('/org/projects/module/survey/')).text;
  const fountain = besideQuestion(page, 2);
  assert.equal(fountain?.[1], 'Where should the fountain go?');
  assert.match(fountain?.[2] ?? '', new RegExp(`aria-label="What became of it: Where should the fountain go\\?"><p>This became part of: <a href="/org/results/${park.id}/">Park 32</a> — planned, 0 %`));
  assert.equal(besideQuestion(page, 1)?.[2], undefined, 'the other question became part of nothing');
  assert.equal(page.match(/This became part of/g)?.length, 1, 'named once, beside its question');
  const german = besideQuestion((await new Browser(t.app, { 'accept-language': 'de' }).get('/org/projects/module/survey/')).text, 2);
  assert.match(german?.[2] ?? '', /Daraus wurde: <a href/);
  // While the poll hides its votes, the question is named with its result all the same (and only that question).
  await t.db.update(polls).set({ hideResultsUntilFinished: true });
  const hidden = (await new Browser(t.app).get('/org/projects/module/survey/')).text;
  assert.match(hidden, /The results will be shown when the poll is over\./);
  assert.match(besideQuestion(hidden, 2)?.[2] ?? '', /This became part of: <a href/);
  assert.equal(besideQuestion(hidden, 1), null);
  // A question of another project's poll is refused like any other contribution.
  assert.equal((await initiator.post(`/org/results/${park.id}/links/`, { link: ['pollquestion:99'] })).status, 404);
});

test("a result with a status and parts shows its parts' mean until someone gives it a progress of its own; a new status without a progress drops its own", async () => {
  const t = await resultsApp();
  const initiator = await winnersBecomeResults(t);
  const [park, bridge] = await t.db.select().from(results).orderBy(asc(results.id));
  const [progressing] = await t.db.select().from(resultStatuses).where(eq(resultStatuses.name, 'in progress'));
  const [done] = await t.db.select().from(resultStatuses).where(eq(resultStatuses.name, 'done'));
  const progressOf = async (id: number) => Number(/<progress[^>]*value="(\d+)"/.exec((await new Browser(t.app).get(`/org/results/${id}/`)).text)?.[1]);
  assert.equal(await progressOf(park.id), 0, "a winner starts planned: the status's 0 %");
  // The park gets a part, the slide, which is done: the park ("planned", no progress of its own) shows the mean of its one part.
  const slide = { title: 'Slide', description: '', category: '', district: '', lat: '', lng: '', start_date: '', end_date: '', budget_planned: '', budget_spent: '', status: String(done.id), progress: '', parent: String(park.id) };
  assert.equal((await initiator.post(`${MANAGE}create/`, slide)).status, 302);
  assert.equal(await progressOf(park.id), 100);
  // The park's timeline says so, and the park's contributor hears it is complete.
  const parkChanges = async () => (await t.db.select().from(resultEntries).where(eq(resultEntries.resultId, park.id)).orderBy(asc(resultEntries.id))).map((e) => e.changes);
  assert.deepEqual(await parkChanges(), [[{ field: 'progress', from: '0', to: '100' }]]);
  const told = await t.db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'result_status')));
  assert.equal(told.length, 1);
  assert.match(told[0].body, /the result "Park 32" of the project "Project" is now "planned" \(100 %\)/);
  // A progress of its own wins; a new status without a progress gives the mean back.
  const entry = (fields: { status?: string; progress?: string }) => initiator.post(`/org/results/${park.id}/entries/`, { date: '2026-11-30', text: '', status: '', progress: '', ...fields });
  assert.equal((await entry({ progress: '30' })).status, 302);
  assert.equal(await progressOf(park.id), 30);
  assert.equal((await entry({ status: String(progressing.id) })).status, 302);
  assert.equal(await progressOf(park.id), 100);
  // Without parts, a new status brings its default.
  // Without the slide, the park is back at its status's default.
  const [slideRow] = await t.db.select().from(results).where(eq(results.title, 'Slide'));
  assert.equal((await initiator.post(`/org/results/${slideRow.id}/delete/`, {})).status, 302);
  assert.equal(await progressOf(park.id), 40);
  assert.deepEqual((await parkChanges()).at(-1), [{ field: 'progress', from: '100', to: '40' }]);
  const bridgeEntry = await initiator.post(`/org/results/${bridge.id}/entries/`, { date: '2026-11-30', text: '', status: String(progressing.id), progress: '' });
  assert.equal(bridgeEntry.status, 302);
  assert.equal(await progressOf(bridge.id), 40);
  const [last] = await t.db.select().from(resultEntries).where(eq(resultEntries.resultId, bridge.id));
  assert.deepEqual(last.changes, [
    { field: 'status', from: 'planned', to: 'in progress' },
    { field: 'progress', from: '0', to: '40' },
  ]);
});

test("nesting is decided inside the write: a parent chosen from a form read before another editor's change is refused if it now makes a result part of itself", async () => {
  const t = await resultsApp();
  await winnersBecomeResults(t);
  const [park, bridge] = await t.db.select().from(results).orderBy(asc(results.id));
  // Meanwhile another editor put the bridge under the park; this editor's form offered the bridge as the park's parent.
  await t.db.update(results).set({ parentId: park.id }).where(eq(results.id, bridge.id));
  const scope = { projectId: 1, projectName: 'Project', orgSlug: 'org', organisationId: 1, actorId: 2 };
  const input = { title: 'Park 32', description: '', category: '', district: '', lat: null, lng: null, startDate: null, endDate: null, budgetPlanned: 50_000, budgetSpent: null, statusId: park.statusId, progress: null, parentId: bridge.id };
  await assert.rejects(
    t.db.transaction((tx) => updateResult(tx, scope, park.id, input, { origin: 'http://localhost' })),
    NestingRefused,
  );
  assert.equal((await t.db.select().from(results).where(eq(results.id, park.id)))[0].parentId, null, 'nothing written');
});
