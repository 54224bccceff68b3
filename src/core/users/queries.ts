import { and, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';

/** Whether the install has an operator (an active superuser); without one the start page leads to the setup (issue 37). */
export async function operatorExists(db: DbOrTx): Promise<boolean> {
  const rows = await db.select({ id: users.id }).from(users).where(and(eq(users.isSuperuser, true), eq(users.isActive, true))).limit(1);
  return rows.length > 0;
}
