import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ideaPath } from '../../../src/core/urls.js';
import { eq } from 'drizzle-orm';
import { proposalSupports } from '../../../src/features/budgeting/schema.js';
import { mapIdeas } from '../../../src/features/mapideas/schema.js';
import { Browser } from './client.js';
import { basicWorldWith, daysFromNow, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

/**
 * Deleting an account whose owner wrote content of every module type (basicWorld: moderator 3,
 * user 5, other 6). The idea-like kinds (ideas, map ideas, proposals) share one rule: deleted when
 * nobody else took part, else kept without the author's name; what a project's staff posts (polls,
 * chapters, subjects, topics) stays; votes stay without their voter.
 */
const square = [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]];
const AREA = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: square } }] };
const POINT = { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [13.5, 52.5] } };
const CREATED = '2026-01-05T10:00:00.000Z';
const running = { start_date: daysFromNow(-1), end_date: daysFromNow(10) };
const placed = (id: number, module: number, creator: number, name: string) => ({ id, module, creator, name, description: '<p>x</p>', point: POINT, created: CREATED });

async function world() {
  const t = await createTestApp();
  await load(t.db, {
    ...basicWorldWith({
      modules: [
        { id: 2, slug: 'map', project: 1, name: 'Map', blueprint_type: 'MBS', area: AREA, phases: [{ type: 'a4_candy_mapideas:collect', ...running }] },
        { id: 3, slug: 'budget', project: 1, name: 'Budget', blueprint_type: 'PB', area: AREA, phases: [{ type: 'a4_candy_budgeting:request', ...running }] },
        { id: 4, slug: 'poll', project: 1, name: 'Poll', blueprint_type: 'PO', phases: [{ type: 'a4polls:voting', ...running }] },
        { id: 5, slug: 'debate', project: 1, name: 'Debate', blueprint_type: 'DB', phases: [{ type: 'a4_candy_debate:debate', ...running }] },
        { id: 6, slug: 'prio', project: 1, name: 'Prio', blueprint_type: 'TP', phases: [{ type: 'a4_candy_topicprio:prioritize', ...running }] },
        { id: 7, slug: 'text', project: 1, name: 'Text', blueprint_type: 'TR', phases: [{ type: 'a4_candy_documents:comment', ...running }] },
        { id: 8, slug: 'event', project: 1, name: 'Event', blueprint_type: 'IE', phases: [{ type: 'a4_candy_interactive_events:issue', ...running }] },
      ],
    }),
    map_ideas: [placed(1, 2, 5, 'Lonely map idea'), placed(2, 2, 5, 'Discussed map idea')],
    proposals: [placed(1, 3, 5, 'Lonely proposal'), placed(2, 3, 5, 'Rated proposal'), placed(3, 3, 5, 'Supported proposal')].map((p) => ({ ...p, budget: 100 })),
    comments: [{ id: 1, creator: 6, target: { type: 'mapidea', id: 2 }, comment: 'Good spot' }],
    ratings: [{ creator: 6, target: { type: 'proposal', id: 2 }, value: 1 }],
    polls: [{ id: 1, module: 4, creator: 3 }],
    questions: [{ id: 1, poll: 1, label: 'Which colour?' }],
    choices: [{ id: 1, question: 1, label: 'Red' }],
    votes: [{ choice: 1, creator: 5 }],
    subjects: [{ id: 1, module: 5, creator: 3, name: 'Opening hours' }],
    topics: [{ id: 1, module: 6, creator: 3, name: 'Bike lanes' }],
    chapters: [{ id: 1, module: 7, creator: 3, name: 'Preamble' }],
    live_questions: [{ id: 1, module: 8, text: 'Who pays?', affiliation: null }],
  } as never);
  await t.db.insert(proposalSupports).values({ proposalId: 3, userId: 6, moduleId: 3 });
  return t;
}

async function deleteAccountOf(t: Awaited<ReturnType<typeof world>>, username: string) {
  const browser = new Browser(t.app);
  assert.equal((await browser.login(username, `${username}-password`)).status, 302);
  const deleted = await browser.post('/account/account_deletion/', { password: `${username}-password` });
  assert.equal(deleted.status, 200);
  assert.match(deleted.text, /Your account has been deleted\./);
}

const page = (segment: string, id: number) => ideaPath('org', new Date(CREATED), id, segment);

test('an author of map ideas and proposals can delete the account: undiscussed ones go, those others took part in stay without the name', async () => {
  const t = await world();
  // Contact details of the author, as an idea from adhocracy+ keeps them.
  await t.db.update(mapIdeas).set({ creatorEmail: 'user-contact@example.org', creatorPhone: '0170 1', creatorContactConsent: true }).where(eq(mapIdeas.id, 2));
  await deleteAccountOf(t, 'user');
  const [handedOver] = await t.db.select({ email: mapIdeas.creatorEmail, phone: mapIdeas.creatorPhone, consent: mapIdeas.creatorContactConsent }).from(mapIdeas).where(eq(mapIdeas.id, 2));
  assert.deepEqual(handedOver, { email: '', phone: '', consent: false }, "the author's contact details go with the account");
  const visitor = new Browser(t.app);
  assert.equal((await visitor.get(page('mapideas', 1))).status, 404);
  assert.equal((await visitor.get(page('budgeting', 1))).status, 404);
  for (const [segment, id, name] of [['mapideas', 2, 'Discussed map idea'], ['budgeting', 2, 'Rated proposal'], ['budgeting', 3, 'Supported proposal']] as const) {
    const kept = await visitor.get(page(segment, id));
    assert.equal(kept.status, 200, `${segment} ${id} stays`);
    assert.match(kept.text, new RegExp(name));
    assert.doesNotMatch(kept.text, /href="\/profile\/user\/"/, `${segment} ${id} no longer names its author`);
  }
});

test("a voter's poll votes stay without the voter; a live question asked stays", async () => {
  const t = await world();
  await deleteAccountOf(t, 'user');
  const poll = await t.request({ method: 'GET', url: '/api/polls/1/' });
  assert.equal(poll.status, 200);
  const questions = (poll.body as { questions: { choices: { count: number }[] }[] }).questions;
  assert.equal(questions[0].choices[0].count, 1);
  const live = await t.request({ method: 'GET', url: '/api/modules/8/interactiveevents/livequestions/' });
  assert.match(JSON.stringify(live.body), /Who pays\?/);
});

test("a moderator's poll, subject, topic and chapter stay with the project when the moderator's account goes", async () => {
  const t = await world();
  await deleteAccountOf(t, 'moderator');
  const visitor = new Browser(t.app);
  for (const [slug, name] of [['debate', 'Opening hours'], ['prio', 'Bike lanes'], ['text', 'Preamble']] as const) {
    const module = await visitor.get(`/org/projects/module/${slug}/`);
    assert.equal(module.status, 200);
    assert.match(module.text, new RegExp(name), `${slug} still shows its content`);
  }
  assert.equal((await t.request({ method: 'GET', url: '/api/polls/1/' })).status, 200);
});
