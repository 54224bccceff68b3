import { canModerate, canParticipate, canViewProject, type ModuleContext, type ProjectItemContext } from '../projects/rules.js';
import type { ContentKind } from '../../db/schema/index.js';
import { phaseAllows } from './phases.js';
import type { PhaseFeature } from './registry.js';

export type { ModuleContext } from '../projects/rules.js';

/** A published (non-draft) module. */
export const isPublished = (c: ModuleContext) => !c.module.isDraft;

/** view_module: who may see the project; a draft module only its moderators (F4). */
export const canViewModule = (c: ModuleContext) => canViewProject(c.project) && (isPublished(c) || canModerate(c.project));

/** Seeing an object: in a module as `canViewModule`; a project's own content (a result, `module: null`) whoever sees the project. */
export const canViewItem = (c: ModuleContext | ProjectItemContext) => (c.module === null ? canViewProject(c.project) : canViewModule(c));

/** Taking part in a module: a context member of a live, non-archived project, in a published module. */
export const participatesIn = (c: ModuleContext) => canParticipate(c.project) && isPublished(c);

/** The active phase allows a feature on content of a kind, e.g. ('crud', 'idea'). */
export const phaseAllowsFor = (c: ModuleContext, feature: PhaseFeature, content: ContentKind) => phaseAllows(c.phases, feature, content, c.now);

// Phases as the dashboard edits them (§B11.3).

export interface PhaseInput {
  name: string;
  description: string;
  startDate: Date | null;
  endDate: Date | null;
}

interface PhaseProblem {
  /** The phase's position in the form, or null for a problem of the whole set. */
  index: number | null;
  field: 'name' | 'description' | 'start' | 'end' | null;
  message: string;
  /** Values for the message's placeholders (`%(max)s`). */
  params?: { max: number };
}

export const PHASE_NAME_MAX = 80;
export const PHASE_DESCRIPTION_MAX = 300;
const TOO_LONG = 'Ensure this field has no more than %(max)s characters.';

/**
 * Checks a module's phases in form (weight) order: lengths; name and description required once
 * the module is live; both dates or none; end not before start; no overlap (a phase may start
 * when the previous one ends); chronological order equals form order. Phases of other modules
 * do not matter.
 */
export function validatePhases(phases: PhaseInput[], live: boolean): PhaseProblem[] {
  const problems: PhaseProblem[] = [];
  phases.forEach((phase, index) => {
    if (phase.name.length > PHASE_NAME_MAX) problems.push({ index, field: 'name', message: TOO_LONG, params: { max: PHASE_NAME_MAX } });
    if (phase.description.length > PHASE_DESCRIPTION_MAX) problems.push({ index, field: 'description', message: TOO_LONG, params: { max: PHASE_DESCRIPTION_MAX } });
    if (live && !phase.name.trim()) problems.push({ index, field: 'name', message: 'This field is required.' });
    if (live && !phase.description.trim()) problems.push({ index, field: 'description', message: 'This field is required.' });
    if ((phase.startDate === null) !== (phase.endDate === null)) problems.push({ index, field: phase.startDate ? 'end' : 'start', message: 'Either both or no date has to be set.' });
    else if (phase.startDate && phase.endDate && phase.endDate < phase.startDate) problems.push({ index, field: 'end', message: 'End date can not be before start date.' });
  });
  if (problems.length) return problems;
  const dated = phases.filter((p): p is PhaseInput & { startDate: Date; endDate: Date } => p.startDate !== null && p.endDate !== null);
  const byStart = [...dated].sort((a, b) => a.startDate.getTime() - b.startDate.getTime());
  for (let i = 1; i < byStart.length; i++) {
    if (byStart[i].startDate < byStart[i - 1].endDate) return [{ index: null, field: null, message: 'Phases cannot run at the same time and must follow after each other.' }];
  }
  if (byStart.some((phase, i) => phase !== dated[i])) return [{ index: null, field: null, message: 'Phases need to be in same order as in form.' }];
  return [];
}
