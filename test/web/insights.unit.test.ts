import assert from 'node:assert/strict';
import { test } from 'node:test';
import { h } from 'preact';
import { renderToString } from 'preact-render-to-string';
import { InsightsBlock } from '../../src/web/insights.js';

const chart = (lang: 'en' | 'de', participants: number, ideas: number) => {
  const day = { ideas, comments: 0, ratings: 0, votes: 0, participants };
  const html = renderToString(h(InsightsBlock, { lang, insights: { totals: day, days: [{ day: '2026-03-01', ...day }] }, showIdeas: true }));
  return /<desc [^>]*>([^<]*)<\/desc>/.exec(html)?.[1] ?? html;
};

test("the statistics chart's description counts in the language's plural forms: one participant, one contribution (en, de)", () => {
  assert.equal(chart('en', 1, 1), 'From March 1, 2026 to March 1, 2026: 1 active participant, 1 contribution.');
  assert.equal(chart('en', 2, 3), 'From March 1, 2026 to March 1, 2026: 2 active participants, 3 contributions.');
  assert.match(chart('de', 1, 1), /: 1 aktive teilnehmende Person, 1 Beitrag\.$/);
  assert.match(chart('de', 2, 3), /: 2 aktive Teilnehmende, 3 Beiträge\.$/);
});
