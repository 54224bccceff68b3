import type { FieldErrors } from '../../http/errors.js';
import { textLimitMessage, type TextLimit } from '../../text/limits.js';

/*
 * The rules of custom fields, asked by the dashboard, the idea pages and the app API alike: what a
 * question may be (the initiator's form) and which answers an item's form takes (the participant's).
 */

const CUSTOM_FIELD_KINDS = ['text', 'choice'] as const;
type CustomFieldKind = (typeof CUSTOM_FIELD_KINDS)[number];

/** The most each text of a custom field may hold. */
export const CUSTOM_FIELD_LIMITS = {
  label: { maxChars: 200 },
  help_text: { maxChars: 300 },
  choice: { maxChars: 120 },
  answer: { maxChars: 1000 },
} satisfies Record<string, TextLimit>;

/** A module's questions at most, and a question's choices at most. */
const MAX_CUSTOM_FIELDS = 20;
const MAX_CHOICES = 20;

interface CustomChoice {
  id: number;
  label: string;
}

/** A question of a module's idea form, as the forms, lists and API read it. */
export interface CustomField {
  id: number;
  label: string;
  helpText: string;
  kind: CustomFieldKind;
  required: boolean;
  weight: number;
  choices: CustomChoice[];
}

/** An item's answer to one of its module's questions ('' and null: none). */
export interface CustomAnswer {
  field: number;
  question: string;
  kind: CustomFieldKind;
  /** The text, or the chosen choice's label. */
  answer: string;
  choice: number | null;
}

/** What an item's write stores for one question: its text or its choice; null removes the answer. */
export interface AnswerInput {
  fieldId: number;
  value: string;
  choiceId: number | null;
}

/** The name of a question's answer in a form and in an API body. */
export const answerName = (fieldId: number) => `custom_${fieldId}`;

const REQUIRED = 'This field is required.';

function textAnswer(value: string): { value: string; error: string | null } {
  const trimmed = value.trim();
  if (trimmed.includes('\0')) return { value: trimmed, error: 'Null characters are not allowed.' };
  return { value: trimmed, error: textLimitMessage(trimmed, CUSTOM_FIELD_LIMITS.answer) };
}

/**
 * Checks the answers of an item's form against its module's questions: a required question needs
 * an answer, a choice question one of its choices, a text its limit. `read` gives the posted value
 * of a name (undefined: not sent). On `patch` a question not sent keeps its answer (left out of
 * the result); otherwise every question gets its answer, an empty one removing what was stored.
 */
export function checkAnswers(fields: CustomField[], read: (name: string) => unknown, mode: 'create' | 'put' | 'patch'): { answers: AnswerInput[]; errors: FieldErrors } {
  const answers: AnswerInput[] = [];
  const errors: FieldErrors = {};
  for (const field of fields) {
    const name = answerName(field.id);
    const raw = read(name);
    if (raw === undefined && mode === 'patch') continue;
    const posted = raw === undefined || raw === null ? '' : typeof raw === 'string' || typeof raw === 'number' ? String(raw) : null;
    if (posted === null) {
      errors[name] = ['Not a valid string.'];
      continue;
    }
    if (!posted.trim()) {
      if (field.required) errors[name] = [REQUIRED];
      else answers.push({ fieldId: field.id, value: '', choiceId: null });
      continue;
    }
    if (field.kind === 'choice') {
      const choice = field.choices.find((c) => String(c.id) === posted.trim());
      if (choice) answers.push({ fieldId: field.id, value: '', choiceId: choice.id });
      else errors[name] = ['Select a valid choice.'];
      continue;
    }
    const { value, error } = textAnswer(posted);
    if (error) errors[name] = [error];
    else answers.push({ fieldId: field.id, value, choiceId: null });
  }
  return { answers, errors };
}

/** A question as the initiator enters it on the dashboard (`id` null: a new one). */
export interface FieldDefinition {
  id: number | null;
  label: string;
  helpText: string;
  kind: string;
  required: boolean;
  weight: string;
  /** One choice a line. */
  choices: string;
  remove: boolean;
}

/** A checked question, ready to save. */
export interface CheckedField {
  id: number | null;
  label: string;
  helpText: string;
  kind: CustomFieldKind;
  required: boolean;
  weight: number;
  choices: string[];
}

/** The choices of a textarea, one a line, blank lines dropped, each once. */
const choiceLines = (text: string) => [...new Set(text.split(/\r?\n/).map((line) => line.trim()).filter(Boolean))];

/**
 * Checks the questions of the dashboard's form: each needs a question text within its limit and a
 * kind; a choice question two to MAX_CHOICES choices; the order a whole number; at most
 * MAX_CUSTOM_FIELDS questions. Errors are keyed by `prefix` + the definition's field name. Removed
 * questions are left out (the caller deletes them).
 */
export function checkFieldDefinitions(definitions: { prefix: string; definition: FieldDefinition }[]): { fields: CheckedField[]; errors: FieldErrors } {
  const fields: CheckedField[] = [];
  const errors: FieldErrors = {};
  for (const { prefix, definition: d } of definitions) {
    if (d.remove) continue;
    const label = d.label.trim();
    const helpText = d.helpText.trim();
    const choices = choiceLines(d.choices);
    const fail = (name: string, message: string) => (errors[`${prefix}${name}`] = [message]);
    const kind = CUSTOM_FIELD_KINDS.find((k) => k === d.kind);
    if (!label) fail('label', REQUIRED);
    else if (textLimitMessage(label, CUSTOM_FIELD_LIMITS.label)) fail('label', textLimitMessage(label, CUSTOM_FIELD_LIMITS.label) ?? '');
    const helpError = textLimitMessage(helpText, CUSTOM_FIELD_LIMITS.help_text);
    if (helpError) fail('help_text', helpError);
    if (!kind) fail('kind', 'Select a valid choice.');
    if (kind === 'choice' && choices.length < 2) fail('choices', 'A choice question needs at least two choices, one a line.');
    else if (kind === 'choice' && choices.length > MAX_CHOICES) fail('choices', `Ensure there are no more than ${MAX_CHOICES} choices.`);
    else if (kind === 'choice' && choices.some((c) => textLimitMessage(c, CUSTOM_FIELD_LIMITS.choice))) fail('choices', textLimitMessage('x'.repeat(CUSTOM_FIELD_LIMITS.choice.maxChars + 1), CUSTOM_FIELD_LIMITS.choice) ?? '');
    const weight = /^-?\d{1,4}$/.test(d.weight.trim()) ? Number(d.weight.trim()) : d.weight.trim() === '' ? 0 : null;
    if (weight === null) fail('weight', 'Enter a whole number.');
    if (label && kind && weight !== null) fields.push({ id: d.id, label, helpText, kind, required: d.required, weight, choices: kind === 'choice' ? choices : [] });
  }
  if (fields.length > MAX_CUSTOM_FIELDS) errors.non_field_errors = [`Ensure there are no more than ${MAX_CUSTOM_FIELDS} questions.`];
  return { fields, errors };
}

/** Whether a question's answers may filter a list: its choices. */
export const isFilterable = (field: CustomField) => field.kind === 'choice' && field.choices.length > 0;

/** The answers of an item that answered none of its module's questions (a new item's, before any is stored). */
export const unanswered = (fields: CustomField[]): CustomAnswer[] => fields.map((f) => ({ field: f.id, question: f.label, kind: f.kind, answer: '', choice: null }));
