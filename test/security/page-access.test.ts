import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { ideaPath } from '../../src/core/urls.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, daysFromNow, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

/**
 * participation-facts §A5.4: a page its viewer may not see sends an anonymous visitor to the login
 * page (and back) and answers 403 to a signed-in user; only what does not exist is 404.
 */
const KINDS = ['public', 'semipublic', 'private', 'draft'] as const;
type Kind = (typeof KINDS)[number];
const ACCESS = { public: 'PUBLIC', semipublic: 'SEMIPUBLIC', private: 'PRIVATE', draft: 'PUBLIC' } as const;

/** Users of basicWorld: 1 admin, 2 initiator, 3 moderator of every project, 4 organisation member, 5 plain user, 6 participant of every project. */
function world(): Fixture {
  const base = basicWorld();
  return {
    ...base,
    projects: KINDS.map((kind, i) => ({ id: i + 1, slug: kind, name: kind, organisation: 1, access: ACCESS[kind], is_draft: kind === 'draft', moderators: [3], participants: [6] })),
    modules: KINDS.map((kind, i) => ({ id: i + 1, project: i + 1, slug: `${kind}-module`, name: kind, phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(10) }] })),
    ideas: KINDS.map((kind, i) => ({ id: i + 1, module: i + 1, creator: 6, name: `Idea ${kind}`, description: 'An idea' })),
  };
}

type Answer = 'read' | 'login' | 'forbidden';
/** The §A5 table. */
const EXPECTED: Record<string, Record<Kind, Answer>> = {
  anonymous: { public: 'read', semipublic: 'read', private: 'login', draft: 'login' },
  user: { public: 'read', semipublic: 'read', private: 'forbidden', draft: 'forbidden' },
  participant: { public: 'read', semipublic: 'read', private: 'read', draft: 'forbidden' },
  member: { public: 'read', semipublic: 'read', private: 'read', draft: 'forbidden' },
  moderator: { public: 'read', semipublic: 'read', private: 'read', draft: 'read' },
  initiator: { public: 'read', semipublic: 'read', private: 'read', draft: 'read' },
  admin: { public: 'read', semipublic: 'read', private: 'read', draft: 'read' },
};
const LOGIN: Record<string, string | null> = { anonymous: null, user: 'user', participant: 'other', member: 'member', moderator: 'moderator', initiator: 'initiator', admin: 'admin' };

test('§A5.4: project, module and idea pages answer login redirect or 403 where the viewer may not see them, 404 only for what does not exist', async () => {
  const t = await createTestApp();
  await load(t.db, world());
  const created = new Map((await t.db.select({ id: ideas.id, created: ideas.created }).from(ideas)).map((row) => [row.id, row.created]));
  const pagesOf = (kind: Kind, i: number) => [`/org/projects/${kind}/`, `/org/projects/module/${kind}-module/`, ideaPath('org', created.get(i + 1) ?? new Date(), i + 1)];
  const wrong: string[] = [];
  for (const [actor, row] of Object.entries(EXPECTED)) {
    const browser = new Browser(t.app);
    const login = LOGIN[actor];
    if (login) assert.equal((await browser.login(login, `${login}-password`)).status, 302, login);
    for (const [i, kind] of KINDS.entries()) {
      for (const path of pagesOf(kind, i)) {
        const answer = await browser.get(path);
        const got = answer.status === 200 ? 'read' : answer.status === 403 ? 'forbidden' : answer.status === 302 && answer.location === `/accounts/login/?next=${path}` ? 'login' : `${answer.status} ${answer.location ?? ''}`;
        if (got !== row[kind]) wrong.push(`${actor} ${path}: expected ${row[kind]}, got ${got}`);
      }
    }
    for (const path of ['/org/projects/nothing/', '/org/projects/module/nothing/', '/org/ideas/2020-99999/', '/other-org/projects/private/']) {
      const status = (await browser.get(path)).status;
      if (status !== 404) wrong.push(`${actor} ${path}: expected 404, got ${status}`);
    }
  }
  assert.deepEqual(wrong, []);
});
