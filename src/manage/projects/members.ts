import { randomUUID } from 'node:crypto';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { type InviteRole, projectInvites, users } from '../../db/schema/index.js';
import { isLang, type Lang } from '../../i18n/index.js';
import { projectPath } from '../../core/urls.js';
import { addModerator, addParticipant } from '../../core/members/services.js';
import { isEmail } from './input.js';
import { organisationBrand } from '../../core/organisations/queries.js';
import { mailInvite, mailUsers } from '../../core/projects/mails.js';
import { ROLE_TABLES, usersByEmail } from './queries.js';
import { isInvitedAccount } from './rules.js';
import type { Actor } from '../../core/organisations/rules.js';

/** Moderators and participants of a project, and invitations to become one (§A5.5, §B14, §C12–C14). */

/** Addresses from a comma- or space-separated list; the ones that are no e-mail address are returned apart. */
export function parseAddresses(text: string): { emails: string[]; invalid: string[] } {
  const tokens = [...new Set(text.split(/[\s,;]+/).map((s) => s.trim()).filter(Boolean))];
  return { emails: tokens.filter(isEmail), invalid: tokens.filter((s) => !isEmail(s)) };
}

export const invitePath = (orgSlug: string, role: InviteRole, token: string) => `/${orgSlug}/projects/${role}-invites/${token}/`;

interface ProjectRef {
  id: number;
  slug: string;
  name: string;
  organisationSlug: string;
  organisationName: string;
  organisationLanguage: string;
}

/** Invites every address that is neither a member nor invited yet; says which were skipped. */
export async function inviteMembers(tx: Tx, project: ProjectRef, role: InviteRole, emails: string[], actor: Actor) {
  const table = ROLE_TABLES[role];
  const known = await usersByEmail(tx, emails);
  const memberIds = new Set(
    (await tx.select({ id: table.userId }).from(table).where(and(eq(table.projectId, project.id), inArray(table.userId, known.length ? known.map((u) => u.id) : [0])))).map((r) => r.id),
  );
  const alreadyMembers = known.filter((u) => memberIds.has(u.id)).map((u) => u.email.toLowerCase());
  const pending = await tx
    .select({ email: projectInvites.email })
    .from(projectInvites)
    .where(and(eq(projectInvites.projectId, project.id), eq(projectInvites.role, role), inArray(sql`lower(${projectInvites.email})`, emails.map((e) => e.toLowerCase()))));
  const alreadyInvited = pending.map((p) => p.email.toLowerCase());
  const invited: string[] = [];
  const brand = await organisationBrand(tx, project.organisationSlug, actor.origin);
  for (const email of emails) {
    const lower = email.toLowerCase();
    if (alreadyMembers.includes(lower) || alreadyInvited.includes(lower)) continue;
    const token = randomUUID();
    await tx.insert(projectInvites).values({ token, projectId: project.id, role, email, creatorId: actor.id });
    const user = known.find((u) => u.email.toLowerCase() === lower);
    const lang: Lang = isLang(user?.language) ? user.language : isLang(project.organisationLanguage) ? project.organisationLanguage : 'de';
    const vars = { project: project.name, organisation: project.organisationName, actor: actor.username, url: `${actor.origin}${invitePath(project.organisationSlug, role, token)}`, brand };
    await mailInvite(tx, role, email, lang, vars);
    invited.push(email);
  }
  return { invited, alreadyMembers, alreadyInvited };
}

/** A new moderator (who accepted an invitation) is told where her moderation queue is. */
async function appointModerator(tx: Tx, project: ProjectRef, userId: number, actor: Actor) {
  await addModerator(tx, project.id, userId);
  const vars = { project: project.name, organisation: project.organisationName, actor: actor.username, url: `${actor.origin}/userdashboard/moderation/`, brand: await organisationBrand(tx, project.organisationSlug, actor.origin) };
  await mailUsers(tx, 'moderator_appointed', [userId], vars, { notifications: false });
}

/** Adds users as participants and welcomes them (§C14); returns those who were not participants yet. */
export async function addParticipants(tx: Tx, project: ProjectRef, userIds: number[], actor: Actor): Promise<number[]> {
  const table = ROLE_TABLES.participant;
  const existing = new Set((await tx.select({ id: table.userId }).from(table).where(eq(table.projectId, project.id))).map((r) => r.id));
  const added = [...new Set(userIds)].filter((id) => !existing.has(id));
  for (const id of added) await addParticipant(tx, project.id, id);
  const url = `${actor.origin}${projectPath(project.organisationSlug, project.slug)}`;
  const brand = await organisationBrand(tx, project.organisationSlug, actor.origin);
  await mailUsers(tx, 'welcome_participant', added, { project: project.name, organisation: project.organisationName, actor: actor.username, url, brand }, { notifications: false });
  return added;
}

/** Removing only ends the role; the user keeps his follow (§B14.3). */
export async function removeMember(tx: DbOrTx, projectId: number, role: InviteRole, userId: number): Promise<void> {
  const table = ROLE_TABLES[role];
  await tx.delete(table).where(and(eq(table.projectId, projectId), eq(table.userId, userId)));
}

export async function removeInvite(tx: DbOrTx, projectId: number, role: InviteRole, inviteId: number): Promise<void> {
  await tx.delete(projectInvites).where(and(eq(projectInvites.id, inviteId), eq(projectInvites.projectId, projectId), eq(projectInvites.role, role)));
}

/** Users by username or confirmed e-mail address (case-insensitive); the names that match nobody are returned apart. */
export async function findUsers(db: DbOrTx, names: string[]) {
  if (!names.length) return { found: [], unknown: [] };
  const lower = names.map((n) => n.toLowerCase());
  const rows = await db
    .select({ id: users.id, username: users.username, email: users.email, emailVerified: users.emailVerified })
    .from(users)
    .where(and(eq(users.isActive, true), sql`(lower(${users.username}) in ${lower} or (lower(${users.email}) in ${lower} and ${users.emailVerified}))`));
  const matches = (n: string) => (r: (typeof rows)[number]) => r.username.toLowerCase() === n.toLowerCase() || (r.emailVerified && r.email.toLowerCase() === n.toLowerCase());
  const unknown = names.filter((n) => !rows.some(matches(n)));
  return { found: rows.map(({ emailVerified: _v, ...r }) => r), unknown };
}

/** An invitation by its token, with its project. */
export async function loadInvite(db: DbOrTx, role: InviteRole, token: string) {
  if (!/^[0-9a-f-]{36}$/i.test(token)) return null;
  const [row] = await db.select().from(projectInvites).where(and(eq(projectInvites.token, token), eq(projectInvites.role, role)));
  return row ?? null;
}

/**
 * Accepting makes the signed-in user a moderator (who then follows the project) or a participant
 * (who is welcomed). Decision (participation-facts §G7): only the owner of the invited address may
 * accept, so a forwarded or leaked link does not let someone else in; the owner is the account
 * that confirmed the address (issue 21, finding 2), read inside the transaction.
 */
export async function answerInvite(
  tx: Tx,
  invite: { id: number; role: InviteRole; email: string; projectId: number },
  user: { id: number },
  accept: boolean,
  project: ProjectRef,
  actor: Actor,
): Promise<'accepted' | 'rejected' | 'wrong_user'> {
  const [account] = await tx.select({ email: users.email, emailVerified: users.emailVerified }).from(users).where(eq(users.id, user.id));
  // Only the invited account may answer, also to decline (issue 21, finding 10: a leaked link must not cancel it).
  if (!(account && isInvitedAccount(invite, account))) return 'wrong_user';
  await tx.delete(projectInvites).where(eq(projectInvites.id, invite.id));
  if (!accept) return 'rejected';
  if (invite.role === 'moderator') await appointModerator(tx, project, user.id, actor);
  else await addParticipants(tx, project, [user.id], actor);
  return 'accepted';
}
