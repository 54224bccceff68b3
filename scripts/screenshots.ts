/**
 * Renders the dashboard pages and the participation pages (project, module with its idea list,
 * idea, idea form, moderation queue, idea moderation), the initiator dashboard (project list,
 * basic settings, module phases, publishing refused) and the back-office's organisations, en and
 * de, with Debian's Chromium into docs/*.png: `npx tsx scripts/screenshots.ts`. Uses an in-memory
 * database with sample data.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { buildApp } from '../src/app.js';
import type { Fixture } from '../src/cli/fixture-schema.js';
import { loadFixture } from '../src/cli/loaddata.js';
import { testConfig } from '../src/config.js';
import { openMemoryPglite } from '../src/db/client.js';
import { eq } from 'drizzle-orm';
import { ideas } from '../src/features/ideas/schema.js';
import { ideaPath } from '../src/core/urls.js';

const day = 24 * 3600 * 1000;
const at = (days: number) => new Date(Date.now() + days * day).toISOString();

function sampleWorld(): Fixture {
  const names = ['alice', 'bruno', 'chiara', 'dara', 'moderator', 'ines', 'admin'];
  const project = (id: number, name: string, description: string, start: string | null, end: string | null, access: 'PUBLIC' | 'SEMIPUBLIC' = 'PUBLIC') => ({
    project: { id, slug: `project-${id}`, name, description, organisation: 1 + (id % 2), access, moderators: [5] },
    module: {
      id,
      project: id,
      name: 'Ideas',
      phases: [{ type: 'a4_candy_ideas:collect', start_date: start, end_date: end }],
      categories: [
        { id: id * 10 + 1, name: 'Greenery' },
        { id: id * 10 + 2, name: 'Seating' },
      ],
    },
  });
  const projects = [
    project(1, 'A greener market square', 'Where should new trees and benches go?', at(-10), at(12)),
    project(2, 'Cycling through the old town', 'Collect ideas for safer bike lanes.', at(-3), at(40), 'SEMIPUBLIC'),
    project(3, 'Youth centre opening hours', 'Tell us when you would come.', at(5), at(30)),
    project(4, 'Library of things', 'The results are in.', at(-60), at(-20)),
  ];
  // A draft the initiator (ines) is still setting up: its information, the module's description and the rating phase's dates are missing.
  const draft = project(5, 'Playground renewal', 'Which play equipment should the new playground get?', at(3), at(20));
  return {
    users: names.map((username, i) => ({ id: i + 1, username, email: `${username}@example.org`, password: `${username}-password`, language: 'en' as const, date_joined: '2024-02-01T10:00:00Z', is_superuser: username === 'admin' })),
    organisations: [
      { id: 1, slug: 'riverside', name: 'City of Riverside', initiators: [] },
      { id: 2, slug: 'neighbours', name: 'Neighbourhood Forum', initiators: [6] },
    ],
    projects: [...projects.map((p) => p.project), { ...draft.project, is_draft: true, access: 'PRIVATE' as const, moderators: [6] }],
    modules: [
      ...projects.map((p) => p.module),
      {
        ...draft.module,
        name: 'Idea Challenge',
        blueprint_type: 'IC',
        phases: [
          { type: 'a4_candy_ideas:collect', name: 'Collect phase', description: 'Create new ideas and comment on them.', start_date: at(3), end_date: at(20) },
          { type: 'a4_candy_ideas:rating', name: 'Rating phase', description: 'Rate the collected ideas (pro and contra).', start_date: null, end_date: null },
        ],
      },
    ],
    ideas: [
      { id: 1, module: 1, creator: 1, name: 'Shade for the playground', description: '<p>Two big <strong>plane trees</strong> by the sandpit.</p>', category: 11, created: at(-8) },
      { id: 3, module: 1, creator: 2, name: 'Benches around the fountain', description: 'Somewhere to sit in the sun', category: 12, created: at(-6) },
      { id: 4, module: 1, creator: 3, name: 'Flower beds instead of parking', description: 'Colour for the square', category: 11, created: at(-4) },
      { id: 2, module: 2, creator: 1, name: 'Bike parking at the station', description: 'Covered racks', created: at(-2) },
    ],
    comments: [
      { id: 1, creator: 2, target: { type: 'idea', id: 1 }, comment: 'Yes! The kids need shade in summer.', created: at(-7) },
      { id: 2, creator: 1, target: { type: 'idea', id: 2 }, comment: 'Racks should be covered.', created: at(-1.9) },
      { id: 3, creator: 3, target: { type: 'comment', id: 2 }, comment: 'And lit at night, please.', created: at(-1.5) },
      { id: 4, creator: 4, target: { type: 'idea', id: 2 }, comment: 'I would use them every day.', created: at(-0.5) },
    ],
    comment_feedback: [{ comment: 2, creator: 5, feedback_text: 'Thank you, we passed this on.', created: at(-1) }],
    follows: [
      { creator: 1, project: 3 },
      { creator: 1, project: 4 },
    ],
  };
}

/** A new window in `lang`, logged in as `login`. */
async function loggedIn(browser: Browser, base: string, login: string, lang: 'en' | 'de'): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: lang });
  const page = await context.newPage();
  await page.goto(`${base}/accounts/login/`);
  await page.fill('#id_login', login);
  await page.fill('#id_password', `${login}-password`);
  await page.locator('main button[type=submit]').click();
  await page.waitForURL(`${base}/userdashboard/overview/`);
  // Logging in sets the user's language; the screenshot's language wins.
  await context.addCookies([{ name: 'language', value: lang, url: base }]);
  return { context, page };
}

/** The initiator dashboard and the back-office (docs/operations.md walks through them). */
async function dashboardShots(browser: Browser, base: string, lang: 'en' | 'de') {
  const { context, page } = await loggedIn(browser, base, 'ines', lang);
  const shots: [string, string][] = [
    ['dashboard-projects', '/neighbours/dashboard/projects/?is_archived=all'],
    ['dashboard-basic', '/neighbours/dashboard/projects/project-5/basic/'],
    ['dashboard-phases', '/neighbours/dashboard/modules/module-5/phases/'],
  ];
  for (const [name, path] of shots) {
    await page.goto(`${base}${path}`);
    await page.screenshot({ path: `docs/page-${name}-${lang}.png`, fullPage: true });
  }
  await page.goto(`${base}/neighbours/dashboard/projects/project-5/basic/`);
  await page.locator('.publish-box button[type=submit]').first().click();
  await page.locator('[role=alert] .missing-list').waitFor();
  await page.screenshot({ path: `docs/page-dashboard-publish-refused-${lang}.png`, fullPage: true });
  await context.close();
  const operator = await loggedIn(browser, base, 'admin', lang);
  await operator.page.goto(`${base}/backoffice/organisations/`);
  await operator.page.screenshot({ path: `docs/page-backoffice-organisations-${lang}.png`, fullPage: true });
  await operator.context.close();
}

async function main() {
  const dataDir = mkdtempSync(join(tmpdir(), 'allmende-shots-'));
  const database = await openMemoryPglite();
  await database.migrate();
  await loadFixture(database.db, sampleWorld(), { baseDir: process.cwd() });
  await database.db.update(ideas).set({ moderatorStatus: 'CONSIDERATION', moderatorFeedbackText: '<p>We are checking this with the parks department.</p>' }).where(eq(ideas.id, 1));
  const [first] = await database.db.select().from(ideas).where(eq(ideas.id, 1));
  const ideaUrl = ideaPath('neighbours', first.created, first.id);
  const app = await buildApp({ config: testConfig({ dataDir }), database });
  const base = await app.listen({ host: '127.0.0.1', port: 0 });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
  try {
    for (const lang of ['en', 'de'] as const) {
      const context = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: lang });
      await context.addCookies([{ name: 'language', value: lang, url: base }]);
      const page = await context.newPage();
      await page.goto(`${base}/accounts/login/`);
      await page.fill('#id_login', 'alice');
      await page.fill('#id_password', 'alice-password');
      await page.locator('main button[type=submit]').click();
      await page.waitForURL(`${base}/userdashboard/overview/`);
      await context.addCookies([{ name: 'language', value: lang, url: base }]);
      await page.goto(`${base}/userdashboard/overview/`);
      await page.screenshot({ path: `docs/dashboard-overview-${lang}.png`, fullPage: true });
      await page.goto(`${base}/userdashboard/overview/activities/`);
      await page.screenshot({ path: `docs/dashboard-activities-${lang}.png`, fullPage: true });
      const shots: [string, string][] = [
        ['project', '/neighbours/projects/project-1/'],
        ['project-information', '/neighbours/projects/project-1/?tab=information'],
        ['module', '/riverside/projects/module/module-2/'],
        ['idea', ideaUrl],
        ['idea-form', '/neighbours/ideas/create/module/module-1/'],
      ];
      for (const [name, path] of shots) {
        await page.goto(`${base}${path}`);
        await page.screenshot({ path: `docs/page-${name}-${lang}.png`, fullPage: true });
      }
      await context.close();
      const moderation = await browser.newContext({ viewport: { width: 1200, height: 900 }, locale: lang });
      const mod = await moderation.newPage();
      await mod.goto(`${base}/accounts/login/`);
      await mod.fill('#id_login', 'moderator');
      await mod.fill('#id_password', 'moderator-password');
      await mod.locator('main button[type=submit]').click();
      await mod.waitForURL(`${base}/userdashboard/overview/`);
      await moderation.addCookies([{ name: 'language', value: lang, url: base }]);
      for (const [name, path] of [
        ['moderation-queue', '/userdashboard/moderation/detail/project-2/'],
        ['idea-moderate', `${ideaUrl}moderate/`],
      ]) {
        await mod.goto(`${base}${path}`);
        await mod.screenshot({ path: `docs/page-${name}-${lang}.png`, fullPage: true });
      }
      await moderation.close();
      await dashboardShots(browser, base, lang);
    }
  } finally {
    await browser.close();
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
