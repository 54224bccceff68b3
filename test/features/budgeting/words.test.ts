import assert from 'node:assert/strict';
import { test } from 'node:test';
import { and, desc, eq } from 'drizzle-orm';
import { modules, notifications, organisations, outbox, phases, users } from '../../../src/db/schema/index.js';
import { daysFromNow } from '../../fixtures.js';
import { dashboardApp, dashboardWorld, signedIn } from '../../manage/world.js';
import { seedProposals } from './world.js';

/** A participatory budget (PB) in its request phase on dashboardWorld's public project 1, with four proposals by user 5. */
async function requestApp() {
  const world = dashboardWorld();
  const request = [{ type: 'a4_candy_budgeting:request', name: 'Request', description: 'Propose', start_date: daysFromNow(-1), end_date: daysFromNow(10) }];
  const t = await dashboardApp({ ...world, modules: [...(world.modules ?? []), { id: 40, slug: 'requests', project: 1, name: 'Requests', description: 'Money', blueprint_type: 'PB', phases: request }] });
  await seedProposals(t.db, [40]);
  return t;
}

const MODULE = '/org/projects/module/requests/';
const CREATE = '/org/budgeting/create/module/requests/';
const PROPOSAL = `/org/budgeting/${new Date().getFullYear()}-00401/`;

/** Strips the page's frame (header, footer): what the budget's own pages say. */
const main = (html: string) => /<main[^]*<\/main>/.exec(html)?.[0] ?? '';

test('budgeting speaks of proposals, never of ideas: the list, its button, the forms and the messages, in English and German', async () => {
  const { app } = await requestApp();
  const cases = [
    { user: 'user', words: ['4 proposals', 'Submit your proposal', 'Filter proposals', 'Submit a new proposal for this project', 'Delete proposal', 'Your proposal has been deleted.'], idea: /\bideas?\b/i },
    { user: 'coinit', words: ['4 Vorschläge', 'Ihren Vorschlag einreichen', 'Vorschläge filtern', 'Reichen Sie einen neuen Vorschlag für dieses Projekt ein', 'Vorschlag löschen', 'Ihr Vorschlag wurde gelöscht.'], idea: /\bIdeen?\b/ },
  ];
  for (const { user, words, idea } of cases) {
    const browser = await signedIn(app, user);
    const list = main((await browser.get(MODULE)).text);
    for (const word of words.slice(0, 3)) assert.ok(list.includes(word), `${user}: ${word}`);
    const form = main((await browser.get(CREATE)).text);
    assert.ok(form.includes(words[3]), `${user}: the form's title`);
    for (const page of [list, form]) {
      const text = page.replace(/<script[^]*?<\/script>|<[^>]*>/g, ' ');
      assert.doesNotMatch(text, idea, `${user}: ${idea.exec(text) ? text.slice(Math.max(0, (idea.exec(text)?.index ?? 0) - 200), (idea.exec(text)?.index ?? 0) + 100) : ''}`);
    }
  }
  // The author deletes a proposal: the confirmation and the message after it.
  const author = await signedIn(app, 'user');
  const confirm = main((await author.get(`${PROPOSAL}delete/`)).text);
  assert.ok(confirm.includes('Delete proposal') && confirm.includes('Do you really want to delete the proposal'), confirm.slice(0, 300));
  const deleted = await author.post(`${PROPOSAL}delete/`, {});
  assert.equal(deleted.status, 302);
  assert.ok((await author.get(deleted.location ?? '/')).text.includes('Your proposal has been deleted.'));
});

test("a proposal's official feedback speaks of the proposal in the author's e-mail and notification, in English and German", async () => {
  const { app, db } = await requestApp();
  const initiator = await signedIn(app, 'initiator');
  const year = new Date().getFullYear();
  const feedback = async (path: string) => assert.equal((await initiator.post(`${path}moderate/`, { moderator_status: 'ACCEPTED', moderator_feedback_text: '<p>We build it</p>' })).status, 302);
  await feedback(PROPOSAL);
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 5));
  await feedback(`/org/budgeting/${year}-00402/`);
  const mails = await db.select().from(outbox).where(and(eq(outbox.recipient, 'user@example.org'), eq(outbox.kind, 'idea_feedback'))).orderBy(outbox.id);
  assert.equal(mails.length, 2);
  assert.equal(mails[0].subject, 'Feedback from the moderation on your proposal');
  assert.match(mails[0].body, /has given your proposal "[^"]+" the status "Accepted"[^]*View the proposal: http/);
  assert.equal(mails[1].subject, 'Feedback der Moderation zu Ihrem Vorschlag');
  assert.match(mails[1].body, /hat Ihrem Vorschlag „[^“]+“ den Status „[^“]+“ gegeben[^]*Zum Vorschlag: http/);
  for (const mail of mails) assert.doesNotMatch(`${mail.subject}\n${mail.body.split('\n\n-- ')[0]}`, /\bidea\b|\bIdee\b/i);
  const centre = main((await (await signedIn(app, 'user')).get('/userdashboard/notifications/')).text);
  assert.match(centre, /gave your proposal|Rückmeldung zu Ihrem Vorschlag/);
  assert.doesNotMatch(centre, /your idea|Ihrer Idee/);
  const [shown] = await db.select({ message: notifications.message }).from(notifications).where(eq(notifications.recipientId, 5)).limit(1);
  assert.match(shown.message, /your proposal/);
});

test('a new participatory budget speaks of proposals from the start: the blueprint chooser and the phase it creates, in English and German', async () => {
  const { app, db } = await dashboardApp();
  const blueprints = '/org/dashboard/projects/draft-plan/blueprints/';
  for (const [user, language, word, idea] of [
    ['initiator', 'en', /Post proposals with a budget, comment on them and rate them\./, /\bideas?\b/i],
    ['coinit', 'de', /Vorschläge mit einem Budget einreichen, kommentieren und bewerten\./, /\bIdeen?\b/],
  ] as const) {
    // The phases' names and descriptions follow the organisation's language.
    await db.update(organisations).set({ language }).where(eq(organisations.id, 1));
    const browser = await signedIn(app, user);
    const chooser = main((await browser.get(blueprints)).text);
    const entry = /<h\d[^>]*>(Participatory budgeting|Bürgerhaushalt)<\/h\d>[^]*?<\/p>/.exec(chooser)?.[0] ?? chooser;
    assert.doesNotMatch(entry, idea, `${user}: ${entry}`);
    const created = await browser.post(`${blueprints}participatory-budgeting/`, {});
    assert.equal(created.status, 302);
    const [phase] = await db.select().from(phases).innerJoin(modules, eq(modules.id, phases.moduleId)).where(eq(modules.projectId, 2)).orderBy(desc(phases.id)).limit(1);
    assert.match(phase.phases.description, word);
  }
});
