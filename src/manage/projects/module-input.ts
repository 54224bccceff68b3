import type { FieldErrors } from '../../http/errors.js';
import { fromLocalInput, toLocalInput } from '../../i18n/dates.js';
import { type Lang, t } from '../../i18n/index.js';
import { validatePhases } from '../../core/modules/rules.js';
import { ALIAS_HELP_MAX, ALIAS_MAX, type ModuleAliases } from '../../core/modules/terms.js';
import type { FormBody } from '../../web/forms.js';
import type { DashboardModule } from './queries.js';

/** The module forms (§B11, §B12): read, checked, with messages in the page's language. */
interface ModuleFormResult<T> {
  values: Record<string, string>;
  errors: FieldErrors;
  parsed: T;
}

const tooLong = (lang: Lang, max: number) => t(lang, 'Ensure this field has no more than %(max)s characters.', { max });

/** The most a module's name and description may hold. */
export const MODULE_LIMITS = { name: 512, description: 512 };

/** Name and description, required once the module is added to its project. */
export function readModuleBasic(body: FormBody, live: boolean, lang: Lang): ModuleFormResult<{ name: string; description: string }> {
  const values = { name: (body.name ?? '').trim(), description: (body.description ?? '').trim() };
  const errors: FieldErrors = {};
  for (const name of ['name', 'description'] as const) {
    if (values[name].length > MODULE_LIMITS[name]) errors[name] = [tooLong(lang, MODULE_LIMITS[name])];
    else if (live && !values[name]) errors[name] = [t(lang, 'This field is required.')];
  }
  return { values, errors, parsed: values };
}

export const phaseField = (i: number, field: string) => `phase-${i}-${field}`;

/** A module's phases as form values (dates in the platform's time zone). */
export function phaseFormValues(module: DashboardModule, timeZone: string): Record<string, string> {
  const values: Record<string, string> = {};
  module.phases.forEach((p, i) => {
    values[phaseField(i, 'name')] = p.name;
    values[phaseField(i, 'description')] = p.description;
    values[phaseField(i, 'start')] = p.startDate ? toLocalInput(p.startDate, timeZone) : '';
    values[phaseField(i, 'end')] = p.endDate ? toLocalInput(p.endDate, timeZone) : '';
  });
  return values;
}

type PhaseValues = { id: number; name: string; description: string; startDate: Date | null; endDate: Date | null };

/** Every phase of the module from `phase-<i>-…` fields; dates entered in the platform's time zone (a date alone means 23:59). */
export function readPhases(body: FormBody, module: DashboardModule, live: boolean, timeZone: string, lang: Lang, now: Date): ModuleFormResult<PhaseValues[]> {
  const values: Record<string, string> = {};
  const errors: FieldErrors = {};
  const parsed = module.phases.map((phase, i) => {
    // "Starts now" (a submit button named start_now with the phase's index): its start is this minute.
    if (body.start_now === String(i)) body = { ...body, [phaseField(i, 'start')]: toLocalInput(now, timeZone) };
    const get = (field: string) => (values[phaseField(i, field)] = (body[phaseField(i, field)] ?? '').trim());
    const date = (field: 'start' | 'end') => {
      const raw = get(field);
      if (!raw) return null;
      const value = fromLocalInput(raw, timeZone);
      if (!value) errors[phaseField(i, field)] = [t(lang, 'Enter a valid date and time.')];
      return value;
    };
    return { id: phase.id, name: get('name'), description: get('description'), startDate: date('start'), endDate: date('end') };
  });
  if (!Object.keys(errors).length) {
    for (const problem of validatePhases(parsed, live)) {
      const key = problem.index === null || problem.field === null ? 'non_field_errors' : phaseField(problem.index, problem.field);
      errors[key] = [...(errors[key] ?? []), t(lang, problem.message, problem.params)];
    }
  }
  return { values, errors, parsed };
}

/** Renamed, removed and added categories or labels, and the module's own word for them with its help text ('' keeps the platform's). */
export type TermChange = { rename: { id: number; name: string }[]; remove: number[]; add: string[]; alias: { word: string; help: string } };

export const NEW_TERM_ROWS = 3;

/** The alias fields of the Categories or Labels component as stored. */
export const aliasFormValues = (kind: 'categories' | 'labels', aliases: ModuleAliases): Record<string, string> =>
  kind === 'categories' ? { alias: aliases.categoryAlias, alias_help: aliases.categoryAliasHelp } : { alias: aliases.labelAlias, alias_help: aliases.labelAliasHelp };

/** The longest category or label name (the database's limit). */
export const TERM_NAME_MAX = 120;

/** Categories or labels: `term-<id>` renames, `delete-<id>` removes, `new-<n>` adds (blank new rows are ignored); names ≤ TERM_NAME_MAX; `alias` and `alias_help` (a4's CategoryAlias, LabelAlias) ≤ ALIAS_MAX, ALIAS_HELP_MAX. */
export function readTerms(body: FormBody, existing: { id: number; name: string }[], lang: Lang): ModuleFormResult<TermChange> {
  const values: Record<string, string> = {};
  const errors: FieldErrors = {};
  const alias = { word: (body.alias ?? '').trim(), help: (body.alias_help ?? '').trim() };
  const change: TermChange = { rename: [], remove: [], add: [], alias };
  values.alias = alias.word;
  values.alias_help = alias.help;
  if (alias.word.length > ALIAS_MAX) errors.alias = [tooLong(lang, ALIAS_MAX)];
  if (alias.help.length > ALIAS_HELP_MAX) errors.alias_help = [tooLong(lang, ALIAS_HELP_MAX)];
  const check = (key: string, name: string, required: boolean) => {
    values[key] = name;
    if (name.length > TERM_NAME_MAX) errors[key] = [tooLong(lang, TERM_NAME_MAX)];
    else if (required && !name) errors[key] = [t(lang, 'This field is required.')];
  };
  for (const term of existing) {
    const name = (body[`term-${term.id}`] ?? term.name).trim();
    if (body[`delete-${term.id}`]) {
      values[`delete-${term.id}`] = 'on';
      change.remove.push(term.id);
      values[`term-${term.id}`] = name;
      continue;
    }
    check(`term-${term.id}`, name, true);
    if (name !== term.name) change.rename.push({ id: term.id, name });
  }
  for (let n = 0; n < NEW_TERM_ROWS; n++) {
    const name = (body[`new-${n}`] ?? '').trim();
    check(`new-${n}`, name, false);
    if (name) change.add.push(name);
  }
  return { values, errors, parsed: change };
}
