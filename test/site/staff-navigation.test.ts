import assert from 'node:assert/strict';
import { test } from 'node:test';
import { Browser } from '../me/accounts/client.js';
import { dashboardApp, signedIn } from '../manage/world.js';

const header = (html: string) => /<header class="site-header">.*<\/header>/s.exec(html)?.[0] ?? '';

test('the page header leads initiators to their dashboard and moderators to their queue; others see neither', async () => {
  const { app } = await dashboardApp();
  const dashboard = /<a href="\/org\/dashboard\/projects\/">Dashboard<\/a>/;
  const queue = /<a href="\/userdashboard\/moderation\/">Moderation<\/a>/;
  const initiator = header((await (await signedIn(app, 'initiator')).get('/')).text);
  assert.match(initiator, dashboard);
  assert.match(initiator, queue, 'initiators moderate their organisation\'s projects');
  const moderator = header((await (await signedIn(app, 'moderator')).get('/org/')).text);
  assert.match(moderator, queue);
  assert.doesNotMatch(moderator, /dashboard\/projects/);
  const other = header((await (await signedIn(app, 'other')).get('/')).text);
  assert.match(other, /<a href="\/other-org\/dashboard\/projects\/">Dashboard<\/a>/, 'the dashboard of her own organisation');
  for (const username of ['user', 'member']) {
    const plain = header((await (await signedIn(app, username)).get('/')).text);
    assert.doesNotMatch(plain, /Dashboard<\/a>|Moderation<\/a>/, username);
  }
  assert.doesNotMatch(header((await new Browser(app).get('/')).text), /Dashboard<\/a>|Moderation<\/a>/);
  const german = await signedIn(app, 'coinit');
  assert.match(header((await german.get('/')).text), /<a href="\/org\/dashboard\/projects\/">Dashboard<\/a>.*<a href="\/userdashboard\/moderation\/">Moderation<\/a>/s);
  // The links lead where they say.
  assert.equal((await (await signedIn(app, 'initiator')).get('/org/dashboard/projects/')).status, 200);
  assert.equal((await (await signedIn(app, 'moderator')).get('/userdashboard/moderation/')).status, 200);
});

test('the footer links the API documentation, which is there', async () => {
  const { app } = await dashboardApp();
  const visitor = new Browser(app);
  assert.match((await visitor.get('/')).text, /<footer class="site-footer">.*<a href="\/api\/docs\/">API documentation<\/a>/s);
  assert.match((await new Browser(app, { 'accept-language': 'de' }).get('/')).text, /<a href="\/api\/docs\/">API-Dokumentation<\/a>/);
  const docs = await visitor.get('/api/docs/');
  assert.ok(docs.status === 200 || docs.location?.startsWith('/api/docs'), `status ${docs.status}`);
});
