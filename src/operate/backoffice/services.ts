import type { Lang } from '../../i18n/index.js';
import { and, asc, desc, eq, ilike, or, sql } from 'drizzle-orm';
import { countAll, type DbOrTx, type Tx } from '../../db/client.js';
import { organisationInitiators, organisationMembers, organisations, outbox, projects, users } from '../../db/schema/index.js';
import { deactivateUser } from '../../core/users/credentials.js';
import { revokeImpliedRoles } from '../../core/members/services.js';
import { organisationBrand } from '../../core/organisations/queries.js';
import { mailUsers } from '../../core/projects/mails.js';
import { projectListPath } from '../../web/paths.js';
import { freeSlug, slugify } from '../../core/slugs.js';
import { superusersKept } from './rules.js';

/** What operators do in the back-office (§D): organisations with their initiators and members, users, projects. */

export async function listOrganisations(db: DbOrTx) {
  return db
    .select({
      id: organisations.id,
      slug: organisations.slug,
      name: organisations.name,
      enableGeolocation: organisations.enableGeolocation,
      initiators: sql<number>`(select count(*) from ${organisationInitiators} where ${organisationInitiators.organisationId} = ${organisations.id})`.mapWith(Number),
    })
    .from(organisations)
    .orderBy(asc(organisations.name));
}

/** An organisation; its slug is made from the name and kept free of clashes. */
/** `language`: the organisation's (invitations, a new module's names); the column's default ('de') when left out. */
export async function createOrganisation(tx: Tx, name: string, language?: Lang): Promise<{ id: number; slug: string }> {
  const base = slugify(name, 'organisation');
  const clashes = await tx.select({ slug: organisations.slug }).from(organisations).where(or(eq(organisations.slug, base), ilike(organisations.slug, `${base}-%`)));
  const slug = freeSlug(base, clashes.map((r) => r.slug));
  const [row] = await tx.insert(organisations).values({ name, slug, language }).returning({ id: organisations.id, slug: organisations.slug });
  return row;
}

export async function updateOrganisation(tx: Tx, id: number, values: { name: string; enableGeolocation: boolean; isSupporting: boolean; language: string }) {
  await tx.update(organisations).set(values).where(eq(organisations.id, id));
}

const ROLE = { initiator: organisationInitiators, member: organisationMembers } as const;

/** An organisation's initiators or members; a member with the number and the further details the organisation keeps (from adhocracy+). */
export async function organisationPeople(db: DbOrTx, organisationId: number, role: keyof typeof ROLE) {
  const table = ROLE[role];
  const details =
    role === 'member'
      ? { memberNumber: organisationMembers.memberNumber, additionalInfo: organisationMembers.additionalInfo }
      : { memberNumber: sql<string>`''`, additionalInfo: sql<Record<string, string>>`'{}'::jsonb` };
  return db
    .select({ id: users.id, username: users.username, email: users.email, ...details })
    .from(table)
    .innerJoin(users, eq(users.id, table.userId))
    .where(eq(table.organisationId, organisationId))
    .orderBy(asc(users.username));
}

/** A user by username or confirmed e-mail address (case-insensitive; an unconfirmed address picks nobody). */
export async function findUser(db: DbOrTx, name: string) {
  const [row] = await db
    .select({ id: users.id, emailVerified: users.emailVerified })
    .from(users)
    .where(or(sql`lower(${users.username}) = lower(${name})`, and(sql`lower(${users.email}) = lower(${name})`, eq(users.emailVerified, true))));
  return row ?? null;
}

/** Appoints or removes an initiator or member; removing an initiator also ends the roles that came with it. */
export async function setOrganisationRole(tx: Tx, organisationId: number, role: keyof typeof ROLE, userId: number, on: boolean) {
  const table = ROLE[role];
  if (on) {
    await tx.insert(table).values({ organisationId, userId }).onConflictDoNothing();
    return;
  }
  await tx.delete(table).where(and(eq(table.organisationId, organisationId), eq(table.userId, userId)));
  if (role === 'initiator') await revokeImpliedRoles(tx, organisationId, userId);
}

/** Appoints an initiator and, when she was not one yet, tells her by e-mail with the link to the dashboard. */
export async function appointInitiator(tx: Tx, organisation: { id: number; slug: string; name: string }, userId: number, actor: { username: string; origin: string }) {
  const added = await tx.insert(organisationInitiators).values({ organisationId: organisation.id, userId }).onConflictDoNothing().returning({ userId: organisationInitiators.userId });
  if (!added.length) return;
  const vars = { project: '', organisation: organisation.name, actor: actor.username, url: `${actor.origin}${projectListPath(organisation.slug)}`, brand: await organisationBrand(tx, organisation.slug, actor.origin) };
  await mailUsers(tx, 'initiator_appointed', [userId], vars, { notifications: false });
}

export async function searchUsers(db: DbOrTx, search: string) {
  const pattern = `%${search.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
  return db
    .select({ id: users.id, username: users.username, email: users.email, isActive: users.isActive, isStaff: users.isStaff, isSuperuser: users.isSuperuser, emailVerified: users.emailVerified })
    .from(users)
    .where(search ? or(ilike(users.username, pattern), ilike(users.email, pattern)) : undefined)
    .orderBy(asc(users.username))
    .limit(50);
}

/** Deactivating ends every session and token the user holds (the accounts feature's service). */
export async function changeUser(tx: Tx, userId: number, action: 'deactivate' | 'activate' | 'staff' | 'unstaff') {
  if (action === 'deactivate') return deactivateUser(tx, userId);
  const change = action === 'activate' ? { isActive: true } : { isStaff: action === 'staff' };
  await tx.update(users).set(change).where(eq(users.id, userId));
}

/** The account an operator looks after, with the number of active superusers (for "never the last one"). */
export async function loadCareTarget(db: DbOrTx, userId: number) {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      language: users.language,
      isActive: users.isActive,
      isStaff: users.isStaff,
      isSuperuser: users.isSuperuser,
      emailVerified: users.emailVerified,
      activeSuperusers: sql<number>`(select count(*) from ${users} su where su.is_superuser and su.is_active)`.mapWith(Number),
    })
    .from(users)
    .where(eq(users.id, userId));
  return row ?? null;
}

/**
 * Locks the rows of the active superusers, in id order (no deadlock between two operators), and
 * returns their ids as they are now: the rule "never the last active superuser" reads them in the
 * transaction that changes an account (rules.superusersKept).
 */
export async function lockActiveSuperusers(tx: Tx): Promise<number[]> {
  const rows = await tx.select({ id: users.id }).from(users).where(and(eq(users.isSuperuser, true), eq(users.isActive, true))).orderBy(asc(users.id)).for('update');
  return rows.map((r) => r.id);
}

/** Runs `change` in the caller's transaction when it leaves an active superuser (locked first); null when it would not. */
export async function changeKeepingASuperuser<T>(tx: Tx, operatorId: number, targetId: number, change: () => Promise<T>): Promise<T | null> {
  if (!superusersKept(operatorId, targetId, await lockActiveSuperusers(tx))) return null;
  return change();
}

export async function setSuperuser(tx: Tx, userId: number, on: boolean) {
  await tx.update(users).set({ isSuperuser: on, ...(on ? { isStaff: true } : {}) }).where(eq(users.id, userId));
}

/**
 * An operator corrects an address on request (a typo at sign-up): the new address is unconfirmed
 * until its owner opens the confirmation link. A unique index may refuse it (isUniqueViolation).
 */
export async function correctEmail(tx: Tx, userId: number, email: string) {
  await tx.update(users).set({ email, emailVerified: false }).where(eq(users.id, userId));
}

export async function listProjects(db: DbOrTx) {
  return db
    .select({ id: projects.id, slug: projects.slug, name: projects.name, isDraft: projects.isDraft, isArchived: projects.isArchived, organisationSlug: organisations.slug, organisationName: organisations.name })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .orderBy(asc(organisations.name), asc(projects.name));
}

export async function setArchived(tx: Tx, projectId: number, archived: boolean) {
  await tx.update(projects).set({ isArchived: archived, modified: new Date() }).where(eq(projects.id, projectId));
}

/** The newest e-mails of the outbox, for the operator's e-mail page. */
export async function listMails(db: DbOrTx, page: { size: number; number: number }) {
  const [{ count }] = await db.select({ count: countAll }).from(outbox);
  const rows = await db
    .select({ id: outbox.id, recipient: outbox.recipient, subject: outbox.subject, body: outbox.body, kind: outbox.kind, created: outbox.created, sentAt: outbox.sentAt, error: outbox.error, attempts: outbox.attempts })
    .from(outbox)
    .orderBy(desc(outbox.id))
    .limit(page.size)
    .offset((page.number - 1) * page.size);
  return { count, rows };
}
