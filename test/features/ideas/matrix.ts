import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { daysFromNow } from '../../fixtures.js';

/** The roles of the permission matrices. */
export const ROLES = ['anonymous', 'user', 'participant', 'orgMember', 'moderator', 'initiator', 'superuser'] as const;
export type Role = (typeof ROLES)[number];
export const STATES = ['public', 'semipublic', 'private', 'draft', 'archived'] as const;
export type State = (typeof STATES)[number];
export const PHASES = ['before', 'active', 'after'] as const;
export type PhaseTime = (typeof PHASES)[number];

const MODERATING: Role[] = ['moderator', 'initiator', 'superuser'];

/** add_idea, written out as the reference's rule tests state it. */
const ADD_DURING_ACTIVE_PHASE: Record<State, Role[]> = {
  public: ['user', 'participant', 'orgMember', ...MODERATING],
  semipublic: ['participant', 'orgMember', ...MODERATING],
  private: ['participant', 'orgMember', ...MODERATING],
  draft: MODERATING,
  archived: MODERATING,
};

export const mayAdd = (role: Role, state: State, phase: PhaseTime) =>
  (phase === 'active' ? ADD_DURING_ACTIVE_PHASE[state] : MODERATING).includes(role);

/** view_idea: public contexts for everyone, private for members, draft for moderators only. */
const VIEW: Record<State, Role[]> = {
  public: [...ROLES],
  semipublic: [...ROLES],
  private: ['participant', 'orgMember', ...MODERATING],
  draft: MODERATING,
  archived: [...ROLES],
};

export const mayView = (role: Role, state: State) => VIEW[state].includes(role);

/** Users of the matrix world by role (anonymous has none). */
export const USER_ID: Record<Exclude<Role, 'anonymous'>, number> = {
  superuser: 1,
  initiator: 2,
  moderator: 3,
  participant: 4,
  orgMember: 5,
  user: 6,
};

export const projectId = (state: State) => STATES.indexOf(state) + 1;
export const moduleId = (state: State, phase: PhaseTime) => projectId(state) * 10 + PHASES.indexOf(phase) + 1;

const PHASE_DATES: Record<PhaseTime, [number, number]> = { before: [5, 10], active: [-1, 10], after: [-10, -5] };

/** One project per state, each with one collect module per phase time; every role present. */
export function matrixWorld(phaseType = 'a4_candy_ideas:collect'): Fixture {
  const users = Object.entries(USER_ID).map(([role, id]) => ({
    id,
    username: role.toLowerCase(),
    email: `${role.toLowerCase()}@example.org`,
    is_superuser: role === 'superuser',
    language: 'en' as const,
  }));
  return {
    users,
    organisations: [{ id: 1, slug: 'org', name: 'Org', enable_geolocation: true, initiators: [USER_ID.initiator], members: [USER_ID.orgMember] }],
    projects: STATES.map((state) => ({
      id: projectId(state),
      slug: state,
      name: state,
      organisation: 1,
      access: state === 'semipublic' ? ('SEMIPUBLIC' as const) : state === 'private' ? ('PRIVATE' as const) : ('PUBLIC' as const),
      is_draft: state === 'draft',
      is_archived: state === 'archived',
      is_app_accessible: true,
      moderators: [USER_ID.moderator],
      participants: [USER_ID.participant],
    })),
    modules: STATES.flatMap((state) =>
      PHASES.map((phase) => ({
        id: moduleId(state, phase),
        project: projectId(state),
        name: `${state} ${phase}`,
        phases: [{ type: phaseType, start_date: daysFromNow(PHASE_DATES[phase][0]), end_date: daysFromNow(PHASE_DATES[phase][1]) }],
      })),
    ),
  };
}
