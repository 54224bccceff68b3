import assert from 'node:assert/strict';
import { Readable } from 'node:stream';
import { test } from 'node:test';
import ExcelJS from 'exceljs';
import { eq } from 'drizzle-orm';
import { modules } from '../../src/db/schema/index.js';
import { ideas } from '../../src/features/ideas/schema.js';
import { EXPORT_BATCH } from '../../src/features/exports/queries.js';
import { Browser } from '../me/accounts/client.js';
import { dashboardApp, dashboardWorld, signedIn } from './world.js';

const EXPORT = '/org/dashboard/modules';

/** The dashboard world with two ideas, comments, a reply, a removed comment and ratings in module 1 (project "project"). */
function exportWorld() {
  const world = dashboardWorld();
  return {
    ...world,
    ideas: [
      { id: 1, module: 1, creator: 4, name: 'More trees', description: '<p>Plant <strong>trees</strong> in the park</p>', category: 2, labels: [1], created: '2026-03-01T10:00:00Z' },
      { id: 2, module: 1, creator: 5, name: '=HYPERLINK("evil")', description: 'Bike lanes, "wide" ones', created: '2026-07-01T10:00:00Z' },
    ],
    comments: [
      { id: 1, creator: 5, target: { type: 'idea' as const, id: 1 }, comment: 'Yes, please', created: '2026-03-02T10:00:00Z' },
      { id: 2, creator: 4, target: { type: 'comment' as const, id: 1 }, comment: 'Thank you', created: '2026-03-03T10:00:00Z' },
      { id: 3, creator: 5, target: { type: 'idea' as const, id: 2 }, comment: 'gone', is_removed: true, created: '2026-07-02T10:00:00Z' },
    ],
    ratings: [
      { creator: 5, target: { type: 'idea' as const, id: 1 }, value: 1 },
      { creator: 3, target: { type: 'idea' as const, id: 1 }, value: 1 },
      { creator: 2, target: { type: 'idea' as const, id: 1 }, value: -1 },
      { creator: 2, target: { type: 'comment' as const, id: 1 }, value: 1 },
    ],
  };
}

async function moduleSlug(browser: Browser) {
  const page = await browser.get('/org/dashboard/projects/project/basic/');
  const match = /href="\/org\/dashboard\/modules\/([^/]+)\/export\/"/.exec(page.text);
  assert.ok(match, 'the dashboard menu links the export of the published module');
  return match[1];
}

async function sheetRows(body: Buffer) {
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.read(Readable.from([body]));
  const sheet = workbook.worksheets[0];
  const rows: unknown[][] = [];
  // exceljs reads empty cells as holes and drops trailing ones: as '' up to the heading's width.
  sheet.eachRow((row) => rows.push(Array.from({ length: sheet.columnCount }, (_, i) => (row.values as unknown[])[i + 1] ?? '')));
  return { name: sheet.name, rows };
}

const csvRows = (body: Buffer) => {
  const text = body.toString('utf8');
  assert.ok(text.startsWith('\uFEFF'), 'CSV starts with a byte order mark');
  return text.slice(1).trimEnd().split('\r\n');
};

test('exports: ideas and comments of a module as xlsx and CSV with the columns of §B16, headings in the user\'s language', async () => {
  const { app } = await dashboardApp(exportWorld());
  const initiator = await signedIn(app, 'initiator');
  const slug = await moduleSlug(initiator);
  const page = await initiator.get(`${EXPORT}/${slug}/export/`);
  assert.equal(page.status, 200);
  assert.match(page.text, /class="sidebar dashboard-menu"/);
  assert.match(page.text, new RegExp(`href="${EXPORT}/${slug}/export/ideas.xlsx"`));

  const xlsx = await initiator.download(`${EXPORT}/${slug}/export/ideas.xlsx`);
  assert.equal(xlsx.status, 200);
  assert.match(String(xlsx.headers['content-type']), /spreadsheetml/);
  assert.match(String(xlsx.headers['content-disposition']), /^attachment; filename="project_ideas_\d{8}T\d{6}\.xlsx"$/);
  const ideaSheet = await sheetRows(xlsx.body);
  assert.equal(ideaSheet.name, 'Ideas');
  assert.deepEqual(ideaSheet.rows, [
    ['Reference No.', 'Link', 'Title', 'Description', 'Category', 'Labels', 'Creator', 'Created', 'Positive ratings', 'Negative ratings', 'Comment count', 'Status', 'Feedback', 'Remark'],
    ['2026-00001', 'http://localhost:80/org/ideas/2026-00001/', 'More trees', 'Plant trees in the park', 'Parks', 'Urgent', 'member', '2026-03-01T11:00:00+01:00', 2, 1, 2, '', '', ''],
    ['2026-00002', 'http://localhost:80/org/ideas/2026-00002/', '=HYPERLINK("evil")', 'Bike lanes, "wide" ones', '', '', 'user', '2026-07-01T12:00:00+02:00', 0, 0, 1, '', '', ''],
  ]);

  const csv = csvRows((await initiator.download(`${EXPORT}/${slug}/export/ideas.csv`)).body);
  assert.equal(csv.length, 3);
  assert.equal(csv[0], 'Reference No.,Link,Title,Description,Category,Labels,Creator,Created,Positive ratings,Negative ratings,Comment count,Status,Feedback,Remark');
  assert.equal(csv[2], `2026-00002,http://localhost:80/org/ideas/2026-00002/,"'=HYPERLINK(""evil"")","Bike lanes, ""wide"" ones",,,user,2026-07-01T12:00:00+02:00,0,0,1,,,`);

  const comments = await sheetRows((await initiator.download(`${EXPORT}/${slug}/export/comments.xlsx`)).body);
  const link = (idea: string, id: number) => `http://localhost:80/org/ideas/${idea}/?comment=${id}`;
  assert.deepEqual(comments.rows, [
    ['ID', 'Comment', 'Created', 'Link', 'Creator', 'Positive ratings', 'Negative ratings', 'Reply to Reference', 'Reply to Comment', 'Blocked'],
    [1, 'Yes, please', '2026-03-02T11:00:00+01:00', link('2026-00001', 1), 'user', 1, 0, '2026-00001', '', 'no'],
    [2, 'Thank you', '2026-03-03T11:00:00+01:00', link('2026-00001', 2), 'member', 0, 0, '2026-00001', 1, 'no'],
    [3, '', '2026-07-02T12:00:00+02:00', link('2026-00002', 3), 'user', 0, 0, '2026-00002', '', 'no'],
  ]);
  const commentCsv = await initiator.download(`${EXPORT}/${slug}/export/comments.csv`);
  assert.match(String(commentCsv.headers['content-type']), /^text\/csv/);
  assert.equal(csvRows(commentCsv.body)[2], `2,Thank you,2026-03-03T11:00:00+01:00,${link('2026-00001', 2)},member,0,0,2026-00001,1,no`);

  const german = await signedIn(app, 'coinit');
  const de = await sheetRows((await german.download(`${EXPORT}/${slug}/export/ideas.xlsx`)).body);
  assert.equal(de.name, 'Ideen');
  assert.equal(de.rows[0][0], 'Referenznummer');
});

test('exports: moderators, initiators and superusers may export; everyone else is refused; bad ids never give 5xx', async () => {
  const { app } = await dashboardApp(exportWorld());
  const slug = await moduleSlug(await signedIn(app, 'initiator'));
  const page = `${EXPORT}/${slug}/export/`;
  const file = `${page}comments.csv`;
  const anonymous = new Browser(app);
  assert.equal((await anonymous.get(file)).status, 302);
  assert.match((await anonymous.get(page)).location ?? '', /^\/accounts\/login\/\?next=/);
  const cells: [string, number][] = [['admin', 200], ['initiator', 200], ['coinit', 200], ['moderator', 200], ['member', 403], ['user', 403], ['other', 403]];
  for (const [username, status] of cells) {
    const browser = await signedIn(app, username);
    assert.equal((await browser.get(page)).status, status, `${username} opens the export page`);
    assert.equal((await browser.download(file)).status, status, `${username} downloads`);
  }
  const moderatorPage = await (await signedIn(app, 'moderator')).get(page);
  assert.doesNotMatch(moderatorPage.text, /dashboard-menu/, 'moderators see the export without the project dashboard (§B1, E9)');
  const admin = await signedIn(app, 'admin');
  for (const url of [`/other-org/dashboard/modules/${slug}/export/`, `${EXPORT}/nothing/export/ideas.csv`, `${EXPORT}/${slug}/export/ideas.pdf`, `${EXPORT}/${'x'.repeat(600)}/export/`, `${EXPORT}/%00/export/`, `${EXPORT}/${slug}/export/..%2f..%2fetc`]) {
    const status = (await admin.get(url)).status;
    assert.ok(status >= 400 && status < 500, `${url}: ${status}`);
  }
});

test('exports: a module larger than one batch comes out whole, each idea once', async () => {
  const { app, db } = await dashboardApp(exportWorld());
  const count = EXPORT_BATCH * 2 + 7;
  await db.insert(ideas).values(Array.from({ length: count }, (_, i) => ({ moduleId: 1, creatorId: 5, name: `Idea ${i}`, description: 'x' })));
  const initiator = await signedIn(app, 'initiator');
  const slug = await moduleSlug(initiator);
  const csv = csvRows((await initiator.download(`${EXPORT}/${slug}/export/ideas.csv`)).body);
  assert.equal(csv.length, 1 + 2 + count);
  assert.equal(new Set(csv.map((line) => line.split(',')[0])).size, csv.length);
  const xlsx = await sheetRows((await initiator.download(`${EXPORT}/${slug}/export/ideas.xlsx`)).body);
  assert.equal(xlsx.rows.length, 1 + 2 + count);
});

test('exports: moderators find the export where they work (moderation page, module page); it is offered only for added modules of published projects', async () => {
  const { app, db } = await dashboardApp(exportWorld());
  const slug = await moduleSlug(await signedIn(app, 'initiator'));
  const link = `href="${EXPORT}/${slug}/export/"`;
  const MODULE_PAGE = `/org/projects/module/${slug}/`;
  const MODERATION = '/userdashboard/moderation/detail/project/';
  const moderator = await signedIn(app, 'moderator');
  const moderation = await moderator.get(MODERATION);
  assert.equal(moderation.status, 200);
  assert.ok(moderation.text.includes(link), 'the moderation page links the export');
  assert.match(moderation.text, /Export the contributions of Ideas/);
  assert.ok((await moderator.get(MODULE_PAGE)).text.includes(link), 'the module page links the export for its moderators');
  assert.match((await (await signedIn(app, 'coinit')).get(MODULE_PAGE)).text, /Beiträge exportieren/, 'German for a German-speaking initiator');
  assert.ok((await (await signedIn(app, 'initiator')).get(MODULE_PAGE)).text.includes(link));
  for (const username of ['member', 'user', 'other']) {
    assert.ok(!(await (await signedIn(app, username)).get(MODULE_PAGE)).text.includes(link), `${username} sees no export link`);
  }
  assert.ok(!(await new Browser(app).get(MODULE_PAGE)).text.includes(link), 'visitors see no export link');
  await db.update(modules).set({ isDraft: true }).where(eq(modules.slug, slug));
  assert.ok(!(await moderator.get(MODERATION)).text.includes(link), 'a hidden module offers no export');
  assert.ok(!(await moderator.get(MODULE_PAGE)).text.includes(link));
  assert.equal((await moderator.get(`${EXPORT}/${slug}/export/`)).status, 404);
  assert.equal((await (await signedIn(app, 'initiator')).download(`${EXPORT}/${slug}/export/ideas.csv`)).status, 404);
});
