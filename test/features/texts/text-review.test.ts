import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { comments, modules } from '../../../src/db/schema/index.js';
import { chapters, paragraphs } from '../../../src/features/documents/schema.js';
import { Browser } from '../../me/accounts/client.js';
import { load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { signedIn } from '../../manage/world.js';
import { textsWorld } from './world.js';

const t = await createTestApp();
await load(t.db, textsWorld());
const EDITOR = '/org/text/module/text/edit/';

/** The editor's form as stored, to post again with changes. */
async function editorFields(browser: Browser): Promise<Record<string, string>> {
  const page = await browser.get(EDITOR);
  assert.equal(page.status, 200, page.text);
  const fields: Record<string, string> = {};
  for (const [tag] of page.text.matchAll(/<input[^>]*>/g)) {
    const name = /name="(c\d+(?:p\d+)?-(?:id|name|weight))"/.exec(tag)?.[1];
    if (name) fields[name] = (/value="([^"]*)"/.exec(tag)?.[1] ?? '').replace(/&amp;/g, '&');
  }
  for (const match of page.text.matchAll(/<textarea[^>]*name="(c\d+p\d+-text)"[^>]*>([^<]*)<\/textarea>/g)) fields[match[1]] = match[2].replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
  return fields;
}

test('the module page shows the table of contents and the text, each chapter and paragraph linked to its page by name', async () => {
  const page = await new Browser(t.app).get('/org/projects/module/text/');
  assert.equal(page.status, 200);
  assert.match(page.text, /<h2 id="toc-heading">Table of contents<\/h2>/);
  assert.match(page.text, /<a href="\/org\/text\/chapters\/1\/">Preamble<\/a>/);
  assert.match(page.text, /<a href="\/org\/text\/paragraphs\/3\/">§ 3 Members<\/a>/);
  assert.match(page.text, /The purpose of the club\./);
  assert.doesNotMatch(page.text, /Edit the text/, 'visitors do not edit');
  const chapter = await new Browser(t.app).get('/org/text/chapters/2/');
  assert.equal(chapter.status, 200);
  assert.match(chapter.text, /<h1>Rules<\/h1>/);
  assert.match(chapter.text, /rel="prev">Previous chapter: Preamble/);
  assert.match(chapter.text, /Who may join\./);
  assert.match(chapter.text, /Please log in to comment\./);
  const paragraph = await new Browser(t.app).get('/org/text/paragraphs/1/');
  assert.match(paragraph.text, /<h1>§ 1 Purpose<\/h1>/);
  assert.equal((await new Browser(t.app).get('/other-org/text/paragraphs/1/')).status, 404, 'not under another organisation');
  assert.equal((await new Browser(t.app).get('/org/text/paragraphs/999/')).status, 404);
});

test('a participant comments on a paragraph and on a chapter; the comment is on their pages and counted on the module page', async () => {
  const member = await signedIn(t.app, 'member');
  const posted = await member.post('/comments/on/paragraph/2/', { comment: 'Where exactly?' });
  assert.equal(posted.status, 302);
  assert.match(posted.location ?? '', /^\/org\/text\/paragraphs\/2\/\?comment=\d+#comment-\d+$/);
  assert.match((await member.get('/org/text/paragraphs/2/')).text, /Where exactly\?/);
  assert.equal((await member.post('/comments/on/chapter/2/', { comment: 'Good rules.' })).status, 302);
  const module = await member.get('/org/projects/module/text/');
  assert.match(module.text, /Comments on “§ 2 Seat”: 1\)/);
  // The API takes comments on chapters and paragraphs too.
  const api = await t.app.inject({ method: 'GET', url: '/api/contenttypes/7/objects/2/comments/' });
  assert.equal(api.statusCode, 200);
  assert.equal((api.json() as { count: number }).count, 1);
});

test('the editor: initiators and moderators save chapters and paragraphs in order; others are refused', async () => {
  const initiator = await signedIn(t.app, 'initiator');
  const fields = await editorFields(initiator);
  assert.equal(fields['c0-name'], 'Preamble');
  assert.equal(fields['c1p0-name'], '§ 3 Members');
  // A new paragraph in the first chapter, placed first; a new chapter at the end with one paragraph; the chapters swapped.
  const saved = await initiator.post(EDITOR, {
    ...fields,
    'c0p2-name': '§ 0 Name',
    'c0p2-text': '<p>The name.</p><script>alert(1)</script>',
    'c0p2-weight': '0',
    'c0-weight': '2',
    'c1-weight': '1',
    'c2-name': 'Final provisions',
    'c2p0-name': '§ 9 Coming into force',
    'c2p0-text': '<p>Tomorrow.</p>',
  });
  assert.equal(saved.status, 302, saved.text);
  const stored = await t.db.select().from(chapters).where(eq(chapters.moduleId, 10)).orderBy(asc(chapters.weight));
  assert.deepEqual(stored.map((c) => c.name), ['Rules', 'Preamble', 'Final provisions']);
  const preamble = await t.db.select().from(paragraphs).where(eq(paragraphs.chapterId, 1)).orderBy(asc(paragraphs.weight));
  assert.deepEqual(preamble.map((p) => p.name), ['§ 0 Name', '§ 1 Purpose', '§ 2 Seat']);
  assert.doesNotMatch(preamble[0].text, /script/, 'the text is cleaned');

  // Errors come back beside the field, nothing stored.
  const again = await editorFields(initiator);
  const refused = await initiator.post(EDITOR, { ...again, 'c0-name': '', 'c0p0-text': '<p><img src="/x.png"></p>' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /id="id_c0-name_errors"[^>]*><li>This field is required\./);
  assert.match(refused.text, /Please add an alternative text for all images\./);

  // A project moderator edits the text too (§7.2); the module page offers them the editor.
  const moderator = await signedIn(t.app, 'moderator');
  assert.equal((await moderator.get(EDITOR)).status, 200);
  assert.match((await moderator.get('/org/projects/module/text/')).text, /href="\/org\/text\/module\/text\/edit\/"/);
  // Another organisation's initiator and a participant may not; anonymous visitors are sent to log in.
  assert.equal((await (await signedIn(t.app, 'other')).get(EDITOR)).status, 403);
  assert.equal((await (await signedIn(t.app, 'member')).post(EDITOR, again)).status, 403);
  assert.equal((await new Browser(t.app).get(EDITOR)).location, `/accounts/login/?next=${EDITOR}`);
});

test('saving never deletes a commented paragraph silently: it is refused with the paragraph named (§7.3)', async () => {
  const initiator = await signedIn(t.app, 'initiator');
  const [commented] = await t.db.select().from(paragraphs).where(eq(paragraphs.id, 2));
  assert.ok((await t.db.select().from(comments).where(eq(comments.objectPk, 2))).length > 0);
  const fields = await editorFields(initiator);
  const key = Object.entries(fields).find(([k, v]) => /p\d+-id$/.test(k) && v === '2')?.[0].replace(/-id$/, '');
  assert.ok(key);
  const refused = await initiator.post(EDITOR, { ...fields, [`${key}-delete`]: 'on' });
  assert.equal(refused.status, 400);
  assert.match(refused.text, /The paragraph “§ 2 Seat” cannot be deleted: its comments \(1\) would be lost\./);
  assert.equal((await t.db.select().from(paragraphs).where(eq(paragraphs.id, commented.id))).length, 1);
  // Deleting its chapter is refused as well; an uncommented paragraph goes.
  const chapterKey = key.replace(/p\d+$/, '');
  const chapterRefused = await initiator.post(EDITOR, { ...fields, [`${chapterKey}-delete`]: 'on' });
  assert.equal(chapterRefused.status, 400);
  assert.match(chapterRefused.text, /The paragraph “§ 2 Seat” cannot be deleted/);
  const plain = Object.entries(fields).find(([k, v]) => /p\d+-id$/.test(k) && v === '1')?.[0].replace(/-id$/, '');
  await t.db.delete(comments).where(eq(comments.objectPk, 1));
  assert.equal((await initiator.post(EDITOR, { ...fields, [`${plain}-delete`]: 'on' })).status, 302);
  assert.equal((await t.db.select().from(paragraphs).where(eq(paragraphs.id, 1))).length, 0);
});

test('the dashboard: Text Review is offered; its Document component lists the text and blocks publishing without a chapter', async () => {
  const initiator = await signedIn(t.app, 'initiator');
  assert.match((await initiator.get('/org/dashboard/projects/draft-plan/blueprints/')).text, /Text Review/);
  const created = await initiator.post('/org/dashboard/projects/draft-plan/blueprints/text-review/', {});
  assert.equal(created.status, 302);
  const [module] = await t.db.select().from(modules).where(eq(modules.projectId, 2));
  assert.equal(module.blueprintType, 'TR');
  const panel = await initiator.get(`/org/dashboard/modules/${module.slug}/document_settings/`);
  assert.equal(panel.status, 200);
  assert.match(panel.text, /The text has 0 chapters\./);
  assert.match(panel.text, new RegExp(`href="/org/text/module/${module.slug}/edit/"`));
  assert.match((await initiator.get(`/org/dashboard/modules/${module.slug}/module_basic/`)).text, /Document: at least one chapter/);
  assert.equal((await initiator.post(`/org/dashboard/modules/${module.slug}/document_settings/`, {})).status, 404);
  const existing = await initiator.get(`/org/dashboard/modules/text/document_settings/`);
  assert.match(existing.text, /The text has 3 chapters\./);
});
