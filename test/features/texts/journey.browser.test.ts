import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import { eq } from 'drizzle-orm';
import type { Browser } from 'playwright-core';
import { comments } from '../../../src/db/schema/index.js';
import { subjects } from '../../../src/features/debate/schema.js';
import { chapters } from '../../../src/features/documents/schema.js';
import { topics } from '../../../src/features/topicprio/schema.js';
import { load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { textsWorld } from './world.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs, newLocalePage } from '../../chromium.js';

// One app, one browser: an initiator builds a text review, a citizen comments on a paragraph; every page of the three module types passes axe.
let t: TestApp;
let chromium: Browser;
let base: string;

if (!chromiumMissing) {
  t = await createTestApp();
  await load(t.db, textsWorld());
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
  await t?.app.close();
});

test('an initiator writes the text review in the editor; a citizen finds a paragraph by its name and comments on it', { skip: chromiumMissing }, async () => {
  const initiator = await newLocalePage(chromium);
  await logInAs(initiator, base, 'initiator');
  await initiator.goto(`${base}/org/dashboard/modules/text/document_settings/`);
  await assertAccessible(initiator, 'the Document component');
  await initiator.getByRole('link', { name: 'Edit the text' }).click();
  await initiator.waitForURL(/\/org\/text\/module\/text\/edit\/$/);
  await assertAccessible(initiator, 'the document editor');
  await initiator.getByRole('group', { name: 'New chapter' }).getByLabel('Chapter title').fill('Final provisions');
  await initiator.getByRole('button', { name: 'Save' }).click();
  await initiator.waitForURL(/\/org\/text\/module\/text\/edit\/$/);
  assert.ok(await initiator.getByText('The text has been saved.').isVisible());
  assert.equal((await t.db.select().from(chapters).where(eq(chapters.name, 'Final provisions'))).length, 1);

  const citizen = await newLocalePage(chromium);
  await logInAs(citizen, base, 'member');
  await citizen.goto(`${base}/org/projects/module/text/`);
  await assertAccessible(citizen, 'the text review module page');
  await citizen.getByRole('navigation', { name: 'Table of contents' }).getByRole('link', { name: '§ 3 Members' }).click();
  await citizen.waitForURL(/\/org\/text\/paragraphs\/3\/$/);
  await assertAccessible(citizen, 'a paragraph page');
  await citizen.getByLabel('Your comment').fill('Who decides on new members?');
  await citizen.getByRole('button', { name: 'Post' }).click();
  await citizen.waitForURL(/\/org\/text\/paragraphs\/3\/\?comment=\d+/);
  assert.ok(await citizen.getByText('Who decides on new members?').first().isVisible());
  assert.equal((await t.db.select().from(comments).where(eq(comments.comment, 'Who decides on new members?')))[0].contentType, 'paragraph');
  await citizen.goto(`${base}/org/text/chapters/1/`);
  await assertAccessible(citizen, 'a chapter page');
});

test('the debate and prioritisation pages pass axe in English and German', { skip: chromiumMissing }, async () => {
  const [subject] = await t.db.select().from(subjects).where(eq(subjects.id, 1));
  const [topic] = await t.db.select().from(topics).where(eq(topics.id, 2));
  const ref = (created: Date, id: number) => `${created.getUTCFullYear()}-${String(id).padStart(5, '0')}`;
  for (const locale of ['en-US', 'de-DE']) {
    const page = await newLocalePage(chromium, locale);
    await logInAs(page, base, 'moderator');
    for (const path of [
      '/org/projects/module/debate/',
      `/org/subjects/${ref(subject.created, subject.id)}/`,
      '/org/subjects/create/module/debate/',
      '/org/projects/module/prio/',
      `/org/topicprio/${ref(topic.created, topic.id)}/`,
      '/org/topicprio/create/module/prio/',
    ]) {
      await page.goto(`${base}${path}`);
      await assertAccessible(page, `${path} (${locale})`);
    }
  }
});
