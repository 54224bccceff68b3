import type { ContentKind } from '../../db/schema/index.js';
import type { PhaseDates } from '../projects/rules.js';
import { type PhaseFeature, phaseType } from './registry.js';

export const phaseIsActive = (phase: PhaseDates, now: Date) =>
  phase.startDate !== null && phase.endDate !== null && phase.startDate <= now && now < phase.endDate;
export const phaseIsPast = (phase: PhaseDates, now: Date) => phase.endDate !== null && phase.endDate <= now;
export const phaseIsFuture = (phase: PhaseDates, now: Date) => phase.startDate === null || phase.startDate > now;

/**
 * Why no one can take part in a module now although it is published: every phase is over
 * ('past') or none has begun ('future'); null when a phase runs or lies between others.
 */
export function closedForAll(phases: PhaseDates[], now: Date): 'past' | 'future' | null {
  if (!phases.length) return null;
  if (phases.every((phase) => phaseIsPast(phase, now))) return 'past';
  if (phases.every((phase) => phase.startDate !== null && phase.startDate > now)) return 'future';
  return null;
}

const byWeight = (a: PhaseDates, b: PhaseDates) => a.weight - b.weight || a.id - b.id;

/** A module's active phase: the first running phase in (weight, id) order. */
export function activePhase<P extends PhaseDates>(phases: P[], now: Date): P | null {
  return [...phases].sort(byWeight).find((phase) => phaseIsActive(phase, now)) ?? null;
}

/** Whether the active phase allows a feature on content of a kind, e.g. ('crud', 'idea'): its phase type (the registry) says so. */
export function phaseAllows(phases: PhaseDates[], feature: PhaseFeature, content: ContentKind, now: Date): boolean {
  const phase = activePhase(phases, now);
  const declared = phase ? phaseType(phase.type) : null;
  return Boolean(declared && declared.content === content && declared.features.includes(feature));
}

/** Whether any of the phases (running or not) is of a type that allows the feature on that content. */
export const somePhaseAllows = (phases: Pick<PhaseDates, 'type'>[], feature: PhaseFeature, content: ContentKind) =>
  phases.some((p) => {
    const declared = phaseType(p.type);
    return Boolean(declared && declared.content === content && declared.features.includes(feature));
  });
