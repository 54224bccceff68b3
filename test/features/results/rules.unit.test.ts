import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canEditResults, canViewResults, effectiveProgress, isNoticedChange, nestedInThemselves, overallProgress, readEntryForm, readResultForm, resultChanges, selfAndDescendants } from '../../../src/features/results/rules.js';
import { assertMatrix, projectContext } from '../../rules-matrix.js';

const EVERYONE = ['anonymous', 'user', 'participant', 'orgMember', 'moderator', 'initiator', 'superuser'] as const;
const MODERATING = ['moderator', 'initiator', 'superuser'] as const;

test('who sees results: as the project — everyone on public and semi-public ones, members on private ones, moderators on drafts', () => {
  assertMatrix((role, state) => canViewResults(projectContext(role, state)), {
    public: [...EVERYONE],
    semipublic: [...EVERYONE],
    private: ['participant', 'orgMember', 'moderator', 'initiator', 'superuser'],
    draft: [...MODERATING],
    archived: [...EVERYONE],
  });
});

test('who edits results: the project’s moderators, the organisation’s initiators and superusers, in every state', () => {
  assertMatrix((role, state) => canEditResults(projectContext(role, state)), { public: [...MODERATING], semipublic: [...MODERATING], private: [...MODERATING], draft: [...MODERATING], archived: [...MODERATING] });
});

const say = (key: string, vars?: Record<string, string | number>) => (vars ? `${key} ${JSON.stringify(vars)}` : key);
const FORM = { title: 'Park', description: '<p>Green.</p>', category: 'Parks', district: 'North', lat: '52,5', lng: '13.4', start_date: '2026-03-01', end_date: '2026-09-30', budget_planned: '50000', budget_spent: '', status: '2', progress: '', parent: '' };

test('the result form: a title; coordinates both or neither and in range; real dates in order; whole numbers; a status and parent from the choices', () => {
  const choices = { statusIds: [1, 2, 3], parentIds: [9] };
  const ok = readResultForm(FORM, choices, say);
  assert.deepEqual(ok.errors, {});
  assert.deepEqual(ok.input, { title: 'Park', description: '<p>Green.</p>', category: 'Parks', district: 'North', lat: 52.5, lng: 13.4, startDate: '2026-03-01', endDate: '2026-09-30', budgetPlanned: 50000, budgetSpent: null, statusId: 2, progress: null, parentId: null });
  const bad = readResultForm({ ...FORM, title: ' ', lng: '', start_date: '2026-02-30', budget_planned: '-5', budget_spent: '1.5', status: '7', progress: '101', parent: '8' }, choices, say);
  assert.equal(bad.input, null);
  assert.deepEqual(bad.errors, {
    title: ['This field is required.'],
    lat: ['Give both latitude and longitude, or neither.'],
    start_date: ['Enter a valid date.'],
    budget_planned: ['Enter a whole number.'],
    budget_spent: ['Enter a whole number.'],
    progress: ['Enter a number from %(min)s to %(max)s. {"min":0,"max":100}'],
    status: ['Select a valid choice.'],
    parent: ['Select a valid choice.'],
  });
  assert.deepEqual(readResultForm({ ...FORM, end_date: '2026-01-01' }, choices, say).errors, { end_date: ['The end must not be before the start.'] });
});

test('a timeline entry needs a real date and a text or a change', () => {
  assert.deepEqual(readEntryForm({ date: '2026-13-01', text: '', status: '', progress: '' }, [1], say).errors, { date: ['Enter a valid date.'], text: ['Write what happened, or choose a new status or progress.'] });
  assert.deepEqual(readEntryForm({ date: '2026-12-01', text: '', status: '1', progress: '' }, [1], say).input, { date: '2026-12-01', text: '', statusId: 1 });
  assert.deepEqual(readEntryForm({ date: '2026-12-01', text: ' Opened ', status: '', progress: '80' }, [1], say).input, { date: '2026-12-01', text: 'Opened', progress: 80 });
  assert.deepEqual(readEntryForm({ date: '2026-12-01', text: 'x', status: '5', progress: '' }, [1], say).errors, { status: ['Select a valid choice.'] });
});

test('progress: its own when set, else the mean of its children’s, else its status’s; the project’s is the mean of the top-level results', () => {
  const rows = [
    { id: 1, parentId: null, progress: null, statusProgress: 0 },
    { id: 2, parentId: 1, progress: 100, statusProgress: 40 },
    { id: 3, parentId: 1, progress: null, statusProgress: 40 },
    { id: 4, parentId: 3, progress: null, statusProgress: null },
    { id: 5, parentId: null, progress: 10, statusProgress: 100 },
  ];
  const progress = effectiveProgress(rows);
  assert.deepEqual([...progress].sort(([a], [b]) => a - b), [
    [1, 50],
    [2, 100],
    [3, 0],
    [4, 0],
    [5, 10],
  ]);
  assert.equal(overallProgress(rows, progress), 30);
  assert.equal(overallProgress([], new Map()), null);
  assert.deepEqual([...selfAndDescendants(rows, 1)].sort(), [1, 2, 3, 4]);
});

test('what the timeline records, and what the contributors are told: a new status, or completion', () => {
  const before = { status: 'planned', progress: 0, budgetPlanned: 100, budgetSpent: null };
  const changes = resultChanges(before, { status: 'planned', progress: 100, budgetPlanned: 100, budgetSpent: 90 });
  assert.deepEqual(changes, [
    { field: 'progress', from: '0', to: '100' },
    { field: 'budget_spent', from: null, to: '90' },
  ]);
  assert.equal(isNoticedChange(changes, 0, 100), true);
  assert.equal(isNoticedChange(resultChanges(before, { ...before, budgetSpent: 5 }), 0, 0), false);
  assert.equal(isNoticedChange(resultChanges(before, { ...before, status: 'in progress' }), 0, 0), true);
});

test('nesting: a result never becomes part of itself, directly or through its parts; other cycles do not trap the check', () => {
  const parents = new Map<number, number | null>([
    [1, null],
    [2, 1],
    [3, 2],
  ]);
  assert.deepEqual([...nestedInThemselves(parents, parents.keys())], []);
  assert.deepEqual([...nestedInThemselves(new Map([...parents, [1, 3]]), [1, 2, 3])], [1, 2, 3]);
  assert.deepEqual([...nestedInThemselves(new Map([...parents, [1, 1]]), [1])], [1]);
  assert.deepEqual([...nestedInThemselves(new Map([[4, 5], [5, 6], [6, 5]]), [4])], [], 'a result under a cycle is not in it');
});
