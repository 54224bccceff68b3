import type { Fixture } from '../../src/cli/fixture-schema.js';
import type { Db } from '../../src/db/client.js';
import { projectModerators } from '../../src/db/schema/index.js';
import { setOrganisationRole } from '../../src/operate/backoffice/services.js';
import { removeMember } from '../../src/manage/projects/members.js';
import { daysFromNow } from '../fixtures.js';

/**
 * The actors of the cross-organisation permission matrix. The "revoked" column (issue 21, finding
 * 5): an initiator, moderator and participant whose role was taken away again count as plain users.
 * The guest (issue 34.4) takes part without an account; every project of the world allows guests,
 * so the matrix shows that a guest gets exactly what a plain user gets there, never more (where a
 * project does not allow guests: test/me/accounts/guests.test.ts and the rules' unit test).
 */
export const ACTORS = [
  'anonymous',
  'user',
  'participant',
  'moderator',
  'initiator',
  'member',
  'otherInitiator',
  'otherMember',
  'superuser',
  'revokedInitiator',
  'revokedModerator',
  'revokedParticipant',
  'guest',
] as const;
export type Actor = (typeof ACTORS)[number];
export type SignedIn = Exclude<Actor, 'anonymous'>;

export const ACCESSES = ['public', 'semipublic', 'private'] as const;
export type Access = (typeof ACCESSES)[number];
export const STATUSES = ['draft', 'published', 'archived'] as const;
export type Status = (typeof STATUSES)[number];
export const PHASES = ['before', 'active', 'after'] as const;
export type PhaseTime = (typeof PHASES)[number];

export interface Project {
  id: number;
  slug: string;
  access: Access;
  status: Status;
}

export interface Module {
  id: number;
  slug: string;
  project: Project;
  published: boolean;
  phase: PhaseTime;
}

/** User ids; `author` is the participant who wrote the seeded ideas and comments (no actor). */
export const USER_ID: Record<SignedIn | 'author', number> = {
  user: 1,
  participant: 2,
  moderator: 3,
  initiator: 4,
  member: 5,
  otherInitiator: 6,
  otherMember: 7,
  superuser: 8,
  author: 9,
  revokedInitiator: 10,
  revokedModerator: 11,
  revokedParticipant: 12,
  guest: 13,
};

export const PROJECTS: Project[] = ACCESSES.flatMap((access, a) =>
  STATUSES.map((status, s) => ({ id: a * STATUSES.length + s + 1, slug: `${access}-${status}`, access, status })),
);

/** Per project: a draft module with a running phase, and published modules before, during and after their phase. */
export const MODULES: Module[] = PROJECTS.flatMap((project) => [
  { id: project.id * 10 + 1, slug: `${project.slug}-draft`, project, published: false, phase: 'active' as const },
  ...PHASES.map((phase, i) => ({ id: project.id * 10 + 2 + i, slug: `${project.slug}-${phase}`, project, published: true, phase })),
]);

/** The seeded idea of a module and the seeded comment on it share the module's id. */
export const seedIdeaId = (module: Module) => module.id;
export const seedCommentId = (module: Module) => module.id;

const PHASE_DAYS: Record<PhaseTime, [number, number]> = { before: [5, 10], active: [-1, 10], after: [-10, -5] };
const ACCESS_VALUE = { public: 'PUBLIC', semipublic: 'SEMIPUBLIC', private: 'PRIVATE' } as const;

/**
 * Two organisations; every project belongs to the first, whose initiator and member are actors;
 * the second organisation's initiator and member must count for nothing there. Every phase is
 * collect_feedback, which allows adding ideas, commenting and rating while it runs.
 */
export function matrixWorld(): Fixture {
  const users = Object.entries(USER_ID).map(([name, id]) => ({
    id,
    username: name,
    email: `${name.toLowerCase()}@example.org`,
    is_superuser: name === 'superuser',
    is_guest: name === 'guest',
    language: 'en' as const,
  }));
  return {
    users,
    organisations: [
      { id: 1, slug: 'org', name: 'Org', enable_geolocation: true, initiators: [USER_ID.initiator, USER_ID.revokedInitiator], members: [USER_ID.member] },
      { id: 2, slug: 'other', name: 'Other', enable_geolocation: true, initiators: [USER_ID.otherInitiator], members: [USER_ID.otherMember] },
    ],
    projects: PROJECTS.map((p) => ({
      id: p.id,
      slug: p.slug,
      name: p.slug,
      organisation: 1,
      access: ACCESS_VALUE[p.access],
      is_draft: p.status === 'draft',
      is_archived: p.status === 'archived',
      is_app_accessible: true,
      allow_guests: true,
      moderators: [USER_ID.moderator, USER_ID.revokedModerator],
      participants: [USER_ID.participant, USER_ID.author, USER_ID.revokedParticipant],
    })),
    modules: MODULES.map((m) => ({
      id: m.id,
      slug: m.slug,
      project: m.project.id,
      name: m.slug,
      is_draft: !m.published,
      phases: [{ type: 'a4_candy_ideas:collect_feedback', start_date: daysFromNow(PHASE_DAYS[m.phase][0]), end_date: daysFromNow(PHASE_DAYS[m.phase][1]) }],
    })),
    ideas: MODULES.map((m) => ({ id: seedIdeaId(m), module: m.id, creator: USER_ID.author, name: `Idea in ${m.slug}`, description: 'text' })),
    comments: MODULES.map((m) => ({ id: seedCommentId(m), creator: USER_ID.author, target: { type: 'idea' as const, id: seedIdeaId(m) }, comment: 'A comment' })),
  };
}

/**
 * Takes the roles of the revoked actors away through the services the back-office and the
 * dashboard call. The revoked initiator moderated every project as its creator (a role implied by
 * the initiator role), which must end with it.
 */
export async function revokeRoles(db: Db): Promise<void> {
  await db.insert(projectModerators).values(PROJECTS.map((p) => ({ projectId: p.id, userId: USER_ID.revokedInitiator, implied: true })));
  await db.transaction(async (tx) => {
    await setOrganisationRole(tx, 1, 'initiator', USER_ID.revokedInitiator, false);
    for (const p of PROJECTS) {
      await removeMember(tx, p.id, 'moderator', USER_ID.revokedModerator);
      await removeMember(tx, p.id, 'participant', USER_ID.revokedParticipant);
    }
  });
}
