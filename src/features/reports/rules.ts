import { canViewItem, type ModuleContext } from '../../core/modules/rules.js';
import type { ProjectItemContext } from '../../core/projects/rules.js';

/** Reporting an idea or comment: any signed-in user who may see it (a comment on a result: who sees the project). */
export const canReport = (c: ModuleContext | ProjectItemContext) => c.project.user !== null && canViewItem(c);

/** The longest report reason (§A12.1). */
export const REPORT_MAX_LENGTH = 1024;

/** Why a report's reason is refused (an English catalogue key), or null. */
export function reportDescriptionError(description: string): string | null {
  if (!description.trim()) return 'This field may not be blank.';
  if (description.length > REPORT_MAX_LENGTH) return 'Ensure this field has no more than 1024 characters.';
  return null;
}
