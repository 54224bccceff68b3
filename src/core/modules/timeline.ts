import { formatDate, localParts } from '../../i18n/dates.js';
import { type Lang, t, tn } from '../../i18n/index.js';
import type { PhaseDates } from '../projects/rules.js';

/** A module's span: the earliest phase start and the latest phase end (nulls ignored, as SQL Min/Max). */
interface ModuleSpan {
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
function moduleRunningTimeLeft(m: ModuleSpan, now: Date, lang: Lang): string {
  if (!moduleIsRunning(m, now) || !m.end) return '';
  const seconds = Math.floor((m.end.getTime() - now.getTime()) / 1000);
  const [size, singular, plural] = UNITS.find(([unit]) => seconds >= unit) ?? UNITS[UNITS.length - 1];
  return tn(lang, singular, plural, Math.floor(seconds / size));
}

/** The end of the project's active phase that ends next (issue 37, item 8); null when no phase runs. */
export function activePhaseEnd(phases: Pick<PhaseDates, 'startDate' | 'endDate'>[], now: Date): Date | null {
  let end: Date | null = null;
  for (const p of phases) if (p.startDate && p.endDate && p.startDate <= now && now < p.endDate && (!end || p.endDate < end)) end = p.endDate;
  return end;
}

const localDay = (date: Date, timeZone: string) => {
  const p = localParts(date, timeZone);
  return Date.UTC(p.year, p.month - 1, p.day) / 86400000;
};

/**
 * "… remaining" until the active phase's end (issue 37, item 8), the one answer of the project
 * tile and the project page: a day or more is counted in calendar days of the time zone (the
 * days on the organisation's wall calendar), less in hours, minutes or seconds.
 */
export function timeRemaining(end: Date, ctx: { lang: Lang; timeZone: string; now: Date }): string {
  const seconds = Math.floor((end.getTime() - ctx.now.getTime()) / 1000);
  if (seconds < 86400) return t(ctx.lang, '%(time_left)s remaining', { time_left: moduleRunningTimeLeft({ start: ctx.now, end }, ctx.now, ctx.lang) });
  const days = localDay(end, ctx.timeZone) - localDay(ctx.now, ctx.timeZone);
  if (days >= 365) return t(ctx.lang, 'more than 1 year remaining');
  return t(ctx.lang, '%(time_left)s remaining', { time_left: tn(ctx.lang, '%(count)s day', '%(count)s days', days) });
}

/** Whole days from the start of today (UTC) until the module ends. */
function moduleRunningDaysLeft(m: ModuleSpan, now: Date): number | null {
  if (!m.end) return null;
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
  return Math.floor((m.end.getTime() - today) / 86400000);
}

/** A timeline entry of a project (§A4.4): published modules whose phases overlap, in (start, weight) order. */
export interface ModuleCluster<M> {
  modules: M[];
  start: Date;
  end: Date;
}

/**
 * The project's module clusters (§A4.4): modules whose phases all have dates, ordered by start
 * (ties keep the given (weight, id) order); a module that starts before the current cluster ends joins it.
 */
export function moduleClusters<M extends { phases: Pick<PhaseDates, 'startDate' | 'endDate'>[] }>(modules: M[]): ModuleCluster<M>[] {
  const dated = modules
    .filter((m) => m.phases.length > 0 && m.phases.every((p) => p.startDate && p.endDate))
    .map((m) => ({ module: m, span: moduleSpan(m.phases) as { start: Date; end: Date } }))
    .sort((a, b) => a.span.start.getTime() - b.span.start.getTime());
  const clusters: ModuleCluster<M>[] = [];
  for (const { module, span } of dated) {
    const last = clusters.at(-1);
    if (last && span.start <= last.end) {
      last.modules.push(module);
      if (span.end > last.end) last.end = span.end;
    } else clusters.push({ modules: [module], start: span.start, end: span.end });
  }
  return clusters;
}

/** §A4.5: the entry `initialSlide` names, else the first running cluster, else the first future one, else the first. */
export function selectedCluster(clusters: ModuleSpan[], now: Date, initialSlide?: number): number {
  if (initialSlide !== undefined && initialSlide < clusters.length) return initialSlide;
  const running = clusters.findIndex((c) => moduleIsRunning(c, now));
  if (running >= 0) return running;
  const future = clusters.findIndex((c) => c.start !== null && c.start > now);
  return Math.max(future, 0);
}

/** A module with the span of its phases. */
export type SpannedModule = { id: number; span: ModuleSpan };

const byStart = (a: SpannedModule, b: SpannedModule) =>
  (a.span.start?.getTime() ?? Infinity) - (b.span.start?.getTime() ?? Infinity) || a.id - b.id;
const byEnd = (a: SpannedModule, b: SpannedModule) => (a.span.end?.getTime() ?? Infinity) - (b.span.end?.getTime() ?? Infinity) || a.id - b.id;

/** The running module that ends next (whose progress and time left the app shows). */
export function runningModuleEndsNext<M extends SpannedModule>(modules: M[], now: Date): M | null {
  return modules.filter((m) => moduleIsRunning(m.span, now)).sort(byEnd)[0] ?? null;
}

/**
 * The project's participation status line, the one answer of the project page and the app API
 * (issue 37, item 8): the active phase's time left as the project tiles say it (`timeRemaining`),
 * else the running module's, else the next start, else that participation has ended.
 */
export function participationTimeDisplay(modules: (SpannedModule & { phases: Pick<PhaseDates, 'startDate' | 'endDate'>[] })[], ctx: { lang: Lang; timeZone: string; now: Date }): string {
  const end = activePhaseEnd(modules.flatMap((m) => m.phases), ctx.now);
  if (end) return timeRemaining(end, ctx);
  const running = runningModuleEndsNext(modules, ctx.now);
  if (running) {
    const daysLeft = moduleRunningDaysLeft(running.span, ctx.now) ?? 0;
    if (daysLeft >= 365) return t(ctx.lang, 'more than 1 year remaining');
    return t(ctx.lang, '%(time_left)s remaining', { time_left: moduleRunningTimeLeft(running.span, ctx.now, ctx.lang) });
  }
  const future = modules.filter((m) => moduleIsFuture(m.span, ctx.now)).sort(byStart);
  if (future.length) {
    const start = future[0].span.start;
    return start ? t(ctx.lang, 'Participation: from %(date)s', { date: formatDate(start, ctx.lang, ctx.timeZone) }) : '';
  }
  if (modules.some((m) => moduleIsPast(m.span, ctx.now))) return t(ctx.lang, 'Participation ended. Read result.');
  return '';
}
