import type { Config } from '../config.js';
import type { Db } from '../db/client.js';
import { countAll } from '../db/client.js';
import { users } from '../db/schema/index.js';
import type { Fixture } from './fixture-schema.js';
import { loadFixture } from './loaddata.js';

interface DemoLogin {
  username: string;
  email: string;
  password: string;
  role: string;
}

const DEMO_LOGINS: DemoLogin[] = [
  { username: 'admin', email: 'admin@example.org', password: 'admin-demo-pw', role: 'superuser' },
  { username: 'initiator', email: 'initiator@example.org', password: 'initiator-demo', role: 'initiator of Stadt Musterstadt' },
  { username: 'moderator', email: 'moderator@example.org', password: 'moderator-demo', role: 'moderator of "Radwege"' },
  { username: 'alice', email: 'alice@example.org', password: 'alice-demo-pw', role: 'citizen' },
  { username: 'bob', email: 'bob@example.org', password: 'bob-demo-pw', role: 'citizen' },
];

const day = 24 * 3600 * 1000;
/** A rectangle as a GeoJSON area (west, south, east, north). */
const box = (west: number, south: number, east: number, north: number) => ({
  type: 'FeatureCollection',
  features: [{ type: 'Feature', properties: {}, geometry: { type: 'Polygon', coordinates: [[[west, south], [east, south], [east, north], [west, north], [west, south]]] } }],
});
const at = (now: number, days: number) => new Date(now + days * day).toISOString();

/** The demo: one organisation with a running, a future and a past project, ideas, comments and feedback. */
function demoFixture(now = Date.now()): Fixture {
  return {
    users: DEMO_LOGINS.map((login, i) => ({
      id: i + 1,
      username: login.username,
      email: login.email,
      password: login.password,
      is_superuser: login.role === 'superuser',
      is_staff: login.role === 'superuser',
      language: i % 2 ? 'de' : 'en',
      date_joined: at(now, -60),
    })),
    // The operator's places (back-office → Maps): two districts and an area preset of the demo city; more
    // example presets (bounding boxes of Germany, Berlin, Hamburg) are in docs/examples/map-presets.json.
    administrative_districts: [
      { id: 1, name: 'Mitte', short_code: 'mi', area: box(13.36, 52.5, 13.43, 52.54) },
      { id: 2, name: 'Nord', short_code: 'no' },
    ],
    map_preset_categories: [{ id: 1, name: 'Musterstadt' }],
    map_presets: [{ id: 1, name: 'Musterstadt, city centre', category: 1, area: box(13.35, 52.49, 13.45, 52.54) }],
    organisations: [{ id: 1, slug: 'musterstadt', name: 'Stadt Musterstadt', title: 'Musterstadt', enable_geolocation: true, initiators: [2], members: [4] }],
    projects: [
      {
        id: 1,
        slug: 'radwege',
        name: 'Radwege für alle',
        organisation: 1,
        description: 'Where should the city build new cycle paths?',
        information: '<p>Tell us where cycling feels unsafe and what would help.</p>',
        access: 'PUBLIC',
        is_app_accessible: true,
        moderators: [3],
        administrative_district: 1,
        point: { lat: 52.52, lng: 13.405 },
        street_name: 'Marktplatz',
        house_number: '1',
        zip_code: '10115',
        contact_name: 'Mobilitätsamt',
        contact_email: 'mobilitaet@example.org',
        created: at(now, -30),
      },
      {
        id: 2,
        slug: 'spielplatz',
        name: 'Neuer Spielplatz',
        organisation: 1,
        description: 'Plan the new playground with us.',
        access: 'SEMIPUBLIC',
        is_app_accessible: true,
        participants: [4],
        created: at(now, -20),
      },
      { id: 3, slug: 'haushalt-2025', name: 'Bürgerhaushalt 2025', organisation: 1, description: 'Last year\'s budget ideas.', result: '<p>12 ideas were funded.</p>', created: at(now, -400) },
    ],
    modules: [
      {
        id: 1,
        slug: 'radwege-ideen',
        project: 1,
        name: 'Ideas for cycle paths',
        blueprint_type: 'BS',
        phases: [{ type: 'a4_candy_ideas:collect', name: 'Collect ideas', start_date: at(now, -10), end_date: at(now, 20) }],
        categories: [
          { id: 1, name: 'Safety' },
          { id: 2, name: 'New routes' },
        ],
        labels: [{ id: 1, name: 'Quick win' }],
      },
      {
        id: 2,
        slug: 'spielplatz-ideen',
        project: 2,
        name: 'Playground wishes',
        blueprint_type: 'IC',
        phases: [
          { type: 'a4_candy_ideas:collect', name: 'Collect', start_date: at(now, 5), end_date: at(now, 35) },
          { type: 'a4_candy_ideas:rating', name: 'Rate', start_date: at(now, 35), end_date: at(now, 50) },
        ],
      },
      {
        id: 3,
        slug: 'haushalt-ideen',
        project: 3,
        name: 'Budget ideas',
        phases: [{ type: 'a4_candy_ideas:collect', name: 'Collect', start_date: at(now, -400), end_date: at(now, -370) }],
      },
    ],
    ideas: [
      { id: 1, module: 1, creator: 4, name: 'Protected lane on Hauptstraße', description: '<p>Separate the cycle lane from cars with bollards.</p>', category: 1, labels: [1], created: at(now, -9) },
      { id: 2, module: 1, creator: 5, name: 'Bike parking at the station', description: 'More covered bike racks, please.', category: 2, created: at(now, -8) },
      { id: 3, module: 3, creator: 4, name: 'Benches in the park', description: 'A few more benches.', created: at(now, -395) },
    ],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea', id: 1 }, comment: 'Yes! I nearly got hit there last week.', created: at(now, -7) },
      { id: 2, creator: 4, target: { type: 'comment', id: 1 }, comment: 'Glad you agree. Which time of day?', created: at(now, -6) },
      { id: 3, creator: 4, target: { type: 'idea', id: 2 }, comment: 'And a repair station would be great.', created: at(now, -5) },
      { id: 4, creator: 5, target: { type: 'idea', id: 1 }, comment: 'This idea is pointless spam spam spam', created: at(now, -4), is_blocked: true },
    ],
    ratings: [
      { creator: 5, target: { type: 'idea', id: 1 }, value: 1 },
      { creator: 4, target: { type: 'idea', id: 2 }, value: 1 },
    ],
    reports: [{ creator: 4, target: { type: 'comment', id: 4 }, description: 'Off topic', created: at(now, -3) }],
    comment_feedback: [{ comment: 3, creator: 3, feedback_text: 'Thanks, we passed this on to the station operator.', created: at(now, -2) }],
    follows: [{ creator: 5, project: 2 }],
    // Sample legal texts, so that the demo's draft projects can be published (issue 22.3); an operator replaces them in the back-office.
    platform_pages: [
      { key: 'imprint', language: 'en', body: '<p>Stadt Musterstadt<br>Rathausplatz 1<br>12345 Musterstadt</p>' },
      { key: 'imprint', language: 'de', body: '<p>Stadt Musterstadt<br>Rathausplatz 1<br>12345 Musterstadt</p>' },
      { key: 'privacy', language: 'en', body: '<p>This demo stores only what you enter. (Sample text.)</p>' },
      { key: 'privacy', language: 'de', body: '<p>Diese Demo speichert nur, was Sie eingeben. (Beispieltext.)</p>' },
      { key: 'terms', language: 'en', body: '<p>Be kind and stay on topic. (Sample text.)</p>' },
      { key: 'terms', language: 'de', body: '<p>Bleiben Sie freundlich und beim Thema. (Beispieltext.)</p>' },
    ],
  };
}

/** Loads the demo when the database has no users yet; returns the logins to print, or null. */
export async function seedDemoIfEmpty(db: Db, media?: Pick<Config, 'mediaStore' | 'dataDir'>): Promise<DemoLogin[] | null> {
  const [{ n }] = await db.select({ n: countAll }).from(users);
  if (n > 0) return null;
  await loadFixture(db, demoFixture(), { baseDir: process.cwd(), media });
  return DEMO_LOGINS;
}
