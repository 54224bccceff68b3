import { and, count, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { qualified as q } from '../../db/sql.js';
import type { ContentKind } from '../../db/schema/index.js';
import type { NoticeContext } from '../../mail/notices.js';
import { deleteActionsOf, recordAction } from '../../core/actions/services.js';
import { cleanRichText } from '../../text/html.js';
import { deleteCommentsOn } from '../comments/services.js';
import { sendResultNotice } from './notices.js';
import { entryImages, loadProjectResults, loadStatuses, resultPath, startingStatus, type StatusRow } from './queries.js';
import { DEFAULT_STATUSES, type EntryInput, isNoticedChange, nestedInThemselves, resultChanges, type ResultInput } from './rules.js';
import { resultEntries, resultLinks, results, resultStatuses } from './schema.js';

/** Where a write happens: the project (its organisation's slug for paths) and who writes. */
export interface ResultScope {
  projectId: number;
  projectName: string;
  orgSlug: string;
  organisationId: number;
  actorId: number | null;
}

const today = () => new Date().toISOString().slice(0, 10);

/** An organisation's statuses; the defaults ("planned", "in progress", "done") are made when it has none yet. */
async function ensureStatuses(tx: Tx, organisationId: number): Promise<StatusRow[]> {
  const statuses = await loadStatuses(tx, organisationId);
  if (statuses.length) return statuses;
  await tx.insert(resultStatuses).values(DEFAULT_STATUSES.map((s, position) => ({ organisationId, name: s.name, description: s.description, progress: s.progress, position })));
  return loadStatuses(tx, organisationId);
}

/**
 * The organisation's stored statuses (the defaults stored now if it has none), and a chosen status
 * id as stored: a default offered with a negative id (`queries.statusChoices`) becomes its stored twin.
 */
export async function storedStatuses(tx: Tx, organisationId: number) {
  const stored = await ensureStatuses(tx, organisationId);
  const idOf = (id: number | null | undefined) => (id === null || id === undefined || id > 0 ? id : (stored.find((s) => s.name === DEFAULT_STATUSES[-id - 1]?.name)?.id ?? null));
  return { stored, idOf };
}

export async function createStatus(tx: Tx, organisationId: number, input: { name: string; description: string; progress: number }): Promise<void> {
  await ensureStatuses(tx, organisationId);
  const [row] = await tx.select({ n: count() }).from(resultStatuses).where(eq(resultStatuses.organisationId, organisationId));
  await tx.insert(resultStatuses).values({ organisationId, ...input, position: row?.n ?? 0 });
}

/**
 * The results that show a status's default progress (no progress of their own, no parts) keep it
 * as their own before the status changes its default or goes: a progress never moves without an
 * entry in the timeline.
 */
async function keepStatusProgress(tx: Tx, organisationId: number, id: number, unless: number | null = null): Promise<void> {
  await tx.execute(sql`update ${results} set progress = s.progress from ${resultStatuses} s
    where s.id = ${id} and s.organisation_id = ${organisationId} and s.progress is distinct from ${unless}::smallint
      and ${q(results.statusId)} = s.id and ${q(results.progress)} is null
      and not exists (select 1 from ${results} part where part.parent_id = ${q(results.id)})`);
}

export async function updateStatus(tx: Tx, organisationId: number, id: number, input: { name: string; description: string; progress: number }): Promise<boolean> {
  await keepStatusProgress(tx, organisationId, id, input.progress);
  const rows = await tx.update(resultStatuses).set({ ...input, modified: new Date() }).where(and(eq(resultStatuses.id, id), eq(resultStatuses.organisationId, organisationId))).returning({ id: resultStatuses.id });
  return rows.length > 0;
}

/** Deletes a status; its results keep their progress and have no status then. */
export async function deleteStatus(tx: Tx, organisationId: number, id: number): Promise<boolean> {
  await keepStatusProgress(tx, organisationId, id);
  const rows = await tx.delete(resultStatuses).where(and(eq(resultStatuses.id, id), eq(resultStatuses.organisationId, organisationId))).returning({ id: resultStatuses.id });
  return rows.length > 0;
}

/** What the timeline compares of each result of a project, as shown: the status's name, the progress, the budgets. */
async function snapshots(tx: DbOrTx, projectId: number) {
  const rows = await loadProjectResults(tx, projectId);
  return new Map(rows.map((row) => [row.id, { status: row.statusName, progress: row.effective, budgetPlanned: row.budgetPlanned, budgetSpent: row.budgetSpent, title: row.title }]));
}

type Snapshots = Awaited<ReturnType<typeof snapshots>>;

/**
 * Records what changed (status, progress, budgets) as a timeline entry of `resultId` with `entry`'s
 * text, and for every other result whose progress moved with it (a parent, through its parts) an
 * entry of its own; tells the contributors and followers of each whose status changed or which
 * became complete.
 */
async function recordChange(tx: Tx, scope: ResultScope, resultId: number | null, before: Snapshots, entry: { date: string; text: string; image?: string | null }, notice: NoticeContext): Promise<void> {
  const after = await snapshots(tx, scope.projectId);
  for (const [id, now] of after) {
    const was = before.get(id);
    if (!was) continue;
    const own = id === resultId;
    const changes = resultChanges(was, now);
    if (!changes.length && !(own && (entry.text || entry.image))) continue;
    const text = own ? entry.text : '';
    await tx.insert(resultEntries).values({ resultId: id, authorId: scope.actorId, date: entry.date, text, image: own ? (entry.image ?? null) : null, changes });
    await recordAction(tx, { actorId: scope.actorId, verb: 'update', obj: { type: 'result', id }, target: { type: 'project', id: scope.projectId }, projectId: scope.projectId });
    if (isNoticedChange(changes, was.progress, now.progress)) {
      const result = { id, title: now.title, path: resultPath(scope.orgSlug, id), status: now.status ?? '', progress: now.progress };
      await sendResultNotice(tx, { kind: 'result_status', actorId: scope.actorId, projectId: scope.projectId, projectName: scope.projectName, result, text }, notice);
    }
  }
}

/**
 * The columns of a result. Its own progress is only the one given (the form's, the import's): left
 * empty, its progress comes from its parts, or else from its status's default (`rules.effectiveProgress`).
 */
const columnsOf = (input: ResultInput) => ({ ...input, description: cleanRichText(input.description) });

/** Adds a result to a project with its "add" action; a new part moves its parents' progress (recorded in their timelines). */
export async function createResult(tx: Tx, scope: ResultScope, input: ResultInput, notice: NoticeContext): Promise<number> {
  const before = input.parentId === null ? null : await snapshots(tx, scope.projectId);
  const [row] = await tx
    .insert(results)
    .values({ ...columnsOf(input), projectId: scope.projectId, creatorId: scope.actorId })
    .returning({ id: results.id });
  await recordAction(tx, { actorId: scope.actorId, verb: 'add', obj: { type: 'result', id: row.id }, target: { type: 'project', id: scope.projectId }, projectId: scope.projectId });
  if (before) await recordChange(tx, scope, row.id, before, { date: today(), text: '' }, notice);
  return row.id;
}

/** A result would become part of itself or of one of its parts. */
export class NestingRefused extends Error {
  constructor() {
    super('A result cannot be part of itself or of one of its parts.');
  }
}

/**
 * Refuses a parent that would make a result part of itself (`change`), or, without one, any result
 * of the project that is part of itself. The project's results are locked first, so that two
 * editors nesting results at the same moment are decided one after the other (the forms' choices
 * were read before the transaction).
 */
export async function refuseNestingInItself(tx: Tx, projectId: number, change?: { resultId: number; parentId: number }): Promise<void> {
  const tree = await tx.select({ id: results.id, parentId: results.parentId }).from(results).where(eq(results.projectId, projectId)).for('update');
  const parents = new Map(tree.map((row) => [row.id, row.parentId]));
  if (change) parents.set(change.resultId, change.parentId);
  if (nestedInThemselves(parents, change ? [change.resultId] : parents.keys()).size) throw new NestingRefused();
}

/**
 * Changes a result (an empty progress: from its parts, or its status's default); the change of
 * status, progress or budgets goes into the timeline (never silently).
 */
export async function updateResult(tx: Tx, scope: ResultScope, resultId: number, input: ResultInput, notice: NoticeContext, options: { nesting: 'checked now' | 'checked later' } = { nesting: 'checked now' }): Promise<void> {
  if (input.parentId !== null && options.nesting === 'checked now') await refuseNestingInItself(tx, scope.projectId, { resultId, parentId: input.parentId });
  const before = await snapshots(tx, scope.projectId);
  if (!before.has(resultId)) return;
  await tx.update(results).set({ ...columnsOf(input), modified: new Date() }).where(eq(results.id, resultId));
  await recordChange(tx, scope, resultId, before, { date: today(), text: '' }, notice);
}

/**
 * A timeline entry by the initiator (with an image already stored, if any), which may move the
 * result to a new progress or status. A new status without a progress drops the result's own: its
 * progress then comes from its parts, or else from the new status's default.
 */
export async function addEntry(tx: Tx, scope: ResultScope, resultId: number, input: EntryInput & { image?: string | null }, notice: NoticeContext): Promise<void> {
  const before = await snapshots(tx, scope.projectId);
  if (!before.has(resultId)) return;
  const set: { statusId?: number; progress?: number | null; modified?: Date } = {};
  if (input.statusId !== undefined) {
    set.statusId = input.statusId;
    set.progress = input.progress ?? null;
  } else if (input.progress !== undefined) set.progress = input.progress;
  if (Object.keys(set).length) await tx.update(results).set({ ...set, modified: new Date() }).where(eq(results.id, resultId));
  await recordChange(tx, scope, resultId, before, { date: input.date, text: input.text, image: input.image }, notice);
}

/**
 * Deletes the result with its sub-results, links, timeline, actions and discussion. Returns the
 * timeline's images, for the caller to remove from the media store once the transaction has committed.
 */
export async function deleteResult(tx: Tx, scope: ResultScope, resultId: number, notice: NoticeContext): Promise<string[]> {
  const before = await snapshots(tx, scope.projectId);
  // `union`, not `union all`: should parents ever form a cycle, the walk still ends.
  const tree = await tx.execute(sql`with recursive tree(id) as (select ${resultId}::int union select r.id from ${results} r join tree on r.parent_id = tree.id) select id from tree`);
  const ids = (tree as unknown as { rows: { id: number | string }[] }).rows.map((row) => Number(row.id));
  for (const id of ids) {
    await deleteActionsOf(tx, 'result', id);
    // Its discussion goes with it (comments, replies, their ratings, reports and feedback).
    await deleteCommentsOn(tx, 'result', id);
  }
  const images = await entryImages(tx, inArray(resultEntries.resultId, ids));
  await tx.delete(results).where(eq(results.id, resultId));
  // Its parents' progress moves without it.
  await recordChange(tx, scope, null, before, { date: today(), text: '' }, notice);
  return images;
}

/**
 * Links contributions to a result; each new link tells its author and the project's followers, and
 * goes into the author's feed. Returns how many were new.
 */
export async function linkContributions(tx: Tx, scope: ResultScope, resultId: number, links: { kind: ContentKind; pk: number; creatorId: number | null }[], notice: NoticeContext): Promise<number> {
  if (!links.length) return 0;
  const added = await tx
    .insert(resultLinks)
    .values(links.map((l) => ({ resultId, contentType: l.kind, objectPk: l.pk })))
    .onConflictDoNothing()
    .returning({ kind: resultLinks.contentType, pk: resultLinks.objectPk });
  if (!added.length) return 0;
  const fresh = links.filter((l) => added.some((a) => a.kind === l.kind && a.pk === l.pk));
  const now = (await snapshots(tx, scope.projectId)).get(resultId);
  if (now)
    await sendResultNotice(
      tx,
      { kind: 'result_linked', actorId: scope.actorId, projectId: scope.projectId, projectName: scope.projectName, result: { id: resultId, title: now.title, path: resultPath(scope.orgSlug, resultId), status: now.status ?? '', progress: now.progress }, links: fresh },
      notice,
    );
  return added.length;
}

export async function unlinkContribution(tx: Tx, resultId: number, kind: ContentKind, pk: number): Promise<void> {
  await tx.delete(resultLinks).where(and(eq(resultLinks.resultId, resultId), eq(resultLinks.contentType, kind), eq(resultLinks.objectPk, pk)));
}

/**
 * "The winners become results": one result per winner not yet answered by a result of the project,
 * titled after it, with its budget planned, the starting status, and the winner linked.
 */
export async function resultsFromWinners(
  tx: Tx,
  scope: ResultScope,
  winners: { kind: ContentKind; id: number; name: string; budget: number; creatorId: number | null }[],
  statuses: StatusRow[],
  notice: NoticeContext,
): Promise<number> {
  const taken = await tx
    .select({ kind: resultLinks.contentType, pk: resultLinks.objectPk })
    .from(resultLinks)
    .innerJoin(results, eq(results.id, resultLinks.resultId))
    .where(eq(results.projectId, scope.projectId));
  const start = startingStatus(statuses);
  let made = 0;
  for (const winner of winners.filter((w) => !taken.some((t) => t.kind === w.kind && t.pk === w.id))) {
    const id = await createResult(
      tx,
      scope,
      { title: winner.name.slice(0, 255), description: '', category: '', district: '', lat: null, lng: null, startDate: null, endDate: null, budgetPlanned: winner.budget, budgetSpent: null, statusId: start?.id ?? null, progress: null, parentId: null },
      notice,
    );
    await linkContributions(tx, scope, id, [{ kind: winner.kind, pk: winner.id, creatorId: winner.creatorId }], notice);
    made++;
  }
  return made;
}
