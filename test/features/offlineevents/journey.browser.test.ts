import assert from 'node:assert/strict';
import { after, before, test } from 'node:test';
import type { Browser } from 'playwright-core';
import { toLocalInput } from '../../../src/i18n/dates.js';
import { assertAccessible, chromiumMissing, launchChromium, logInAs, newLocalePage, tabTo } from '../../chromium.js';
import { dashboardApp } from '../../manage/world.js';

/**
 * Offline events in Chromium: an initiator adds an event in the project dashboard (a refused form
 * first), a visitor finds it in the project's timeline and opens its page; every page axe-clean, in
 * English and German.
 */
const t = chromiumMissing ? null : await dashboardApp();
const base = t ? await t.app.listen({ host: '127.0.0.1', port: 0 }) : '';
let chromium: Browser;
before(async () => {
  if (!chromiumMissing) chromium = await launchChromium();
});
after(async () => {
  await chromium?.close();
});

test('an initiator adds an offline event; visitors find it in the timeline and on its page', { skip: chromiumMissing }, async () => {
  if (!t) return;
  const ines = await newLocalePage(chromium);
  await logInAs(ines, base, 'initiator');
  await ines.goto(`${base}/org/dashboard/projects/project/basic/`);
  await ines.getByRole('link', { name: 'Offline events' }).click();
  await ines.getByText('No events yet.').waitFor();
  await assertAccessible(ines, 'dashboard: offline events (empty)');
  await ines.getByRole('link', { name: 'Add event' }).click();
  await assertAccessible(ines, 'dashboard: add event');

  // Saved without a date and type: the errors stand beside the fields, the title is kept.
  await ines.getByLabel('Title').fill('Citizens’ meeting at the town hall');
  await ines.locator('#id_description_editor').fill('We present the ideas and discuss them.');
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.locator('#id_date_errors').waitFor();
  await ines.locator('#id_event_type_errors').waitFor();
  assert.equal(await ines.getByLabel('Title').inputValue(), 'Citizens’ meeting at the town hall');
  await assertAccessible(ines, 'dashboard: add event with errors');

  await ines.getByLabel('Event type').fill('Meeting');
  await ines.getByLabel('Date and time').fill(toLocalInput(new Date(Date.now() + 5 * 24 * 3600_000), t.config.timeZone));
  await ines.getByRole('button', { name: 'Save', exact: true }).click();
  await ines.getByText('The event has been saved.').waitFor();
  await assertAccessible(ines, 'dashboard: offline events');

  // A visitor sees it in the timeline beside the module's entry and opens its page, in German too.
  for (const locale of ['en-US', 'de-DE']) {
    const visitor = await newLocalePage(chromium, locale);
    await visitor.goto(`${base}/org/projects/project/`);
    await visitor.locator('.timeline-event a').click();
    await visitor.waitForURL(`${base}/org/offlineevents/citizens-meeting-at-the-town-hall/`);
    await visitor.getByRole('heading', { level: 1, name: 'Citizens’ meeting at the town hall' }).waitFor();
    await visitor.getByText('We present the ideas and discuss them.').waitFor();
    await assertAccessible(visitor, `event page (${locale})`);
    await visitor.context().close();
  }

  // The dashboard's event pages in German (the initiator speaks English: the language cookie switches), and deleting with the keyboard.
  await ines.context().addCookies([{ name: 'language', value: 'de', url: base }]);
  const list = `${base}/org/dashboard/projects/project/offlineevents/`;
  for (const path of [list, `${list}create/`, `${list}citizens-meeting-at-the-town-hall/update/`, `${list}citizens-meeting-at-the-town-hall/delete/`]) {
    await ines.goto(path);
    assert.equal(await ines.getAttribute('html', 'lang'), 'de');
    await assertAccessible(ines, `dashboard in German: ${path.slice(base.length)}`);
  }
  await tabTo(ines, (f) => f.tag === 'button' && f.text === 'Löschen', 'the delete button');
  await Promise.all([ines.waitForNavigation(), ines.keyboard.press('Enter')]);
  await ines.getByText('Die Veranstaltung wurde gelöscht.').waitFor();
  await ines.context().close();
});
