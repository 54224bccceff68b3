import { and, asc, desc, eq, inArray, isNotNull, notExists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { follows, newsletterOptouts, newsletters, outbox, projects, users } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';
import { MAX_ATTEMPTS } from '../../mail/delivery.js';
import { projectViewers } from '../../core/projects/context.js';

/** The projects a newsletter of the organisation can go to (§B18.1). */
export async function newsletterProjects(db: DbOrTx, organisationId: number) {
  return db.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.organisationId, organisationId)).orderBy(asc(projects.name));
}

/**
 * Who receives a project's newsletter (§B18.2): active followers with a confirmed address who opted
 * in to newsletters, did not unsubscribe from the organisation's (newsletter_optouts), and may see
 * the project now (issue 21, finding 6: a removed participant of a private project still follows
 * it, but hears nothing more of it).
 */
export async function newsletterReceivers(db: DbOrTx, projectId: number, organisationId: number) {
  const unsubscribed = db
    .select({ userId: newsletterOptouts.userId })
    .from(newsletterOptouts)
    .where(and(sql`${q(newsletterOptouts.userId)} = ${q(users.id)}`, eq(newsletterOptouts.organisationId, organisationId)));
  const followers = await db
    .select({ id: users.id, email: users.email, language: users.language })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.creatorId))
    .where(and(eq(follows.projectId, projectId), eq(follows.enabled, true), eq(users.getNewsletters, true), eq(users.isActive, true), eq(users.emailVerified, true), notExists(unsubscribed)));
  const viewers = await projectViewers(db, projectId, followers.map((f) => f.id));
  return followers.filter((f) => viewers.has(f.id));
}

/** An outbox mail of a newsletter that is still to be sent: not sent yet, attempts left (§B18.3). */
export const pendingMail = sql`${q(outbox.sentAt)} is null and ${q(outbox.attempts)} < ${MAX_ATTEMPTS}`;

interface NewsletterDelivery {
  /** Mails sent (a mail another instance is still sending counts as sent). */
  sent: number;
  /** Mails still to be sent (`pendingMail`). */
  pending: number;
}

/**
 * How far the given newsletters' mails have gone out, in one grouped statement however many:
 * the one count the delivery report and the newsletter list both show. A newsletter without
 * mails is missing from the map (0 sent, none pending).
 */
export async function newsletterDeliveries(db: DbOrTx, newsletterIds: number[]): Promise<Map<number, NewsletterDelivery>> {
  if (!newsletterIds.length) return new Map();
  const rows = await db
    .select({
      id: outbox.newsletterId,
      sent: sql<number>`count(*) filter (where ${q(outbox.sentAt)} is not null)`.mapWith(Number),
      pending: sql<number>`count(*) filter (where ${pendingMail})`.mapWith(Number),
    })
    .from(outbox)
    .where(and(isNotNull(outbox.newsletterId), inArray(outbox.newsletterId, newsletterIds)))
    .groupBy(outbox.newsletterId);
  return new Map(rows.flatMap((row) => (row.id === null ? [] : [[row.id, { sent: row.sent, pending: row.pending }]])));
}

/** The organisation's newsletters, newest first, with how far their e-mails have gone out (two statements). */
export async function listNewsletters(db: DbOrTx, organisationId: number) {
  const list = await db
    .select({ id: newsletters.id, subject: newsletters.subject, created: newsletters.created, receivers: newsletters.receivers, targetGroup: newsletters.targetGroup, isDraft: newsletters.isDraft, projectName: projects.name })
    .from(newsletters)
    .leftJoin(projects, eq(projects.id, newsletters.projectId))
    .where(eq(newsletters.organisationId, organisationId))
    .orderBy(desc(newsletters.created), desc(newsletters.id))
    .limit(100);
  const deliveries = await newsletterDeliveries(db, list.map((n) => n.id));
  return list.map((n) => ({ ...n, ...(deliveries.get(n.id) ?? { sent: 0, pending: 0 }) }));
}

/** A draft of the organisation's (kept from adhocracy+), as the values of a new newsletter's form; null when it has none of that id. */
export async function newsletterDraftValues(db: DbOrTx, organisationId: number, id: number) {
  const [row] = await db
    .select({ sender_name: newsletters.senderName, sender_email: newsletters.senderEmail, subject: newsletters.subject, body: newsletters.body, projectId: newsletters.projectId })
    .from(newsletters)
    .where(and(eq(newsletters.id, id), eq(newsletters.organisationId, organisationId), eq(newsletters.isDraft, true)));
  if (!row) return null;
  const { projectId, ...values } = row;
  return { ...values, project: projectId === null ? '' : String(projectId) };
}
