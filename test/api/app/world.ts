import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { daysFromNow, load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';

/**
 * What the app's screens walk through: organisation "Musterstadt" (geolocation on) with the public
 * project "radwege" (point, contact) and its idea collection module 1 (collect phase running,
 * categories, labels); users alice (de) and bob, citizens; mona, the project's moderator. Idea 1 by
 * bob has comment 1 by bob with reply 2 by alice.
 */
export function appWorld(): Fixture {
  const users = [
    { id: 1, username: 'alice', language: 'de' as const },
    { id: 2, username: 'bob', language: 'de' as const },
    { id: 3, username: 'mona', language: 'en' as const },
  ].map((u) => ({ ...u, email: `${u.username}@example.org`, password: `${u.username}-password` }));
  return {
    users,
    organisations: [{ id: 1, slug: 'musterstadt', name: 'Musterstadt', enable_geolocation: true }],
    projects: [
      {
        id: 1,
        slug: 'radwege',
        name: 'Radwege für alle',
        organisation: 1,
        moderators: [3],
        is_app_accessible: true,
        point: { lat: 52.52, lng: 13.405 },
        street_name: 'Marktplatz',
        house_number: '1',
        zip_code: '10115',
        contact_email: 'mobilitaet@example.org',
      },
    ],
    modules: [
      {
        id: 1,
        project: 1,
        name: 'Ideen sammeln',
        blueprint_type: 'IC',
        phases: [
          { type: 'a4_candy_ideas:collect', start_date: daysFromNow(-2), end_date: daysFromNow(20) },
          { type: 'a4_candy_ideas:rating', start_date: daysFromNow(20), end_date: daysFromNow(30) },
        ],
        categories: [
          { id: 1, name: 'Sicherheit' },
          { id: 2, name: 'Neue Wege' },
        ],
        labels: [
          { id: 1, name: 'Schnell umsetzbar' },
          { id: 2, name: 'Teuer' },
        ],
      },
    ],
    ideas: [{ id: 1, module: 1, creator: 2, name: 'Geschützter Radweg', description: '<p>Poller an der Hauptstraße</p>', category: 1, labels: [1] }],
    comments: [
      { id: 1, creator: 2, target: { type: 'idea', id: 1 }, comment: 'Morgens besonders gefährlich' },
      { id: 2, creator: 1, target: { type: 'comment', id: 1 }, comment: 'Stimmt, gegen acht' },
    ],
  };
}

export async function appWorldApp(): Promise<TestApp> {
  const t = await createTestApp();
  await load(t.db, appWorld());
  return t;
}
