import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { contentPages, modules } from '../../src/db/schema/index.js';
import { createCustomField, saveAnswers } from '../../src/features/customfields/services.js';
import { saveFigure, savePlatformSettings, saveStartPage } from '../../src/core/legal/services.js';
import { createIdea } from '../../src/features/idealike/services.js';
import { IDEA_KIND } from '../../src/features/ideas/idea-kind.js';
import { basicWorld, load } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { assertAccessible, challengeSolved, chromiumMissing, focused, launchChromium, logInAs, newLocalePage, tabTo } from '../chromium.js';

let t: TestApp;
let chromium: Browser;
let base: string;

// At the top level (not in a hook), so that the app's own after() closes it at the end of the file.
if (!chromiumMissing) {
  t = await createTestApp();
  await load(t.db, basicWorld());
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

test('content pages, the start page with its figures, the footer’s address and links, the contact form and custom fields pass axe in English and German; the contact form is sent with the keyboard', { skip: chromiumMissing }, async () => {
  const [module] = await t.db.select().from(modules);
  await t.db.transaction(async (tx) => {
    await tx.insert(contentPages).values({ slug: 'help', titleEn: 'Help', titleDe: 'Hilfe', bodyEn: '<p>How it works</p>', bodyDe: '<p>So geht es</p>', placement: 'menu' });
    await saveStartPage(tx, { heading: { en: 'Welcome', de: 'Willkommen' }, intro: { en: '<p>Have your say.</p>', de: '<p>Reden Sie mit.</p>' }, imageAlt: { en: '', de: '' } });
    const texts = (en: string, de: string) => ({ en, de });
    const none = texts('', '');
    await saveFigure(tx, null, { kind: 'number', weight: 0, figure: texts('1,200', '1.200'), caption: texts('ideas', 'Ideen'), quote: none, personName: '', personDescription: none, imageAlt: none });
    await saveFigure(tx, null, { kind: 'testimonial', weight: 1, figure: none, caption: none, quote: texts('It works.', 'Es klappt.'), personName: 'Ana', personDescription: texts('Mayor', 'Bürgermeisterin'), imageAlt: none });
    await savePlatformSettings(tx, { name: 'Stadt', address: '<p>Markt 1</p>', contacts: '<p>info@stadt.example</p>', facebook: 'https://facebook.example/stadt', twitter: '', github: '', shareDescription: texts('Say it.', 'Sag es.') });
    const district = await createCustomField(tx, { moduleId: module.id, label: 'District', kind: 'choice', required: true, choices: [{ label: 'North' }, { label: 'South' }] });
    await createCustomField(tx, { moduleId: module.id, label: 'Why?', kind: 'text', weight: 1 });
    const idea = await createIdea(tx, { moduleId: module.id, creatorId: 5, name: 'Benches', description: 'More benches', categoryId: 1 }, IDEA_KIND);
    await saveAnswers(tx, idea, [{ fieldId: district, value: '', choiceId: null }]);
  });
  for (const locale of ['en-US', 'de-DE']) {
    const page = await newLocalePage(chromium, locale);
    for (const path of ['/', '/pages/help/', '/contact/', `/org/projects/module/${module.slug}/`]) {
      await page.goto(`${base}${path}`);
      await assertAccessible(page, `${locale} ${path}`);
    }
    await logInAs(page, base, 'admin');
    // The operator's language is English: the language chooser's cookie keeps the pages in the locale's language.
    await page.context().addCookies([{ name: 'language', value: locale.slice(0, 2), url: base }]);
    for (const path of ['/backoffice/content/', '/backoffice/content/create/', '/backoffice/start-page/', '/backoffice/platform/', '/backoffice/start-page/figures/', '/backoffice/start-page/figures/create/', '/backoffice/start-page/figures/2/', `/org/dashboard/modules/${module.slug}/custom_fields/`, `/org/ideas/create/module/${module.slug}/`]) {
      await page.goto(`${base}${path}`);
      assert.equal(await page.getAttribute('html', 'lang'), locale.slice(0, 2));
      await assertAccessible(page, `${locale} ${path} (operator)`);
    }
    await page.context().close();
  }

  const page = await newLocalePage(chromium);
  await page.goto(`${base}/contact/`);
  await challengeSolved(page);
  await tabTo(page, (f) => f.name === 'email', 'the e-mail field');
  await page.keyboard.type('ana@example.org');
  await page.keyboard.press('Tab');
  await page.keyboard.type('A question');
  await page.keyboard.press('Tab');
  await page.keyboard.type('How do I start?');
  await tabTo(page, (f) => f.tag === 'button' && /Send message/.test(f.text), 'the send button');
  assert.equal((await focused(page)).tag, 'button');
  await page.keyboard.press('Enter');
  await page.getByText('Thank you. Your message has been sent.').waitFor();
  await page.context().close();
});
