import { and, eq, getTableName, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { fromJson, preparedStatement, qualified as q } from '../../db/sql.js';
import type { AnswerInput } from '../customfields/rules.js';
import { deleteAnswersOf, saveAnswers } from '../customfields/services.js';
import { actions, categories, follows, labels, modules, ratings, reports, users } from '../../db/schema/index.js';
import type { IdeaKind } from './kinds.js';
import { cleanRichText, stripTags } from '../../text/html.js';
import { type NoticeContext } from '../../mail/notices.js';
import { queueProjectNotice } from '../../core/projects/notices.js';
import { deleteActionsOf, recordAction } from '../../core/actions/services.js';
import type { TermsAgreement } from '../../core/organisations/rules.js';
import { recordTermsAgreement } from '../../core/organisations/services.js';
import { deleteCommentsOn } from '../comments/services.js';
import { contributionCtes } from '../../core/insights/services.js';
import type { NamedRef } from '../../core/modules/queries.js';
import type { IdeaRow } from './queries.js';
import { FEEDBACK_TEXTS, wordOf } from './words.js';

interface NewIdea {
  id?: number;
  moduleId: number;
  creatorId: number;
  name: string;
  description: string;
  categoryId?: number | null;
  labelIds?: number[];
  image?: string | null;
  imageCopyright?: string;
  created?: Date;
  modified?: Date | null;
  /** The slug adhocracy+ gave the idea (loaddata only): its old address keeps working after a rename. */
  legacySlug?: string | null;
  /** The values of the kind's further columns (`IdeaKind.extraColumns`, by SQL name). */
  extra?: Record<string, unknown>;
}

async function projectOfModule(db: DbOrTx, moduleId: number): Promise<number> {
  const [module] = await db.select({ projectId: modules.projectId }).from(modules).where(eq(modules.id, moduleId));
  if (!module) throw new Error(`no module ${moduleId}`);
  return module.projectId;
}

/** The values of the idea-creating statement's placeholders. */
type CreateIdeaValues = {
  /** null: the next id of the sequence (loaddata keeps the reference's ids). */
  id: number | null;
  moduleId: number;
  creatorId: number;
  name: string;
  description: string;
  categoryId: number | null;
  labelIds: number[];
  image: string | null;
  imageCopyright: string;
  legacySlug: string | null;
  created: string;
  modified: string | null;
  /** The kind's further columns, `extra_0`, `extra_1`, … */
  [extra: `extra_${number}`]: unknown;
};

const value = (key: keyof CreateIdeaValues & string) => sql.placeholder(key);

/**
 * The idea, its labels, its "add" action (as recordAction stores it), the creator's follow of the
 * project (as autoFollow does) and the project's statistics (insights/services.ts) in one
 * statement, answering with the new idea as loadIdeas shows it. Prepared: built once per process.
 */
const insertStatement = (kind: IdeaKind) => preparedStatement<CreatedIdeaRow, CreateIdeaValues>(`${kind.kind}_create`, () => {
  const { table: ideas, labels: ideaLabels } = kind;
  const extraNames = sql.raw(kind.extraColumns.map((c) => `, ${c.name}`).join(''));
  const extraValues = sql.join(kind.extraColumns.map((c, i) => sql`, coalesce(${sql.placeholder(`extra_${i}`)}::${sql.raw(c.type)}, ${sql.raw(c.default ?? 'null')})`));
  const created = sql`${value('created')}::timestamptz`;
  const creatorId = sql`${value('creatorId')}::integer`;
  return sql`
    with m as (select ${modules.projectId} as project_id from ${modules} where ${modules.id} = ${value('moduleId')}),
    i as (
      insert into ${ideas} (id, module_id, creator_id, name, description, category_id, image, image_copyright, legacy_slug, created, modified${extraNames})
      values (coalesce(${value('id')}::integer, nextval(pg_get_serial_sequence(${sql.raw(`'${getTableName(ideas)}'`)}, 'id'))), ${value('moduleId')}, ${creatorId}, ${value('name')}, ${value('description')},
        ${value('categoryId')}, ${value('image')}, ${value('imageCopyright')}, ${value('legacySlug')}, ${created}, ${value('modified')}::timestamptz${extraValues})
      returning id, module_id, creator_id, name, description, category_id, image, image_copyright, created, moderator_status, moderator_feedback_text, moderator_feedback_date),
    l as (
      insert into ${ideaLabels} (${sql.raw(ideaLabels.ideaId.name)}, label_id)
      select i.id, x.label_id from i, unnest(${value('labelIds')}::integer[]) x (label_id)
      returning label_id),
    a as (
      insert into ${actions} (actor_id, verb, obj_type, obj_id, target_type, target_id, project_id, timestamp)
      select ${creatorId}, 'add', ${sql.raw(`'${kind.kind}'`)}, i.id, 'project', m.project_id, m.project_id, ${created} from i, m),
    f as (
      insert into ${follows} (creator_id, project_id, enabled, created)
      select ${creatorId}, m.project_id, true, ${created} from m
      on conflict (project_id, creator_id) do nothing),
    ${contributionCtes({ project: sql`m.project_id`, from: sql`from m, i`, creatorId, kind: 'ideas', at: created })}
    select i.*, u.username as creator_name, u.is_guest as creator_is_guest, c.name as category_name,
      (select json_agg(json_build_object('id', lb.id, 'name', lb.name) order by lb.id) from l join ${labels} lb on lb.id = l.label_id) as labels
    from i join ${users} u on u.id = i.creator_id left join ${categories} c on c.id = i.category_id`;
});

const insertStatements = new Map<string, ReturnType<typeof insertStatement>>();
const insertIdea = (kind: IdeaKind) => {
  let statement = insertStatements.get(kind.kind);
  if (!statement) insertStatements.set(kind.kind, (statement = insertStatement(kind)));
  return statement;
};

/**
 * Creates an idea the platform's way (insertIdea): one statement, so that it is atomic without a
 * transaction and costs one round trip. It answers with the new idea as loadIdeas shows it (a new
 * idea has no comments or ratings yet), so the API needs no second read.
 */
export async function createIdeaRow(db: DbOrTx, input: NewIdea, kind: IdeaKind): Promise<IdeaRow> {
  const extra = Object.fromEntries(kind.extraColumns.map((c, i) => [`extra_${i}`, input.extra?.[c.name] ?? null]));
  const [row] = await insertIdea(kind)(db, {
    ...extra,
    id: input.id ?? null,
    moduleId: input.moduleId,
    creatorId: input.creatorId,
    name: input.name,
    description: cleanRichText(input.description),
    categoryId: input.categoryId ?? null,
    labelIds: input.labelIds ?? [],
    image: input.image ?? null,
    imageCopyright: input.imageCopyright ?? '',
    legacySlug: input.legacySlug ?? null,
    created: (input.created ?? new Date()).toISOString(),
    modified: input.modified?.toISOString() ?? null,
  });
  if (!row) throw new Error(`no module ${input.moduleId}`);
  return toIdeaRow(row);
}

/**
 * Submitting an idea from its form (the one command of the action, issue 33.5): the creator's
 * agreement to the organisation's terms when the form asked, the idea (createIdea) and its answers
 * to the module's own questions.
 */
export async function submitIdea(tx: Tx, input: NewIdea, given: { answers: AnswerInput[]; agreement: TermsAgreement }, kind: IdeaKind): Promise<number> {
  await recordTermsAgreement(tx, given.agreement);
  const id = await createIdea(tx, input, kind);
  await saveAnswers(tx, id, given.answers);
  return id;
}

/** Creates an idea (see createIdeaRow) and answers with its id. */
export async function createIdea(db: DbOrTx, input: NewIdea, kind: IdeaKind): Promise<number> {
  return (await createIdeaRow(db, input, kind)).id;
}

/** The created idea's row as the statement answers it (pg and PGlite type some columns differently). */
interface CreatedIdeaRow {
  id: number | string;
  module_id: number | string;
  creator_id: number | string;
  creator_name: string;
  creator_is_guest: boolean;
  name: string;
  description: string;
  image: string | null;
  image_copyright: string;
  created: Date | string;
  moderator_status: string | null;
  moderator_feedback_text: string | null;
  moderator_feedback_date: Date | string | null;
  category_id: number | string | null;
  category_name: string | null;
  labels: NamedRef[] | string | null;
}

const toIdeaRow = (row: CreatedIdeaRow): IdeaRow => ({
  id: Number(row.id),
  moduleId: Number(row.module_id),
  creatorId: Number(row.creator_id),
  creatorName: row.creator_name,
  creatorIsGuest: row.creator_is_guest,
  name: row.name,
  description: row.description,
  image: row.image,
  imageCopyright: row.image_copyright,
  created: new Date(row.created),
  moderatorStatus: row.moderator_status,
  moderatorFeedbackText: row.moderator_feedback_text,
  moderatorFeedbackDate: row.moderator_feedback_date === null ? null : new Date(row.moderator_feedback_date),
  category: row.category_id !== null && row.category_name !== null ? { id: Number(row.category_id), name: row.category_name } : null,
  commentCount: 0,
  positiveRatingCount: 0,
  negativeRatingCount: 0,
  userRating: null,
  labels: fromJson(row.labels) ?? [],
  answers: [],
});

interface IdeaChanges {
  name?: string;
  description?: string;
  categoryId?: number | null;
  labelIds?: number[];
  image?: string | null;
  imageCopyright?: string;
  /** The editor's agreement to the organisation's terms given with the change (recorded when the form asked). */
  agreement?: TermsAgreement;
}

/** Saves changes to an idea: sets `modified` and records an "update" action by its creator. */
export async function updateIdea(db: Tx, ideaId: number, changes: IdeaChanges, kind: IdeaKind): Promise<void> {
  const { table: ideas, labels: ideaLabels } = kind;
  await recordTermsAgreement(db, changes.agreement);
  const [idea] = await db
    .update(ideas)
    .set({
      ...(changes.name !== undefined ? { name: changes.name } : {}),
      ...(changes.description !== undefined ? { description: cleanRichText(changes.description) } : {}),
      ...(changes.categoryId !== undefined ? { categoryId: changes.categoryId } : {}),
      ...(changes.image !== undefined ? { image: changes.image } : {}),
      ...(changes.imageCopyright !== undefined ? { imageCopyright: changes.imageCopyright } : {}),
      modified: new Date(),
    })
    .where(eq(ideas.id, ideaId))
    .returning({ creatorId: ideas.creatorId, moduleId: ideas.moduleId });
  if (!idea) throw new Error(`no idea ${ideaId}`);
  if (changes.labelIds !== undefined) {
    await db.delete(ideaLabels).where(eq(ideaLabels.ideaId, ideaId));
    if (changes.labelIds.length) await db.insert(ideaLabels).values(changes.labelIds.map((labelId) => ({ ideaId, labelId })));
  }
  const projectId = await projectOfModule(db, idea.moduleId);
  await recordAction(db, { actorId: idea.creatorId, verb: 'update', obj: { type: kind.kind, id: ideaId }, projectId });
}

/** Deletes an idea with everything that hangs on it: comments (and their replies), ratings, reports, actions. */
export async function deleteIdea(db: Tx, ideaId: number, { kind, table }: IdeaKind): Promise<void> {
  await deleteCommentsOn(db, kind, ideaId);
  await deleteAnswersOf(db, sql`(select ${q(table.moduleId)} from ${table} where ${q(table.id)} = ${ideaId})`, ideaId);
  await db.delete(ratings).where(and(eq(ratings.contentType, kind), eq(ratings.objectPk, ideaId)));
  await db.delete(reports).where(and(eq(reports.contentType, kind), eq(reports.objectPk, ideaId)));
  await deleteActionsOf(db, kind, ideaId);
  await db.delete(table).where(eq(table.id, ideaId));
}

/** The moderator's processing statuses (§A14.1); null is "no status". */
export const MODERATOR_STATUS_VALUES = ['CONSIDERATION', 'REJECTED', 'ACCEPTED'] as const;
export type ModeratorStatus = (typeof MODERATOR_STATUS_VALUES)[number];

/**
 * A moderator sets an idea's processing status and official feedback (§A14.2): both are stored
 * (the feedback cleaned), and the idea's author is told every time, also when nothing changed.
 */
export async function moderateIdea(
  db: Tx,
  ideaId: number,
  input: { status: ModeratorStatus | null; feedback: string; actorId: number; statusLabel: string },
  notice: (NoticeContext & { url: string }) | undefined,
  { kind, table: ideas, words }: IdeaKind,
): Promise<void> {
  const [idea] = await db
    .update(ideas)
    .set({ moderatorStatus: input.status, moderatorFeedbackText: cleanRichText(input.feedback), moderatorFeedbackCreatorId: input.actorId, moderatorFeedbackDate: sql`now()` })
    .where(eq(ideas.id, ideaId))
    .returning({ creatorId: ideas.creatorId, moduleId: ideas.moduleId, name: ideas.name });
  if (!idea) throw new Error(`no idea ${ideaId}`);
  if (!notice) return;
  const projectId = await projectOfModule(db, idea.moduleId);
  // The author's feed shows the feedback (me/dashboard): an update of the item with the item as its target, for its author.
  if (idea.creatorId !== input.actorId) {
    await recordAction(db, { actorId: input.actorId, verb: 'update', obj: { type: kind, id: ideaId }, target: { type: kind, id: ideaId }, targetCreatorId: idea.creatorId, projectId });
  }
  await queueProjectNotice(db, projectId, {
    kind: 'idea_feedback',
    recipientIds: [idea.creatorId],
    actorId: input.actorId,
    vars: { idea: idea.name, status: input.statusLabel, text: stripTags(input.feedback), url: notice.url },
    // In the kind's words: a proposal's author reads of a proposal (issue 37.7).
    texts: { subject: wordOf(words, FEEDBACK_TEXTS.subject), body: wordOf(words, FEEDBACK_TEXTS.body) },
    message: wordOf(words, FEEDBACK_TEXTS.message),
  });
}
