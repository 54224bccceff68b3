import assert from 'node:assert/strict';
import { test } from 'node:test';
import { eq } from 'drizzle-orm';
import { outbox, users } from '../../../src/db/schema/index.js';
import { basicWorld, load } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';
import { Browser, solvedChallenge } from './client.js';

async function world(overrides: Parameters<typeof createTestApp>[0] = {}) {
  const t = await createTestApp(overrides);
  await load(t.db, basicWorld());
  return t;
}

const fields = (username: string, extra: Record<string, string> = {}) => ({
  username,
  email: `${username}@example.org`,
  password1: 'a-long-secret',
  password2: 'a-long-secret',
  terms_of_use: 'on',
  ...extra,
});

const accountOf = async (t: Awaited<ReturnType<typeof world>>, username: string) => (await t.db.select().from(users).where(eq(users.username, username)))[0];

/** The no-script question on the sign-up page: its token and the sum asked for. */
function question(html: string) {
  const token = /name="challenge_token" value="([^"]+)"/.exec(html)?.[1];
  const sum = /(?:what is|Was ist) (\d+) plus (\d+)\?/.exec(html);
  assert.ok(token && sum, 'the page asks the no-script question');
  return { token, answer: String(Number(sum[1]) + Number(sum[2])) };
}

test('the sign-up page carries the self-hosted widget, a no-script question and a honeypot no person reaches', async () => {
  const t = await world();
  const browser = new Browser(t.app);
  const page = (await browser.get('/accounts/signup/')).text;
  assert.match(page, /<altcha-widget challenge="\/challenge\/" name="altcha" auto="onload" language="en"/);
  assert.match(page, /<script src="\/static\/altcha\/altcha.js" defer/);
  assert.doesNotMatch(page, /<script src="https?:/, 'no script from elsewhere');
  assert.match(page, /<noscript>.*Spam check: what is \d+ plus \d+\?/s);
  assert.match(page, /<div class="honeypot" aria-hidden="true"><label for="id_website">Leave this field empty \(for robots only\)<\/label><input type="text" id="id_website" name="website" tabindex="-1" autocomplete="off"/);
  for (const file of ['altcha.js', 'altcha.css', 'sha-worker.js', 'de.js']) assert.equal((await browser.get(`/static/altcha/${file}`)).status, 200, file);
  // '/static/altcha/../../package.json' is '/package.json' once resolved: an address of a page (301 to '/package.json/'), never the file.
  const outside = await browser.get('/static/altcha/../../package.json');
  assert.equal(outside.status === 301 ? (await browser.get(String(outside.headers.location))).status : outside.status, 404);
  assert.equal((await browser.get('/static/altcha-setup.js')).status, 200);
  const challenge = await t.request({ method: 'GET', url: '/challenge/' });
  assert.equal(challenge.headers['cache-control'], 'no-store');
  assert.match(JSON.stringify(challenge.body), /"algorithm":"SHA-256".*"signature":"/);
  const german = new Browser(t.app, { 'accept-language': 'de' });
  assert.match((await german.get('/accounts/signup/')).text, /Spam-Schutz: Was ist \d+ plus \d+\?.*Dieses Feld leer lassen/s);
});

test('a sign-up without a solved challenge, with a forged or a replayed one is refused beside the check; nothing is created', async () => {
  const t = await world();
  const browser = new Browser(t.app);
  await browser.get('/accounts/signup/');
  const none = await browser.post('/accounts/signup/', fields('nobody', { altcha: '' }));
  assert.equal(none.status, 400);
  assert.match(none.text, /id="id_challenge_errors"><li>The spam check was not passed\. Please try again\./);
  assert.match(none.text, /value="nobody"/, 'the form keeps what was typed');
  const forged = Buffer.from(JSON.stringify({ challenge: { parameters: { algorithm: 'SHA-256', nonce: 'x', expiresAt: 9e9 }, signature: 'x' }, solution: { counter: 1, derivedKey: '00' } })).toString('base64');
  assert.equal((await browser.post('/accounts/signup/', fields('forger', { altcha: forged }))).status, 400);
  assert.equal((await browser.post('/accounts/signup/', fields('junk', { altcha: 'not base64 json' }))).status, 400);
  const solved = await solvedChallenge(t.app);
  assert.equal((await browser.post('/accounts/signup/', fields('honest', { altcha: solved }))).status, 200);
  assert.ok(await accountOf(t, 'honest'));
  const replayed = await browser.post('/accounts/signup/', fields('replayer', { altcha: solved }));
  assert.equal(replayed.status, 400, 'a solution counts once');
  for (const name of ['nobody', 'forger', 'junk', 'replayer']) assert.equal(await accountOf(t, name), undefined, name);
});

test('without JavaScript the sum is answered instead, in English and German; a wrong sum or a reused question is refused', async () => {
  const t = await world();
  const browser = new Browser(t.app);
  const asked = question((await browser.get('/accounts/signup/')).text);
  const wrong = await browser.post('/accounts/signup/', fields('guesser', { challenge_token: asked.token, challenge_answer: String(Number(asked.answer) + 1) }));
  assert.equal(wrong.status, 400);
  assert.match(wrong.text, /The spam check was not passed/);
  const right = await browser.post('/accounts/signup/', fields('no-script', { challenge_token: asked.token, challenge_answer: asked.answer }));
  assert.equal(right.status, 200);
  assert.match(right.text, /We have sent an e-mail to you for verification/);
  assert.ok(await accountOf(t, 'no-script'));
  assert.equal((await browser.post('/accounts/signup/', fields('again', { challenge_token: asked.token, challenge_answer: asked.answer }))).status, 400, 'the question counts once');
  const german = new Browser(t.app, { 'accept-language': 'de' });
  const gefragt = question((await german.get('/accounts/signup/')).text);
  const falsch = await german.post('/accounts/signup/', fields('rater', { challenge_token: gefragt.token, challenge_answer: '0' }));
  assert.match(falsch.text, /Der Spam-Schutz wurde nicht bestanden/);
  assert.equal((await german.post('/accounts/signup/', fields('ohnejs', { challenge_token: gefragt.token, challenge_answer: gefragt.answer }))).status, 200);
  assert.ok(await accountOf(t, 'ohnejs'));
});

test('a filled-in honeypot gets the usual answer and nothing happens', async () => {
  const t = await world();
  const mails = (await t.db.select().from(outbox)).length;
  const answer = await new Browser(t.app).post('/accounts/signup/', fields('robot', { website: 'http://spam.example' }));
  assert.equal(answer.status, 200);
  assert.match(answer.text, /We have sent an e-mail to you for verification/);
  assert.equal(await accountOf(t, 'robot'), undefined);
  assert.equal((await t.db.select().from(outbox)).length, mails, 'no mail');
});

test('sign-ups are limited per e-mail address and per client IP, with a message and Retry-After', async () => {
  const t = await world({ signupLimitPerIp: 5 });
  const browser = new Browser(t.app, { 'x-test': 'limits' });
  // The same address: three tries an hour (the first creates the account, the others answer alike).
  for (let i = 0; i < 3; i++) assert.equal((await browser.post('/accounts/signup/', fields(`same${i}`, { email: 'same@example.org' }))).status, 200);
  const fourth = await browser.post('/accounts/signup/', fields('same3', { email: 'Same@Example.org' }));
  assert.equal(fourth.status, 429);
  assert.match(fourth.text, /Too many sign-ups from here\. Please try again later\./);
  assert.ok(Number(fourth.headers['retry-after']) > 0);
  // The same IP has tried four times (the refused fourth counts too): a fifth passes, a sixth is refused.
  assert.equal((await browser.post('/accounts/signup/', fields('other1'))).status, 200);
  const sixth = await browser.post('/accounts/signup/', fields('other2'));
  assert.equal(sixth.status, 429);
  assert.equal(await accountOf(t, 'other2'), undefined);
  const german = await new Browser(t.app, { 'accept-language': 'de' }).post('/accounts/signup/', fields('other3'));
  assert.match(german.text, /Zu viele Registrierungen von hier/);
});
