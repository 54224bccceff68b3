import assert from 'node:assert/strict';
import { test } from 'node:test';
import { asc, eq } from 'drizzle-orm';
import { reports, users } from '../../../src/db/schema/index.js';
import { Browser } from '../../me/accounts/client.js';
import { basicWorld, load, tokenHeader } from '../../fixtures.js';
import { createTestApp } from '../../helpers.js';

const LIST = '/userdashboard/moderation/';
const DETAIL = '/userdashboard/moderation/detail/project/';
const HANDLE = `${DETAIL}reports/`;

/** basicWorld with idea 1 reported twice, idea 2 not, comment 1 reported, and a second organisation's reported idea 3. */
async function world() {
  const t = await createTestApp();
  const base = basicWorld();
  await load(t.db, {
    ...base,
    organisations: [...(base.organisations ?? []), { id: 2, slug: 'other-org', name: 'Other', initiators: [6] }],
    projects: [...(base.projects ?? []), { id: 2, slug: 'foreign', name: 'Foreign', organisation: 2 }],
    modules: [...(base.modules ?? []), { id: 2, project: 2, name: 'Foreign ideas', phases: [] }],
    ideas: [
      { id: 1, module: 1, creator: 5, name: 'Paint the bridge pink', description: 'x', category: 1, created: '2024-03-05T14:07:00Z' },
      { id: 2, module: 1, creator: 5, name: 'Quiet idea', description: 'y', category: 1 },
      { id: 3, module: 2, creator: 6, name: 'Foreign idea', description: 'z' },
    ],
    comments: [{ id: 1, creator: 5, target: { type: 'idea', id: 2 }, comment: 'Rude words' }],
    reports: [
      { creator: 4, target: { type: 'idea', id: 1 }, description: 'Advertising\nfor a paint shop' },
      { creator: 6, target: { type: 'idea', id: 1 }, description: 'Spam' },
      { creator: 4, target: { type: 'comment', id: 1 }, description: 'Insulting' },
      { creator: 4, target: { type: 'idea', id: 3 }, description: 'Elsewhere' },
    ],
  });
  const as = async (username: string, headers: Record<string, string> = {}) => {
    const browser = new Browser(t.app, headers);
    assert.equal((await browser.login(username, `${username}-password`)).status, 302);
    return browser;
  };
  return { ...t, as };
}

test('reported ideas reach the moderation queue beside reported comments, with each reason and reporter', async () => {
  const { as, db } = await world();
  const moderator = await as('moderator');
  assert.match((await moderator.get(LIST)).text, /1 reported idea/);
  const page = await moderator.get(DETAIL);
  assert.equal(page.status, 200);
  assert.match(page.text, /<h2 id="reported-ideas-heading">Reported ideas<\/h2>/);
  assert.match(page.text, /<a href="\/org\/ideas\/2024-00001\/">Paint the bridge pink<\/a>[\s\S]*2 reports[\s\S]*<strong>member<\/strong>: <span class="pre-line">Advertising\nfor a paint shop<\/span>[\s\S]*<strong>other<\/strong>: <span class="pre-line">Spam<\/span>/);
  assert.match(page.text, /href="\/org\/ideas\/2024-00001\/moderate\/"/);
  const section = /<section aria-labelledby="reported-ideas-heading">[\s\S]*?<\/section>/.exec(page.text)?.[0] ?? '';
  assert.doesNotMatch(section, /Quiet idea|Foreign idea/, 'only reported ideas of this project');
  assert.match((await moderator.get(`${DETAIL}?filter=reported`)).text, /Paint the bridge pink/);
  assert.doesNotMatch((await moderator.get(`${DETAIL}?filter=unread`)).text, /Reported ideas/);
  await db.update(users).set({ language: 'de' }).where(eq(users.id, 3));
  const german = await as('moderator');
  assert.match((await german.get(DETAIL)).text, /Gemeldete Ideen[\s\S]*Meldungen als erledigt markieren/);
});

test('a moderator marks the reports of an idea or a comment as handled; they leave the "Reported" filter, the queue keeps its place', async () => {
  const { as, db, app } = await world();
  const moderator = await as('moderator');
  assert.equal((await moderator.post(HANDLE, { kind: 'idea', id: '1', filter: 'reported' }, false)).status, 403, 'CSRF');
  assert.equal((await moderator.post(HANDLE, { kind: 'idea', id: '3' })).status, 404, "another project's idea");
  assert.equal((await moderator.post(HANDLE, { kind: 'idea', id: '2' })).status, 404, 'an idea without open reports');
  assert.equal((await moderator.post(HANDLE, { kind: 'poll', id: '1' })).status, 400);
  assert.equal((await (await as('user')).post(HANDLE, { kind: 'idea', id: '1' })).status, 403);

  const handled = await moderator.post(HANDLE, { kind: 'idea', id: '1', filter: 'reported', page: '1' });
  assert.equal(handled.location, `${DETAIL}?filter=reported#idea-1`);
  const after = await moderator.get(`${DETAIL}?filter=reported`);
  assert.match(after.text, /The reports were marked as handled./);
  assert.doesNotMatch(after.text, /Paint the bridge pink/);
  assert.match(after.text, /Rude words/, 'the reported comment is still there');

  assert.equal((await moderator.post(HANDLE, { kind: 'comment', id: '1', filter: 'reported' })).location, `${DETAIL}?filter=reported#comment-1`);
  const none = await moderator.get(`${DETAIL}?filter=reported`);
  assert.doesNotMatch(none.text, /Rude words/);
  const all = await moderator.get(DETAIL);
  assert.match(all.text, /Rude words[\s\S]*Insulting<\/span> <span class="badge">handled<\/span>/, 'the report stays visible, marked handled');
  assert.doesNotMatch((await moderator.get(LIST)).text, /reported idea/);

  const rows = await db.select().from(reports).orderBy(asc(reports.id));
  assert.deepEqual(rows.map((r) => [r.handledAt !== null, r.handledById]), [[true, 3], [true, 3], [true, 3], [false, null]]);
  const api = await app.inject({ method: 'GET', url: '/api/userdashboard/moderation/1/comments/?has_reports=true&is_reviewed=all', headers: await tokenHeader(db, 3) });
  assert.deepEqual(api.json(), [], 'the API counts open reports only');
});

test('the back-office lists items with open reports and marks them handled', async () => {
  const { as } = await world();
  const admin = await as('admin');
  const list = await admin.get('/backoffice/reports/');
  assert.match(list.text, /3 reported items/);
  assert.equal((await admin.post('/backoffice/reports/', { kind: 'idea', id: '3' }, false)).status, 403, 'CSRF');
  assert.equal((await (await as('moderator')).post('/backoffice/reports/', { kind: 'idea', id: '3' })).status, 403);
  const done = await admin.post('/backoffice/reports/', { kind: 'idea', id: '3' });
  assert.equal(done.location, '/backoffice/reports/');
  const after = await admin.get('/backoffice/reports/');
  assert.match(after.text, /The reports were marked as handled./);
  assert.match(after.text, /2 reported items/);
  assert.doesNotMatch(after.text, /Foreign idea/);
  assert.equal((await admin.post('/backoffice/reports/', { kind: 'idea', id: '3' })).status, 404, 'nothing open any more');
});
