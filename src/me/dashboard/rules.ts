/** The follow-list carousel (decision D6) and the project tile's status, as pure functions. */

export const CAROUSEL_SIZE = 8;

export interface DatedProject {
  isDraft: boolean;
  start: Date | null;
  end: Date | null;
}

export type ProjectPhaseGroup = 'active' | 'future' | 'past' | null;

/** active: start <= now < end; future: start after now or no dates; past: end before now (at end == now: neither). */
export function projectGroup(project: DatedProject, now: Date): ProjectPhaseGroup {
  const { start, end } = project;
  if (start === null || start > now) return 'future';
  if (end !== null && start <= now && now < end) return 'active';
  if (end !== null && end < now) return 'past';
  return null;
}

const time = (date: Date | null) => (date ? date.getTime() : Number.POSITIVE_INFINITY);

/** At most 8 non-draft followed projects, running first (byParticipation). */
export function carousel<P extends DatedProject>(projects: P[], now: Date): P[] {
  return byParticipation(projects, now).slice(0, CAROUSEL_SIZE);
}

/** Non-draft projects: active by end ascending, future by start ascending (no dates last), past by end descending. */
export function byParticipation<P extends DatedProject>(projects: P[], now: Date): P[] {
  const live = projects.filter((p) => !p.isDraft);
  const inGroup = (group: ProjectPhaseGroup) => live.filter((p) => projectGroup(p, now) === group);
  const active = inGroup('active').sort((a, b) => time(a.end) - time(b.end));
  const future = inGroup('future').sort((a, b) => time(a.start) - time(b.start));
  const past = inGroup('past').sort((a, b) => time(b.end) - time(a.end));
  return [...active, ...future, ...past];
}

/** Distinct organisations of the followed projects, in first-seen order. */
export function followedOrganisations<P extends { organisationId: number; organisationName: string; organisationSlug: string }>(projects: P[]) {
  const seen = new Map<number, { id: number; name: string; slug: string }>();
  for (const p of projects) if (!seen.has(p.organisationId)) seen.set(p.organisationId, { id: p.organisationId, name: p.organisationName, slug: p.organisationSlug });
  return [...seen.values()];
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
}

export const isFiltered = (filter: ProjectFilter) => Object.values(filter).some(Boolean);

const words = (text: string) => text.normalize('NFKC').toLowerCase().split(/\s+/).filter(Boolean);

/**
 * Whether a listed project matches the start page's filter: every word of the search in its name,
 * description or organisation; one of its topics; its organisation; its participation status.
 */
export function projectMatches(
  project: { name: string; description: string; organisationName: string; organisationSlug: string; topics: string[]; isDraft: boolean; start: Date | null; end: Date | null },
  filter: ProjectFilter,
  now: Date,
): boolean {
  if (filter.organisation && project.organisationSlug !== filter.organisation) return false;
  if (filter.topic && !project.topics.includes(filter.topic)) return false;
  if (filter.status && projectGroup(project, now) !== PROJECT_STATUS_FILTERS[filter.status]) return false;
  const haystack = `${project.name} ${project.description} ${project.organisationName}`.normalize('NFKC').toLowerCase();
  return words(filter.search).every((word) => haystack.includes(word));
}
