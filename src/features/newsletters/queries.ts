import { and, asc, desc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { follows, newsletters, outbox, projects, users } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';

/** The projects a newsletter of the organisation can go to (§B18.1). */
export async function newsletterProjects(db: DbOrTx, organisationId: number) {
  return db.select({ id: projects.id, name: projects.name }).from(projects).where(eq(projects.organisationId, organisationId)).orderBy(asc(projects.name));
}

/** Who receives a project's newsletter (§B18.2): active followers with a confirmed address who opted in to newsletters. */
export async function newsletterReceivers(db: DbOrTx, projectId: number) {
  return db
    .select({ email: users.email })
    .from(follows)
    .innerJoin(users, eq(users.id, follows.creatorId))
    .where(and(eq(follows.projectId, projectId), eq(follows.enabled, true), eq(users.getNewsletters, true), eq(users.isActive, true), eq(users.emailVerified, true)));
}

/** The organisation's newsletters, newest first, with how many of their e-mails have been delivered. */
export async function listNewsletters(db: DbOrTx, organisationId: number) {
  return db
    .select({
      id: newsletters.id,
      subject: newsletters.subject,
      created: newsletters.created,
      receivers: newsletters.receivers,
      projectName: projects.name,
      delivered: sql<number>`(select count(*) from ${outbox} where ${q(outbox.newsletterId)} = ${q(newsletters.id)} and ${q(outbox.sentAt)} is not null)`.mapWith(Number),
    })
    .from(newsletters)
    .leftJoin(projects, eq(projects.id, newsletters.projectId))
    .where(eq(newsletters.organisationId, organisationId))
    .orderBy(desc(newsletters.created), desc(newsletters.id))
    .limit(100);
}
