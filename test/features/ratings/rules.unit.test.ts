import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import type { CommentContext } from '../../../src/features/comments/rules.js';
import { canChangeRating, canRate, canRateObject } from '../../../src/features/ratings/rules.js';
import type { ContentKind } from '../../../src/db/schema/index.js';
import { answers, assertMatrix, MODERATING, NOBODY, only, projectContext, type Role, SIGNED_IN, type State, USER_ID } from '../../rules-matrix.js';

const now = new Date('2026-06-01T12:00:00Z');
const DAY = 86400000;
const COLLECT = 'a4_candy_ideas:collect';
const RATING = 'a4_candy_ideas:rating';

function context(role: Role, state: State, type = RATING, running = true, root: ContentKind = 'idea'): CommentContext {
  const [start, end] = running ? [-1, 1] : [-3, -2];
  const phases = [{ id: 1, type, startDate: new Date(now.getTime() + start * DAY), endDate: new Date(now.getTime() + end * DAY), weight: 0 }];
  return { project: projectContext(role, state), module: { id: 1, isDraft: false }, phases, now, root: { type: root } };
}
const idea = { kind: 'idea' as const };
const comment = { kind: 'comment' as const };
const MEMBERS_OR_MODERATING: Role[] = ['participant', 'orgMember', ...MODERATING];

test('rate an idea in a rating phase: members of a live, open project; moderating roles in every state', () => {
  assertMatrix((role, state) => canRateObject(context(role, state), idea), {
    public: SIGNED_IN,
    semipublic: MEMBERS_OR_MODERATING,
    private: MEMBERS_OR_MODERATING,
    draft: MODERATING,
    archived: MODERATING,
  });
});

test('what a member may rate follows the running phase: ideas while it allows rating, comments while it allows commenting', () => {
  // [phase type, running, kind, members may rate]
  const table: [string, boolean, 'idea' | 'comment', boolean][] = [
    [RATING, true, 'idea', true],
    [RATING, true, 'comment', false],
    [COLLECT, true, 'idea', false],
    [COLLECT, true, 'comment', true],
    ['a4_candy_ideas:collect_feedback', true, 'idea', true],
    ['a4_candy_ideas:collect_feedback', true, 'comment', true],
    [RATING, false, 'idea', false],
    [COLLECT, false, 'comment', false],
  ];
  for (const [type, running, kind, members] of table) {
    const expected = members ? only(...SIGNED_IN) : only(...MODERATING);
    assert.deepEqual(answers((role) => canRateObject(context(role, 'public', type, running), { kind })), expected, `${type} running=${running} ${kind}`);
    assert.deepEqual(answers((role) => canRate(context(role, 'public', type, running), kind)), expected, `canRate ${type} running=${running} ${kind}`);
  }
});

test('comments on a paragraph follow the phase of its chapter', () => {
  const document = (role: Role) => context(role, 'public', 'a4_candy_documents:document', true, 'paragraph');
  assert.deepEqual(answers((role) => canRateObject(document(role), comment)), only(...SIGNED_IN));
});

test('a removed or censored comment is rated by nobody, not even a superuser', () => {
  for (const gone of [{ isRemoved: true }, { isCensored: true }]) {
    assertMatrix((role, state) => canRateObject(context(role, state, COLLECT), { ...comment, ...gone }), { public: NOBODY, semipublic: NOBODY, private: NOBODY, draft: NOBODY, archived: NOBODY });
  }
  assert.deepEqual(answers((role) => canRateObject(context(role, 'public', COLLECT), { ...comment, isRemoved: false, isCensored: false })), only(...SIGNED_IN));
});

test('change or withdraw a rating: only its owner, while they may still rate the object', () => {
  const own = { creatorId: USER_ID };
  const others = { creatorId: USER_ID + 1 };
  assertMatrix((role, state) => canChangeRating(context(role, state), idea, own), {
    public: SIGNED_IN,
    semipublic: MEMBERS_OR_MODERATING,
    private: MEMBERS_OR_MODERATING,
    draft: MODERATING,
    archived: MODERATING,
  });
  assert.deepEqual(answers((role) => canChangeRating(context(role, 'public', RATING, false), idea, own)), only(...MODERATING), 'after the rating phase');
  assertMatrix((role, state) => canChangeRating(context(role, state), idea, others), { public: NOBODY, semipublic: NOBODY, private: NOBODY, draft: NOBODY, archived: NOBODY }, "another's rating");
  assert.deepEqual(answers((role) => canChangeRating(context(role, 'public', COLLECT), { ...comment, isRemoved: true }, own)), only(), 'on a removed comment');
});
