import '../../../src/module-types.js';
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { canAddComment, canChangeComment, canCommentInProject, canDeleteComment, canRate, canViewComments, type CommentContext, commentUserInfo, type ModuleCommentContext, canReplyTo, commentTextError, replyTargetError } from '../../../src/features/comments/rules.js';
import { NO_ROLES, type ProjectContext } from '../../../src/core/projects/rules.js';

const now = new Date('2024-06-01T12:00:00Z');
const phase = (type: string, start: string, end: string) => ({ id: 1, type, startDate: new Date(start), endDate: new Date(end), weight: 0 });
const collect = [phase('a4_candy_ideas:collect', '2024-05-01', '2024-07-01')];
const rating = [phase('a4_candy_ideas:rating', '2024-05-01', '2024-07-01')];
const over = [phase('a4_candy_ideas:collect', '2024-01-01', '2024-02-01')];

type Role = 'anonymous' | 'user' | 'owner' | 'participant' | 'moderator' | 'initiator' | 'admin';
function context(role: Role, phases = collect, project: Partial<ProjectContext> = {}): ModuleCommentContext {
  const user = role === 'anonymous' ? null : { id: role === 'owner' ? 7 : 1, isSuperuser: role === 'admin' };
  const roles = { ...NO_ROLES, moderator: role === 'moderator', initiator: role === 'initiator', participant: role === 'participant' };
  return { project: { access: 'PUBLIC', isDraft: false, isArchived: false, user, roles, ...project }, module: { id: 1, isDraft: false }, phases, now, root: { type: 'idea' } };
}
const own = { creatorId: 7 };
const matrix = (check: (role: Role) => boolean) => Object.fromEntries((['anonymous', 'user', 'owner', 'participant', 'moderator', 'initiator', 'admin'] as Role[]).map((r) => [r, check(r)]));

test('adding comments: members while the phase allows it; moderators, initiators and admins always', () => {
  assert.deepEqual(matrix((r) => canAddComment(context(r))), { anonymous: false, user: true, owner: true, participant: true, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => canAddComment(context(r, rating))), { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => canAddComment(context(r, collect, { access: 'PRIVATE' }))), { anonymous: false, user: false, owner: false, participant: true, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => canAddComment(context(r, collect, { isDraft: true }))), { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true });
});

test('changing a comment: its owner while commenting is open, or a superuser', () => {
  assert.deepEqual(matrix((r) => canChangeComment(context(r), own)), { anonymous: false, user: false, owner: true, participant: false, moderator: false, initiator: false, admin: true });
  assert.equal(canChangeComment(context('owner', over), own), false);
});

test('deleting a comment: its owner or anyone who moderates', () => {
  assert.deepEqual(matrix((r) => canDeleteComment(context(r), own)), { anonymous: false, user: false, owner: true, participant: false, moderator: true, initiator: true, admin: true });
});

test('viewing: public projects for everyone, private ones for members and moderators', () => {
  assert.deepEqual(matrix((r) => canViewComments(context(r, collect, { access: 'PRIVATE' }))), { anonymous: false, user: false, owner: false, participant: true, moderator: true, initiator: true, admin: true });
  assert.equal(canViewComments(context('anonymous')), true);
});

test('rating: ideas in rating phases, comments while commenting is open', () => {
  assert.equal(canRate(context('user', rating), 'idea'), true);
  assert.equal(canRate(context('user', collect), 'idea'), false);
  assert.equal(canRate(context('user', collect), 'comment'), true);
  assert.equal(canRate(context('moderator', over), 'idea'), true);
});

test('an archived project: its comments stay, their authors can no longer delete or edit them; moderators still can delete', () => {
  const archived = (r: Role) => context(r, collect, { isArchived: true });
  assert.deepEqual(matrix((r) => canDeleteComment(archived(r), own)), { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true });
  assert.equal(canChangeComment(archived('owner'), own), false);
});

test('a blocked comment cannot be edited by its author; a removed or censored one by nobody', () => {
  assert.equal(canChangeComment(context('owner'), { ...own, isBlocked: true }), false);
  assert.equal(canChangeComment(context('admin'), { ...own, isBlocked: true }), true);
  assert.equal(canChangeComment(context('admin'), { ...own, isRemoved: true }), false);
  assert.equal(canChangeComment(context('owner'), { ...own, isCensored: true }), false);
});

test('a draft module: only those who moderate see, write or rate comments', () => {
  const draft = (r: Role): CommentContext => ({ ...context(r), module: { id: 1, isDraft: true } });
  const moderatorsOnly = { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true };
  assert.deepEqual(matrix((r) => canViewComments(draft(r))), moderatorsOnly);
  assert.deepEqual(matrix((r) => canAddComment(draft(r))), moderatorsOnly);
  assert.deepEqual(matrix((r) => canRate(draft(r), 'comment')), moderatorsOnly);
});

test('user_info: the comment menu asks the same rules, and a removed or censored comment offers nothing', () => {
  const live = { creatorId: 7, isRemoved: false, isCensored: false, contentType: 'idea' as const };
  const info = (r: Role, comment = live, phases = collect) => commentUserInfo(context(r, phases), comment);
  assert.deepEqual(matrix((r) => info(r).has_rating_permission), { anonymous: false, user: true, owner: true, participant: true, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => info(r).has_changing_permission), { anonymous: false, user: false, owner: true, participant: false, moderator: false, initiator: false, admin: true });
  assert.deepEqual(matrix((r) => info(r).has_deleting_permission), { anonymous: false, user: false, owner: true, participant: false, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => info(r).is_users_own_comment), { anonymous: false, user: false, owner: true, participant: false, moderator: false, initiator: false, admin: false });
  assert.deepEqual(matrix((r) => info(r, live, over).has_rating_permission), { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true });
  for (const gone of [{ ...live, isRemoved: true }, { ...live, isCensored: true }]) {
    assert.deepEqual(matrix((r) => { const i = info(r, gone); return i.has_rating_permission || i.has_changing_permission || i.has_deleting_permission; }),
      { anonymous: false, user: false, owner: false, participant: false, moderator: false, initiator: false, admin: false });
    assert.equal(info('owner', gone).is_users_own_comment, true);
  }
});

test('user_info as a4 serialises it: the caller, viewing, moderating and answering', () => {
  const live = { creatorId: 7, isRemoved: false, isCensored: false, contentType: 'idea' as const };
  const info = (r: Role, comment: Parameters<typeof commentUserInfo>[1] = live, phases = collect) => commentUserInfo(context(r, phases), comment);
  assert.deepEqual(matrix((r) => info(r).authenticated_user_pk !== null), { anonymous: false, user: true, owner: true, participant: true, moderator: true, initiator: true, admin: true });
  assert.equal(info('owner').authenticated_user_pk, 7);
  assert.deepEqual(matrix((r) => info(r).has_viewing_permission), { anonymous: true, user: true, owner: true, participant: true, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => commentUserInfo(context(r, collect, { access: 'PRIVATE' }), live).has_viewing_permission), { anonymous: false, user: false, owner: false, participant: true, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => info(r).has_moderating_permission), { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => info(r).has_comment_commenting_permission), { anonymous: false, user: true, owner: true, participant: true, moderator: true, initiator: true, admin: true });
  assert.deepEqual(matrix((r) => info(r, live, rating).has_comment_commenting_permission), { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true });
  const nobody = { anonymous: false, user: false, owner: false, participant: false, moderator: false, initiator: false, admin: false };
  assert.deepEqual(matrix((r) => info(r, { ...live, contentType: 'comment' }).has_comment_commenting_permission), nobody);
  assert.deepEqual(matrix((r) => info(r, { ...live, isRemoved: true }).has_comment_commenting_permission), nobody);
});

test('replies: a comment on an object can be answered, a reply cannot', () => {
  assert.equal(canReplyTo({ contentType: 'idea' }), true);
  assert.equal(canReplyTo({ contentType: 'paragraph' }), true);
  assert.equal(canReplyTo({ contentType: 'comment' }), false);
  assert.equal(replyTargetError({ contentType: 'idea' }), null);
  assert.equal(replyTargetError({ contentType: 'comment' }), 'A reply can only be given to a comment, not to another reply.');
});

test('replies: a comment deleted by its creator or censored by a moderator cannot be answered', () => {
  for (const gone of [{ isRemoved: true }, { isCensored: true }]) {
    assert.equal(canReplyTo({ contentType: 'idea', ...gone }), false);
    assert.equal(replyTargetError({ contentType: 'poll', ...gone }), 'A deleted comment cannot be answered.');
  }
  assert.equal(canReplyTo({ contentType: 'idea', isRemoved: false, isCensored: false }), true);
});

test('comment text: blank after stripping HTML or longer than 4000 characters is refused', () => {
  assert.equal(commentTextError('<b> </b>  '), 'This field may not be blank.');
  assert.equal(commentTextError('x'.repeat(4001)), 'Ensure this field has no more than 4000 characters.');
  assert.equal(commentTextError('x'.repeat(4000)), null);
  assert.equal(commentTextError('line one\nline two'), null);
});

/** A thread about a project's own content (a result, issue 39.3): no module, no phase. */
function resultContext(role: Role, project: Partial<ProjectContext> = {}): CommentContext {
  const { project: p } = context(role, [], project);
  return { project: p, module: null, now, root: { type: 'result' } };
}

test('commenting on a result: whoever takes part in the project, no phase needed; moderators, initiators and admins always', () => {
  const takesPart = { anonymous: false, user: true, owner: true, participant: true, moderator: true, initiator: true, admin: true };
  assert.deepEqual(matrix((r) => canAddComment(resultContext(r))), takesPart);
  assert.deepEqual(matrix((r) => canCommentInProject(resultContext(r).project)), takesPart);
  const moderatorsOnly = { anonymous: false, user: false, owner: false, participant: false, moderator: true, initiator: true, admin: true };
  assert.deepEqual(matrix((r) => canAddComment(resultContext(r, { isArchived: true }))), moderatorsOnly);
  assert.deepEqual(matrix((r) => canAddComment(resultContext(r, { isDraft: true }))), moderatorsOnly);
  assert.deepEqual(matrix((r) => canAddComment(resultContext(r, { access: 'PRIVATE' }))), { ...moderatorsOnly, participant: true });
  // Semi-public: everyone sees the discussion, only members write in it.
  assert.deepEqual(matrix((r) => canAddComment(resultContext(r, { access: 'SEMIPUBLIC' }))), { ...moderatorsOnly, participant: true });
  assert.equal(canViewComments(resultContext('anonymous', { access: 'SEMIPUBLIC' })), true);
});

test("a result's discussion: seen by whoever sees the project; its author deletes while taking part, rates comments, never by a phase", () => {
  assert.deepEqual(matrix((r) => canViewComments(resultContext(r, { access: 'PRIVATE' }))), { anonymous: false, user: false, owner: false, participant: true, moderator: true, initiator: true, admin: true });
  assert.equal(canViewComments(resultContext('anonymous')), true);
  assert.equal(canDeleteComment(resultContext('owner'), own), true);
  assert.equal(canDeleteComment(resultContext('owner', { isArchived: true }), own), false);
  assert.equal(canChangeComment(resultContext('owner'), own), true);
  assert.equal(canRate(resultContext('user'), 'comment'), true);
  assert.equal(canRate(resultContext('user'), 'idea'), false);
});
