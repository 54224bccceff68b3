import { canViewModule, type ModuleContext } from '../../core/modules/rules.js';

/** Reporting an idea or comment: any signed-in user who may see it. */
export const canReport = (c: ModuleContext) => c.project.user !== null && canViewModule(c);

/** The longest report reason (§A12.1). */
export const REPORT_MAX_LENGTH = 1024;

/** Why a report's reason is refused (an English catalogue key), or null. */
export function reportDescriptionError(description: string): string | null {
  if (!description.trim()) return 'This field may not be blank.';
  if (description.length > REPORT_MAX_LENGTH) return 'Ensure this field has no more than 1024 characters.';
  return null;
}
