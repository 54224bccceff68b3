import { and, eq, gt, lte, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../db/client.js';
import { usersvcLogins, usersvcServices, usersvcSessions, usersvcUsers } from '../db/schema/usersvc.js';
import { emailInUse, nameInUse } from './errors.js';
import { emailTaken, findUserForLogin, nameTaken } from './queries.js';
import { normaliseUserName } from './rules.js';
import { hashPassword, hashServiceKey, newServiceId, newServiceKey, newSessionToken } from './secrets.js';

interface NewUser {
  name: string;
  email: string;
  password: string;
  isAdmin?: boolean;
}

/** Raises 403 if another user has the e-mail address (checked first) or the name. */
async function assertNameAndEmailFree(db: DbOrTx, name: string, email: string, exceptId = 0): Promise<void> {
  if (await emailTaken(db, email, exceptId)) throw emailInUse();
  if (await nameTaken(db, name, exceptId)) throw nameInUse();
}

/** Which unique index a failed write ran into, if any. */
export function uniqueViolation(error: unknown): 'name' | 'email' | null {
  const outer = error as { code?: string; constraint?: string; message?: string; cause?: unknown };
  const cause = (outer.cause ?? outer) as { code?: string; constraint?: string; message?: string };
  if (cause.code !== '23505') return null;
  const where = `${cause.constraint ?? ''} ${cause.message ?? ''}`;
  if (where.includes('usersvc_users_email_key')) return 'email';
  if (where.includes('usersvc_users_name_key')) return 'name';
  return null;
}

function rethrowAsConflict(error: unknown): never {
  const field = uniqueViolation(error);
  if (field === 'email') throw emailInUse();
  if (field === 'name') throw nameInUse();
  throw error;
}

/**
 * Creates a user and returns the new id. Concurrent requests with one name or e-mail: the unique
 * indexes let exactly one insert through; the others find the winner and answer 403.
 */
export async function createUser(db: Tx, input: NewUser): Promise<number> {
  await assertNameAndEmailFree(db, input.name, input.email);
  const passwordHash = await hashPassword(input.password);
  const [row] = await db
    .insert(usersvcUsers)
    .values({ name: normaliseUserName(input.name), email: input.email, passwordHash, isAdmin: input.isAdmin ?? false })
    .onConflictDoNothing()
    .returning({ id: usersvcUsers.id });
  if (row) return row.id;
  await assertNameAndEmailFree(db, input.name, input.email);
  throw nameInUse(); // the conflicting user was deleted in between; the caller may retry
}

/** Deletes a user with her session and its logins; false if there was no such user. */
export async function deleteUser(db: Tx, id: number): Promise<boolean> {
  const rows = await db.delete(usersvcUsers).where(eq(usersvcUsers.id, id)).returning({ id: usersvcUsers.id });
  return rows.length > 0;
}

/** Sets a user's name; false if there is no such user; 403 if another user has it. */
export async function setUserName(db: Tx, id: number, name: string): Promise<boolean> {
  if (await nameTaken(db, name, id)) throw nameInUse();
  try {
    const rows = await db.update(usersvcUsers).set({ name: normaliseUserName(name) }).where(eq(usersvcUsers.id, id)).returning({ id: usersvcUsers.id });
    return rows.length > 0;
  } catch (error) {
    rethrowAsConflict(error);
  }
}

/** Sets a user's e-mail address; false if there is no such user; 403 if another user has it. */
export async function setUserEmail(db: Tx, id: number, email: string): Promise<boolean> {
  if (await emailTaken(db, email, id)) throw emailInUse();
  try {
    const rows = await db.update(usersvcUsers).set({ email }).where(eq(usersvcUsers.id, id)).returning({ id: usersvcUsers.id });
    return rows.length > 0;
  } catch (error) {
    rethrowAsConflict(error);
  }
}

const isActive = (now: Date) => and(lte(usersvcSessions.startsAt, now), gt(usersvcSessions.endsAt, now));

/** Expired sessions stop counting at once; this removes them (and, by cascade, their logins). */
export async function purgeExpiredSessions(db: Tx, now: Date): Promise<void> {
  await db.delete(usersvcSessions).where(lte(usersvcSessions.endsAt, now));
}

/**
 * Opens the user's session: one per user. An active session keeps its token, starts its lifetime
 * again and loses its logins; an expired one is replaced by a new token.
 */
export async function openSession(db: Db, userId: number, lifetimeSeconds: number, now: Date): Promise<string> {
  const endsAt = new Date(now.getTime() + lifetimeSeconds * 1000);
  return db.transaction(async (tx) => {
    await purgeExpiredSessions(tx, now);
    await tx.delete(usersvcSessions).where(and(eq(usersvcSessions.userId, userId), lte(usersvcSessions.endsAt, now)));
    const [row] = await tx
      .insert(usersvcSessions)
      .values({ token: newSessionToken(), userId, startsAt: now, endsAt, timeoutSeconds: lifetimeSeconds })
      .onConflictDoUpdate({ target: usersvcSessions.userId, set: { startsAt: now, endsAt, timeoutSeconds: lifetimeSeconds } })
      .returning({ token: usersvcSessions.token });
    await tx.delete(usersvcLogins).where(eq(usersvcLogins.token, row.token));
    return row.token;
  });
}

export async function closeSession(db: Tx, token: string): Promise<void> {
  await db.delete(usersvcSessions).where(eq(usersvcSessions.token, token));
}

/** Slides an active session's end to now + its timeout; false if the session does not count (any more). */
export async function extendSession(db: DbOrTx, token: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(usersvcSessions)
    .set({ endsAt: sql`${now.toISOString()}::timestamptz + ${usersvcSessions.timeoutSeconds} * interval '1 second'` })
    .where(and(eq(usersvcSessions.token, token), isActive(now)))
    .returning({ token: usersvcSessions.token });
  return rows.length > 0;
}

/** Records that the session's user is logged in to service `serviceId` (a set: twice is once). */
export async function addLogin(db: Db, token: string, serviceId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await extendSession(tx, token, now))) return false;
    await tx.insert(usersvcLogins).values({ token, serviceId }).onConflictDoNothing();
    return true;
  });
}

export async function removeLogin(db: Db, token: string, serviceId: string, now: Date): Promise<boolean> {
  return db.transaction(async (tx) => {
    if (!(await extendSession(tx, token, now))) return false;
    await tx.delete(usersvcLogins).where(and(eq(usersvcLogins.token, token), eq(usersvcLogins.serviceId, serviceId)));
    return true;
  });
}

/** True if the session counts and has a login for the service; then the session is extended too. */
export async function checkLogin(db: DbOrTx, token: string, serviceId: string, now: Date): Promise<boolean> {
  const rows = await db
    .update(usersvcSessions)
    .set({ endsAt: sql`${now.toISOString()}::timestamptz + ${usersvcSessions.timeoutSeconds} * interval '1 second'` })
    .where(
      and(
        eq(usersvcSessions.token, token),
        isActive(now),
        sql`exists (select 1 from ${usersvcLogins} where ${usersvcLogins.token} = ${token} and ${usersvcLogins.serviceId} = ${serviceId})`,
      ),
    )
    .returning({ token: usersvcSessions.token });
  return rows.length > 0;
}

/** Creates a service; returns its id and its key (the only time the key is seen in clear). */
export async function createService(db: Tx): Promise<[string, string]> {
  const key = newServiceKey();
  for (;;) {
    const id = newServiceId();
    const rows = await db.insert(usersvcServices).values({ id, keyHash: hashServiceKey(key) }).onConflictDoNothing().returning({ id: usersvcServices.id });
    if (rows.length > 0) return [id, key];
  }
}

type AdminOutcome = 'created' | 'present' | 'not-admin' | 'email-taken';

/** Creates the configured first admin if no user has that name yet. */
export async function ensureAdmin(db: Tx, admin: { name: string; email: string; password: string }): Promise<AdminOutcome> {
  const existing = await findUserForLogin(db, admin.name);
  if (existing) return existing.isAdmin ? 'present' : 'not-admin';
  const passwordHash = await hashPassword(admin.password);
  const rows = await db
    .insert(usersvcUsers)
    .values({ name: admin.name, email: admin.email, passwordHash, isAdmin: true })
    .onConflictDoNothing()
    .returning({ id: usersvcUsers.id });
  if (rows.length > 0) return 'created';
  return (await findUserForLogin(db, admin.name)) ? 'present' : 'email-taken';
}
