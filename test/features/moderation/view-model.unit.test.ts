import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { ModerationRow } from '../../../src/features/moderation/queries.js';
import { queueCommentOf } from '../../../src/features/moderation/view-model.js';
import { commentRow } from '../comments/comment-row.js';

const row = (state: Partial<ModerationRow> = {}): ModerationRow => ({
  ...commentRow(4, { creatorId: 6, comment: 'the text', commentCategories: '', username: 'other' }),
  numReports: 1,
  path: '/org/ideas/2024-00001/?comment=4',
  feedback: null,
  ...state,
});

const reports = new Map([[4, [{ objectPk: 4, description: 'rude', created: new Date('2024-03-03T10:00:00Z'), username: 'user', handled: false }]]]);
const facts = { reports, objects: new Map([[4, 'Fruit']]) };
const at = { lang: 'en' as const, timeZone: 'UTC' };

test('a queue comment: a blocked one keeps its author and text, a removed or censored one shows neither', () => {
  const cases: [string, Partial<ModerationRow>, { author: string; isGone: boolean; byGuest: boolean; isBlocked: boolean }][] = [
    ['visible', {}, { author: 'other', isGone: false, byGuest: true, isBlocked: false }],
    ['blocked', { isBlocked: true }, { author: 'other', isGone: false, byGuest: true, isBlocked: true }],
    ['removed', { isRemoved: true }, { author: 'unknown user', isGone: true, byGuest: false, isBlocked: false }],
    ['censored', { isCensored: true }, { author: 'unknown user', isGone: true, byGuest: false, isBlocked: false }],
  ];
  for (const [name, state, expected] of cases) {
    const { author, isGone, byGuest, isBlocked } = queueCommentOf(row(state), facts, at);
    assert.deepEqual({ author, isGone, byGuest, isBlocked }, expected, name);
  }
});

test('a queue comment brings its reports, the object it is on, its last change and its feedback', () => {
  const plain = queueCommentOf(row(), facts, at);
  assert.deepEqual(
    { ...plain, reports: plain.reports.map((r) => r.description) },
    { id: 4, author: 'other', byGuest: true, lastEdit: 'March 2, 2024, 10 a.m.', isUnread: true, isBlocked: false, isModeratorMarked: false, isGone: false, text: 'the text', reportCount: 1, reports: ['rude'], feedback: null, path: '/org/ideas/2024-00001/?comment=4', object: 'Fruit' },
  );
  const changed = queueCommentOf(row({ id: 5, isReviewed: true, modified: new Date('2024-03-05T10:00:00Z'), feedback: { id: 1, commentId: 5, feedbackText: '<p>ok</p>', created: new Date(), modified: null } }), facts, at);
  assert.deepEqual([changed.isUnread, changed.lastEdit, changed.feedback, changed.reports, changed.object], [false, 'March 5, 2024, 10 a.m.', '<p>ok</p>', [], '']);
});
