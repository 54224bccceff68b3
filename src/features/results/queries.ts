import { and, asc, eq, inArray, isNotNull, ne, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { qualified as q } from '../../db/sql.js';
import { type ContentKind, modules, organisations, projects, users } from '../../db/schema/index.js';
import { resultableContentTypes, winnerContentType } from '../../core/modules/registry.js';
import { DEFAULT_STATUSES, effectiveProgress, overallProgress } from './rules.js';
import { resultEntries, resultLinks, results, resultStatuses } from './schema.js';

/** The public page of a result: `/<org>/results/<id>/`. */
export const resultPath = (orgSlug: string, id: number) => `/${orgSlug}/results/${id}/`;
/** The organisation's overview of every result. */
export const organisationResultsPath = (orgSlug: string) => `/${orgSlug}/results/`;
/** Where a project's results are managed (initiators and moderators). */
export const manageResultsPath = (orgSlug: string, projectSlug: string) => `/${orgSlug}/results/project/${projectSlug}/`;
/** Where an organisation's statuses are kept. */
export const statusesPath = (orgSlug: string) => `/${orgSlug}/results/statuses/`;

export interface StatusRow {
  id: number;
  name: string;
  description: string;
  progress: number;
}

/**
 * The statuses offered to choose from: the organisation's, or, while it has none stored, the
 * defaults with negative ids (a read never writes; the first write that needs them stores them:
 * `services.storedStatuses`).
 */
export async function statusChoices(db: DbOrTx, organisationId: number): Promise<StatusRow[]> {
  const rows = await loadStatuses(db, organisationId);
  return rows.length ? rows : DEFAULT_STATUSES.map((s, i) => ({ id: -(i + 1), name: s.name, description: s.description, progress: s.progress }));
}

/** An organisation's statuses in their order. */
export async function loadStatuses(db: DbOrTx, organisationId: number): Promise<StatusRow[]> {
  return db
    .select({ id: resultStatuses.id, name: resultStatuses.name, description: resultStatuses.description, progress: resultStatuses.progress })
    .from(resultStatuses)
    .where(eq(resultStatuses.organisationId, organisationId))
    .orderBy(asc(resultStatuses.position), asc(resultStatuses.id));
}

const resultColumns = {
  id: results.id,
  projectId: results.projectId,
  parentId: results.parentId,
  statusId: results.statusId,
  title: results.title,
  description: results.description,
  category: results.category,
  district: results.district,
  lat: results.lat,
  lng: results.lng,
  startDate: results.startDate,
  endDate: results.endDate,
  budgetPlanned: results.budgetPlanned,
  budgetSpent: results.budgetSpent,
  progress: results.progress,
  statusName: resultStatuses.name,
  statusProgress: resultStatuses.progress,
  links: sql<number>`(select count(*) from ${resultLinks} l where l.result_id = ${results.id})`.mapWith(Number),
};

export type ResultRow = Awaited<ReturnType<typeof loadProjectResults>>[number];

/**
 * A project's results in creation order, each with its status, link count and effective progress
 * (own, the mean of its children's, or its status's): one statement however many.
 */
export async function loadProjectResults(db: DbOrTx, projectId: number) {
  const rows = await db.select(resultColumns).from(results).leftJoin(resultStatuses, eq(resultStatuses.id, results.statusId)).where(eq(results.projectId, projectId)).orderBy(asc(results.id));
  const progress = effectiveProgress(rows);
  return rows.map((row) => ({ ...row, effective: progress.get(row.id) ?? 0 }));
}

/** The overall progress of a project's results (the mean of its top-level results'). */
export const projectProgress = (rows: ResultRow[]) =>
  overallProgress(
    rows,
    new Map(rows.map((r) => [r.id, r.effective])),
  );

/** A result by id inside an organisation (a result of another organisation is not found), with its project. */
export async function findResult(db: DbOrTx, orgSlug: string, id: number) {
  const [row] = await db
    .select({ ...resultColumns, projectSlug: projects.slug, projectName: projects.name, organisationId: organisations.id, organisationName: organisations.name, created: results.created })
    .from(results)
    .innerJoin(projects, eq(projects.id, results.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .leftJoin(resultStatuses, eq(resultStatuses.id, results.statusId))
    .where(and(eq(organisations.slug, orgSlug), eq(results.id, id)));
  return row ?? null;
}

export type FoundResult = NonNullable<Awaited<ReturnType<typeof findResult>>>;

/** A result's timeline, oldest first, with the authors' names. */
export async function loadEntries(db: DbOrTx, resultId: number) {
  return db
    .select({ id: resultEntries.id, date: resultEntries.date, text: resultEntries.text, image: resultEntries.image, changes: resultEntries.changes, created: resultEntries.created, authorName: users.username })
    .from(resultEntries)
    .leftJoin(users, eq(users.id, resultEntries.authorId))
    .where(eq(resultEntries.resultId, resultId))
    .orderBy(asc(resultEntries.date), asc(resultEntries.id));
}

export type EntryRow = Awaited<ReturnType<typeof loadEntries>>[number];

export interface LinkedContribution {
  kind: ContentKind;
  pk: number;
  name: string;
  path: string;
}

/** Names and pages of contributions, through their kinds' `pages` (a constant number of statements per kind). */
async function contributionPages(db: DbOrTx, links: { kind: ContentKind; pk: number }[]): Promise<LinkedContribution[]> {
  const out: LinkedContribution[] = [];
  for (const type of resultableContentTypes()) {
    const ids = links.filter((l) => l.kind === type.kind).map((l) => l.pk);
    if (!ids.length || !type.pages) continue;
    const pages = await type.pages(db, ids);
    for (const id of ids) {
      const page = pages.get(id);
      if (page) out.push({ kind: type.kind, pk: id, name: page.name, path: page.path });
    }
  }
  return out;
}

/** The contributions a result answers. */
export async function loadLinks(db: DbOrTx, resultId: number): Promise<LinkedContribution[]> {
  const rows = await db.select({ kind: resultLinks.contentType, pk: resultLinks.objectPk }).from(resultLinks).where(eq(resultLinks.resultId, resultId)).orderBy(asc(resultLinks.created));
  return contributionPages(db, rows);
}

/** Every contribution of a project's modules that a result may answer (every resultable kind), as rows (kind, id, name). */
function contributionsOf(projectId: number): SQL | null {
  const kinds = resultableContentTypes();
  if (!kinds.length) return null;
  const moduleIds = sql`(select ${modules.id} from ${modules} where ${modules.projectId} = ${projectId})`;
  return sql.join(
    kinds.map((kind) => sql`select ${kind.kind}::text as kind, i.id, i.name from (${kind.resultable.named(moduleIds)}) i(id, name)`),
    sql` union all `,
  );
}

/** Every contribution of a project that a result may answer, by kind and number: one statement (the import's check). */
export async function projectContributions(db: DbOrTx, projectId: number): Promise<{ kind: ContentKind; pk: number }[]> {
  const items = contributionsOf(projectId);
  if (!items) return [];
  const result = (await db.execute(sql`select items.kind, items.id from (${items}) items`)) as unknown as { rows: { kind: ContentKind; id: number | string }[] };
  return result.rows.map((r) => ({ kind: r.kind, pk: Number(r.id) }));
}

/** How many contributions the link form offers at once. */
export const LINKABLE_PAGE_SIZE = 50;

/**
 * The contributions of a project's modules that the result may answer and does not yet (every
 * resultable kind), by kind and number: one page of them and how many there are, all of them or
 * those whose name holds `search` (any case). The database searches, counts and pages them in one
 * statement; the names and pages of the page shown come from each kind's `pages`.
 */
export async function loadLinkable(db: DbOrTx, projectId: number, resultId: number, query: { search: string; page: number }): Promise<{ count: number; items: LinkedContribution[] }> {
  const items = contributionsOf(projectId);
  if (!items) return { count: 0, items: [] };
  const linked = sql`exists (select 1 from ${resultLinks} l where l.result_id = ${resultId} and l.content_type = items.kind and l.object_pk = items.id)`;
  const search = query.search.trim();
  const found = search ? sql`strpos(lower(items.name), lower(${search})) > 0` : sql`true`;
  const result = (await db.execute(
    sql`select items.kind, items.id, count(*) over () as total from (${items}) items where not ${linked} and ${found} order by items.kind, items.id limit ${LINKABLE_PAGE_SIZE} offset ${(query.page - 1) * LINKABLE_PAGE_SIZE}`,
  )) as unknown as { rows: { kind: ContentKind; id: number | string; total: number | string }[] };
  const rows = result.rows.map((r) => ({ kind: r.kind, pk: Number(r.id) }));
  return { count: Number(result.rows[0]?.total ?? 0), items: await contributionPages(db, rows) };
}

/** Whether an object of a kind lies in a project's modules (a link to another project's contribution is refused). */
export async function contributionInProject(db: DbOrTx, projectId: number, kind: ContentKind, pk: number): Promise<{ creatorId: number | null } | null> {
  const type = resultableContentTypes().find((c) => c.kind === kind);
  if (!type) return null;
  const target = await type.target(db, pk);
  if (!target) return null;
  const [module] = await db.select({ id: modules.id }).from(modules).where(and(eq(modules.id, target.moduleId), eq(modules.projectId, projectId)));
  return module ? { creatorId: target.creatorId } : null;
}

/** The modules of a project whose vote has winners, with them (the results dashboard's "from the winners"). */
export async function loadWinnerModules(db: DbOrTx, projectId: number) {
  const type = winnerContentType();
  if (!type?.winners) return [];
  const rows = await db.select({ id: modules.id, name: modules.name }).from(modules).where(eq(modules.projectId, projectId)).orderBy(asc(modules.weight), asc(modules.id));
  const out: { id: number; name: string; kind: ContentKind; winners: { id: number; name: string; budget: number }[] }[] = [];
  for (const module of rows) {
    const winners = await type.winners(db, module.id);
    if (winners.length) out.push({ ...module, kind: type.kind, winners });
  }
  return out;
}

/**
 * "This became part of": the results that answer an object, with their status and progress as
 * their own pages show it (`rules.effectiveProgress`): one statement.
 */
export async function loadResultsOf(db: DbOrTx, kind: ContentKind, pk: number): Promise<ResultOfItem[]> {
  return (await loadResultsOfEach(db, kind, [pk])).get(pk) ?? [];
}

/** A result that answers an object, as "This became part of" shows it. */
export interface ResultOfItem {
  id: number;
  title: string;
  statusName: string | null;
  progress: number;
  orgSlug: string;
  path: string;
}

/**
 * The same for several objects of a kind (a poll's questions), by object: one statement, which
 * reads every result of the projects concerned (none when nothing is linked), so that a progress
 * made of the parts' parts is the one the result's page shows.
 */
export async function loadResultsOfEach(db: DbOrTx, kind: ContentKind, pks: number[]): Promise<Map<number, ResultOfItem[]>> {
  const byObject = new Map<number, ResultOfItem[]>();
  if (!pks.length) return byObject;
  const objects = sql.join(pks.map((pk) => sql`${pk}`), sql`, `);
  const answered = sql<number[]>`array(select l.object_pk from ${resultLinks} l where l.result_id = ${q(results.id)} and l.content_type = ${kind} and l.object_pk in (${objects}) order by l.object_pk)`;
  const concerned = sql`(select r.project_id from ${resultLinks} l join ${results} r on r.id = l.result_id where l.content_type = ${kind} and l.object_pk in (${objects}))`;
  const rows = await db
    .select({ id: results.id, parentId: results.parentId, progress: results.progress, statusProgress: resultStatuses.progress, title: results.title, statusName: resultStatuses.name, orgSlug: organisations.slug, answered })
    .from(results)
    .innerJoin(projects, eq(projects.id, results.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .leftJoin(resultStatuses, eq(resultStatuses.id, results.statusId))
    .where(sql`${results.projectId} in ${concerned}`)
    .orderBy(asc(results.id));
  const progress = effectiveProgress(rows);
  for (const row of rows) {
    const item = { id: row.id, title: row.title, statusName: row.statusName, progress: progress.get(row.id) ?? 0, orgSlug: row.orgSlug, path: resultPath(row.orgSlug, row.id) };
    for (const pk of row.answered.map(Number)) byObject.set(pk, [...(byObject.get(pk) ?? []), item]);
  }
  return byObject;
}

/**
 * The organisation's overview: the results of its published projects that everyone may see (public
 * and semi-public; a private project's results stay on its own pages), by project: one statement.
 */
export async function loadOrganisationResults(db: DbOrTx, organisationId: number) {
  const rows = await db
    .select({ ...resultColumns, projectSlug: projects.slug, projectName: projects.name })
    .from(results)
    .innerJoin(projects, eq(projects.id, results.projectId))
    .leftJoin(resultStatuses, eq(resultStatuses.id, results.statusId))
    .where(and(eq(projects.organisationId, organisationId), eq(projects.isDraft, false), ne(projects.access, 'PRIVATE')))
    .orderBy(asc(projects.name), asc(projects.id), asc(results.id));
  const progress = effectiveProgress(rows);
  return rows.map((row) => ({ ...row, effective: progress.get(row.id) ?? 0 }));
}

/** The results of a project's export and the API: every field, the status by name, the links as `kind:id`: two statements. */
export async function loadResultsForExport(db: DbOrTx, projectId: number) {
  const rows = await loadProjectResults(db, projectId);
  const ids = rows.map((r) => r.id);
  const links = ids.length ? await db.select({ resultId: resultLinks.resultId, kind: resultLinks.contentType, pk: resultLinks.objectPk }).from(resultLinks).where(inArray(resultLinks.resultId, ids)) : [];
  return rows.map((row) => ({ ...row, linked: links.filter((l) => l.resultId === row.id).map((l) => `${l.kind}:${l.pk}`) }));
}

export type ExportRow = Awaited<ReturnType<typeof loadResultsForExport>>[number];

/** An organisation by its slug (the overview). */
export async function organisationBySlug(db: DbOrTx, slug: string) {
  const [row] = await db.select({ id: organisations.id, name: organisations.name, slug: organisations.slug }).from(organisations).where(eq(organisations.slug, slug));
  return row ?? null;
}

/** The parent chain guard's data: a project's results' ids and parents. */
export async function loadTree(db: DbOrTx, projectId: number) {
  return db.select({ id: results.id, parentId: results.parentId, title: results.title }).from(results).where(eq(results.projectId, projectId)).orderBy(asc(results.id));
}

/** The first status of an organisation whose default progress is 0 (new results from winners take it), else the first. */
export const startingStatus = (statuses: StatusRow[]) => statuses.find((s) => s.progress === 0) ?? statuses[0] ?? null;


/** The images of the timeline entries that `where` picks (distinct): what a deletion leaves to remove from the media store. */
export async function entryImages(db: DbOrTx, where: SQL | undefined): Promise<string[]> {
  const rows = await db.selectDistinct({ image: resultEntries.image }).from(resultEntries).where(and(where, isNotNull(resultEntries.image)));
  return rows.flatMap((row) => (row.image ? [row.image] : []));
}

/** The timeline images of every result of a project (deleted with it). */
export const projectResultImages = (db: DbOrTx, projectId: number) =>
  entryImages(db, inArray(resultEntries.resultId, db.select({ id: results.id }).from(results).where(eq(results.projectId, projectId))));
