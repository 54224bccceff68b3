import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canViewModule, isPublished, type ModuleContext, participatesIn, phaseAllowsFor, type PhaseInput, validatePhases } from '../../../src/core/modules/rules.js';
import type { PhaseDates } from '../../../src/core/projects/rules.js';
import type { PhaseFeature } from '../../../src/core/modules/registry.js';
import type { ContentKind } from '../../../src/db/schema/index.js';
import { assertMatrix, MODERATING, NOBODY, projectContext, type Role, ROLES, SIGNED_IN, type State } from '../../rules-matrix.js';

const now = new Date('2026-06-01T12:00:00Z');
const HOUR = 3600000;
const at = (hours: number) => new Date(now.getTime() + hours * HOUR);
const phase = (type: string, start: number | null, end: number | null, weight = 0, id = 1): PhaseDates => ({
  id,
  type,
  startDate: start === null ? null : at(start),
  endDate: end === null ? null : at(end),
  weight,
});
const COLLECT = 'a4_candy_ideas:collect';
const running = [phase(COLLECT, -1, 1)];

function context(role: Role, state: State, moduleDraft = false, phases = running): ModuleContext {
  return { project: projectContext(role, state), module: { id: 1, isDraft: moduleDraft }, phases, now };
}

test('a module is published unless it is a draft', () => {
  assert.equal(isPublished(context('user', 'public')), true);
  assert.equal(isPublished(context('user', 'public', true)), false);
});

test('view a published module: whoever may see the project', () => {
  assertMatrix((role, state) => canViewModule(context(role, state)), {
    public: [...ROLES],
    semipublic: [...ROLES],
    private: ['participant', 'orgMember', ...MODERATING],
    draft: MODERATING,
    archived: [...ROLES],
  });
});

test('view a draft module: its project\'s moderators, initiators and superusers only, in every project state', () => {
  assertMatrix((role, state) => canViewModule(context(role, state, true)), { public: MODERATING, semipublic: MODERATING, private: MODERATING, draft: MODERATING, archived: MODERATING });
});

test('take part in a module: context members of a live, non-archived project, in a published module only', () => {
  const members: Role[] = ['participant', 'orgMember', 'moderator'];
  assertMatrix((role, state) => participatesIn(context(role, state)), { public: SIGNED_IN, semipublic: members, private: members, draft: NOBODY, archived: NOBODY });
  assertMatrix((role, state) => participatesIn(context(role, state, true)), { public: NOBODY, semipublic: NOBODY, private: NOBODY, draft: NOBODY, archived: NOBODY }, 'draft module');
});

test('the running phase\'s type decides which features it allows on which content', () => {
  const cases: [string, PhaseFeature, ContentKind, boolean][] = [
    [COLLECT, 'crud', 'idea', true],
    [COLLECT, 'comment', 'idea', true],
    [COLLECT, 'rate', 'idea', false],
    [COLLECT, 'crud', 'poll', false],
    ['a4_candy_ideas:rating', 'rate', 'idea', true],
    ['a4_candy_ideas:rating', 'comment', 'idea', false],
    ['a4_candy_ideas:rating', 'crud', 'idea', false],
    ['a4polls:voting', 'vote', 'poll', true],
    ['a4polls:voting', 'comment', 'poll', true],
    ['a4polls:voting', 'vote', 'idea', false],
    ['a4_candy_documents:document', 'comment', 'chapter', true],
    ['a4_candy_documents:document', 'comment', 'paragraph', false],
    ['no_such:phase', 'comment', 'idea', false],
  ];
  for (const [type, feature, content, expected] of cases) {
    assert.equal(phaseAllowsFor(context('user', 'public', false, [phase(type, -1, 1)]), feature, content), expected, `${type} ${feature} ${content}`);
  }
});

test('a phase runs from its start (inclusive) to its end (exclusive); before, after or without dates it allows nothing', () => {
  const cases: [string, PhaseDates, boolean][] = [
    ['running', phase(COLLECT, -1, 1), true],
    ['starts now', phase(COLLECT, 0, 1), true],
    ['ends now', phase(COLLECT, -1, 0), false],
    ['still to come', phase(COLLECT, 1, 2), false],
    ['over', phase(COLLECT, -2, -1), false],
    ['without dates', phase(COLLECT, null, null), false],
  ];
  for (const [name, p, expected] of cases) assert.equal(phaseAllowsFor(context('user', 'public', false, [p]), 'crud', 'idea'), expected, name);
  assert.equal(phaseAllowsFor(context('user', 'public', false, []), 'crud', 'idea'), false, 'no phases');
});

test('of two running phases the first by weight (then id) decides', () => {
  const rating = (weight: number, id: number) => phase('a4_candy_ideas:rating', -1, 1, weight, id);
  const collect = (weight: number, id: number) => phase(COLLECT, -1, 1, weight, id);
  const allows = (phases: PhaseDates[]) => [phaseAllowsFor(context('user', 'public', false, phases), 'crud', 'idea'), phaseAllowsFor(context('user', 'public', false, phases), 'rate', 'idea')];
  assert.deepEqual(allows([rating(1, 1), collect(0, 2)]), [true, false], 'collect has the lower weight');
  assert.deepEqual(allows([collect(1, 1), rating(0, 2)]), [false, true], 'rating has the lower weight');
  assert.deepEqual(allows([rating(0, 2), collect(0, 1)]), [true, false], 'equal weights: the lower id');
  assert.deepEqual(allows([phase(COLLECT, -3, -2, 0, 1), rating(1, 2)]), [false, true], 'a past phase of lower weight does not count');
});

const input = (name: string, description: string, start: number | null, end: number | null): PhaseInput => ({
  name,
  description,
  startDate: start === null ? null : at(start),
  endDate: end === null ? null : at(end),
});
const problems = (phases: PhaseInput[], live = false) => validatePhases(phases, live).map((p) => [p.index, p.field, p.message]);
const TOO_LONG = 'Ensure this field has no more than %(max)s characters.';

test('phase name: at most 80 characters, description at most 300, whether the module is live or not', () => {
  for (const live of [false, true]) {
    assert.deepEqual(problems([input('n'.repeat(80), 'd'.repeat(300), null, null)], live), [], `at the limits, live ${live}`);
    assert.deepEqual(problems([input('n'.repeat(81), 'd', null, null)], live), [[0, 'name', TOO_LONG]], `name 81, live ${live}`);
    assert.deepEqual(problems([input('n', 'd'.repeat(301), null, null)], live), [[0, 'description', TOO_LONG]], `description 301, live ${live}`);
  }
  assert.deepEqual(validatePhases([input('n'.repeat(81), 'd', null, null)], false)[0].params, { max: 80 });
  assert.deepEqual(validatePhases([input('n', 'd'.repeat(301), null, null)], false)[0].params, { max: 300 });
});

test('phase name and description: optional in a draft module, required (not blank) in a live one', () => {
  assert.deepEqual(problems([input('', '', null, null)], false), []);
  assert.deepEqual(problems([input(' ', '\n', null, null)], true), [
    [0, 'name', 'This field is required.'],
    [0, 'description', 'This field is required.'],
  ]);
  assert.deepEqual(problems([input('N', 'D', null, null), input('', 'D', null, null)], true), [[1, 'name', 'This field is required.']]);
});

test('phase dates: both or none; the missing one is named; the end not before the start (equal is fine)', () => {
  const both = 'Either both or no date has to be set.';
  assert.deepEqual(problems([input('N', 'D', 0, null)]), [[0, 'end', both]]);
  assert.deepEqual(problems([input('N', 'D', null, 0)]), [[0, 'start', both]]);
  assert.deepEqual(problems([input('N', 'D', 1, 0)]), [[0, 'end', 'End date can not be before start date.']]);
  assert.deepEqual(problems([input('N', 'D', 0, 0)]), []);
  assert.deepEqual(problems([input('N', 'D', null, null)]), []);
});

test('phases: no overlap (one may start when the previous ends), and in the form\'s order; undated phases do not count', () => {
  const overlap = 'Phases cannot run at the same time and must follow after each other.';
  const order = 'Phases need to be in same order as in form.';
  assert.deepEqual(problems([input('A', 'D', 0, 10), input('B', 'D', 10, 20)]), [], 'touching');
  assert.deepEqual(problems([input('A', 'D', 0, 10), input('B', 'D', 9, 20)]), [[null, null, overlap]], 'one hour overlap');
  assert.deepEqual(problems([input('A', 'D', 20, 30), input('B', 'D', 0, 10)]), [[null, null, order]], 'reversed');
  assert.deepEqual(problems([input('A', 'D', 20, 30), input('B', 'D', 0, 25)]), [[null, null, overlap]], 'reversed and overlapping: the overlap is told');
  assert.deepEqual(problems([input('A', 'D', 0, 10), input('B', 'D', null, null), input('C', 'D', 10, 20)]), [], 'an undated phase between');
  assert.deepEqual(problems([input('A', 'D', 0, 10), input('B', 'D', 0, 20)], false), [[null, null, overlap]], 'same start');
});

test('phases: problems of single phases come first, and then the whole set is not checked', () => {
  const set = [input('n'.repeat(81), 'D', 20, 30), input('B', 'D', 0, 25)];
  assert.deepEqual(problems(set), [[0, 'name', TOO_LONG]]);
});
