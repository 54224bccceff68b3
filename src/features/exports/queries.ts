import { and, asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { modules, organisations, projects } from '../../db/schema/index.js';

/** Rows read per statement: an export of any size holds one batch at a time. */
export const EXPORT_BATCH = 500;

/** The module an export is about, found under its organisation (another organisation's module is not found). */
export async function findExportModule(db: DbOrTx, orgSlug: string, moduleSlug: string) {
  const [row] = await db
    .select({ id: modules.id, name: modules.name, slug: modules.slug, blueprintType: modules.blueprintType, isDraft: modules.isDraft, projectId: projects.id, projectSlug: projects.slug, projectName: projects.name })
    .from(modules)
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(organisations.slug, orgSlug), eq(modules.slug, moduleSlug)));
  return row ?? null;
}
/** A project's modules with what the export rule asks (`mayExportModule`), in menu order. */
export const loadProjectExportModules = (db: DbOrTx, projectId: number) =>
  db
    .select({ name: modules.name, slug: modules.slug, blueprintType: modules.blueprintType, isDraft: modules.isDraft })
    .from(modules)
    .where(eq(modules.projectId, projectId))
    .orderBy(asc(modules.weight), asc(modules.id));

/** Reads a table in id order, one batch per statement, until a batch comes back short. */
export async function* keysetBatches<R extends { id: number }>(read: (afterId: number) => Promise<R[]>, size: number): AsyncGenerator<R[]> {
  let afterId = 0;
  for (;;) {
    const batch = await read(afterId);
    if (batch.length) yield batch;
    if (batch.length < size) return;
    afterId = batch[batch.length - 1].id;
  }
}
