import { and, asc, eq, gt, lte, ne, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { usersvcServices, usersvcSessions, usersvcUsers } from '../db/schema/usersvc.js';
import { isStoredUserId, normaliseUserName } from './rules.js';

interface UserRow {
  id: number;
  name: string;
  email: string;
  isAdmin: boolean;
}

const userColumns = { id: usersvcUsers.id, name: usersvcUsers.name, email: usersvcUsers.email, isAdmin: usersvcUsers.isAdmin };

export async function findUser(db: DbOrTx, id: number): Promise<UserRow | null> {
  if (!isStoredUserId(id)) return null;
  const [row] = await db.select(userColumns).from(usersvcUsers).where(eq(usersvcUsers.id, id));
  return row ?? null;
}

/** Names compare as the unique index does: normalised, in any case. */
const sameName = (name: string) => sql`lower(${usersvcUsers.name}) = lower(${normaliseUserName(name)})`;

export async function findUserForLogin(db: DbOrTx, name: string): Promise<(UserRow & { passwordHash: string }) | null> {
  const [row] = await db
    .select({ ...userColumns, passwordHash: usersvcUsers.passwordHash })
    .from(usersvcUsers)
    .where(sameName(name));
  return row ?? null;
}

export async function listUserIds(db: DbOrTx): Promise<number[]> {
  const rows = await db.select({ id: usersvcUsers.id }).from(usersvcUsers).orderBy(asc(usersvcUsers.id));
  return rows.map((row) => row.id);
}

/** Whether another user (not `exceptId`) has this e-mail address (case-insensitively) or this name. */
export async function emailTaken(db: DbOrTx, email: string, exceptId = 0): Promise<boolean> {
  const rows = await db
    .select({ id: usersvcUsers.id })
    .from(usersvcUsers)
    .where(and(eq(sql`lower(${usersvcUsers.email})`, email.toLowerCase()), ne(usersvcUsers.id, exceptId)))
    .limit(1);
  return rows.length > 0;
}

export async function nameTaken(db: DbOrTx, name: string, exceptId = 0): Promise<boolean> {
  const rows = await db
    .select({ id: usersvcUsers.id })
    .from(usersvcUsers)
    .where(and(sameName(name), ne(usersvcUsers.id, exceptId)))
    .limit(1);
  return rows.length > 0;
}

interface SessionRow {
  token: string;
  userId: number;
  startsAt: Date;
  endsAt: Date;
}

const sessionColumns = {
  token: usersvcSessions.token,
  userId: usersvcSessions.userId,
  startsAt: usersvcSessions.startsAt,
  endsAt: usersvcSessions.endsAt,
};

/** The session with this token, active or not. */
export async function findSession(db: DbOrTx, token: string): Promise<SessionRow | null> {
  const [row] = await db.select(sessionColumns).from(usersvcSessions).where(eq(usersvcSessions.token, token));
  return row ?? null;
}

/** The session with this token if it counts now. */
export async function findActiveSession(db: DbOrTx, token: string, now: Date): Promise<SessionRow | null> {
  const [row] = await db
    .select(sessionColumns)
    .from(usersvcSessions)
    .where(and(eq(usersvcSessions.token, token), lte(usersvcSessions.startsAt, now), gt(usersvcSessions.endsAt, now)));
  return row ?? null;
}

export async function listServiceIds(db: DbOrTx): Promise<string[]> {
  const rows = await db
    .select({ id: usersvcServices.id })
    .from(usersvcServices)
    .orderBy(sql`${usersvcServices.id} collate "C"`);
  return rows.map((row) => row.id);
}

export async function findServiceKeyHash(db: DbOrTx, id: string): Promise<string | null> {
  const [row] = await db.select({ keyHash: usersvcServices.keyHash }).from(usersvcServices).where(eq(usersvcServices.id, id));
  return row?.keyHash ?? null;
}
