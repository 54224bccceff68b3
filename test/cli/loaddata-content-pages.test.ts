import assert from 'node:assert/strict';
import { test, type TestContext } from 'node:test';
import { FixtureError, loadFixture } from '../../src/cli/loaddata.js';
import { contentPages, platformSettings, startPage, startPageFigures } from '../../src/db/schema/index.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

const options = { baseDir: process.cwd() };

/**
 * loaddata is another process's write: this one's pages show it once their kept footer is 30
 * seconds old (web/site-links.ts). Each call goes 31 seconds past the one before.
 */
let shifted = 0;
const afterKeptFooter = (t: TestContext) => t.mock.timers.enable({ apis: ['Date'], now: Date.now() + (shifted += 31_000) });

test('loaddata places content pages (ids kept, rich text cleaned), linked where their placement says', async (t) => {
  const { app, db } = await createTestApp();
  const loaded = await loadFixture(
    db,
    {
      content_pages: [
        { id: 7, slug: 'hilfe', title_de: 'Hilfe', title_en: 'Help', body_de: '<p>So geht es.</p><script>alert(1)</script>', body_en: '<p>How it works.</p>', placement: 'footer' },
        { id: 9, slug: 'archiv', title_de: 'Archiv', placement: 'none', weight: 3 },
      ],
    },
    options,
  );
  assert.equal(loaded.content_pages, 2);
  assert.deepEqual((await db.select({ id: contentPages.id, slug: contentPages.slug, body: contentPages.bodyDe }).from(contentPages).orderBy(contentPages.id)), [
    { id: 7, slug: 'hilfe', body: '<p>So geht es.</p>' },
    { id: 9, slug: 'archiv', body: '' },
  ]);
  afterKeptFooter(t);
  const page = await app.inject({ method: 'GET', url: '/pages/hilfe/', headers: { 'accept-language': 'de' } });
  assert.equal(page.statusCode, 200);
  assert.ok(page.body.includes('So geht es.'));
  assert.ok(page.body.includes('href="/pages/hilfe/"'), 'linked in the footer');
  assert.ok(!page.body.includes('href="/pages/archiv/"'), 'a page placed nowhere is not linked');
});

test('a content page the back-office would refuse stores nothing and names the record and field', async () => {
  const { db } = await createTestApp();
  const cases: [unknown[], string][] = [
    [[{ slug: 'hilfe', title_de: 'A' }, { slug: 'hilfe', title_de: 'B' }], 'content_pages[1].slug: This address is already taken.'],
    [[{ slug: 'imprint', title_de: 'Impressum' }], 'content_pages[0].slug: This address is already taken.'],
    [[{ slug: 'Hilfe Seite', title_de: 'Hilfe' }], 'content_pages[0].slug: Enter lower-case letters, digits and hyphens only (at most 100).'],
    [[{ slug: 'leer' }], 'content_pages[0].title_en: A title in at least one language is required.'],
  ];
  for (const [records, message] of cases) {
    await assert.rejects(loadFixture(db, { content_pages: records }, options), (error: unknown) => error instanceof FixtureError && error.message === message);
    assert.equal(await db.$count(contentPages), 0);
  }
});

test('loaddata places the platform settings shown in every footer; a record the back-office would refuse stores nothing and names its field', async (t) => {
  const { app, db } = await createTestApp();
  await assert.rejects(loadFixture(db, { platform_settings: [{ name: 'Stadt', github: 'not a link' }] }, options), (error: unknown) => error instanceof FixtureError && error.message === 'platform_settings[0].github: Enter a valid URL.');
  assert.equal(await db.$count(platformSettings), 0);
  const loaded = await loadFixture(db, { platform_settings: [{ name: 'Stadt macht mit', address: '<p>Markt 1</p><script>x</script>', github: 'https://github.example/stadt' }] }, options);
  assert.equal(loaded.platform_settings, 1);
  afterKeptFooter(t);
  const page = await app.inject({ method: 'GET', url: '/contact/' });
  assert.match(page.body, /<footer[\s\S]*<li>Stadt macht mit<\/li>[\s\S]*<p>Markt 1<\/p>[\s\S]*GitHub<\/a>/);
  assert.ok(!page.body.includes('<script>x'), 'rich text is cleaned');
});

test('loaddata places the start page’s figures in their order; a figure the back-office would refuse stores nothing and names its field', async () => {
  const { db } = await createTestApp();
  await assert.rejects(loadFixture(db, { start_page_figures: [{ kind: 'number', figure_de: '3' }, { kind: 'testimonial', quote_de: 'Gut.' }] }, options), (error: unknown) => error instanceof FixtureError && error.message === 'start_page_figures[1].person_name: This field is required.');
  assert.equal(await db.$count(startPageFigures), 0);
  const loaded = await loadFixture(db, { start_page_figures: [{ kind: 'testimonial', quote_de: 'Gut.', person_name: 'Ana', weight: 2 }, { kind: 'number', figure_de: '3', caption_de: 'Projekte', weight: 1 }] }, options);
  assert.equal(loaded.start_page_figures, 2);
  assert.deepEqual((await db.select({ kind: startPageFigures.kind }).from(startPageFigures).orderBy(startPageFigures.weight)).map((f) => f.kind), ['number', 'testimonial']);
});

test('loaddata writes the start page’s heading and introduction (rich text cleaned); one the back-office would refuse stores nothing and names its field', async () => {
  const { app, db } = await createTestApp();
  // A platform with its operator (an empty one leads to the first-run setup).
  await load(db, basicWorld());
  await assert.rejects(
    loadFixture(db, { start_page: [{ heading_de: 'x'.repeat(201) }] }, options),
    (error: unknown) => error instanceof FixtureError && /^start_page\[0\]\.heading_de: .*200/.test(error.message),
  );
  assert.equal(await db.$count(startPage), 0);
  const loaded = await loadFixture(db, { start_page: [{ heading_de: 'Willkommen', heading_en: 'Welcome', intro_de: '<p>Reden Sie mit.</p><script>x</script>' }] }, options);
  assert.equal(loaded.start_page, 1);
  const home = await app.inject({ method: 'GET', url: '/', headers: { 'accept-language': 'de' } });
  assert.equal(home.statusCode, 200);
  assert.match(home.body, /<h1[^>]*>Willkommen<\/h1>[\s\S]*<p>Reden Sie mit.<\/p>/);
  assert.ok(!home.body.includes('<script>x'), 'rich text is cleaned');
});
