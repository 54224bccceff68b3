import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { users } from '../../src/db/schema/index.js';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { Browser } from '../me/accounts/client.js';
import { daysFromNow, load, PLATFORM_TEXTS, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

/*
 * The permission matrix of the text review, debate and prioritisation (issue 25) across two
 * organisations: every actor × project (public, private, draft) × phase (running, ended) × action,
 * through HTTP, with the exact answers of the reference: 403 for a signed-in user who may see but
 * not act (another organisation's initiator, a citizen after the phase), 401 (API) or the login
 * page where logging in would help, 404 for what a signed-in visitor may not see. The expectations
 * are written from §1.1, §7.2, §8.2 and §9.2, not by calling the rules. The guest (issue 34.4)
 * becomes one through the guest form; every project allows guests, so a guest gets exactly what a
 * plain user gets (as in the main matrix, test/permissions/world.ts).
 */

const ACTORS = ['anonymous', 'user', 'participant', 'moderator', 'initiator', 'otherInitiator', 'superuser', 'guest'] as const;
type Actor = (typeof ACTORS)[number];
const USER_ID: Record<Exclude<Actor, 'anonymous' | 'guest'>, number> = { user: 1, participant: 2, moderator: 3, initiator: 4, otherInitiator: 5, superuser: 6 };
const MODERATING: Actor[] = ['moderator', 'initiator', 'superuser'];

type Access = 'public' | 'private' | 'draft';
interface Module {
  id: number;
  slug: string;
  kind: 'TR' | 'DB' | 'TP';
  access: Access;
  running: boolean;
}
const PROJECTS: Access[] = ['public', 'private', 'draft'];
const MODULES: Module[] = PROJECTS.flatMap((access, p) =>
  (['TR', 'DB', 'TP'] as const).flatMap((kind, k) =>
    [true, false].map((running, r) => ({ id: (p + 1) * 100 + k * 10 + r + 1, slug: `${access}-${kind.toLowerCase()}-${running ? 'running' : 'ended'}`, kind, access, running })),
  ),
);

const sees = (a: Actor, m: Module) => MODERATING.includes(a) || (m.access === 'public' ? true : m.access === 'private' ? a === 'participant' : false);
const takesPart = (a: Actor, m: Module) => MODERATING.includes(a) || (m.running && (m.access === 'public' ? a !== 'anonymous' : m.access === 'private' && a === 'participant'));
const edits = (a: Actor) => MODERATING.includes(a);

function world(): Fixture {
  const phase = { TR: 'a4_candy_documents:comment', DB: 'a4_candy_debate:debate', TP: 'a4_candy_topicprio:prioritize' };
  return {
    users: Object.entries(USER_ID).map(([username, id]) => ({ id, username, email: `${username.toLowerCase()}@example.org`, password: `${username}-password`, is_superuser: username === 'superuser', language: 'en' as const })),
    organisations: [
      { id: 1, slug: 'org', name: 'Org', initiators: [USER_ID.initiator] },
      { id: 2, slug: 'other', name: 'Other', initiators: [USER_ID.otherInitiator] },
    ],
    projects: PROJECTS.map((access, p) => ({
      id: p + 1,
      slug: access,
      name: access,
      organisation: 1,
      access: access === 'private' ? ('PRIVATE' as const) : ('PUBLIC' as const),
      is_draft: access === 'draft',
      allow_guests: true,
      moderators: [USER_ID.moderator],
      participants: [USER_ID.participant],
    })),
    modules: MODULES.map((m) => ({
      id: m.id,
      slug: m.slug,
      project: PROJECTS.indexOf(m.access) + 1,
      name: m.slug,
      blueprint_type: m.kind,
      phases: [{ type: phase[m.kind], name: 'Phase', description: 'Phase', start_date: daysFromNow(m.running ? -1 : -10), end_date: daysFromNow(m.running ? 10 : -5) }],
    })),
    chapters: MODULES.filter((m) => m.kind === 'TR').map((m) => ({ id: m.id, module: m.id, creator: USER_ID.initiator, name: `Chapter ${m.id}` })),
    paragraphs: MODULES.filter((m) => m.kind === 'TR').map((m) => ({ id: m.id, chapter: m.id, name: `Paragraph ${m.id}`, text: '<p>Text</p>' })),
    subjects: MODULES.filter((m) => m.kind === 'DB').map((m) => ({ id: m.id, module: m.id, name: `Subject ${m.id}` })),
    topics: MODULES.filter((m) => m.kind === 'TP').map((m) => ({ id: m.id, module: m.id, name: `Topic ${m.id}`, description: '<p>Topic</p>' })),
    platform_pages: PLATFORM_TEXTS,
  };
}

const year = new Date().getUTCFullYear();
const ref = (id: number) => `${year}-${String(id).padStart(5, '0')}`;
const itemPage = (m: Module) => ({ TR: `/org/text/paragraphs/${m.id}/`, DB: `/org/subjects/${ref(m.id)}/`, TP: `/org/topicprio/${ref(m.id)}/` })[m.kind];
const editPage = (m: Module) => ({ TR: `/org/text/module/${m.slug}/edit/`, DB: `/org/subjects/create/module/${m.slug}/`, TP: `/org/topicprio/create/module/${m.slug}/` })[m.kind];
const CONTENT_TYPE = { TR: 7, DB: 14, TP: 15 };

/** A page: allowed 200; who may not see it 404 signed in, the login page anonymous; who sees but may not act 403. */
const pageStatus = (a: Actor, visible: boolean, allowed: boolean) => (allowed ? 200 : a === 'anonymous' ? 302 : visible ? 403 : 404);
/** The API: allowed 201; anonymous 401; signed in 403 (the shared content-type API does not tell hidden from refused). */
const apiStatus = (a: Actor, allowed: boolean) => (allowed ? 201 : a === 'anonymous' ? 401 : 403);

test('the permission matrix of text review, debate and prioritisation: every actor × project × phase × action, through HTTP', async (t) => {
  const app = await createTestApp();
  await load(app.db, world());
  const browsers = new Map<Actor, Browser>([['anonymous', new Browser(app.app)]]);
  const tokens = new Map<Actor, Record<string, string>>([['anonymous', {}]]);
  for (const [actor, id] of Object.entries(USER_ID) as [Exclude<Actor, 'anonymous' | 'guest'>, number][]) {
    const browser = new Browser(app.app);
    assert.equal((await browser.login(actor, `${actor}-password`)).status, 302);
    browsers.set(actor, browser);
    tokens.set(actor, await tokenHeader(app.db, id));
  }
  const guest = new Browser(app.app);
  assert.equal((await guest.post('/accounts/guest/', { next: '/', terms_of_use: 'on' })).status, 302);
  const [guestRow] = await app.db.select({ id: users.id }).from(users).where(eq(users.isGuest, true));
  browsers.set('guest', guest);
  tokens.set('guest', await tokenHeader(app.db, guestRow.id));
  const browserOf = (a: Actor) => {
    const browser = browsers.get(a);
    assert.ok(browser);
    return browser;
  };
  const actions: [string, (a: Actor, m: Module) => Promise<[number, number] | null>][] = [
    // A topic's page answers a signed-in outsider 403, as an idea's page (issue 36.13); the text's and the debate's 404.
    ['read the item page', async (a, m) => [(await browserOf(a).get(itemPage(m))).status, pageStatus(a, sees(a, m) || m.kind === 'TP', sees(a, m))]],
    ['open the editing page (document editor, add subject, add topic)', async (a, m) => [(await browserOf(a).get(editPage(m))).status, pageStatus(a, sees(a, m), sees(a, m) && edits(a))]],
    [
      'comment (API)',
      async (a, m) => {
        const response = await app.request({ method: 'POST', url: `/api/contenttypes/${CONTENT_TYPE[m.kind]}/objects/${m.id}/comments/`, headers: tokens.get(a), payload: { comment: 'Hello' } });
        return [response.status, apiStatus(a, sees(a, m) && takesPart(a, m))];
      },
    ],
    [
      'rate a topic (API)',
      async (a, m) => {
        if (m.kind !== 'TP') return null;
        const response = await app.request({ method: 'POST', url: `/api/contenttypes/15/objects/${m.id}/ratings/`, headers: tokens.get(a), payload: { value: 1 } });
        return [response.status, apiStatus(a, sees(a, m) && takesPart(a, m))];
      },
    ],
  ];
  let cells = 0;
  for (const [action, call] of actions) {
    await t.test(action, async () => {
      const wrong: string[] = [];
      for (const actor of ACTORS) {
        for (const module of MODULES) {
          const result = await call(actor, module);
          if (!result) continue;
          cells++;
          if (result[0] !== result[1]) wrong.push(`${actor} | ${module.slug}: expected ${result[1]}, got ${result[0]}`);
        }
      }
      assert.deepEqual(wrong, [], `${wrong.length} wrong cells:\n${wrong.join('\n')}`);
    });
  }
  assert.equal(cells, ACTORS.length * MODULES.length * 3 + ACTORS.length * MODULES.filter((m) => m.kind === 'TP').length);
});
