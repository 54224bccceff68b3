import { after, before } from 'node:test';
import type { Browser } from 'playwright-core';
import type { TestApp } from '../../helpers.js';
import { budgetApp } from './world.js';
import { chromiumMissing, launchChromium } from '../../chromium.js';

/** The budgeting world served on a free port, and the Chromium that the budgeting browser tests drive (launched before, closed after the file's tests). */
export interface BudgetBrowser {
  t: TestApp;
  base: string;
  chromium: Browser;
}

/** Without Chromium the world is empty (the tests skip). Call once at a test file's top level. */
export async function budgetBrowser(): Promise<BudgetBrowser> {
  const world = {} as BudgetBrowser;
  if (!chromiumMissing) {
    world.t = await budgetApp();
    world.base = await world.t.app.listen({ host: '127.0.0.1', port: 0 });
  }
  before(async () => {
    if (!chromiumMissing) world.chromium = await launchChromium();
  });
  after(async () => {
    await world.chromium?.close();
  });
  return world;
}
