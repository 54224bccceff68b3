import { and, asc, count, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { AnyPgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx, Tx } from '../../db/client.js';
import { comments, type ContentKind, modules, organisationInitiators, organisations, projects, users } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';
import { type AuthUser, denied } from '../../http/auth.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { loadModulePage } from '../../core/modules/queries.js';
import { canViewModule } from '../../core/modules/rules.js';
import type { LoadedModuleContext } from '../../core/projects/context.js';
import type { RuleUser } from '../../core/projects/rules.js';
import { ideaReferenceNumber } from '../../core/urls.js';

/** A module as the pages of a module type's items show it: its details, project and organisation names. */
export type ItemModule = NonNullable<Awaited<ReturnType<typeof loadModulePage>>>['module'];

/**
 * The module of an item page (a chapter, paragraph, subject or topic) with the viewer's rule
 * context. What the viewer may not see answers as the reference does: 404 for a signed-in visitor
 * (the item inside a private or draft project stays hidden), the login page for an anonymous one.
 */
export async function viewableModule(db: DbOrTx, orgSlug: string, moduleSlug: string, user: RuleUser, hidden: 'missing' | 'denied' = 'missing') {
  const found = await loadModulePage(db, orgSlug, moduleSlug, user);
  if (!found) throw notFound();
  if (!canViewModule(found.context)) throw !user ? denied(null) : hidden === 'missing' ? notFound() : permissionDenied();
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

/** What a list of a module's items (subjects, topics) shows of each. */
export interface ItemRow {
  id: number;
  moduleId: number;
  name: string;
  description: string;
  created: Date;
  creatorName: string;
  /** Comments and their replies (a+'s "Contributions"). */
  commentCount: number;
}

type IdColumn = AnyPgColumn<{ data: number; notNull: true }>;

/** How many comments an item has with their replies (removed ones too: a thread keeps its place), as a column of a statement on `id`'s table. */
export function commentCountOn(kind: ContentKind, id: IdColumn) {
  const pk = q(id);
  return sql<number>`(select count(*) from ${comments} c where (c.content_type = ${kind} and c.object_pk = ${pk})
    or (c.content_type = 'comment' and c.object_pk in (select p.id from ${comments} p where p.content_type = ${kind} and p.object_pk = ${pk})))`.mapWith(Number);
}

/** How many items each of the modules has (a module type's publish check), by the items' module column. */
export async function countPerModule(db: DbOrTx, moduleId: IdColumn, moduleIds: number[]): Promise<Map<number, number>> {
  if (!moduleIds.length) return new Map();
  const rows = await db.select({ moduleId, n: count() }).from(moduleId.table).where(inArray(moduleId, moduleIds)).groupBy(moduleId);
  return new Map(rows.map((r) => [r.moduleId, r.n]));
}

/** Where items live: their module and organisation (inside one organisation when it is given). */
export const itemPlaces = (db: DbOrTx, item: { id: IdColumn; name: AnyPgColumn<{ data: string; notNull: true }>; created: AnyPgColumn<{ data: Date; notNull: true }>; moduleId: IdColumn }, ids: number[], orgSlug?: string) =>
  db
    .select({ id: item.id, name: item.name, created: item.created, moduleId: item.moduleId, moduleSlug: modules.slug, orgSlug: organisations.slug })
    .from(item.id.table)
    .innerJoin(modules, eq(modules.id, item.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(inArray(item.id, ids), orgSlug === undefined ? undefined : eq(organisations.slug, orgSlug)));

/**
 * An item by its reference number inside an organisation (`places` finds where items live), with its
 * module and the viewer's rule context: 404 for a wrong number or an item of another organisation,
 * and as `viewableModule` for an item the viewer may not see.
 */
export async function viewableItem(
  db: DbOrTx,
  params: { org: string; ref: string },
  places: (db: DbOrTx, ids: number[], orgSlug: string) => Promise<{ id: number; created: Date; moduleSlug: string }[]>,
  user: RuleUser,
  hidden: 'missing' | 'denied' = 'missing',
) {
  const [year, pk] = params.ref.split('-').map(Number);
  if (!(pk >= 1 && pk <= 2147483647)) throw notFound();
  const [place] = await places(db, [pk], params.org);
  if (!place || ideaReferenceNumber(place.created, place.id) !== `${year}-${String(pk).padStart(5, '0')}`) throw notFound();
  return { pk, ...(await viewableModule(db, params.org, place.moduleSlug, user, hidden)) };
}

/**
 * The reference number of the item an old adhocracy+ slug address named (`legacy_slug`, kept by
 * import-aplus), or null. Its page then answers as for the reference number, except that an item
 * the viewer may not see is 404, not a login: a slug is guessable from a title (issue 21, finding 4,
 * as the old idea addresses).
 */
export async function legacyItemReference(
  db: DbOrTx,
  table: PgTable & { id: AnyPgColumn<{ data: number; notNull: true }>; created: AnyPgColumn<{ data: Date; notNull: true }>; legacySlug: AnyPgColumn },
  slug: string,
): Promise<string | null> {
  const [row] = await db.select({ id: table.id, created: table.created }).from(table).where(eq(table.legacySlug, slug.toLowerCase())).limit(1);
  return row ? ideaReferenceNumber(row.created, row.id) : null;
}

/** A module of the given type where the viewer may what `may` asks (add items, edit the text): 404 for a module of another type, else as `denied`. */
export async function moduleWhereMay(db: DbOrTx, params: { org: string; slug: string }, blueprintType: string, may: (context: LoadedModuleContext) => boolean, user: AuthUser | null) {
  const { module, context } = await viewableModule(db, params.org, params.slug, user);
  if (module.blueprintType !== blueprintType) throw notFound();
  if (!may(context)) throw denied(user);
  return module;
}

/** A content type's `target` for a table of items: an item's module and author. */
export const itemTarget =
  (item: { id: IdColumn; moduleId: IdColumn; creatorId: AnyPgColumn<{ data: number }> }) =>
  async (db: DbOrTx, id: number): Promise<{ moduleId: number; creatorId: number | null } | null> => {
    const [row] = await db.select({ moduleId: item.moduleId, creatorId: item.creatorId }).from(item.id.table).where(eq(item.id, id));
    return row ?? null;
  };

/**
 * A content type's `onAuthorDeleted` for items that belong to their project rather than to their
 * author (polls, chapters, subjects, topics: what a project's staff posts): they stay, handed over
 * to the placeholder account.
 */
export const handOverItems =
  (creator: AnyPgColumn<{ data: number }>) =>
  async (tx: Tx, userId: number, placeholderId: number): Promise<string[]> => {
    const column = sql.identifier(creator.name);
    await tx.execute(sql`update ${creator.table} set ${column} = ${placeholderId} where ${column} = ${userId}`);
    return [];
  };

/** A content type's `onAuthorDeleted` for a kind whose objects have no author (paragraphs). */
export const withoutAuthors = async (): Promise<string[]> => [];

/** A content type's `inModules` for a table of items with a module and an author. */
export const itemsInModules =
  (item: { id: IdColumn; moduleId: IdColumn; creatorId: AnyPgColumn<{ data: number }> }) =>
  (moduleIds: SQL): SQL =>
    sql`select ${item.id}, ${item.moduleId}, ${item.creatorId} from ${item.id.table} where ${item.moduleId} in (${moduleIds})`;

/** A resultable kind's `named` (registry `ContentTypeOfModule.resultable`): the (id, name) of its items in some modules. */
export const itemsNamed =
  (item: { id: IdColumn; moduleId: IdColumn; name: AnyPgColumn }) =>
  (moduleIds: SQL): SQL =>
    sql`select ${item.id}, ${item.name} from ${item.id.table} where ${item.moduleId} in (${moduleIds})`;

/** A module type's `facts`: how many items each module has, under `name` (what its publish check reads). */
export const itemCountFacts =
  (name: string, counts: (db: DbOrTx, moduleIds: number[]) => Promise<Map<number, number>>) =>
  async (db: DbOrTx, moduleIds: number[]): Promise<Map<number, Record<string, number>>> => {
    const byModule = await counts(db, moduleIds);
    return new Map(moduleIds.map((id) => [id, { [name]: byModule.get(id) ?? 0 }]));
  };
