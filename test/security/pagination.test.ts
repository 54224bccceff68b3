import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { Fixture } from '../../src/cli/fixture-schema.js';
import { modules, projects } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { ideaPath } from '../../src/core/urls.js';
import { Browser } from '../me/accounts/client.js';
import { basicWorldWith, load, tokenHeader } from '../fixtures.js';
import { createTestApp } from '../helpers.js';

/** basicWorld, idea 1 with 51 comments (three API pages of 20, two moderation pages of 50) and 12 more projects (two dashboard pages of 12). */
function world(): Fixture {
  return basicWorldWith({
    projects: Array.from({ length: 12 }, (_, i) => ({ id: i + 2, slug: `p${i + 2}`, name: `Project ${i + 2}`, organisation: 1 })),
    ideas: [{ id: 1, module: 1, creator: 4, name: 'Idea', description: 'An idea' }],
    comments: Array.from({ length: 51 }, (_, i) => ({ id: i + 1, creator: 5, target: { type: 'idea' as const, id: 1 }, comment: `Comment ${i + 1}` })),
  });
}

const NOT_A_PAGE = ['99999999999999999999', '1e3', '-1', '0', 'abc', '1.5', '%00', '9999999'];

test('F12: no page number answers 500: API lists answer 404 "Invalid page.", pages their 404 page', async () => {
  const t = await createTestApp();
  await load(t.db, world());
  const comments = '/api/contenttypes/4/objects/1/comments/';
  const moderation = '/api/userdashboard/moderation/1/comments/?num_of_comments=50&';
  const moderator = await tokenHeader(t.db, 3);
  for (const page of [...NOT_A_PAGE, '4']) {
    const answer = await t.request({ method: 'GET', url: `${comments}?page=${page}` });
    assert.deepEqual([answer.status, answer.body], [404, { detail: 'Invalid page.' }], `comments page=${page}`);
  }
  for (const page of [...NOT_A_PAGE, '3']) {
    const answer = await t.request({ method: 'GET', url: `${moderation}page=${page}`, headers: moderator });
    assert.deepEqual([answer.status, answer.body], [404, { detail: 'Invalid page.' }], `moderation page=${page}`);
  }
  assert.equal((await t.request({ method: 'GET', url: `${comments}?page=3` })).status, 200, 'the last page is there');

  const [idea] = await t.db.select({ created: ideas.created }).from(ideas);
  const [module] = await t.db.select({ slug: modules.slug }).from(modules);
  const browser = new Browser(t.app);
  await browser.login('admin', 'admin-password');
  const pages = [
    (n: string) => `/org/projects/module/${module.slug}/?page=${n}`,
    (n: string) => `/org/projects/project/?page=${n}`,
    (n: string) => `${ideaPath('org', idea.created, 1)}?comment_page=${n}`,
    (n: string) => `/userdashboard/moderation/detail/project/?page=${n}`,
    (n: string) => `/org/dashboard/projects/?page=${n}`,
  ];
  for (const path of pages) {
    assert.equal((await browser.get(path('1'))).status, 200, path('1'));
    for (const page of NOT_A_PAGE) assert.equal((await browser.get(path(page))).status, 404, path(page));
  }
});

test('page links keep the other query parameters of the current URL', async () => {
  const t = await createTestApp();
  await load(t.db, world());
  const api = await t.request({ method: 'GET', url: '/api/contenttypes/4/objects/1/comments/?format=json&page=2' });
  const body = api.body as { next: string; previous: string };
  const absolute = (path: string) => new URL(path, t.config.baseUrl).toString();
  assert.equal(body.next, absolute('/api/contenttypes/4/objects/1/comments/?format=json&page=3'));
  assert.equal(body.previous, absolute('/api/contenttypes/4/objects/1/comments/?format=json'));

  const browser = new Browser(t.app);
  await browser.login('admin', 'admin-password');
  const moderation = await browser.get('/userdashboard/moderation/detail/project/?filter=unread&lang=en');
  const links = (text: string) => [...text.matchAll(/<nav class="pager"[^]*?<\/nav>/g)].join('');
  assert.match(links(moderation.text), /href="\/userdashboard\/moderation\/detail\/project\/\?filter=unread&amp;lang=en&amp;page=2"/);
  const last = await browser.get('/userdashboard/moderation/detail/project/?filter=unread&page=2');
  assert.match(links(last.text), /href="\/userdashboard\/moderation\/detail\/project\/\?filter=unread"/, 'page 1 is the list without page=');
  await t.db.update(projects).set({ name: 'Searched' });
  const dashboard = await browser.get('/org/dashboard/projects/?search=Searched&is_archived=all');
  assert.match(links(dashboard.text), /href="\/org\/dashboard\/projects\/\?search=Searched&amp;is_archived=all&amp;page=2"/);
});
