import { type Lang, tn } from '../../i18n/index.js';
import type { PhaseDates } from './phases.js';

/** A module's span: the earliest phase start and the latest phase end (nulls ignored, as SQL Min/Max). */
export interface ModuleSpan {
  start: Date | null;
  end: Date | null;
}

export function moduleSpan(phases: Pick<PhaseDates, 'startDate' | 'endDate'>[]): ModuleSpan {
  let start: Date | null = null;
  let end: Date | null = null;
  for (const phase of phases) {
    if (phase.startDate && (!start || phase.startDate < start)) start = phase.startDate;
    if (phase.endDate && (!end || phase.endDate > end)) end = phase.endDate;
  }
  return { start, end };
}

/** Running: start <= now < end. */
export const moduleIsRunning = (m: ModuleSpan, now: Date) => m.start !== null && m.end !== null && m.start <= now && now < m.end;
/** Past: end <= now. */
export const moduleIsPast = (m: ModuleSpan, now: Date) => m.end !== null && m.end <= now;
/** Future: start > now, or no start at all. */
export const moduleIsFuture = (m: ModuleSpan, now: Date) => m.start === null || m.start > now;

/** Percent of a running module's time that has passed; null when it is not running. */
export function moduleRunningProgress(m: ModuleSpan, now: Date): number | null {
  if (!moduleIsRunning(m, now) || !m.start || !m.end) return null;
  const total = m.end.getTime() - m.start.getTime();
  return total > 0 ? Math.round(((now.getTime() - m.start.getTime()) / total) * 100) : 0;
}

const UNITS: [number, string, string][] = [
  [86400, '%(count)s day', '%(count)s days'],
  [3600, '%(count)s hour', '%(count)s hours'],
  [60, '%(count)s minute', '%(count)s minutes'],
  [1, '%(count)s second', '%(count)s seconds'],
];

/** Time until a running module ends, in its largest whole unit: "3 days", "1 hour"; "" when not running. */
export function moduleRunningTimeLeft(m: ModuleSpan, now: Date, lang: Lang): string {
  if (!moduleIsRunning(m, now) || !m.end) return '';
  const seconds = Math.floor((m.end.getTime() - now.getTime()) / 1000);
  const [size, singular, plural] = UNITS.find(([unit]) => seconds >= unit) ?? UNITS[UNITS.length - 1];
  return tn(lang, singular, plural, Math.floor(seconds / size));
}

/** Whole days from the start of today (UTC) until the module ends. */
export function moduleRunningDaysLeft(m: ModuleSpan, now: Date): number | null {
  if (!m.end) return null;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.floor((m.end.getTime() - today) / 86400000);
}
