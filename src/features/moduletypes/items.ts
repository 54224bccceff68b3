import type { DbOrTx } from '../../db/client.js';
import { denied } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { loadModulePage } from '../../core/modules/queries.js';
import { canViewModule } from '../../core/modules/rules.js';
import { loadModuleContext } from '../../core/projects/context.js';
import type { RuleUser } from '../../core/projects/rules.js';

/** A module as the pages of a module type's items show it: its details, project and organisation names. */
export type ItemModule = NonNullable<Awaited<ReturnType<typeof loadModulePage>>>;

/**
 * The module of an item page (a chapter, paragraph, subject or topic) with the viewer's rule
 * context. What the viewer may not see answers as the reference does: 404 for a signed-in visitor
 * (the item inside a private or draft project stays hidden), the login page for an anonymous one.
 */
export async function viewableModule(db: DbOrTx, orgSlug: string, moduleSlug: string, user: RuleUser) {
  const module = await loadModulePage(db, orgSlug, moduleSlug);
  const context = module && (await loadModuleContext(db, module.id, user));
  if (!module || !context) throw notFound();
  if (!canViewModule(context)) throw user ? notFound() : denied(null);
  return { module, context };
}
