import { and, eq, gt, gte, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { actions, modules, phases, projects } from '../../db/schema/index.js';
import { recordAction } from './services.js';

const HOUR = 3600 * 1000;
/** A4_ACTIONS_PHASE_ENDS_HOURS in the reference. */
export const PHASE_ENDS_HOURS = 48;

async function hasAction(db: DbOrTx, verb: 'start' | 'schedule', type: 'phase' | 'project', id: number, since?: Date): Promise<boolean> {
  const [row] = await db
    .select({ id: actions.id })
    .from(actions)
    .where(and(eq(actions.verb, verb), eq(actions.objType, type), eq(actions.objId, id), since ? gte(actions.timestamp, since) : undefined))
    .limit(1);
  return Boolean(row);
}

/**
 * Records the system's phase actions (platform-facts §6): "start" for phases that started within
 * the last hour (and for the project whose first phase that is), "schedule" for phases ending
 * within 48 hours. Only published modules of published projects count. Safe to run repeatedly.
 */
export async function createSystemActions(db: DbOrTx, now = new Date()): Promise<{ started: number; scheduled: number; projectsStarted: number }> {
  const published = and(eq(modules.isDraft, false), eq(projects.isDraft, false));
  const base = db
    .select({ id: phases.id, startDate: phases.startDate, endDate: phases.endDate, projectId: projects.id })
    .from(phases)
    .innerJoin(modules, eq(modules.id, phases.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId));
  const counts = { started: 0, scheduled: 0, projectsStarted: 0 };

  const started = await base.where(and(published, gt(phases.startDate, new Date(now.getTime() - HOUR)), lte(phases.startDate, now)));
  for (const phase of started) {
    if (!phase.startDate || (await hasAction(db, 'start', 'phase', phase.id))) continue;
    await recordAction(db, { actorId: null, verb: 'start', obj: { type: 'phase', id: phase.id }, projectId: phase.projectId, phaseId: phase.id, timestamp: phase.startDate });
    counts.started++;
    const [first] = await db
      .select({ start: sql<Date>`min(${phases.startDate})`.mapWith((v) => new Date(v)) })
      .from(phases)
      .innerJoin(modules, eq(modules.id, phases.moduleId))
      .where(and(eq(modules.projectId, phase.projectId), eq(modules.isDraft, false)));
    if (first?.start && first.start.getTime() === phase.startDate.getTime() && !(await hasAction(db, 'start', 'project', phase.projectId))) {
      await recordAction(db, { actorId: null, verb: 'start', obj: { type: 'project', id: phase.projectId }, projectId: phase.projectId, timestamp: phase.startDate });
      counts.projectsStarted++;
    }
  }

  const ending = await base.where(and(published, gt(phases.endDate, now), lte(phases.endDate, new Date(now.getTime() + PHASE_ENDS_HOURS * HOUR))));
  for (const phase of ending) {
    if (!phase.endDate) continue;
    // An announcement made for an earlier end date (moved by more than the window) is renewed.
    const windowStart = new Date(phase.endDate.getTime() - PHASE_ENDS_HOURS * HOUR);
    if (await hasAction(db, 'schedule', 'phase', phase.id, windowStart)) continue;
    await recordAction(db, { actorId: null, verb: 'schedule', obj: { type: 'phase', id: phase.id }, projectId: phase.projectId, phaseId: phase.id, timestamp: now });
    counts.scheduled++;
  }
  return counts;
}
