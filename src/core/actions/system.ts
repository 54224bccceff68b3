import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { follows, modules, organisations, phases, projects, systemNotices } from '../../db/schema/index.js';
import { formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { loadRecipients } from '../../mail/notices.js';
import { queueMail } from '../../mail/outbox.js';
import { recordNotifications } from '../notifications/services.js';
import { projectViewers } from '../projects/context.js';
import { projectPath } from '../urls.js';
import { recordAction } from './services.js';

const HOUR = 3600 * 1000;
/** A4_ACTIONS_PHASE_ENDS_HOURS in the reference. */
const PHASE_ENDS_HOURS = 48;
/** How often the server looks for phases that started or end soon (the start window is one hour). */
export const SYSTEM_NOTICES_INTERVAL_MS = 15 * 60 * 1000;

/** The system e-mails to a project's followers (participation-facts §C7, §C8); German in i18n/de-operations.ts. */
const SYSTEM_MAILS = {
  phase_started: {
    subject: 'Here we go: %(project)s starts now!',
    body: 'Hello %(name)s,\n\nthe phase "%(phase)s" of the project "%(project)s" has started. Take part now: %(url)s',
  },
  phase_ending: {
    subject: 'Participation ends soon for %(project)s',
    body: 'Hello %(name)s,\n\nthe phase "%(phase)s" of the project "%(project)s" ends on %(end)s. Take part while you can: %(url)s',
  },
} as const;

interface SystemNoticeOptions {
  now?: Date;
  /** The origin of links (BASE_URL) and the time zone of dates in the e-mails. */
  origin: string;
  timeZone: string;
}

interface SystemNoticeCounts {
  started: number;
  projectsStarted: number;
  scheduled: number;
  mails: number;
}

/**
 * Claims a notice: the unique (kind, object, date) row is inserted by exactly one caller; a second
 * instance running at the same time waits for the first transaction and then finds the row taken.
 */
export async function claimSystemNotice(tx: DbOrTx, kind: string, objectId: number, at: Date): Promise<boolean> {
  const rows = await tx.insert(systemNotices).values({ kind, objectId, at }).onConflictDoNothing().returning({ id: systemNotices.id });
  return rows.length > 0;
}

type Candidate = { id: number; name: string; startDate: Date | null; endDate: Date | null; projectId: number; projectName: string; projectSlug: string; orgSlug: string; moduleName: string };

async function mailFollowers(tx: Tx, kind: keyof typeof SYSTEM_MAILS, phase: Candidate, options: SystemNoticeOptions): Promise<number> {
  const followers = await tx.select({ id: follows.creatorId }).from(follows).where(and(eq(follows.projectId, phase.projectId), eq(follows.enabled, true)));
  // Only followers who may still see the project (issue 21, finding 6), and who want these mails (issue 22.2).
  const viewers = await projectViewers(tx, phase.projectId, followers.map((f) => f.id));
  const recipients = await loadRecipients(tx, [...viewers], kind);
  const path = projectPath(phase.orgSlug, phase.projectSlug);
  await recordNotifications(tx, { kind, recipientIds: [...viewers], actorId: null, projectId: phase.projectId, context: { project: phase.projectName, phase: phase.name || phase.moduleName }, url: path });
  const texts = SYSTEM_MAILS[kind];
  for (const r of recipients) {
    const vars = {
      name: r.username,
      project: phase.projectName,
      phase: phase.name || phase.moduleName,
      end: phase.endDate ? formatDateTime(phase.endDate, r.lang, options.timeZone) : '',
      url: `${options.origin}${path}`,
    };
    await queueMail(tx, { to: r.email, subject: t(r.lang, texts.subject, vars), body: t(r.lang, texts.body, vars), kind });
  }
  return recipients.length;
}

/**
 * The system's phase actions and e-mails (platform-facts §6, participation-facts §C7, §C8): for a
 * phase that started within the last hour a "start" action (and one for the project when it is its
 * first phase) and the "starts now" e-mail to the followers; for a phase ending within 48 hours a
 * "schedule" action and the "ends soon" e-mail. Only published modules of published projects
 * count. Each notice is claimed by a unique row (system_notices) in the transaction that records
 * it, so that it goes out exactly once however often and however many instances run this at once;
 * a phase whose end is moved by more than 48 hours gets a new reminder for the new date.
 */
export async function createSystemActions(db: Db, options: SystemNoticeOptions): Promise<SystemNoticeCounts> {
  const now = options.now ?? new Date();
  const counts: SystemNoticeCounts = { started: 0, projectsStarted: 0, scheduled: 0, mails: 0 };
  const published = and(eq(modules.isDraft, false), eq(projects.isDraft, false));
  const candidates = () =>
    db
      .select({ id: phases.id, name: phases.name, startDate: phases.startDate, endDate: phases.endDate, projectId: projects.id, projectName: projects.name, projectSlug: projects.slug, orgSlug: organisations.slug, moduleName: modules.name })
      .from(phases)
      .innerJoin(modules, eq(modules.id, phases.moduleId))
      .innerJoin(projects, eq(projects.id, modules.projectId))
      .innerJoin(organisations, eq(organisations.id, projects.organisationId));

  const started = await candidates().where(and(published, gt(phases.startDate, new Date(now.getTime() - HOUR)), lte(phases.startDate, now)));
  for (const phase of started) {
    const startDate = phase.startDate;
    if (!startDate) continue;
    await db.transaction(async (tx) => {
      if (!(await claimSystemNotice(tx, 'phase_started', phase.id, startDate))) return;
      await recordAction(tx, { actorId: null, verb: 'start', obj: { type: 'phase', id: phase.id }, projectId: phase.projectId, phaseId: phase.id, timestamp: startDate });
      counts.started++;
      counts.mails += await mailFollowers(tx, 'phase_started', phase, options);
      const [first] = await tx
        .select({ start: sql<Date>`min(${phases.startDate})`.mapWith((v) => new Date(v)) })
        .from(phases)
        .innerJoin(modules, eq(modules.id, phases.moduleId))
        .where(and(eq(modules.projectId, phase.projectId), eq(modules.isDraft, false)));
      if (first?.start && first.start.getTime() === startDate.getTime() && (await claimSystemNotice(tx, 'project_started', phase.projectId, startDate))) {
        await recordAction(tx, { actorId: null, verb: 'start', obj: { type: 'project', id: phase.projectId }, projectId: phase.projectId, timestamp: startDate });
        counts.projectsStarted++;
      }
    });
  }

  const ending = await candidates().where(and(published, gt(phases.endDate, now), lte(phases.endDate, new Date(now.getTime() + PHASE_ENDS_HOURS * HOUR))));
  for (const phase of ending) {
    const endDate = phase.endDate;
    if (!endDate) continue;
    await db.transaction(async (tx) => {
      // An end moved by less than the window was announced already; one moved further gets a new reminder.
      const [announced] = await tx
        .select({ id: systemNotices.id })
        .from(systemNotices)
        .where(and(eq(systemNotices.kind, 'phase_ending'), eq(systemNotices.objectId, phase.id), gt(systemNotices.at, new Date(endDate.getTime() - PHASE_ENDS_HOURS * HOUR))));
      if (announced || !(await claimSystemNotice(tx, 'phase_ending', phase.id, endDate))) return;
      await recordAction(tx, { actorId: null, verb: 'schedule', obj: { type: 'phase', id: phase.id }, projectId: phase.projectId, phaseId: phase.id, timestamp: now });
      counts.scheduled++;
      counts.mails += await mailFollowers(tx, 'phase_ending', phase, options);
    });
  }
  return counts;
}

/** Runs the system notices inside the server every SYSTEM_NOTICES_INTERVAL_MS (never overlapping itself); stops with the app. */
export function scheduleSystemNotices(db: Db, options: Omit<SystemNoticeOptions, 'now'>, onError: (error: unknown) => void): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= createSystemActions(db, options)
      .catch(onError)
      .finally(() => {
        running = null;
      });
  }, SYSTEM_NOTICES_INTERVAL_MS);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
