import assert from 'node:assert/strict';
import { NO_ROLES, type ProjectContext } from '../src/core/projects/rules.js';

/**
 * The axes of the rule matrices: who asks (a role) and in which project (a state). Contexts are
 * built by hand, so these tests need no database; the expected answers are written out as tables
 * of roles in each test, never computed by the rules.
 */
export const ROLES = ['anonymous', 'user', 'participant', 'orgMember', 'moderator', 'initiator', 'superuser'] as const;
export type Role = (typeof ROLES)[number];
export const STATES = ['public', 'semipublic', 'private', 'draft', 'archived'] as const;
export type State = (typeof STATES)[number];

/** The id every signed-in role has (the owner of "own" objects in the tests). */
export const USER_ID = 7;

export function projectContext(role: Role, state: State): ProjectContext {
  return {
    access: state === 'semipublic' ? 'SEMIPUBLIC' : state === 'private' ? 'PRIVATE' : 'PUBLIC',
    isDraft: state === 'draft',
    isArchived: state === 'archived',
    user: role === 'anonymous' ? null : { id: USER_ID, isSuperuser: role === 'superuser' },
    roles: { ...NO_ROLES, moderator: role === 'moderator', initiator: role === 'initiator', participant: role === 'participant', orgMember: role === 'orgMember' },
  };
}

/** A rule's answers for every role, as { role: boolean }. */
export const answers = (check: (role: Role) => boolean) => Object.fromEntries(ROLES.map((role) => [role, check(role)]));

/** The expected answers: true exactly for the roles listed. */
export const only = (...allowed: Role[]) => Object.fromEntries(ROLES.map((role) => [role, allowed.includes(role)]));

export const MODERATING: Role[] = ['moderator', 'initiator', 'superuser'];
export const SIGNED_IN: Role[] = ROLES.filter((role) => role !== 'anonymous');
export const NOBODY: Role[] = [];

/** Asserts a rule over every role in every state against a table of allowed roles per state. */
export function assertMatrix(rule: (role: Role, state: State) => boolean, expected: Record<State, Role[]>, label = '') {
  for (const state of STATES) assert.deepEqual(answers((role) => rule(role, state)), only(...expected[state]), `${label} ${state}`.trim());
}
