import { byParticipation, type DatedProject } from '../../core/projects/rules.js';

/** The follow-list carousel (decision D6) and the sidebar's organisations, as pure functions. */

const CAROUSEL_SIZE = 8;

/** At most 8 non-draft followed projects, running first (byParticipation). */
export function carousel<P extends DatedProject>(projects: P[], now: Date): P[] {
  return byParticipation(projects, now).slice(0, CAROUSEL_SIZE);
}

/** Distinct organisations of the followed projects, in first-seen order. */
export function followedOrganisations<P extends { organisationId: number; organisationName: string; organisationSlug: string }>(projects: P[]) {
  const seen = new Map<number, { id: number; name: string; slug: string }>();
  for (const p of projects) if (!seen.has(p.organisationId)) seen.set(p.organisationId, { id: p.organisationId, name: p.organisationName, slug: p.organisationSlug });
  return [...seen.values()];
}
