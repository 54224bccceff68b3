import type { FieldErrors } from '../../http/errors.js';
import { canModerate, canViewProject, type ProjectContext } from '../../core/projects/rules.js';
import { imagesWithoutAltText } from '../../text/html.js';
import { RICH_TEXT_LIMIT, textLimitError, type TextLimit } from '../../text/limits.js';
import type { ResultChange } from './schema.js';

/**
 * Who sees a project's results (issue 39): whoever sees the project. A private project's results
 * are as private as the project; a draft project's only its moderators and initiators see.
 */
export const canViewResults = (c: ProjectContext) => canViewProject(c);

/**
 * Who adds, changes and deletes a project's results, links contributions to them and writes their
 * timeline: the project's moderators, its organisation's initiators and superusers.
 */
export const canEditResults = (c: ProjectContext) => canModerate(c);

/** The field sizes. */
export const RESULT_LIMITS = {
  title: { maxChars: 255 },
  category: { maxChars: 120 },
  district: { maxChars: 120 },
  description: RICH_TEXT_LIMIT,
  text: { maxChars: 4000 },
  name: { maxChars: 120 },
  status_description: { maxChars: 1000 },
} satisfies Record<string, TextLimit>;

/** The largest budget (whole euros) a result names. */
const RESULT_BUDGET_MAX = 2_000_000_000;

/** The statuses an organisation starts with (catalogue keys, shown in the reader's language), with their default progress. */
export const DEFAULT_STATUSES = [
  { name: 'planned', description: 'The work has not started yet.', progress: 0 },
  { name: 'in progress', description: 'The work is under way.', progress: 40 },
  { name: 'done', description: 'The work is finished.', progress: 100 },
] as const;

type Translate = (key: string, vars?: Record<string, string | number>) => string;

/** The result form as typed. */
export interface ResultForm {
  title: string;
  description: string;
  category: string;
  district: string;
  lat: string;
  lng: string;
  start_date: string;
  end_date: string;
  budget_planned: string;
  budget_spent: string;
  status: string;
  progress: string;
  parent: string;
}

/** What a service stores. */
export interface ResultInput {
  title: string;
  description: string;
  category: string;
  district: string;
  lat: number | null;
  lng: number | null;
  startDate: string | null;
  endDate: string | null;
  budgetPlanned: number | null;
  budgetSpent: number | null;
  statusId: number | null;
  progress: number | null;
  parentId: number | null;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const isDate = (value: string) => DATE.test(value) && !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) && new Date(`${value}T00:00:00Z`).toISOString().startsWith(value);

/** A whole number in [min, max] from a form field ('' is null), or an error key. */
function wholeNumber(value: string, min: number, max: number): { value: number | null } | { error: string; vars?: Record<string, number> } {
  if (!value.trim()) return { value: null };
  if (!/^\d+$/.test(value.trim())) return { error: 'Enter a whole number.' };
  const n = Number(value.trim());
  if (n < min || n > max) return { error: 'Enter a number from %(min)s to %(max)s.', vars: { min, max } };
  return { value: n };
}

/** A decimal coordinate within `limit` degrees ('' is null), or null with `bad` set. */
function coordinate(value: string, limit: number): number | null | undefined {
  if (!value.trim()) return null;
  const n = Number(value.trim().replace(',', '.'));
  return Number.isFinite(n) && Math.abs(n) <= limit ? n : undefined;
}

/** Checks the texts of a form against their limits, into `errors`. */
function checkLimits(form: Record<string, string>, fields: (keyof typeof RESULT_LIMITS)[], errors: FieldErrors, translate: Translate, formField = (f: string) => f) {
  for (const name of fields) {
    const error = textLimitError(form[formField(name)] ?? '', RESULT_LIMITS[name]);
    if (error) errors[formField(name)] = [translate(error[0], error[1])];
  }
}

/**
 * Checks the result form: the errors beside each field, or the input to store. `statusIds` and
 * `parentIds` are the statuses of the organisation and the results a result may nest under (the
 * project's other results, not itself nor its own descendants).
 */
export function readResultForm(form: ResultForm, choices: { statusIds: number[]; parentIds: number[] }, translate: Translate): { errors: FieldErrors; input: ResultInput | null } {
  const errors: FieldErrors = {};
  if (!form.title.trim()) errors.title = [translate('This field is required.')];
  if (imagesWithoutAltText(form.description) > 0) errors.description = [translate('Please add an alternative text for all images.')];
  checkLimits(form as unknown as Record<string, string>, ['title', 'category', 'district', 'description'], errors, translate);
  const lat = coordinate(form.lat, 90);
  const lng = coordinate(form.lng, 180);
  if (lat === undefined) errors.lat = [translate('Enter a latitude from -90 to 90.')];
  if (lng === undefined) errors.lng = [translate('Enter a longitude from -180 to 180.')];
  if (lat !== undefined && lng !== undefined && (lat === null) !== (lng === null)) errors.lat = [translate('Give both latitude and longitude, or neither.')];
  for (const name of ['start_date', 'end_date'] as const) if (form[name].trim() && !isDate(form[name].trim())) errors[name] = [translate('Enter a valid date.')];
  if (!errors.start_date && !errors.end_date && form.start_date.trim() && form.end_date.trim() && form.end_date.trim() < form.start_date.trim()) errors.end_date = [translate('The end must not be before the start.')];
  const numbers = { budget_planned: wholeNumber(form.budget_planned, 0, RESULT_BUDGET_MAX), budget_spent: wholeNumber(form.budget_spent, 0, RESULT_BUDGET_MAX), progress: wholeNumber(form.progress, 0, 100) };
  for (const [name, parsed] of Object.entries(numbers)) if ('error' in parsed) errors[name] = [translate(parsed.error, parsed.vars)];
  const statusId = form.status ? Number(form.status) : null;
  if (statusId !== null && !choices.statusIds.includes(statusId)) errors.status = [translate('Select a valid choice.')];
  const parentId = form.parent ? Number(form.parent) : null;
  if (parentId !== null && !choices.parentIds.includes(parentId)) errors.parent = [translate('Select a valid choice.')];
  if (Object.keys(errors).length) return { errors, input: null };
  const value = (parsed: (typeof numbers)[keyof typeof numbers]) => ('value' in parsed ? parsed.value : null);
  return {
    errors,
    input: {
      title: form.title.trim(),
      description: form.description,
      category: form.category.trim(),
      district: form.district.trim(),
      lat: lat ?? null,
      lng: lng ?? null,
      startDate: form.start_date.trim() || null,
      endDate: form.end_date.trim() || null,
      budgetPlanned: value(numbers.budget_planned),
      budgetSpent: value(numbers.budget_spent),
      statusId,
      progress: value(numbers.progress),
      parentId,
    },
  };
}

/** The timeline entry form: the date, the text, and optionally a new status or progress. */
export interface EntryForm {
  date: string;
  text: string;
  status: string;
  progress: string;
}

export interface EntryInput {
  date: string;
  text: string;
  /** undefined: unchanged. */
  statusId?: number;
  progress?: number;
}

/** Checks an entry: a valid date, and a text, a change or an image (`hasImage`). */
export function readEntryForm(form: EntryForm, statusIds: number[], translate: Translate, hasImage = false): { errors: FieldErrors; input: EntryInput | null } {
  const errors: FieldErrors = {};
  if (!isDate(form.date.trim())) errors.date = [translate('Enter a valid date.')];
  checkLimits(form as unknown as Record<string, string>, ['text'], errors, translate);
  const statusId = form.status ? Number(form.status) : undefined;
  if (statusId !== undefined && !statusIds.includes(statusId)) errors.status = [translate('Select a valid choice.')];
  const progress = wholeNumber(form.progress, 0, 100);
  if ('error' in progress) errors.progress = [translate(progress.error, progress.vars)];
  const progressValue = 'value' in progress && progress.value !== null ? progress.value : undefined;
  if (!errors.text && !form.text.trim() && !hasImage && statusId === undefined && progressValue === undefined) errors.text = [translate('Write what happened, or choose a new status or progress.')];
  if (Object.keys(errors).length) return { errors, input: null };
  return { errors, input: { date: form.date.trim(), text: form.text.trim(), ...(statusId !== undefined ? { statusId } : {}), ...(progressValue !== undefined ? { progress: progressValue } : {}) } };
}

/** The status form (the organisation's list). */
export interface StatusForm {
  name: string;
  description: string;
  progress: string;
}

export function readStatusForm(form: StatusForm, translate: Translate): { errors: FieldErrors; input: { name: string; description: string; progress: number } | null } {
  const errors: FieldErrors = {};
  if (!form.name.trim()) errors.name = [translate('This field is required.')];
  checkLimits({ name: form.name, status_description: form.description }, ['name', 'status_description'], errors, translate, (f) => f);
  if (errors.status_description) {
    errors.description = errors.status_description;
    delete errors.status_description;
  }
  const progress = wholeNumber(form.progress, 0, 100);
  if ('error' in progress) errors.progress = [translate(progress.error, progress.vars)];
  if (Object.keys(errors).length || !('value' in progress)) return { errors, input: null };
  return { errors, input: { name: form.name.trim(), description: form.description.trim(), progress: progress.value ?? 0 } };
}

/** What the progress rule reads of a result. */
interface ProgressOf {
  id: number;
  parentId: number | null;
  progress: number | null;
  statusProgress: number | null;
}

/**
 * Each result's progress (0–100, whole): its own when set; else the mean of its children's; else
 * its status's default; else 0. Cycles cannot arise (a result never nests under its descendants).
 */
export function effectiveProgress(rows: readonly ProgressOf[]): Map<number, number> {
  const children = new Map<number, ProgressOf[]>();
  for (const row of rows) if (row.parentId !== null) children.set(row.parentId, [...(children.get(row.parentId) ?? []), row]);
  const done = new Map<number, number>();
  const of = (row: ProgressOf, depth: number): number => {
    const known = done.get(row.id);
    if (known !== undefined) return known;
    const kids = depth < 50 ? (children.get(row.id) ?? []) : [];
    const value = row.progress ?? (kids.length ? Math.round(kids.reduce((sum, kid) => sum + of(kid, depth + 1), 0) / kids.length) : (row.statusProgress ?? 0));
    done.set(row.id, value);
    return value;
  };
  for (const row of rows) of(row, 0);
  return done;
}

/** A project's overall progress: the mean of its top-level results' (null without results). */
export function overallProgress(rows: readonly ProgressOf[], progress: Map<number, number>): number | null {
  const top = rows.filter((row) => row.parentId === null || !rows.some((other) => other.id === row.parentId));
  return top.length ? Math.round(top.reduce((sum, row) => sum + (progress.get(row.id) ?? 0), 0) / top.length) : null;
}

/** The ids a result may not nest under: itself and its descendants. */
export function selfAndDescendants(rows: readonly { id: number; parentId: number | null }[], id: number): Set<number> {
  const out = new Set([id]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const row of rows)
      if (row.parentId !== null && out.has(row.parentId) && !out.has(row.id)) {
        out.add(row.id);
        grew = true;
      }
  }
  return out;
}

/**
 * Of `ids`, the results that would be part of themselves (a cycle of parents) once every result has
 * the parent `parents` gives it: a result never nests under itself or one of its parts.
 */
export function nestedInThemselves(parents: ReadonlyMap<number, number | null>, ids: Iterable<number>): Set<number> {
  const out = new Set<number>();
  for (const id of ids) {
    const seen = new Set<number>();
    for (let up = parents.get(id) ?? null; up !== null && !seen.has(up); up = parents.get(up) ?? null) {
      if (up === id) out.add(id);
      seen.add(up);
    }
  }
  return out;
}

/** What the timeline records of a change: status, progress and budgets, each old → new (as shown). */
export function resultChanges(before: { status: string | null; progress: number | null; budgetPlanned: number | null; budgetSpent: number | null }, after: typeof before): ResultChange[] {
  const shown = (value: string | number | null) => (value === null ? null : String(value));
  const fields = [
    ['status', 'status'],
    ['progress', 'progress'],
    ['budget_planned', 'budgetPlanned'],
    ['budget_spent', 'budgetSpent'],
  ] as const;
  return fields.filter(([, key]) => before[key] !== after[key]).map(([field, key]) => ({ field, from: shown(before[key]), to: shown(after[key]) }));
}

/** Whether a change tells the contributors something: a new status, or the result being complete now. */
export const isNoticedChange = (changes: readonly ResultChange[], progressBefore: number, progressAfter: number) => changes.some((c) => c.field === 'status') || (progressBefore < 100 && progressAfter === 100);
