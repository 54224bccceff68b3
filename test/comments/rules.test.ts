import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canAddComment, canChangeComment, canDeleteComment, canRate, canViewComments, type CommentContext } from '../../src/features/comments/rules.js';
import { NO_ROLES, type ProjectContext } from '../../src/features/projects/rules.js';

const now = new Date('2024-06-01T12:00:00Z');
const phase = (type: string, start: string, end: string) => ({ id: 1, type, startDate: new Date(start), endDate: new Date(end), weight: 0 });
const collect = [phase('a4_candy_ideas:collect', '2024-05-01', '2024-07-01')];
const rating = [phase('a4_candy_ideas:rating', '2024-05-01', '2024-07-01')];
const over = [phase('a4_candy_ideas:collect', '2024-01-01', '2024-02-01')];

type Role = 'anonymous' | 'user' | 'owner' | 'participant' | 'moderator' | 'initiator' | 'admin';
function context(role: Role, phases = collect, project: Partial<ProjectContext> = {}): CommentContext {
  const user = role === 'anonymous' ? null : { id: role === 'owner' ? 7 : 1, isSuperuser: role === 'admin' };
  const roles = { ...NO_ROLES, moderator: role === 'moderator', initiator: role === 'initiator', participant: role === 'participant' };
  return { project: { access: 'PUBLIC', isDraft: false, isArchived: false, user, roles, ...project }, phases, root: { type: 'idea' } };
}
const own = { creatorId: 7 };
const matrix = (check: (role: Role) => boolean) => Object.fromEntries((['anonymous', 'user', 'owner', 'participant', 'moderator', 'initiator', 'admin'] as Role[]).map((r) => [r, check(r)]));

test('adding comments: members while the phase allows it; moderators, initiators and admins always', () => {
  assert.deepEqual(matrix((r) => canAddComment(context(r), now)), { anonymous: false, user: true, owner: true, participant: true, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => canAddComment(context(r, rating), now)), { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => canAddComment(context(r, collect, { access: 'PRIVATE' }), now)), { anonymous: false, user: false, owner: false, participant: true, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => canAddComment(context(r, collect, { isDraft: true }), now)), { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true });
});

test('changing a comment: its owner while commenting is open, or a superuser', () => {
  assert.deepEqual(matrix((r) => canChangeComment(context(r), own, now)), { anonymous: false, user: false, owner: true, participant: false, moderator: false, initiator: false, admin: true });
  assert.equal(canChangeComment(context('owner', over), own, now), false);
});

test('deleting a comment: its owner or anyone who moderates', () => {
  assert.deepEqual(matrix((r) => canDeleteComment(context(r), own)), { anonymous: false, user: false, owner: true, participant: false, moderator: true, initiator: true, admin: true });
});

test('viewing: public projects for everyone, private ones for members and moderators', () => {
  assert.deepEqual(matrix((r) => canViewComments(context(r, collect, { access: 'PRIVATE' }))), { anonymous: false, user: false, owner: false, participant: true, moderator: true, initiator: true, admin: true });
  assert.equal(canViewComments(context('anonymous')), true);
});

test('rating: ideas in rating phases, comments while commenting is open', () => {
  assert.equal(canRate(context('user', rating), 'idea', now), true);
  assert.equal(canRate(context('user', collect), 'idea', now), false);
  assert.equal(canRate(context('user', collect), 'comment', now), true);
  assert.equal(canRate(context('moderator', over), 'idea', now), true);
});
