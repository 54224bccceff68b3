import { and, asc, eq, gt, lte, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { offlineEvents, organisations, projects, users } from '../../db/schema/index.js';
import { EVENT_SOON_HOURS } from './rules.js';

/** An event as its page, the timeline, the dashboard list and the export show it. */
export interface OfflineEventRow {
  id: number;
  projectId: number;
  slug: string;
  name: string;
  eventType: string;
  date: Date;
  description: string;
  document: string | null;
  creatorName: string | null;
  created: Date;
  modified: Date | null;
}

const eventColumns = {
  id: offlineEvents.id,
  projectId: offlineEvents.projectId,
  slug: offlineEvents.slug,
  name: offlineEvents.name,
  eventType: offlineEvents.eventType,
  date: offlineEvents.date,
  description: offlineEvents.description,
  document: offlineEvents.document,
  creatorName: users.username,
  created: offlineEvents.created,
  modified: offlineEvents.modified,
};

/** The public page of an event (a+'s URL shape). */
export const offlineEventPath = (orgSlug: string, slug: string) => `/${orgSlug}/offlineevents/${slug}/`;

/** A project's events in date order (the timeline, the dashboard list, the export): one statement. */
export async function loadProjectEvents(db: DbOrTx, projectId: number): Promise<OfflineEventRow[]> {
  return db.select(eventColumns).from(offlineEvents).leftJoin(users, eq(users.id, offlineEvents.creatorId)).where(eq(offlineEvents.projectId, projectId)).orderBy(asc(offlineEvents.date), asc(offlineEvents.id));
}

/** An event by its slug inside an organisation (an event of another organisation is not found), with its project's slug and name. */
export async function findOfflineEvent(db: DbOrTx, orgSlug: string, slug: string) {
  const [row] = await db
    .select({ ...eventColumns, projectSlug: projects.slug, projectName: projects.name, organisationName: organisations.name })
    .from(offlineEvents)
    .innerJoin(projects, eq(projects.id, offlineEvents.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .leftJoin(users, eq(users.id, offlineEvents.creatorId))
    .where(and(eq(organisations.slug, orgSlug), eq(offlineEvents.slug, slug)));
  return row ?? null;
}

export type FoundOfflineEvent = NonNullable<Awaited<ReturnType<typeof findOfflineEvent>>>;

/** The slugs already taken that start like `base` (the new slug's suffix is chosen among them). */
export async function takenEventSlugs(db: DbOrTx, base: string): Promise<string[]> {
  const escaped = base.replace(/[\\%_]/g, (c) => `\\${c}`);
  const rows = await db.select({ slug: offlineEvents.slug }).from(offlineEvents).where(sql`${offlineEvents.slug} LIKE ${`${escaped}%`}`);
  return rows.map((row) => row.slug);
}

/** What a notice to the followers names of an event and its project. */
const noticeColumns = { id: offlineEvents.id, slug: offlineEvents.slug, name: offlineEvents.name, date: offlineEvents.date, projectId: projects.id, projectName: projects.name, projectSlug: projects.slug, orgSlug: organisations.slug };

/** An event with what its followers' notice names (features/offlineevents/notices.ts), and whether its project is a draft. */
export async function eventForNotice(db: DbOrTx, eventId: number) {
  const [row] = await db
    .select({ ...noticeColumns, isDraft: projects.isDraft })
    .from(offlineEvents)
    .innerJoin(projects, eq(projects.id, offlineEvents.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(eq(offlineEvents.id, eventId));
  return row ?? null;
}

/** The events of published projects that start within EVENT_SOON_HOURS after `now` (the "event soon" notice). */
export async function eventsStartingSoon(db: DbOrTx, now: Date) {
  return db
    .select(noticeColumns)
    .from(offlineEvents)
    .innerJoin(projects, eq(projects.id, offlineEvents.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(projects.isDraft, false), gt(offlineEvents.date, now), lte(offlineEvents.date, new Date(now.getTime() + EVENT_SOON_HOURS * 3600 * 1000))))
    .orderBy(asc(offlineEvents.date), asc(offlineEvents.id));
}
