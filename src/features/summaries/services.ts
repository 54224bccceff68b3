import { createHash } from 'node:crypto';
import { and, eq, isNull } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import type { SummaryConfig } from '../../config.js';
import type { Lang } from '../../i18n/index.js';
import { askForSummary } from './client.js';
import { findSummary, type Summary, summaryInput } from './queries.js';
import { summaries } from './schema.js';

type SummaryOutcome = { summary: Summary; kept: boolean } | { nothing: true };

/**
 * Makes the summary of a scope (the project, or one module): what would be sent is read first; when
 * it is exactly what the kept summary was made from, that one is kept and the model is not asked.
 * Otherwise the model is asked (outside any transaction: it may take a minute) and its answer
 * replaces the scope's summary, unpublished. Throws SummaryServiceError when the model fails.
 */
export async function makeSummary(
  db: Db,
  config: SummaryConfig,
  scope: { projectId: number; projectName: string; moduleId: number | null; userId: number; lang: Lang },
): Promise<SummaryOutcome> {
  const input = await summaryInput(db, scope.projectId, scope.moduleId);
  if (!input.contributions) return { nothing: true };
  const inputHash = createHash('sha256').update(`${scope.lang}\n${config.model}\n${input.text}`).digest('hex');
  const kept = await findSummary(db, scope.projectId, scope.moduleId);
  if (kept?.inputHash === inputHash) return { summary: kept, kept: true };
  const text = await askForSummary(config, input.text, scope.lang, scope.projectName);
  const summary = await db.transaction(async (tx) => {
    await tx.delete(summaries).where(and(eq(summaries.projectId, scope.projectId), scope.moduleId === null ? isNull(summaries.moduleId) : eq(summaries.moduleId, scope.moduleId)));
    const [row] = await tx
      .insert(summaries)
      .values({ projectId: scope.projectId, moduleId: scope.moduleId, text, model: config.model, inputHash, contributions: input.contributions, createdById: scope.userId })
      .returning();
    return row;
  });
  return { summary, kept: false };
}

/** Publishes a project's summary (shown to everyone who may see the project) or takes it back; false when it is not the project's. */
export async function setSummaryPublished(tx: Tx, projectId: number, summaryId: number, published: boolean): Promise<boolean> {
  const rows = await tx
    .update(summaries)
    .set({ published: published ? new Date() : null })
    .where(and(eq(summaries.id, summaryId), eq(summaries.projectId, projectId)))
    .returning({ id: summaries.id });
  return rows.length > 0;
}
