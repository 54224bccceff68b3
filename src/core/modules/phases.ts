import type { PhaseDates } from '../projects/rules.js';

/** What a phase allows, by its type (the phase contents of the reference platform). */
export type PhaseFeature = 'crud' | 'comment' | 'rate' | 'vote';

export const PHASE_FEATURES: Record<string, { model: 'idea' | 'poll' | 'chapter'; features: PhaseFeature[] }> = {
  'a4_candy_ideas:issue': { model: 'idea', features: ['crud'] },
  'a4_candy_ideas:collect': { model: 'idea', features: ['crud', 'comment'] },
  'a4_candy_ideas:rating': { model: 'idea', features: ['rate'] },
  'a4_candy_ideas:feedback': { model: 'idea', features: ['rate', 'comment'] },
  'a4_candy_ideas:collect_feedback': { model: 'idea', features: ['crud', 'comment', 'rate'] },
  'a4polls:voting': { model: 'poll', features: ['vote', 'comment'] },
  'a4_candy_documents:document': { model: 'chapter', features: ['comment'] },
};

export const phaseIsActive = (phase: PhaseDates, now: Date) =>
  phase.startDate !== null && phase.endDate !== null && phase.startDate <= now && now < phase.endDate;
export const phaseIsPast = (phase: PhaseDates, now: Date) => phase.endDate !== null && phase.endDate <= now;
export const phaseIsFuture = (phase: PhaseDates, now: Date) => phase.startDate === null || phase.startDate > now;

const byWeight = (a: PhaseDates, b: PhaseDates) => a.weight - b.weight || a.id - b.id;

/** A module's active phase: the first running phase in (weight, id) order. */
export function activePhase<P extends PhaseDates>(phases: P[], now: Date): P | null {
  return [...phases].sort(byWeight).find((phase) => phaseIsActive(phase, now)) ?? null;
}

/** Whether the active phase allows a feature on objects of a kind, e.g. ('crud', 'idea'). */
export function phaseAllows(phases: PhaseDates[], feature: PhaseFeature, model: 'idea' | 'poll' | 'chapter', now: Date): boolean {
  const phase = activePhase(phases, now);
  const content = phase ? PHASE_FEATURES[phase.type] : undefined;
  return Boolean(content && content.model === model && content.features.includes(feature));
}
