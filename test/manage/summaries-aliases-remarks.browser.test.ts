import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { basicWorldWith, load } from '../fixtures.js';
import { createTestApp, type TestApp } from '../helpers.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs, newLocalePage, tabTo } from '../chromium.js';

/**
 * Issue 34's pages that no other browser test walks: the project's machine summary (item 9: asked
 * for and published with the keyboard, on a stand-in of an OpenAI-compatible API), the module's
 * own word for "category" (item 5: set with the keyboard, then the list's filter says it) and a
 * moderator remark's page (item 2: kept with the keyboard). Every page passes axe in English and
 * German.
 */
const standIn = createServer((request, response) => {
  request.resume();
  request.on('end', () => {
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { role: 'assistant', content: 'People want a safer crossing.' } }] }));
  });
});

let t: TestApp;
let chromium: Browser;
let base: string;

// At the top level (not in a hook), so that the app's own after() closes it at the end of the file.
if (!chromiumMissing) {
  await new Promise<void>((done) => standIn.listen(0, '127.0.0.1', done));
  t = await createTestApp({ summaries: { url: `http://127.0.0.1:${(standIn.address() as AddressInfo).port}/v1`, model: 'local-test-model', apiKey: null } });
  await load(
    t.db,
    basicWorldWith({
      ideas: [{ id: 1, module: 1, creator: 5, name: 'A safer crossing', description: '<p>At the school</p>', category: 1 }],
      comments: [{ id: 1, creator: 6, target: { type: 'idea', id: 1 }, comment: 'Yes, with a zebra crossing' }],
    }),
  );
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
  standIn.close();
});

/** Tabs to the button whose text matches, presses Enter and waits for the page it leads to. */
async function pressButton(page: Page, text: RegExp) {
  await tabTo(page, (f) => f.tag === 'button' && text.test(f.text), `the button ${text}`);
  await Promise.all([page.waitForNavigation(), page.keyboard.press('Enter')]);
}

test('the summary, the module’s word for category and a moderator remark: used with the keyboard, and every page passes axe in English and German', { skip: chromiumMissing }, async () => {
  const module = '/org/dashboard/modules/module-1';
  const summary = '/org/dashboard/projects/project/summary/';

  const initiator = await newLocalePage(chromium);
  await logInAs(initiator, base, 'initiator');
  await initiator.goto(`${base}${summary}`);
  await pressButton(initiator, /Make a summary/);
  await initiator.getByText('People want a safer crossing.').first().waitFor();
  await pressButton(initiator, /^Publish$/);
  await initiator.getByText('The summary is published.').waitFor();

  await initiator.goto(`${base}${module}/categories/`);
  await tabTo(initiator, (f) => f.name === 'alias', 'the word for “Category”');
  await initiator.keyboard.type('District');
  await pressButton(initiator, /^Save/);
  assert.equal(new URL(initiator.url()).pathname, `${module}/categories/`);
  await initiator.context().close();

  const moderator = await newLocalePage(chromium);
  await logInAs(moderator, base, 'moderator');
  await moderator.goto(`${base}/moderatorremarks/4/1/`);
  await tabTo(moderator, (f) => f.name === 'remark', 'the remark');
  await moderator.keyboard.type('Compare with the traffic plan.');
  await pressButton(moderator, /Save remark/);
  await moderator.getByText('The remark has been saved.').waitFor();
  await moderator.context().close();

  for (const locale of ['en-US', 'de-DE']) {
    const page = await newLocalePage(chromium, locale);
    await page.goto(`${base}/org/projects/module/module-1/`);
    assert.equal(await page.locator('label[for="id_category"]').textContent(), 'District');
    for (const path of ['/org/projects/module/module-1/', '/org/projects/project/summary/']) {
      await page.goto(`${base}${path}`);
      await assertAccessible(page, `${locale} ${path}`);
    }
    await logInAs(page, base, 'initiator');
    // The initiator's language is English: the language chooser's cookie keeps the pages in the locale's language.
    await page.context().addCookies([{ name: 'language', value: locale.slice(0, 2), url: base }]);
    for (const path of [summary, `${module}/categories/`, `${module}/labels/`, '/moderatorremarks/4/1/', '/userdashboard/moderation/detail/project/']) {
      await page.goto(`${base}${path}`);
      assert.equal(await page.getAttribute('html', 'lang'), locale.slice(0, 2));
      await assertAccessible(page, `${locale} ${path} (initiator)`);
    }
    await page.context().close();
  }
});
