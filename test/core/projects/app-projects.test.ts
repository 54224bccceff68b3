import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { organisations, projects } from '../../../src/db/schema/index.js';
import { signJwt } from '../../../src/http/jwt.js';
import { createBrowserSession, SESSION_COOKIE } from '../../../src/http/session.js';
import { formatDate } from '../../../src/i18n/dates.js';
import { daysFromNow, load, tokenHeader } from '../../fixtures.js';
import { createTestApp, freezeTime } from '../../helpers.js';

type Json = Record<string, unknown>;

const PROJECT_FIELDS = [
  'pk',
  'slug',
  'point',
  'name',
  'url',
  'description',
  'information',
  'result',
  'organisation',
  'organisation_logo',
  'published_modules',
  'access',
  'image',
  'single_idea_collection_module',
  'single_poll_module',
  'participation_time_display',
  'module_running_progress',
  'has_contact_info',
  'contact_name',
  'contact_address_text',
  'contact_phone',
  'contact_email',
  'contact_url',
];

const HOUR = 3600 * 1000;
const iso = (ms: number) => new Date(Date.now() + ms).toISOString();
const running = [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(1) }];
const future = [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(5), end_date: daysFromNow(9) }];
const past = [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-9), end_date: daysFromNow(-5) }];

type ProjectSpec = { slug: string; access?: 'PUBLIC' | 'SEMIPUBLIC' | 'PRIVATE'; org?: number; draft?: boolean; archived?: boolean };

/** Projects created one day apart (the first is the oldest), each with the given modules. */
function world(specs: [ProjectSpec, { phases: typeof running; draft?: boolean; blueprint?: string }[]][]): Fixture {
  return {
    users: [
      { id: 1, username: 'user', email: 'user@example.org', language: 'en' },
      { id: 2, username: 'nutzerin', email: 'nutzerin@example.org', language: 'de' },
    ],
    organisations: [
      { id: 1, slug: 'city', name: 'City of Example', title: 'Example', enable_geolocation: true },
      { id: 2, slug: 'nogeo', name: 'No Geolocation', enable_geolocation: false },
    ],
    projects: specs.map(([p], i) => ({
      id: i + 1,
      slug: p.slug,
      name: `Project ${p.slug}`,
      organisation: p.org ?? 1,
      access: p.access ?? 'PUBLIC',
      is_draft: p.draft ?? false,
      is_archived: p.archived ?? false,
      created: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
    })),
    modules: specs.flatMap(([, modules], i) =>
      modules.map((m, j) => ({ id: (i + 1) * 10 + j, project: i + 1, name: `m${j}`, phases: m.phases, is_draft: m.draft ?? false, blueprint_type: m.blueprint ?? 'BS' })),
    ),
  };
}

test('GET /api/app-projects/', async (t) => {
  freezeTime(t); // "23 hours remaining" of a phase ending a day after the fixtures were made: never a second before them
  const { db, request, config } = await createTestApp();
  await load(
    db,
    world([
      [{ slug: 'public' }, [{ phases: running }]],
      [{ slug: 'semi', access: 'SEMIPUBLIC' }, [{ phases: running }]],
      [{ slug: 'private', access: 'PRIVATE' }, [{ phases: running }]],
      [{ slug: 'draft', draft: true }, [{ phases: running }]],
      [{ slug: 'archived', archived: true }, [{ phases: running }]],
      [{ slug: 'nogeo', org: 2 }, [{ phases: running }]],
      [{ slug: 'future' }, [{ phases: future }]],
      [{ slug: 'past' }, [{ phases: past }]],
      [{ slug: 'draft-module-only' }, [{ phases: running, draft: true }, { phases: past }]],
      [{ slug: 'two-phases' }, [{ phases: [...running, ...future] }, { phases: future }]],
      [{ slug: 'ic' }, [{ phases: running, blueprint: 'IC' }, { phases: running, draft: true }]],
      [{ slug: 'poll' }, [{ phases: future, blueprint: 'PO' }]],
      [{ slug: 'long' }, [{ phases: [{ type: 'a4_candy_ideas:collect', start_date: daysFromNow(-1), end_date: daysFromNow(400) }] }]],
      [{ slug: 'hours' }, [{ phases: [{ type: 'a4_candy_ideas:collect', start_date: iso(-HOUR), end_date: iso(3 * HOUR + 60000) }] }]],
    ]),
  );
  const user = await tokenHeader(db, 1);
  const list = async (headers: Record<string, string> = user) => (await request({ method: 'GET', url: '/api/app-projects/', headers })).body as Json[];
  const bySlug = async (slug: string, headers: Record<string, string> = user) => (await request({ method: 'GET', url: `/api/app-projects/${slug}/`, headers })).body as Json;

  await t.test('anonymous callers get 401 with WWW-Authenticate', async () => {
    for (const url of ['/api/app-projects/', '/api/app-projects/public/']) {
      const response = await request({ method: 'GET', url });
      assert.equal(response.status, 401);
      assert.equal(response.headers['www-authenticate'], 'Token');
      assert.deepEqual(response.body, { detail: 'Authentication credentials were not provided.' });
    }
  });

  await t.test('D1: public and semi-public, live, geolocated projects with a running or future published phase, each once, newest first', async () => {
    assert.deepEqual(
      (await list()).map((p) => p.slug),
      ['hours', 'long', 'poll', 'ic', 'two-phases', 'future', 'semi', 'public'],
    );
  });

  await t.test('the detail is looked up by slug inside the same set; anything else is 404', async () => {
    const all = await list();
    for (const project of all) assert.deepEqual(await bySlug(String(project.slug)), project);
    for (const slug of ['private', 'draft', 'archived', 'nogeo', 'past', 'draft-module-only', 'no-such-project', '%00', 'a%20b']) {
      const response = await request({ method: 'GET', url: `/api/app-projects/${slug}/`, headers: user });
      assert.equal(response.status, 404, slug);
      assert.ok((response.body as Json).detail);
    }
  });

  await t.test('Token, session and Bearer credentials all work', async () => {
    const bearer = { authorization: `Bearer ${await signJwt(config.secretKey, 'access', 1, 300)}` };
    assert.equal((await request({ method: 'GET', url: '/api/app-projects/public/', headers: bearer })).status, 200);
    const session = await createBrowserSession(db, 1);
    assert.equal((await request({ method: 'GET', url: '/api/app-projects/', cookies: { [SESSION_COOKIE]: session } })).status, 200);
    const invalid = await request({ method: 'GET', url: '/api/app-projects/', headers: { authorization: 'Bearer nonsense' } });
    assert.equal(invalid.status, 401);
    assert.equal((invalid.body as Json).code, 'token_not_valid');
  });

  await t.test('every AppProjectSerializer field, in order and format', async () => {
    await db
      .update(projects)
      .set({
        information: '  <p>Info</p>\n ',
        result: ' <p>Result</p> ',
        pointLat: 52.5,
        pointLng: 13.4,
        streetName: 'Marktplatz',
        zipCode: '10115',
        image: 'projects/hero.png',
        contactName: 'Office',
      })
      .where(eq(projects.slug, 'public'));
    await db.update(organisations).set({ logo: 'organisations/logo.png' }).where(eq(organisations.id, 1));
    const project = await bySlug('public');
    assert.deepEqual(Object.keys(project), PROJECT_FIELDS);
    assert.deepEqual(project.point, {
      type: 'Feature',
      geometry: { type: 'Point', coordinates: [13.4, 52.5] },
      properties: { strname: 'Marktplatz', hsnr: null, plz: '10115' },
    });
    assert.equal(project.url, '/city/projects/public/');
    assert.equal(project.information, '<p>Info</p>');
    assert.equal(project.result, '<p>Result</p>');
    assert.equal(project.organisation, 'Example');
    assert.equal(project.organisation_logo, '/media/organisations/logo.png');
    assert.deepEqual(project.published_modules, [10]);
    assert.equal(project.access, 'PUBLIC');
    assert.equal((await bySlug('semi')).access, 'SEMIPUBLIC');
    assert.match(String(project.image), /^http:\/\/localhost(:80)?\/media\/projects\/hero\.png$/);
    assert.equal(project.module_running_progress, 50);
    assert.equal(project.has_contact_info, true);
    assert.deepEqual([project.contact_name, project.contact_phone, project.contact_email, project.contact_url, project.contact_address_text], ['Office', '', '', '', '']);
    const plain = await bySlug('semi');
    assert.equal(plain.point, null);
    assert.equal(plain.image, null);
    assert.equal(plain.has_contact_info, false);
  });

  await t.test('single_idea_collection_module and single_poll_module: the pk of the only published module of that type, else false', async () => {
    const ic = await bySlug('ic');
    assert.deepEqual([ic.single_idea_collection_module, ic.single_poll_module, ic.published_modules], [110, false, [110]]);
    const poll = await bySlug('poll');
    assert.deepEqual([poll.single_idea_collection_module, poll.single_poll_module], [false, 120]);
    const two = await bySlug('two-phases');
    assert.deepEqual([two.single_idea_collection_module, two.published_modules], [false, [100, 101]]);
  });

  await t.test('participation_time_display in the request language', async () => {
    assert.equal((await bySlug('public')).participation_time_display, '23 hours remaining');
    assert.equal((await bySlug('hours')).participation_time_display, '3 hours remaining');
    assert.equal((await bySlug('long')).participation_time_display, 'more than 1 year remaining');
    const start = new Date(daysFromNow(5));
    const future = await bySlug('future');
    assert.match(String(future.participation_time_display), /^Participation: from /);
    assert.equal(future.participation_time_display, `Participation: from ${formatDate(start, 'en', config.timeZone)}`);
    assert.equal(future.module_running_progress, null);
    const german = await tokenHeader(db, 2);
    assert.equal((await bySlug('hours', german)).participation_time_display, '3 Stunden verbleibend');
    assert.equal((await bySlug('long', german)).participation_time_display, 'noch länger als 1 Jahr');
    assert.equal((await bySlug('future', german)).participation_time_display, `Teilnahme: ab ${formatDate(start, 'de', config.timeZone)}`);
  });
});

test('app-projects: image URLs use BASE_URL when it is set', async () => {
  const { db, request } = await createTestApp({ baseUrl: 'https://allmende.example' });
  await load(db, world([[{ slug: 'public' }, [{ phases: running }]]]));
  await db.update(projects).set({ image: 'projects/hero.png' });
  const response = await request({ method: 'GET', url: '/api/app-projects/public/', headers: await tokenHeader(db, 1) });
  assert.equal((response.body as Json).image, 'https://allmende.example/media/projects/hero.png');
});

test('app-projects: the number of SQL statements does not grow with the number of projects', async () => {
  const { db, request, database } = await createTestApp();
  const many = world(Array.from({ length: 50 }, (_, i) => [{ slug: `p${i}` }, [{ phases: running }, { phases: future }]]));
  await load(db, { ...many, projects: many.projects?.slice(0, 1), modules: many.modules?.filter((m) => m.project === 1) });
  const headers = await tokenHeader(db, 1);
  const statements = async () => {
    const before = database.stats.queries;
    const response = await request({ method: 'GET', url: '/api/app-projects/', headers });
    return { count: database.stats.queries - before, items: (response.body as Json[]).length };
  };
  const one = await statements();
  await load(db, { projects: many.projects?.slice(1), modules: many.modules?.filter((m) => m.project !== 1) });
  const fifty = await statements();
  assert.deepEqual([one.items, fifty.items], [1, 50]);
  assert.equal(fifty.count, one.count);
});

test('app-projects: requests that overlap share the list statement and get the same list', async () => {
  const { db, request, database } = await createTestApp();
  await load(db, world(Array.from({ length: 3 }, (_, i) => [{ slug: `p${i}` }, [{ phases: running }]])));
  const headers = await tokenHeader(db, 1);
  const before = database.stats.queries;
  const answers = await Promise.all(Array.from({ length: 10 }, () => request({ method: 'GET', url: '/api/app-projects/', headers })));
  const statements = database.stats.queries - before;
  assert.ok(statements < 20, `10 overlapping requests sent ${statements} statements; unshared they send 20`);
  for (const answer of answers) assert.deepEqual(answer.body, answers[0].body);
  assert.equal((answers[0].body as Json[]).length, 3);
});

test('app-projects: each language has its own kept answer, computed for the start of the whole second and again in the next one', async (t) => {
  const start = Math.ceil(Date.now() / 1000) * 1000;
  t.mock.timers.enable({ apis: ['Date'], now: start });
  const { db, app, database } = await createTestApp();
  const phase = { type: 'a4_candy_ideas:collect', start_date: new Date(start - HOUR).toISOString(), end_date: new Date(start + 3 * HOUR).toISOString() };
  await load(db, world([[{ slug: 'hours' }, [{ phases: [phase] }]]]));
  const english = await tokenHeader(db, 1);
  const german = await tokenHeader(db, 2);
  const ask = async (headers: Record<string, string>, tag?: string) => {
    const before = database.stats.queries;
    const response = await app.inject({ url: '/api/app-projects/hours/', headers: tag ? { ...headers, 'if-none-match': tag } : headers });
    const body = response.statusCode === 200 ? response.json<Json>() : null;
    return { status: response.statusCode, statements: database.stats.queries - before, tag: String(response.headers.etag), time: body?.participation_time_display, progress: body?.module_running_progress };
  };

  const en = await ask(english);
  assert.deepEqual([en.statements, en.time, en.progress], [3, '3 hours remaining', 25]);
  const de = await ask(german);
  assert.deepEqual([de.statements, de.time], [3, '3 Stunden verbleibend'], 'another language: its own entry');
  assert.notEqual(de.tag, en.tag);
  assert.deepEqual([(await ask(english, en.tag)).status, (await ask(german, de.tag)).status], [304, 304]);

  t.mock.timers.tick(999);
  const sameSecond = await ask(english, en.tag);
  assert.deepEqual([sameSecond.status, sameSecond.statements], [304, 2], 'the answer for the start of this second (exactly: 2 h 59 min 59 s left)');

  t.mock.timers.tick(1);
  const nextSecond = await ask(english, en.tag);
  assert.deepEqual([nextSecond.status, nextSecond.statements, nextSecond.time, nextSecond.progress], [200, 3, '2 hours remaining', 25]);
  t.mock.timers.tick(HOUR);
  const later = await ask(english);
  assert.deepEqual([later.time, later.progress], ['1 hour remaining', 50]);
  t.mock.timers.tick(2 * HOUR);
  assert.equal((await ask(english)).status, 404, 'its phase has ended: no longer listed');
});
