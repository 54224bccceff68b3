import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, Page } from 'playwright-core';
import { chromium } from 'playwright-core';

/**
 * Debian's Chromium; browser tests skip (with this reason) when it is missing — except with CI=true,
 * where a missing Chromium fails the run (`.ci/run` installs it). Never downloads a browser.
 */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(CHROMIUM_PATH) && process.env.CI === 'true') throw new Error(`CI=true but Chromium is missing at ${CHROMIUM_PATH}: browser tests must run in CI (apt-get install -y chromium)`);
export const chromiumMissing = existsSync(CHROMIUM_PATH) ? false : `Chromium not found at ${CHROMIUM_PATH} (apt-get install -y chromium); browser tests skipped`;

export async function launchChromium(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

export interface AxeViolation {
  id: string;
  help: string;
  nodes: { target: string[] }[];
}

/** Runs axe-core (WCAG 2.1 A and AA rules) on the page; returns the violations. */
export async function axeViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(axeSource);
  return page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run: (ctx: unknown, options: unknown) => Promise<{ violations: AxeViolation[] }> } }).axe;
    const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } });
    return result.violations.map((v) => ({ id: v.id, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
}

/** What has the keyboard focus: its tag, id, name and text, and whether a focus ring shows (`:focus-visible` with an outline or a shadow). */
export function focused(page: Page) {
  return page.evaluate(() => {
    const doc = (globalThis as unknown as { document: { activeElement: Element | null } }).document;
    const el = doc.activeElement as (Element & { name?: string; textContent: string | null }) | null;
    const style = el ? (globalThis as unknown as { getComputedStyle(e: Element): { outlineStyle: string; outlineWidth: string; boxShadow: string } }).getComputedStyle(el) : null;
    const ring = Boolean(style && ((style.outlineStyle !== 'none' && style.outlineWidth !== '0px') || style.boxShadow !== 'none'));
    return { tag: el?.tagName.toLowerCase() ?? '', id: el?.id ?? '', name: el?.name ?? '', text: (el?.textContent ?? '').trim(), visible: Boolean(el?.matches(':focus-visible')) && ring };
  });
}

/** Presses Tab until the focus is on what `wanted` accepts; every stop on the way must show its focus. */
export async function tabTo(page: Page, wanted: (f: Awaited<ReturnType<typeof focused>>) => boolean, what: string) {
  for (let stop = 0; stop < 120; stop++) {
    await page.keyboard.press('Tab');
    const f = await focused(page);
    assert.ok(f.visible, `${what}: no visible focus on ${JSON.stringify(f)}`);
    if (wanted(f)) return;
  }
  assert.fail(`${what}: not reached with Tab`);
}

/** A page in a fresh context (its own cookies) speaking `locale`. */
export async function newLocalePage(browser: Browser, locale = 'en-US'): Promise<Page> {
  const context = await browser.newContext({ locale, extraHTTPHeaders: { 'accept-language': locale } });
  // Playwright's own bound: a loaded CI machine (20 browser files beside the PostgreSQL pass) once
  // took longer than 10 s for a step of the first-run journey. A bound, never a measured time.
  context.setDefaultTimeout(30_000);
  // Nothing outside the test server is reachable here: map tiles and the like fail at once instead of holding the page's load event.
  await context.route(/^https?:\/\/(?!127\.0\.0\.1[:/]|localhost[:/])/, (route) => route.abort());
  return context.newPage();
}

/** Logs in through the login form (password `<login>-password`, as in the fixtures) and waits for the user dashboard. */
export async function logInAs(page: Page, base: string, login: string, password = `${login}-password`): Promise<void> {
  await page.goto(`${base}/accounts/login/`);
  await page.getByLabel(/Username or e-mail address|Benutzername oder E-Mail-Adresse/).fill(login);
  await page.getByLabel(/^(Password|Passwort)$/).fill(password);
  await page.locator('main').getByRole('button', { name: /Login|Anmelden/ }).click();
  await page.waitForURL(/userdashboard/);
}

/** axe-core finds nothing on the page (WCAG 2.1 A and AA). */
export async function assertAccessible(page: Page, what: string): Promise<void> {
  const violations = await axeViolations(page);
  assert.deepEqual(violations, [], `${what}: ${JSON.stringify(violations, null, 1)}`);
}

/** Waits until the sign-up page's spam-check widget has solved its challenge (it starts by itself on load). */
export async function challengeSolved(page: Page) {
  // The proof of work runs in the browser: on a machine busy with other test processes it may take
  // longer than a page's wait (a CI run once failed here), so its bound is longer; it asserts no time.
  await page.waitForFunction(() => Boolean((globalThis as unknown as { document: { querySelector(s: string): { value: string } | null } }).document.querySelector('input[name="altcha"]')?.value), undefined, { timeout: 60_000 });
}
