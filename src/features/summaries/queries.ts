import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { comments, modules } from '../../db/schema/index.js';
import { moduleContentTypes } from '../../core/modules/registry.js';
import { SUMMARY_LIMITS } from './rules.js';
import { summaries, summaryFeedback } from './schema.js';

export type Summary = typeof summaries.$inferSelect;

/** A scope's published modules (id, name) in their order: the whole project's, or the one module's. */
export async function summarisedModules(db: DbOrTx, projectId: number, moduleId: number | null): Promise<{ id: number; name: string }[]> {
  return db
    .select({ id: modules.id, name: modules.name })
    .from(modules)
    .where(and(eq(modules.projectId, projectId), eq(modules.isDraft, false), moduleId === null ? undefined : eq(modules.id, moduleId)))
    .orderBy(asc(modules.weight), asc(modules.id));
}

const oneLine = (text: string, max: number) => {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max)}…` : flat;
};

/**
 * What is sent to the language model for a scope: per published module its name, the names of its
 * contributions (every kind its type brings, as the kind names them on their pages) and the visible
 * comments on them and their replies — never an author, an e-mail address or a date. Cut at
 * SUMMARY_LIMITS.inputChars. `contributions` counts the contributions and comments sent.
 */
export async function summaryInput(db: DbOrTx, projectId: number, moduleId: number | null): Promise<{ text: string; contributions: number }> {
  const scope = await summarisedModules(db, projectId, moduleId);
  const parts: string[] = [];
  let contributions = 0;
  for (const module of scope) {
    const names: string[] = [];
    const said: string[] = [];
    for (const kind of moduleContentTypes()) {
      const found = (await db.execute(sql`select o.id from (${kind.inModules(sql`select ${module.id}::integer`)}) as o(id, module_id, creator_id) order by o.id`)) as unknown as { rows: { id: number | string }[] };
      const ids = found.rows.map((r) => Number(r.id));
      if (!ids.length) continue;
      const pages = kind.pages ? await kind.pages(db, ids) : new Map<number, { name: string }>();
      for (const id of ids) {
        const name = pages.get(id)?.name;
        if (name) names.push(`- ${oneLine(name, 300)}`);
      }
      const visible = and(eq(comments.isRemoved, false), eq(comments.isCensored, false), eq(comments.isBlocked, false));
      const top = await db
        .select({ id: comments.id, comment: comments.comment })
        .from(comments)
        .where(and(eq(comments.contentType, kind.kind), sql`${comments.objectPk} in (${sql.join(ids.map((id) => sql`${id}`), sql`, `)})`, visible))
        .orderBy(asc(comments.id));
      const replies = top.length
        ? await db
            .select({ comment: comments.comment })
            .from(comments)
            .where(and(eq(comments.contentType, 'comment'), sql`${comments.objectPk} in (${sql.join(top.map((c) => sql`${c.id}`), sql`, `)})`, visible))
            .orderBy(asc(comments.id))
        : [];
      for (const c of [...top, ...replies]) if (c.comment.trim()) said.push(`- ${oneLine(c.comment, SUMMARY_LIMITS.commentChars)}`);
    }
    contributions += names.length + said.length;
    if (names.length || said.length) parts.push([`## ${module.name}`, ...(names.length ? ['Contributions:', ...names] : []), ...(said.length ? ['Comments:', ...said] : [])].join('\n'));
  }
  const text = parts.join('\n\n');
  return { text: text.length > SUMMARY_LIMITS.inputChars ? `${text.slice(0, SUMMARY_LIMITS.inputChars)}\n[…]` : text, contributions };
}

/** The kept summary of a scope, if any. */
export async function findSummary(db: DbOrTx, projectId: number, moduleId: number | null): Promise<Summary | null> {
  const [row] = await db
    .select()
    .from(summaries)
    .where(and(eq(summaries.projectId, projectId), moduleId === null ? isNull(summaries.moduleId) : eq(summaries.moduleId, moduleId)));
  return row ?? null;
}

const feedbackCount = (positive: boolean) =>
  sql<number>`(select count(*) from ${summaryFeedback} f where f.summary_id = ${summaries.id} and f.positive = ${positive})`.mapWith(Number);

/** A summary with its scope's name and its readers' thumbs up and down (kept from adhocracy+). */
export type ListedSummary = Summary & { moduleName: string | null; helpful: number; unhelpful: number };

/** A project's summaries (the project's first, then its modules'), published ones only when asked. */
export async function projectSummaries(db: DbOrTx, projectId: number, { publishedOnly }: { publishedOnly: boolean }): Promise<ListedSummary[]> {
  return db
    .select({ ...summariesColumns, moduleName: modules.name, helpful: feedbackCount(true), unhelpful: feedbackCount(false) })
    .from(summaries)
    .leftJoin(modules, eq(modules.id, summaries.moduleId))
    .where(and(eq(summaries.projectId, projectId), publishedOnly ? sql`${summaries.published} is not null` : undefined))
    .orderBy(sql`${summaries.moduleId} nulls first`, asc(modules.weight));
}

const { id, projectId, moduleId, text, model, inputHash, contributions, createdById, created, published } = summaries;
const summariesColumns = { id, projectId, moduleId, text, model, inputHash, contributions, createdById, created, published };
