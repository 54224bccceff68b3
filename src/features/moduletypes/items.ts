import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { modules, organisationInitiators, projects, users } from '../../db/schema/index.js';
import { denied } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { loadModulePage } from '../../core/modules/queries.js';
import { canViewModule } from '../../core/modules/rules.js';
import type { RuleUser } from '../../core/projects/rules.js';

/** A module as the pages of a module type's items show it: its details, project and organisation names. */
export type ItemModule = NonNullable<Awaited<ReturnType<typeof loadModulePage>>>['module'];

/**
 * The module of an item page (a chapter, paragraph, subject or topic) with the viewer's rule
 * context. What the viewer may not see answers as the reference does: 404 for a signed-in visitor
 * (the item inside a private or draft project stays hidden), the login page for an anonymous one.
 */
export async function viewableModule(db: DbOrTx, orgSlug: string, moduleSlug: string, user: RuleUser) {
  const found = await loadModulePage(db, orgSlug, moduleSlug, user);
  if (!found) throw notFound();
  if (!canViewModule(found.context)) throw user ? notFound() : denied(null);
  return found;
}

/**
 * The author loaddata gives an item whose fixture names none (adhocracy+'s subjects and topics are
 * written by the module's initiators): the organisation's first initiator, else the first
 * superuser; null when there is neither.
 */
export async function defaultItemCreator(db: DbOrTx, moduleId: number): Promise<number | null> {
  const [initiator] = await db
    .select({ id: organisationInitiators.userId })
    .from(modules)
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisationInitiators, eq(organisationInitiators.organisationId, projects.organisationId))
    .where(eq(modules.id, moduleId))
    .orderBy(asc(organisationInitiators.userId))
    .limit(1);
  if (initiator) return initiator.id;
  const [superuser] = await db.select({ id: users.id }).from(users).where(eq(users.isSuperuser, true)).orderBy(asc(users.id)).limit(1);
  return superuser?.id ?? null;
}
