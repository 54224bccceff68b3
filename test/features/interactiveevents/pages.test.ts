import assert from 'node:assert/strict';
import { test } from 'node:test';
import { createTestApp, type TestApp } from '../../helpers.js';
import { load, tokenHeader } from '../../fixtures.js';
import { eventWorld } from './world.js';

const EVENT_PAGE = '/org/interactiveevents/town-hall/';
const PRESENTATION = '/org/interactiveevents/present/module/town-hall/';

async function world(): Promise<TestApp> {
  const t = await createTestApp();
  await load(t.db, eventWorld());
  return t;
}

function cookiesOf(headers: Record<string, unknown>): { cookie: string; csrf: string } {
  const pairs = ([] as string[]).concat((headers['set-cookie'] as string | string[] | undefined) ?? []).map((c) => c.split(';')[0]);
  return { cookie: pairs.join('; '), csrf: pairs.find((p) => p.startsWith('csrftoken='))?.split('=')[1] ?? '' };
}

test('the module page leads to the event page; moderators also to the presentation screen', async () => {
  const t = await world();
  const visitor = await t.request({ method: 'GET', url: '/org/projects/module/town-hall/' });
  assert.equal(visitor.status, 200);
  assert.ok(visitor.text.includes(`href="${EVENT_PAGE}"`));
  assert.ok(!visitor.text.includes(PRESENTATION));
  const moderator = await t.request({ method: 'GET', url: '/org/projects/module/town-hall/', headers: await tokenHeader(t.db, 3) });
  assert.ok(moderator.text.includes(`href="${PRESENTATION}"`));
});

test('the event page works without JavaScript: ask with the form, like, and the page shows it after the post', async () => {
  const t = await world();
  const page = await t.request({ method: 'GET', url: EVENT_PAGE });
  assert.equal(page.status, 200);
  assert.ok(page.text.includes('data-live-stream="/api/modules/10/interactiveevents/live/"'), 'the page names its live stream for EventSource');
  assert.ok(page.text.includes('Will the park stay open?'));
  assert.ok(!page.text.includes('Hidden question'));
  const { cookie, csrf } = cookiesOf(page.headers);
  assert.match(cookie, /visitorid=/, "visitors get an identity for their likes");
  const form = (fields: Record<string, string>) => new URLSearchParams({ csrfmiddlewaretoken: csrf, ...fields }).toString();
  const headers = { cookie, 'content-type': 'application/x-www-form-urlencoded' };

  const missing = await t.request({ method: 'POST', url: `${EVENT_PAGE}questions/`, headers, payload: form({ text: 'No affiliation chosen', category: '' }) });
  assert.equal(missing.status, 400);
  assert.ok(missing.text.includes('Please choose your affiliation.'));
  assert.ok(missing.text.includes('No affiliation chosen'), 'the form comes back with the text');

  const asked = await t.request({ method: 'POST', url: `${EVENT_PAGE}questions/`, headers, payload: form({ text: 'Asked from a phone without scripts', category: '12' }) });
  assert.equal(asked.status, 303);
  const liked = await t.request({ method: 'POST', url: `${EVENT_PAGE}questions/1/like/`, headers, payload: form({ value: 'true' }) });
  assert.equal(liked.status, 303);
  const after = await t.request({ method: 'GET', url: EVENT_PAGE, headers: { cookie } });
  assert.ok(after.text.includes('Asked from a phone without scripts'));
  assert.ok(after.text.includes('data-likes-for="1">1<'));
  assert.ok(after.text.includes('aria-pressed="true"'));
  const forged = await t.request({ method: 'POST', url: `${EVENT_PAGE}questions/`, headers, payload: new URLSearchParams({ text: 'x', category: '11' }).toString() });
  assert.equal(forged.status, 403);
});

test('moderators toggle from the event page, see statistics per affiliation, and open the presentation screen with its QR code', async () => {
  const t = await world();
  const auth = await tokenHeader(t.db, 3);
  const page = await t.request({ method: 'GET', url: EVENT_PAGE, headers: auth });
  assert.ok(page.text.includes('Hidden question'), 'moderators see hidden questions');
  assert.ok(page.text.includes('Statistics'));
  assert.ok(page.text.includes('Show on screen'));
  const { cookie, csrf } = cookiesOf(page.headers);
  const toggled = await t.request({
    method: 'POST',
    url: `${EVENT_PAGE}questions/1/flags/`,
    headers: { ...auth, cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ csrfmiddlewaretoken: csrf, flag: 'is_live', value: 'true' }).toString(),
  });
  assert.equal(toggled.status, 303);
  const screen = await t.request({ method: 'GET', url: PRESENTATION, headers: auth });
  assert.equal(screen.status, 200);
  assert.ok(screen.text.includes('Will the park stay open?'), 'the question on screen');
  assert.ok(screen.text.includes('<svg'), 'the QR code, drawn on the server');
  assert.ok(screen.text.includes(`${t.config.baseUrl}${EVENT_PAGE}`));
  assert.equal((await t.request({ method: 'GET', url: PRESENTATION, headers: await tokenHeader(t.db, 5) })).status, 403);
  assert.equal((await t.request({ method: 'GET', url: PRESENTATION, headers: await tokenHeader(t.db, 6) })).status, 403, 'another organisation’s initiator');
});

test('an answered question leaves the screen: the event page drops its "On screen" badge as the presentation drops it', async () => {
  const t = await world();
  const auth = await tokenHeader(t.db, 3);
  const page = await t.request({ method: 'GET', url: EVENT_PAGE, headers: auth });
  const { cookie, csrf } = cookiesOf(page.headers);
  const flag = (name: string) =>
    t.request({
      method: 'POST',
      url: `${EVENT_PAGE}questions/1/flags/`,
      headers: { ...auth, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ csrfmiddlewaretoken: csrf, flag: name, value: 'true' }).toString(),
    });
  const badge = /<li id="question-1"[^]*?badge-success[^]*?<\/li>/;
  assert.equal((await flag('is_live')).status, 303);
  assert.match((await t.request({ method: 'GET', url: EVENT_PAGE })).text, badge, 'on screen while not answered');
  assert.equal((await flag('is_answered')).status, 303);
  for (const lang of ['en', 'de']) {
    // Answered questions are folded behind a link on the event page (?answered=1, issue 40).
    const visitor = await t.request({ method: 'GET', url: `${EVENT_PAGE}?answered=1`, headers: { 'accept-language': lang } });
    assert.ok(visitor.text.includes('Will the park stay open?'));
    assert.doesNotMatch(visitor.text, /On screen|Auf dem Bildschirm/, lang);
  }
  assert.ok(!(await t.request({ method: 'GET', url: PRESENTATION, headers: auth })).text.includes('Will the park stay open?'));
});
