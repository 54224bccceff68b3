import type { ProjectAccess } from '../../db/schema/index.js';

/**
 * Machine summaries (issue 34.9): only what anyone may read goes to the language model — the
 * contributions of a published project that is public or semi-public, in its published modules,
 * without their authors' names — and only once the operator has named a model (SUMMARIES_URL).
 * Who may ask and publish is the dashboard's rule (`canEditProjectInDashboard`: the organisation's
 * initiators and superusers); who may read a published summary, the project's (`canViewProject`).
 */

/** Why a project's contributions may not be summarised (a catalogue key), or null. */
export function summaryRefusal(project: { access: ProjectAccess; isDraft: boolean }): string | null {
  if (project.isDraft) return 'Only the contributions of a published project can be summarised.';
  if (project.access === 'PRIVATE') return 'The contributions of a private project are not sent to a language model.';
  return null;
}

/** At most this much text of one comment, and of all contributions together, is sent. */
export const SUMMARY_LIMITS = { commentChars: 1_000, inputChars: 60_000 } as const;

/** The scope field of the form: '' (the whole project) or a module id of the project. */
export function readSummaryScope(value: string, moduleIds: number[]): { moduleId: number | null } | { error: string } {
  if (value === '' || value === 'project') return { moduleId: null };
  const id = Number(value);
  return Number.isInteger(id) && moduleIds.includes(id) ? { moduleId: id } : { error: 'Choose the project or one of its published modules.' };
}
