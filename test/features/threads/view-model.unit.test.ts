import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CommentExtras } from '../../../src/features/comments/extras.js';
import type { CommentRow } from '../../../src/features/comments/queries.js';
import { commentViewOf } from '../../../src/features/threads/view-model.js';
import { commentRow } from '../comments/comment-row.js';

const row = commentRow;

const extras = (replies: Map<number, CommentRow[]> = new Map()): CommentExtras => ({
  ratings: new Map([[1, { positive: 2, negative: 1, userRatingId: 7, userRatingValue: -1 }]]),
  feedback: new Map([[1, { id: 3, commentId: 1, feedbackText: '<p>Thanks</p>', created: new Date('2024-03-03T10:00:00Z'), modified: null }]]),
  moderatorIds: new Set([5]),
  replies,
  userInfo: new Map(),
});

const NO_ACTIONS = { reply: false, edit: false, delete: false, rate: false, report: false, moderate: false };
const shown = (showsBlockedAuthors: boolean) => ({ lang: 'en' as const, timeZone: 'UTC', showsBlockedAuthors, actions: () => NO_ACTIONS });

test('a comment as the thread shows it: author and profile, why hidden, categories, guest badge, by state and viewer', () => {
  const cases: [string, Partial<CommentRow>, boolean, { author: string; authorPath: string | null; hidden: string | null; categories: string[]; byGuest: boolean }][] = [
    ['visible', {}, false, { author: 'user', authorPath: '/profile/user/', hidden: null, categories: ['Suggestion'], byGuest: true }],
    ['removed', { isRemoved: true }, true, { author: 'unknown user', authorPath: null, hidden: 'removed', categories: [], byGuest: false }],
    ['censored', { isCensored: true }, true, { author: 'unknown user', authorPath: null, hidden: 'censored', categories: [], byGuest: false }],
    ['blocked, to a visitor', { isBlocked: true }, false, { author: 'unknown user', authorPath: null, hidden: 'blocked', categories: [], byGuest: false }],
    ['blocked, to a moderator', { isBlocked: true }, true, { author: 'user', authorPath: '/profile/user/', hidden: 'blocked', categories: [], byGuest: false }],
    ['removed and blocked, to a moderator', { isRemoved: true, isBlocked: true }, true, { author: 'unknown user', authorPath: null, hidden: 'removed', categories: [], byGuest: false }],
  ];
  for (const [name, state, moderator, expected] of cases) {
    const view = commentViewOf(row(2, state), extras(), shown(moderator));
    assert.deepEqual({ author: view.author, authorPath: view.authorPath, hidden: view.hidden, categories: view.categories, byGuest: view.byGuest }, expected, name);
  }
});

test("a comment's facts, its edit mark, its actions and its replies are mapped from the loaded rows", () => {
  const replies = new Map([[1, [row(10, { modified: new Date('2024-03-04T10:00:00Z') })]]]);
  const view = commentViewOf(row(1), extras(replies), { ...shown(false), actions: (r) => ({ ...NO_ACTIONS, reply: r.id === 1 }) });
  assert.deepEqual(view.ratings, { up: 2, down: 1, mine: -1 });
  assert.deepEqual(view.feedback, { text: '<p>Thanks</p>', lastEdit: 'March 3, 2024, 10 a.m.' });
  assert.equal(view.authorIsModerator, true);
  assert.equal(view.created, 'March 2, 2024, 10 a.m.');
  assert.deepEqual([view.edited, view.actions.reply, view.replies.length], [false, true, 1]);
  const [reply] = view.replies;
  assert.deepEqual([reply.id, reply.edited, reply.actions.reply, reply.ratings, reply.feedback], [10, true, false, { up: 0, down: 0, mine: null }, null]);
});
