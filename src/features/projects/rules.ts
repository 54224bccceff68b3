import type { ProjectAccess } from '../../db/schema/index.js';

/** What the rules need to know about a project and the user looking at it. */
export interface ProjectContext {
  access: ProjectAccess;
  isDraft: boolean;
  isArchived: boolean;
  user: { id: number; isSuperuser: boolean } | null;
  /** The user's roles in this project and its organisation. */
  roles: { moderator: boolean; initiator: boolean; participant: boolean; orgMember: boolean };
}

export const NO_ROLES: ProjectContext['roles'] = { moderator: false, initiator: false, participant: false, orgMember: false };

/** Superuser, project moderator or initiator of the project's organisation. */
export const canModerate = (c: ProjectContext) => Boolean(c.user && (c.user.isSuperuser || c.roles.moderator || c.roles.initiator));

/** project.has_member: signed in on a public project, or participant, or moderator. */
export const hasMember = (c: ProjectContext) => Boolean(c.user && ((c.access === 'PUBLIC') || c.roles.participant || c.roles.moderator));

/** is_context_member: project member or member of its organisation. */
export const isContextMember = (c: ProjectContext) => hasMember(c) || Boolean(c.user && c.roles.orgMember);

export const isPublicContext = (c: ProjectContext) => c.access === 'PUBLIC' || c.access === 'SEMIPUBLIC';
export const isLive = (c: ProjectContext) => !c.isDraft;

/** Who may see a project's content (ideas, comments, feedback). */
export const canView = (c: ProjectContext) => canModerate(c) || ((isContextMember(c) || isPublicContext(c)) && isLive(c));

/**
 * Who may take part (add, comment, rate) when the phase allows it: context members of a live
 * project. An archived project is read-only for everyone but its moderators (the reference's
 * rule matrices show this).
 */
export const canParticipate = (c: ProjectContext) => isContextMember(c) && isLive(c) && !c.isArchived;
