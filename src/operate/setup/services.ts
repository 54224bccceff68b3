import { sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { users } from '../../db/schema/index.js';
import type { Lang } from '../../i18n/index.js';
import { hashPassword } from '../../core/users/passwords.js';
import { operatorExists } from '../../core/users/queries.js';

/** One setup at a time: the lock orders two simultaneous first operators, and the second finds the first. */
const SETUP_LOCK = 37_0001;

/**
 * Creates the operator's account (superuser, staff, address confirmed: the setup code stood for
 * it); null when an operator exists already or the username or address is taken meanwhile.
 */
export async function createOperator(tx: Tx, input: { username: string; email: string; password: string; language: Lang }): Promise<{ id: number; language: string } | null> {
  await tx.execute(sql`select pg_advisory_xact_lock(${SETUP_LOCK})`);
  if (await operatorExists(tx)) return null;
  const [row] = await tx
    .insert(users)
    .values({ username: input.username, email: input.email, password: await hashPassword(input.password), language: input.language, isSuperuser: true, isStaff: true, emailVerified: true })
    .onConflictDoNothing()
    .returning({ id: users.id, language: users.language });
  return row ?? null;
}
