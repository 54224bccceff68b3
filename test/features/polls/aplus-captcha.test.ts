import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { polls, pollVotes } from '../../../src/features/polls/schema.js';
import { solvedChallenge } from '../../me/accounts/client.js';
import { ballot, pollApp } from './world.js';

/**
 * Issue 38, item 6: adhocracy+'s poll widget votes unregistered with `captcha` — what its captcha
 * module's `renderProcaptcha` handed it. Built for Allmende that module is /static/prosopo-altcha.js,
 * which hands over Allmende's solved ALTCHA payload; a Prosopo token or "" is refused.
 */
test("the a+ poll widget's unregistered ballot counts with Allmende's solved challenge only; the stand-in for Prosopo is served", async () => {
  const t = await pollApp();
  await t.db.update(polls).set({ allowUnregisteredUsers: true }).where(eq(polls.id, 1));
  // The request as the widget sends it (a4's api.js: jQuery, JSON, the X-CSRFToken header from the cookie, here without one).
  const vote = (captcha: string) =>
    t.request({ method: 'POST', url: '/api/polls/1/vote/', headers: { 'content-type': 'application/json; charset=utf-8', 'x-requested-with': 'XMLHttpRequest', 'x-csrftoken': 'undefined' }, payload: JSON.stringify({ ...ballot([2]), captcha }) });
  const prosopoToken = 'eyJjb21taXQiOnsiaWQiOiIweDEyMyJ9LCJwcm92aWRlciI6InByb3NvcG8ifQ';
  assert.deepEqual([(await vote('')).status, (await vote('')).body], [400, ['Please complete the captcha.']], 'a+ without a captcha');
  assert.deepEqual([(await vote(prosopoToken)).status, (await vote(prosopoToken)).body], [400, ['Captcha verification failed. Please try again.']]);
  assert.equal((await t.db.select().from(pollVotes)).length, 0, 'nothing counted without a challenge');
  const counted = await vote(await solvedChallenge(t.app));
  assert.equal(counted.status, 201, counted.text);
  assert.equal((await t.db.select().from(pollVotes)).length, 2);

  const shim = await t.request({ method: 'GET', url: '/static/prosopo-altcha.js' });
  assert.equal(shim.status, 200);
  assert.match(String(shim.headers['content-type']), /javascript/);
  assert.match(shim.text, /export function renderProcaptcha\(container, options\)/);
  assert.match(shim.text, /'\/challenge\/'/);
});
