import type { ProjectAccess } from '../../db/schema/index.js';
import { isProjectTopic, MAX_PROJECT_TOPICS } from './topics.js';

/**
 * The permission core. Every "may this user do this to that" is a named pure predicate over a
 * context that `projects/context.ts` loads in one statement: the project's state, the user's roles
 * in the project and its organisation, and (for module-level rules) the module and its phases.
 * Project rules live here; module, idea, comment, rating, report, follow and moderation rules in
 * their features' rules.ts, built from these.
 */

/** A phase as the rules see it. */
export interface PhaseDates {
  id: number;
  type: string;
  startDate: Date | null;
  endDate: Date | null;
  weight: number;
}

/** `isGuest`: a guest (issue 34.4), who takes part only where the project allows guests. */
export type RuleUser = { id: number; isSuperuser: boolean; isGuest?: boolean } | null;

/** What the rules need to know about a project and the user looking at it. */
export interface ProjectContext {
  access: ProjectAccess;
  isDraft: boolean;
  isArchived: boolean;
  /** The project takes contributions from guests (issue 34.4); absent: it does not. */
  allowsGuests?: boolean;
  user: RuleUser;
  /** The user's roles in this project (moderator, participant) and its organisation (initiator, member). */
  roles: { moderator: boolean; initiator: boolean; participant: boolean; orgMember: boolean };
}

/** A module of a project, with its phases and the moment the rules are asked at. */
export interface ModuleContext {
  project: ProjectContext;
  /** blueprintType when loaded (comment categories are a debate-module feature). */
  module: { id: number; isDraft: boolean; blueprintType?: string };
  phases: PhaseDates[];
  now: Date;
}

/**
 * Content of a project that belongs to none of its modules (a result): no module and no phase; the
 * rules about it ask the project alone (`module: null` tells it from a `ModuleContext`).
 */
export interface ProjectItemContext {
  project: ProjectContext;
  module: null;
  now: Date;
}

export const NO_ROLES: ProjectContext['roles'] = { moderator: false, initiator: false, participant: false, orgMember: false };

export const signedIn = (c: ProjectContext) => c.user !== null;
export const isSuperuser = (c: ProjectContext) => Boolean(c.user?.isSuperuser);

/** is_allowed_moderate_project: superuser, project moderator or initiator of the project's organisation. */
export const canModerate = (c: ProjectContext) => signedIn(c) && (isSuperuser(c) || c.roles.moderator || c.roles.initiator);

/** project.has_member: signed in on a public project, or participant, or moderator. */
export const hasMember = (c: ProjectContext) => signedIn(c) && (c.access === 'PUBLIC' || c.roles.participant || c.roles.moderator);

/** is_context_member: project member or member of its organisation. */
export const isContextMember = (c: ProjectContext) => hasMember(c) || (signedIn(c) && c.roles.orgMember);

export const isPublicContext = (c: ProjectContext) => c.access === 'PUBLIC' || c.access === 'SEMIPUBLIC';
export const isLive = (c: ProjectContext) => !c.isDraft;

/** view_project: moderators always; otherwise a live project that is public, semi-public, or where the user is a member. */
export const canViewProject = (c: ProjectContext) => canModerate(c) || ((isContextMember(c) || isPublicContext(c)) && isLive(c));

export const isGuest = (c: ProjectContext) => Boolean(c.user?.isGuest);

/** a4 `guest_may_participate`: an account always; a guest only where the project allows guests (issue 34.4). */
export const guestMayParticipate = (c: ProjectContext) => !isGuest(c) || Boolean(c.allowsGuests);

/** Does "take part as a guest" make sense here: an anonymous visitor of a live public project that allows guests. */
export const mayBecomeGuest = (c: ProjectContext) => c.user === null && Boolean(c.allowsGuests) && c.access === 'PUBLIC' && isLive(c) && !c.isArchived;

/**
 * Who may take part (add, comment, rate) when the phase allows it: context members of a live
 * project, guests only where it allows them. An archived project is read-only for everyone but its moderators.
 */
export const canParticipate = (c: ProjectContext) => isContextMember(c) && isLive(c) && !c.isArchived && guestMayParticipate(c);

/** change_project, edit a project in the dashboard: superuser or initiator of the project's organisation (§B1; moderators cannot). */
export const canManageProject = (c: ProjectContext) => signedIn(c) && (isSuperuser(c) || c.roles.initiator);

/**
 * Who may open a project's dashboard (§B1, a+ `change_project`): the organisation's initiators and
 * superusers. The dashboard's routes and the project page's Edit button ask this one rule.
 */
export const canEditProjectInDashboard = (c: ProjectContext) => canManageProject(c);

/**
 * The same context as an ordinary signed-in user without roles would have it: what a visitor
 * could do after logging in ("log in to take part", §A8.2).
 */
export const asSignedInUser = <C extends ProjectContext>(c: C): C => (c.user ? c : { ...c, user: { id: 0, isSuperuser: false }, roles: NO_ROLES });

/** The topics a form may store: known codes, each once, at most MAX_PROJECT_TOPICS; else the message (English, for `t`). */
export function projectTopicsError(codes: readonly string[]): [string, Record<string, number>?] | null {
  if (!codes.every(isProjectTopic)) return ['Select a valid choice.'];
  if (new Set(codes).size > MAX_PROJECT_TOPICS) return ['Choose at most %(max)s topics.', { max: MAX_PROJECT_TOPICS }];
  return null;
}

/* The project tiles' status (decision D6) and the start page's filter, as pure functions. */

/** A project's participation dates: the first start and last end of its published modules' phases. */
export interface DatedProject {
  isDraft: boolean;
  start: Date | null;
  end: Date | null;
}

type ProjectPhaseGroup = 'active' | 'future' | 'past' | null;

/** active: start <= now < end; future: start after now or no dates; past: end before now (at end == now: neither). */
export function projectGroup(project: DatedProject, now: Date): ProjectPhaseGroup {
  const { start, end } = project;
  if (start === null || start > now) return 'future';
  if (end !== null && start <= now && now < end) return 'active';
  if (end !== null && end < now) return 'past';
  return null;
}

const time = (date: Date | null) => (date ? date.getTime() : Number.POSITIVE_INFINITY);

/** Non-draft projects: active by end ascending, future by start ascending (no dates last), past by end descending. */
export function byParticipation<P extends DatedProject>(projects: P[], now: Date): P[] {
  const live = projects.filter((p) => !p.isDraft);
  const inGroup = (group: ProjectPhaseGroup) => live.filter((p) => projectGroup(p, now) === group);
  const active = inGroup('active').sort((a, b) => time(a.end) - time(b.end));
  const future = inGroup('future').sort((a, b) => time(a.start) - time(b.start));
  const past = inGroup('past').sort((a, b) => time(b.end) - time(a.end));
  return [...active, ...future, ...past];
}

/** The start page's status filter (in the URL as `status`) and the tile group it selects. */
export const PROJECT_STATUS_FILTERS = { running: 'active', upcoming: 'future', finished: 'past' } as const;
export type ProjectStatusFilter = keyof typeof PROJECT_STATUS_FILTERS;

/** The start page's filter, as the URL carries it ('' = all). */
export interface ProjectFilter {
  search: string;
  topic: string;
  organisation: string;
  status: ProjectStatusFilter | '';
  /** An administrative district's id, as text. */
  district: string;
}

export const isFiltered = (filter: ProjectFilter) => Object.values(filter).some(Boolean);

const words = (text: string) => text.normalize('NFKC').toLowerCase().split(/\s+/).filter(Boolean);

/**
 * Whether a listed project matches the start page's filter: every word of the search in its name,
 * description or organisation; one of its topics; its organisation; its participation status; its district.
 */
export function projectMatches(
  project: { name: string; description: string; organisationName: string; organisationSlug: string; topics: string[]; administrativeDistrictId: number | null; isDraft: boolean; start: Date | null; end: Date | null },
  filter: ProjectFilter,
  now: Date,
): boolean {
  if (filter.organisation && project.organisationSlug !== filter.organisation) return false;
  if (filter.topic && !project.topics.includes(filter.topic)) return false;
  if (filter.district && String(project.administrativeDistrictId) !== filter.district) return false;
  if (filter.status && projectGroup(project, now) !== PROJECT_STATUS_FILTERS[filter.status]) return false;
  const haystack = `${project.name} ${project.description} ${project.organisationName}`.normalize('NFKC').toLowerCase();
  return words(filter.search).every((word) => haystack.includes(word));
}
