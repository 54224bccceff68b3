import assert from 'node:assert/strict';
import { test } from 'node:test';
import { byParticipation, projectGroup } from '../../../src/core/projects/rules.js';
import { carousel, followedOrganisations } from '../../../src/me/dashboard/rules.js';

const now = new Date('2026-06-01T12:00:00Z');
const DAY = 86400000;
const day = (n: number | null) => (n === null ? null : new Date(now.getTime() + n * DAY));
const project = (name: string, start: number | null, end: number | null, isDraft = false) => ({ name, isDraft, start: day(start), end: day(end) });

test('a project\'s group: active while start <= now < end, future before its start or without dates, past after its end, neither at its very end', () => {
  const cases: [string, number | null, number | null, ReturnType<typeof projectGroup>][] = [
    ['running', -1, 1, 'active'],
    ['starting now', 0, 1, 'active'],
    ['ending now', -1, 0, null],
    ['to come', 1, 2, 'future'],
    ['without dates', null, null, 'future'],
    ['over', -2, -1, 'past'],
  ];
  for (const [name, start, end, expected] of cases) assert.equal(projectGroup(project(name, start, end), now), expected, name);
});

test('by participation: running projects by end ascending, then future ones by start ascending (no dates last), then past ones by end descending; drafts left out', () => {
  const projects = [
    project('past-early', -9, -8),
    project('future-none', null, null),
    project('active-late', -1, 9),
    project('future-late', 5, 6),
    project('draft', -1, 2, true),
    project('past-late', -3, -2),
    project('active-soon', -2, 1),
    project('future-soon', 2, 3),
    project('ending-now', -1, 0),
  ];
  assert.deepEqual(byParticipation(projects, now).map((p) => p.name), ['active-soon', 'active-late', 'future-soon', 'future-late', 'future-none', 'past-late', 'past-early']);
});

test('the carousel: at most 8 projects, the first 8 by participation', () => {
  const many = Array.from({ length: 10 }, (_, i) => project(`p${i}`, -1, 10 - i));
  assert.deepEqual(carousel(many, now).map((p) => p.name), ['p9', 'p8', 'p7', 'p6', 'p5', 'p4', 'p3', 'p2']);
  assert.deepEqual(carousel([project('only', 1, 2), project('draft', 1, 2, true)], now).map((p) => p.name), ['only']);
  assert.deepEqual(carousel([], now), []);
});

test('followed organisations: each once, in the order first seen', () => {
  const p = (organisationId: number, organisationName: string) => ({ organisationId, organisationName, organisationSlug: organisationName.toLowerCase() });
  assert.deepEqual(followedOrganisations([p(2, 'B'), p(1, 'A'), p(2, 'B'), p(3, 'C'), p(1, 'A')]), [
    { id: 2, name: 'B', slug: 'b' },
    { id: 1, name: 'A', slug: 'a' },
    { id: 3, name: 'C', slug: 'c' },
  ]);
  assert.deepEqual(followedOrganisations([]), []);
});
