import { eq } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { proposals } from './schema.js';

/** Changes a proposal's budget (the edit form). */
export async function updateBudget(tx: Tx, id: number, budget: number): Promise<void> {
  await tx.update(proposals).set({ budget }).where(eq(proposals.id, id));
}

/** Archives a proposal or takes it back (the moderation form): archived ones are hidden from the list by default. */
export async function setArchived(tx: Tx, id: number, isArchived: boolean): Promise<void> {
  await tx.update(proposals).set({ isArchived }).where(eq(proposals.id, id));
}
