import assert from 'node:assert/strict';
import { test } from 'node:test';
import { ideaPath } from '../../../src/core/urls.js';
import { Browser } from '../../me/accounts/client.js';
import { daysFromNow, load, PLATFORM_TEXTS } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

/**
 * The new actions of map ideas and proposals across two organisations: the expectations are
 * written out per actor, not computed by the rules (302: to the login, or after a saved form).
 */
const ACTORS = ['anonymous', 'user', 'participant', 'moderator', 'initiator', 'otherInitiator', 'otherMember', 'superuser'] as const;
type Actor = (typeof ACTORS)[number];
const NAMES = ACTORS.filter((a): a is Exclude<Actor, 'anonymous'> => a !== 'anonymous');
const id = (actor: Actor) => NAMES.indexOf(actor as Exclude<Actor, 'anonymous'>) + 1;
const AUTHOR = NAMES.length + 1;

const square = [[[13, 52], [14, 52], [14, 53], [13, 53], [13, 52]]];
const AREA = { type: 'FeatureCollection', features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: square } }] };
const POINT = { type: 'Feature', properties: {}, geometry: { type: 'Point', coordinates: [13.5, 52.5] } };

const t = await createTestApp();
await load(t.db, {
  users: [...NAMES, 'author'].map((username, i) => ({ id: i + 1, username, email: `${username}@example.org`, password: `${username}-password`, is_superuser: username === 'superuser', language: 'en' as const })),
  organisations: [
    { id: 1, slug: 'org', name: 'Org', initiators: [id('initiator')], members: [] },
    { id: 2, slug: 'other', name: 'Other', initiators: [id('otherInitiator')], members: [id('otherMember')] },
  ],
  projects: [{ id: 1, slug: 'project', name: 'Project', organisation: 1, access: 'SEMIPUBLIC', moderators: [id('moderator')], participants: [id('participant'), AUTHOR] }],
  modules: [
    { id: 1, slug: 'map', project: 1, name: 'Map', blueprint_type: 'MIC', area: AREA, phases: [{ type: 'a4_candy_mapideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(5) }, { type: 'a4_candy_mapideas:rating', start_date: daysFromNow(5), end_date: daysFromNow(9) }] },
    { id: 2, slug: 'budget', project: 1, name: 'Budget', blueprint_type: 'PB', area: AREA, phases: [{ type: 'a4_candy_budgeting:request', start_date: daysFromNow(-9), end_date: daysFromNow(-1) }] },
  ],
  map_ideas: [{ id: 1, module: 1, creator: AUTHOR, name: 'Seeded map idea', description: 'x', point: POINT }],
  proposals: [{ id: 1, module: 2, creator: AUTHOR, name: 'Seeded proposal', description: 'x', point: POINT, budget: 100 }],
  platform_pages: PLATFORM_TEXTS,
} as never);

const browsers = new Map<Actor, Browser>();
async function browser(actor: Actor) {
  let b = browsers.get(actor);
  if (!b) {
    b = new Browser(t.app);
    if (actor !== 'anonymous') assert.equal((await b.login(actor, `${actor}-password`)).status, 302);
    browsers.set(actor, b);
  }
  return b;
}

const mapIdea = ideaPath('org', new Date(), 1, 'mapideas');
const proposal = ideaPath('org', new Date(), 1, 'budgeting');

function matrix(name: string, act: (b: Browser) => Promise<{ status: number }>, expected: Record<Actor, number>) {
  test(name, async () => {
    const got: Partial<Record<Actor, number>> = {};
    for (const actor of ACTORS) got[actor] = (await act(await browser(actor))).status;
    assert.deepEqual(got, expected);
  });
}

// A semi-public project: anyone may look, only its participants (and staff) take part.
matrix('add a map idea (the form) in a running collect phase', (b) => b.get('/org/mapideas/create/module/map/'), {
  anonymous: 302, user: 403, participant: 200, moderator: 200, initiator: 200, otherInitiator: 403, otherMember: 403, superuser: 200,
});
matrix('edit another’s map idea', (b) => b.get(`${mapIdea}update/`), {
  anonymous: 302, user: 403, participant: 403, moderator: 200, initiator: 200, otherInitiator: 403, otherMember: 403, superuser: 200,
});
matrix('moderate a map idea (status and statement)', (b) => b.post(`${mapIdea}moderate/`, { moderator_status: 'CONSIDERATION', moderator_feedback_text: '' }), {
  anonymous: 302, user: 403, participant: 403, moderator: 302, initiator: 302, otherInitiator: 403, otherMember: 403, superuser: 302,
});
matrix('add a proposal after the request phase has ended', (b) => b.get('/org/budgeting/create/module/budget/'), {
  anonymous: 302, user: 403, participant: 403, moderator: 200, initiator: 200, otherInitiator: 403, otherMember: 403, superuser: 200,
});
matrix('archive a proposal (moderation)', (b) => b.post(`${proposal}moderate/`, { moderator_status: '', moderator_feedback_text: '', is_archived: 'on' }), {
  anonymous: 302, user: 403, participant: 403, moderator: 302, initiator: 302, otherInitiator: 403, otherMember: 403, superuser: 302,
});
matrix('see a map idea of a semi-public project', (b) => b.get(mapIdea), {
  anonymous: 200, user: 200, participant: 200, moderator: 200, initiator: 200, otherInitiator: 200, otherMember: 200, superuser: 200,
});
