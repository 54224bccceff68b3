import assert from 'node:assert/strict';
import { mock } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { Browser } from '../me/accounts/client.js';

/**
 * Counts the SQL statements each page sends, for a visitor and the signed-in `user`. A process asks
 * some things once (whether the platform has an operator yet, an image's width): those first
 * questions are not counted — the pages are asked once in German first, so that the English pages
 * counted are not the ones kept by those requests. Kept pages are computed for the whole second
 * (http/kept-answers.ts): each round starts a second later on a mocked clock, so that what it counts
 * never depends on how fast the machine is. Returns a round: page → statements.
 */
export async function statementRounds(app: FastifyInstance, database: { stats: { queries: number } }, user: Browser, pages: string[]) {
  const german = new Browser(app, { 'accept-language': 'de' });
  for (const url of pages) assert.equal((await german.get(url)).status, 200, url);
  mock.timers.enable({ apis: ['Date'], now: Date.now() });
  return async (): Promise<Record<string, number>> => {
    mock.timers.tick(1000);
    const counts: Record<string, number> = {};
    for (const [who, browser] of [['visitor', new Browser(app)], ['user', user]] as const) {
      for (const url of pages) {
        const before = database.stats.queries;
        const page = await browser.get(url);
        assert.equal(page.status, 200, url);
        counts[`${who} ${url}`] = database.stats.queries - before;
      }
    }
    return counts;
  };
}
