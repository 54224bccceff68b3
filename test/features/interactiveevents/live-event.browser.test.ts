import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { eventWorld } from './world.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs, newLocalePage } from '../../chromium.js';

/*
 * Issue 26: a town-hall meeting. Two citizens on their phones, a moderator with the event page and
 * the projector's screen open. A question is asked, liked, put on screen and answered; the other
 * pages follow through the live channel without a reload.
 */
let t: TestApp;
let chromium: Browser;
let base: string;
const EVENT = '/org/interactiveevents/town-hall/';
const SCREEN = '/org/interactiveevents/present/module/town-hall/';

if (!chromiumMissing) {
  t = await createTestApp();
  await load(t.db, eventWorld());
  base = await t.app.listen({ host: '127.0.0.1', port: 0 });
}

before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});

after(async () => {
  await chromium?.close();
});

/** Marks the page's document, so that a later check proves it was never reloaded. */
const mark = (page: Page) => page.evaluate(() => ((globalThis as unknown as { liveMark: number }).liveMark = 42));
const stillSame = async (page: Page, what: string) => assert.equal(await page.evaluate(() => (globalThis as unknown as { liveMark?: number }).liveMark), 42, `${what} was not reloaded`);

test('two citizens and a moderator: a question is asked, liked, put on screen and answered; the pages follow without a reload', { skip: chromiumMissing }, async () => {
  const citizenA = await newLocalePage(chromium);
  const citizenB = await newLocalePage(chromium);
  const moderator = await newLocalePage(chromium);
  await logInAs(moderator, base, 'moderator');
  const projector = await moderator.context().newPage();

  /** Opens a page and waits until its EventSource is connected (live.js marks the document). */
  const open = async (page: Page, path: string) => {
    await page.goto(`${base}${path}`);
    await mark(page);
    await page.locator('html[data-live-open]').waitFor({ state: 'attached' });
  };
  // What citizen B's page fetches in the background: nothing for a question event, its own like's question (issue 40).
  const fetched: string[] = [];
  citizenB.on('request', (request) => void (request.resourceType() === 'fetch' && fetched.push(new URL(request.url()).pathname)));
  await open(citizenB, EVENT);
  await open(moderator, EVENT);
  await open(projector, SCREEN);
  await assertAccessible(citizenB, 'event page');
  await assertAccessible(projector, 'presentation screen');
  assert.ok(await projector.locator('.presentation-qr svg').count(), 'the QR code to the event page');
  await projector.getByText('No question on screen.').waitFor();

  // Citizen A asks (a plain form post on their own page).
  await citizenA.goto(`${base}${EVENT}`);
  await citizenA.getByRole('combobox', { name: /^Affiliation/ }).selectOption({ label: 'Residents' });
  await citizenA.getByRole('textbox', { name: /^Question/ }).fill('Can the library open on Sundays?');
  await citizenA.getByRole('button', { name: 'Send question' }).click();
  await citizenA.getByText('Can the library open on Sundays?').waitFor();
  await mark(citizenA);
  await citizenA.locator('html[data-live-open]').waitFor({ state: 'attached' });

  // B and the moderator see it without a reload.
  await citizenB.getByText('Can the library open on Sundays?').waitFor();
  await moderator.getByText('Can the library open on Sundays?').waitFor();
  await stillSame(citizenB, 'citizen B’s page');

  assert.equal(fetched.length, 0, `citizen B’s page showed the new question from its event alone: ${fetched.join(', ')}`);

  // B likes it; A's page counts the like.
  await citizenB.getByRole('button', { name: 'Like question 5' }).click();
  await citizenA.locator('[data-likes-for="5"]').filter({ hasText: '1' }).waitFor();
  await citizenB.getByRole('button', { name: 'Like question 5' }).and(citizenB.locator('[aria-pressed="true"]')).waitFor();
  await stillSame(citizenA, 'citizen A’s page');
  assert.ok(fetched.includes(`${EVENT}questions/5/`), `citizen B fetched the question it liked: ${fetched.join(', ')}`);
  assert.ok(!fetched.includes(EVENT), `citizen B did not fetch the whole event page: ${fetched.join(', ')}`);

  // The moderator puts it on screen: the projector shows it.
  await moderator.getByRole('button', { name: 'Show on screen: question 5' }).click();
  await projector.locator('.presentation-question').filter({ hasText: 'Can the library open on Sundays?' }).waitFor();
  await stillSame(projector, 'the projector');

  // And marks it answered: it leaves the screen and moves to the answered questions everywhere.
  await moderator.getByRole('button', { name: 'Mark as answered: question 5' }).click();
  await projector.getByText('No question on screen.').waitFor();
  await citizenA.getByRole('heading', { name: 'Answered questions (1)' }).waitFor();
  await citizenB.getByRole('heading', { name: 'Answered questions (1)' }).waitFor();
  for (const [page, what] of [[citizenA, 'citizen A'], [citizenB, 'citizen B'], [moderator, 'the moderator'], [projector, 'the projector']] as const) await stillSame(page, what);
  await assertAccessible(moderator, 'event page of the moderator');
});

test('a busy evening (issue 40): a participant’s page shows a new question, a change and the answered one leaving from the events alone, in its language; a moderator’s page still shows the new question', { skip: chromiumMissing }, async () => {
  const citizen = await newLocalePage(chromium, 'de-DE');
  const moderator = await newLocalePage(chromium);
  await logInAs(moderator, base, 'moderator');
  const fragments: string[] = [];
  citizen.on('request', (request) => {
    const path = new URL(request.url()).pathname;
    if (path.startsWith(`${EVENT}questions/`) || (request.resourceType() === 'fetch' && path === EVENT)) fragments.push(path);
  });
  for (const page of [citizen, moderator]) {
    await page.goto(`${base}${EVENT}`);
    await mark(page);
    await page.locator('html[data-live-open]').waitFor({ state: 'attached' });
  }
  const heading = async (id: string) => (await citizen.locator(`#${id}`).textContent())?.trim();
  const [open, answered] = [await heading('questions-heading'), await heading('answered-heading')];
  const number = (text: string | undefined) => Number(/\d+/.exec(text ?? '')?.[0]);

  // Somebody asks (through the API, as an app would): both pages show it, the citizen's from the event alone.
  const asked = await t.request({ method: 'POST', url: '/api/modules/10/interactiveevents/livequestions/', payload: { text: '<b>Wann</b> öffnet das Bad?', category: 11 } });
  assert.equal(asked.status, 201);
  const id = (asked.body as { id: number }).id;
  const item = citizen.locator(`#question-${id}`);
  await item.getByText('<b>Wann</b> öffnet das Bad?', { exact: true }).waitFor();
  await moderator.locator(`#question-${id}`).getByText('<b>Wann</b> öffnet das Bad?').waitFor();
  assert.equal(await citizen.locator('.live-questions li').first().getAttribute('id'), `question-${id}`, 'on top of the first page');
  assert.equal(await item.locator('[data-badge="category"]').textContent(), 'Residents');
  assert.equal(await item.locator(`[data-likes-for="${id}"]`).textContent(), '0');
  assert.equal(await item.getByRole('button', { name: `Frage ${id} unterstützen` }).getAttribute('aria-pressed'), 'false', 'the like button in the page’s language');
  assert.equal(await item.locator('form').getAttribute('action'), `${EVENT}questions/${id}/like/`);
  assert.equal(await heading('questions-heading'), `Fragen (${number(open) + 1})`);

  // The moderator puts it on screen, then marks it answered: the badge comes, then the question leaves and the counts move.
  await moderator.getByRole('button', { name: `Show on screen: question ${id}` }).click();
  await item.locator('[data-badge="live"]').waitFor();
  await moderator.getByRole('button', { name: `Mark as answered: question ${id}` }).click();
  await item.waitFor({ state: 'detached' });
  assert.equal(await heading('questions-heading'), `Fragen (${number(open)})`);
  assert.equal(await heading('answered-heading'), `Beantwortete Fragen (${number(answered) + 1})`);
  assert.ok(await citizen.locator('#answered-heading').isVisible());
  await stillSame(citizen, 'the citizen’s page');
  await stillSame(moderator, 'the moderator’s page');
  assert.equal(fragments.length, 0, `the citizen’s page fetched no question and no page: ${fragments.join(', ')}`);
  await assertAccessible(citizen, 'event page in German after the live changes');

  // A like through the page's own form still works (and fetches that question only).
  const second = await t.request({ method: 'POST', url: '/api/modules/10/interactiveevents/livequestions/', payload: { text: 'Und im Winter?', category: 11 } });
  const secondId = (second.body as { id: number }).id;
  await citizen.getByRole('button', { name: `Frage ${secondId} unterstützen` }).click();
  await citizen.getByRole('button', { name: `Frage ${secondId} unterstützen` }).and(citizen.locator('[aria-pressed="true"]')).waitFor();
  await citizen.locator(`[data-likes-for="${secondId}"]`).filter({ hasText: '1' }).waitFor();
});
