import type { FieldErrors } from '../../http/errors.js';
import { BODY_LIMITS } from '../../http/limits.js';
import { fromLocalInput } from '../../i18n/dates.js';
import { canManageProject, canViewProject, type ProjectContext } from '../../core/projects/rules.js';
import { imagesWithoutAltText, stripTags } from '../../text/html.js';
import { RICH_TEXT_LIMIT, textLimitError, type TextLimit } from '../../text/limits.js';

/**
 * view_offlineevent (a+ `is_allowed_view_item`): whoever may see the project — its moderators and
 * initiators always, others once it is published and public, semi-public, or theirs as members.
 */
export const canViewOfflineEvent = (c: ProjectContext) => canViewProject(c);

/**
 * list, add and change offline events (a+ `list_/add_/change_offlineevent`): a+ names initiators,
 * moderators and superusers, but its events live in the project dashboard, which only the
 * organisation's initiators and superusers enter (`change_project`); so do these pages.
 */
export const canManageOfflineEvents = (c: ProjectContext) => canManageProject(c);

/** a+'s field sizes: a title of at most 120 characters, an event type of at most 30. */
export const OFFLINE_EVENT_LIMITS = { name: { maxChars: 120 }, event_type: { maxChars: 30 }, description: RICH_TEXT_LIMIT } satisfies Record<string, TextLimit>;

/** The optional document: a PDF no larger than an upload may be (5 MB; a larger body is refused with 413 before it is read). */
const OFFLINE_EVENT_DOCUMENT = { maxBytes: BODY_LIMITS.fileBytes } as const;

/** How long before an event its followers hear "event soon" (a+ NOTIFICATION_EVENT_STARTING_HOURS). */
export const EVENT_SOON_HOURS = 72;

/** The form as typed: the date as a `datetime-local` value in the platform's time zone. */
export interface OfflineEventForm {
  name: string;
  event_type: string;
  date: string;
  description: string;
}

/** What a service stores. */
export interface OfflineEventInput {
  name: string;
  eventType: string;
  date: Date;
  description: string;
}

/** A PDF starts with `%PDF-` (the upload's name and type are the sender's word, not the file's). */
const isPdf = (data: Buffer) => data.subarray(0, 5).toString('latin1') === '%PDF-';

/**
 * Checks the event form: the errors beside each field (catalogue keys with their placeholders
 * applied by `translate`), or the input to store.
 */
export function readOfflineEventForm(form: OfflineEventForm, timeZone: string, translate: (key: string, vars?: Record<string, string | number>) => string): { errors: FieldErrors; input: OfflineEventInput | null } {
  const errors: FieldErrors = {};
  const required = translate('This field is required.');
  if (!form.name.trim()) errors.name = [required];
  if (!form.event_type.trim()) errors.event_type = [required];
  if (!stripTags(form.description).trim() && !/<img\b/i.test(form.description)) errors.description = [required];
  else if (imagesWithoutAltText(form.description) > 0) errors.description = [translate('Please add an alternative text for all images.')];
  for (const field of ['name', 'event_type', 'description'] as const) {
    const error = textLimitError(form[field], OFFLINE_EVENT_LIMITS[field]);
    if (error) errors[field] = [translate(error[0], error[1])];
  }
  const date = form.date.trim() ? fromLocalInput(form.date, timeZone) : null;
  if (!form.date.trim()) errors.date = [required];
  else if (!date) errors.date = [translate('Enter a valid date and time.')];
  if (Object.keys(errors).length || !date) return { errors, input: null };
  return { errors, input: { name: form.name.trim(), eventType: form.event_type.trim(), date, description: form.description } };
}

/** The document upload's error (a catalogue key), or null: only PDFs, and not too large. */
export function documentError(data: Buffer): string | null {
  if (data.length > OFFLINE_EVENT_DOCUMENT.maxBytes) return 'The document may be at most 5 MB.';
  if (!isPdf(data)) return 'The document must be a PDF file.';
  return null;
}
