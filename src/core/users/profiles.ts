import { and, asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/** The public face of an active user, found by username (case-insensitively, as usernames are unique that way). */
export async function loadProfile(db: DbOrTx, username: string) {
  const [row] = await db
    .select({ id: users.id, username: users.username, bio: users.bio, avatar: users.avatar, dateJoined: users.dateJoined, homepage: users.homepage, twitterHandle: users.twitterHandle, facebookHandle: users.facebookHandle })
    .from(users)
    .where(and(sql`lower(${users.username}) = ${username.toLowerCase()}`, eq(users.isActive, true)));
  return row ?? null;
}

export type Profile = NonNullable<Awaited<ReturnType<typeof loadProfile>>>;

const publicColumns = { id: users.id, username: users.username, avatar: users.avatar };

/** Active users' public faces, by pk; with `id` only that one. */
export function loadPublicUsers(db: DbOrTx, id?: number) {
  return db
    .select(publicColumns)
    .from(users)
    .where(and(eq(users.isActive, true), id === undefined ? undefined : eq(users.id, id)))
    .orderBy(asc(users.id));
}
