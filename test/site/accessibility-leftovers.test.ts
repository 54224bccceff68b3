import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { organisations } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { ideaPath } from '../../src/core/urls.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

/** The heading levels inside <main>, in order. */
const headingLevels = (html: string) => [...(/<main[^>]*>(.*)<\/main>/s.exec(html)?.[1] ?? '').matchAll(/<h([1-6])[\s>]/g)].map((m) => Number(m[1]));

async function world() {
  const t = await createTestApp();
  await load(t.db, { ...basicWorld(), ideas: [{ id: 1, module: 1, creator: 6, name: 'Shade', description: 'Trees', category: 2, labels: [1] }] });
  return t;
}

test('the start page\'s headings go down one level at a time (h1, then the tiles\' h2)', async () => {
  const t = await world();
  for (const headers of [{}, { 'accept-language': 'de' }] as Record<string, string>[]) {
    const levels = headingLevels((await new Browser(t.app, headers).get('/')).text);
    assert.deepEqual(levels, [1, 2]);
  }
  const filtered = headingLevels((await new Browser(t.app).get('/?search=nothing')).text);
  assert.deepEqual(filtered, [1]);
});

test('category and label badges differ beyond colour and say what they are', async () => {
  const t = await world();
  const [idea] = await t.db.select().from(ideas).where(eq(ideas.id, 1));
  const page = (await new Browser(t.app).get(ideaPath('org', idea.created, idea.id))).text;
  assert.match(page, /<span class="badge badge-light badge-category"><span class="visually-hidden">Category: <\/span>Parks<\/span>/);
  assert.match(page, /<span class="badge badge-light badge-label"><span class="visually-hidden">Label: <\/span>Urgent<\/span>/);
  const css = (await new Browser(t.app).get('/static/site.css')).text;
  assert.match(css, /\.badge-category \{[^}]*border-style: solid/);
  assert.match(css, /\.badge-label \{[^}]*border-radius: 1em; border-style: dashed/);
  const german = (await new Browser(t.app, { 'accept-language': 'de' }).get(ideaPath('org', idea.created, idea.id))).text;
  assert.match(german, /<span class="visually-hidden">Kategorie: <\/span>/);
  assert.match(german, /<span class="visually-hidden">Merkmal: <\/span>/);
});

test('an organisation\'s pages have one "Imprint" link: the platform\'s says whose it is', async () => {
  const t = await world();
  const visitor = new Browser(t.app);
  const imprintLinks = (html: string) => [...html.matchAll(/<a href="([^"]+)">(Imprint|Impressum)<\/a>/g)].map((m) => m[1]);
  assert.deepEqual(imprintLinks((await visitor.get('/org/')).text), ['/pages/imprint/'], 'without its own imprint: the platform\'s');
  await t.db.update(organisations).set({ imprint: '<p>Stadt Grünau, Rathausplatz 1</p>' }).where(eq(organisations.id, 1));
  const page = (await visitor.get('/org/')).text;
  assert.deepEqual(imprintLinks(page), ['/org/imprint/']);
  assert.match(page, /<a href="\/pages\/imprint\/">Imprint of Allmende<\/a>/);
  const german = (await new Browser(t.app, { 'accept-language': 'de' }).get('/org/')).text;
  assert.deepEqual(imprintLinks(german), ['/org/imprint/']);
  assert.match(german, /<a href="\/pages\/imprint\/">Impressum von Allmende<\/a>/);
});
