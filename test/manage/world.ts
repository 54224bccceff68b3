import assert from 'node:assert/strict';
import type { FastifyInstance } from 'fastify';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

/**
 * basicWorld plus a second initiator of organisation 1 (user 7 "coinit") and organisation 2
 * ("other-org", initiator user 6 "other") with its own project, so that every permission test
 * crosses an organisation boundary.
 */
export function dashboardWorld(): Fixture {
  const world = basicWorld();
  return {
    ...world,
    users: [...(world.users ?? []), { id: 7, username: 'coinit', email: 'coinit@example.org', password: 'coinit-password', language: 'de' }],
    organisations: [
      { id: 1, slug: 'org', name: 'Organisation', enable_geolocation: true, initiators: [2, 7], members: [4] },
      { id: 2, slug: 'other-org', name: 'Other organisation', initiators: [6] },
    ],
    projects: [
      ...(world.projects ?? []),
      { id: 2, slug: 'draft-plan', name: 'Draft plan', organisation: 1, is_draft: true, description: 'Not yet out' },
      { id: 3, slug: 'old-plan', name: 'Old plan', organisation: 1, is_archived: true },
      { id: 4, slug: 'foreign', name: 'Foreign project', organisation: 2 },
    ],
  };
}

export async function dashboardApp(fixture: Fixture = dashboardWorld()) {
  const t = await createTestApp();
  await load(t.db, fixture);
  return t;
}

export async function signedIn(app: FastifyInstance, username: string): Promise<Browser> {
  const browser = new Browser(app);
  assert.equal((await browser.login(username, `${username}-password`)).status, 302);
  return browser;
}
