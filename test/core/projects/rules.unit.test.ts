import assert from 'node:assert/strict';
import { test } from 'node:test';
import {
  asSignedInUser,
  canManageProject,
  canModerate,
  canParticipate,
  canViewProject,
  hasMember,
  isContextMember,
  isLive,
  isPublicContext,
  isSuperuser,
  projectTopicsError,
  signedIn,
} from '../../../src/core/projects/rules.js';
import { assertMatrix, MODERATING, NOBODY, projectContext as ctx, ROLES, SIGNED_IN, STATES } from '../../rules-matrix.js';

const ALL = [...ROLES];

test('signed in: every role but the anonymous visitor; superuser: only the superuser, in every state', () => {
  const everywhere = <T>(value: T) => ({ public: value, semipublic: value, private: value, draft: value, archived: value });
  assertMatrix((role, state) => signedIn(ctx(role, state)), everywhere(SIGNED_IN));
  assertMatrix((role, state) => isSuperuser(ctx(role, state)), everywhere(['superuser']));
});

test('moderate a project: its moderators, the initiators of its organisation and superusers, in every state', () => {
  assertMatrix((role, state) => canModerate(ctx(role, state)), { public: MODERATING, semipublic: MODERATING, private: MODERATING, draft: MODERATING, archived: MODERATING });
});

test('project member: every signed-in user of a public project; otherwise participants and moderators only', () => {
  const members = ['participant', 'moderator'] as const;
  assertMatrix((role, state) => hasMember(ctx(role, state)), { public: SIGNED_IN, semipublic: [...members], private: [...members], draft: SIGNED_IN, archived: SIGNED_IN });
});

test('context member: project members and members of its organisation (initiators and superusers are not members of a private project)', () => {
  const members = ['participant', 'orgMember', 'moderator'] as const;
  assertMatrix((role, state) => isContextMember(ctx(role, state)), { public: SIGNED_IN, semipublic: [...members], private: [...members], draft: SIGNED_IN, archived: SIGNED_IN });
});

test('public context: public and semi-public projects; live: every project but a draft', () => {
  const access = { public: true, semipublic: true, private: false, draft: true, archived: true };
  const live = { public: true, semipublic: true, private: true, draft: false, archived: true };
  for (const state of STATES) {
    assert.equal(isPublicContext(ctx('user', state)), access[state], `public context ${state}`);
    assert.equal(isLive(ctx('user', state)), live[state], `live ${state}`);
  }
});

test('view a project: everyone on public, semi-public and archived ones; members and moderators on private ones; moderators only on drafts', () => {
  assertMatrix((role, state) => canViewProject(ctx(role, state)), {
    public: ALL,
    semipublic: ALL,
    private: ['participant', 'orgMember', ...MODERATING],
    draft: MODERATING,
    archived: ALL,
  });
});

test('take part: context members of a live project that is not archived; nobody in a draft or archived project', () => {
  assertMatrix((role, state) => canParticipate(ctx(role, state)), {
    public: SIGNED_IN,
    semipublic: ['participant', 'orgMember', 'moderator'],
    private: ['participant', 'orgMember', 'moderator'],
    draft: NOBODY,
    archived: NOBODY,
  });
});

test('manage a project: superusers and initiators of its organisation; not its moderators', () => {
  const managers = ['initiator', 'superuser'] as const;
  assertMatrix((role, state) => canManageProject(ctx(role, state)), { public: [...managers], semipublic: [...managers], private: [...managers], draft: [...managers], archived: [...managers] });
});

test('as a signed-in user: a visitor becomes a user without roles; a signed-in context stays as it is', () => {
  const visitor = asSignedInUser(ctx('anonymous', 'public'));
  assert.deepEqual(visitor.user, { id: 0, isSuperuser: false });
  assert.equal(canParticipate(visitor), true, 'after logging in a visitor could take part in a public project');
  assert.equal(canParticipate(asSignedInUser(ctx('anonymous', 'private'))), false, 'but not in a private one');
  for (const role of SIGNED_IN) {
    const context = ctx(role, 'private');
    assert.equal(asSignedInUser(context), context, role);
  }
});

test('topics: known codes only, at most two distinct ones', () => {
  const cases: [string[], ReturnType<typeof projectTopicsError>][] = [
    [[], null],
    [['EDU'], null],
    [['EDU', 'TRA'], null],
    [['EDU', 'EDU', 'EDU'], null],
    [['EDU', 'TRA', 'ENV'], ['Choose at most %(max)s topics.', { max: 2 }]],
    [['edu'], ['Select a valid choice.']],
    [['EDU', 'XYZ'], ['Select a valid choice.']],
    [[''], ['Select a valid choice.']],
    [['toString'], ['Select a valid choice.']],
    [['__proto__'], ['Select a valid choice.']],
  ];
  for (const [codes, expected] of cases) assert.deepEqual(projectTopicsError(codes), expected, JSON.stringify(codes));
});
