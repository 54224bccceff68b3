import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type ContentKind, moderatorRemarks, modules } from '../../db/schema/index.js';
import { remarkableContentTypes } from '../../core/modules/registry.js';
import { contentTypeId } from '../../core/contenttypes/registry.js';

/** The page that keeps an item's remark: `/moderatorremarks/<content type>/<id>/` (the item pages' remark box posts here). */
export const remarkPath = (kind: ContentKind, pk: number) => `/moderatorremarks/${contentTypeId(kind)}/${pk}/`;

export interface RemarkRow {
  id: number;
  contentType: ContentKind;
  objectPk: number;
  remark: string;
  creatorId: number | null;
  created: Date;
  modified: Date | null;
}

/** The remark on one item, or null. */
export async function loadRemark(db: DbOrTx, kind: ContentKind, pk: number): Promise<RemarkRow | null> {
  const [row] = await db.select().from(moderatorRemarks).where(and(eq(moderatorRemarks.contentType, kind), eq(moderatorRemarks.objectPk, pk)));
  return row ?? null;
}

/** The remarks on some items of one kind, by item id (the export): one statement. */
export async function loadRemarksOf(db: DbOrTx, kind: ContentKind, ids: number[]): Promise<Map<number, string>> {
  if (!ids.length) return new Map();
  const rows = await db.select({ pk: moderatorRemarks.objectPk, remark: moderatorRemarks.remark }).from(moderatorRemarks).where(and(eq(moderatorRemarks.contentType, kind), inArray(moderatorRemarks.objectPk, ids)));
  return new Map(rows.map((r) => [r.pk, r.remark]));
}

/**
 * The remarks on the items of a project's modules, every remarkable kind (the registry's
 * `inModules` subqueries), newest change first: one statement, then each kind's names and pages.
 */
export async function loadProjectRemarks(db: DbOrTx, projectId: number) {
  const kinds = remarkableContentTypes();
  if (!kinds.length) return [];
  const moduleIds = sql`(select ${modules.id} from ${modules} where ${modules.projectId} = ${projectId})`;
  const items = sql.join(
    kinds.map((kind) => sql`select ${kind.kind}::text as kind, i.id from (${kind.inModules(moduleIds)}) i`),
    sql` union all `,
  );
  const result = (await db.execute(sql`
    select r.content_type as kind, r.object_pk as pk, r.remark, coalesce(r.modified, r.created) as changed
    from ${moderatorRemarks} r join (${items}) items on items.kind = r.content_type and items.id = r.object_pk
    where r.remark <> '' order by changed desc, r.id desc`)) as unknown as { rows: { kind: ContentKind; pk: number | string; remark: string; changed: string | Date }[] };
  const rows = result.rows.map((r) => ({ kind: r.kind, pk: Number(r.pk), remark: r.remark, changed: new Date(r.changed) }));
  const pages = new Map<ContentKind, Map<number, { path: string; name: string }>>();
  for (const kind of kinds) {
    const ids = rows.filter((r) => r.kind === kind.kind).map((r) => r.pk);
    if (ids.length && kind.pages) pages.set(kind.kind, await kind.pages(db, ids));
  }
  return rows.flatMap((r) => {
    const page = pages.get(r.kind)?.get(r.pk);
    return page ? [{ ...r, path: page.path, name: page.name }] : [];
  });
}

export type ProjectRemark = Awaited<ReturnType<typeof loadProjectRemarks>>[number];
