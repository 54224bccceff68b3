import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import type { AnswerInput, CheckedField } from './rules.js';
import { customFieldAnswers, customFieldChoices, customFields } from './schema.js';

/** Inserts a question's choices in the order given, from `weight` on. */
async function addChoices(tx: Tx, fieldId: number, labels: { label: string; weight: number }[]) {
  if (labels.length) await tx.insert(customFieldChoices).values(labels.map(({ label, weight }) => ({ fieldId, label, weight })));
}

/** Stores a question's choices: a line that was a choice keeps it (and its answers), a new line is added, a choice no longer listed goes with its answers. */
async function saveChoices(tx: Tx, fieldId: number, lines: string[]) {
  const existing = await tx.select().from(customFieldChoices).where(eq(customFieldChoices.fieldId, fieldId));
  const gone = existing.filter((c) => !lines.includes(c.label)).map((c) => c.id);
  if (gone.length) await tx.delete(customFieldChoices).where(inArray(customFieldChoices.id, gone));
  const added: { label: string; weight: number }[] = [];
  for (const [weight, label] of lines.entries()) {
    const kept = existing.find((c) => c.label === label);
    if (!kept) added.push({ label, weight });
    else if (kept.weight !== weight) await tx.update(customFieldChoices).set({ weight }).where(eq(customFieldChoices.id, kept.id));
  }
  await addChoices(tx, fieldId, added);
}

/**
 * Saves a module's questions from the dashboard (inside its transaction): changes the existing
 * ones (a question whose kind changes loses its answers), adds the new ones, removes `removed`
 * with their answers. Questions of other modules are never touched.
 */
export async function saveCustomFields(tx: Tx, moduleId: number, fields: CheckedField[], removed: number[]): Promise<void> {
  if (removed.length) await tx.delete(customFields).where(and(eq(customFields.moduleId, moduleId), inArray(customFields.id, removed)));
  for (const field of fields) {
    const values = { label: field.label, helpText: field.helpText, kind: field.kind, required: field.required, weight: field.weight };
    if (field.id === null) {
      const [created] = await tx.insert(customFields).values({ moduleId, ...values }).returning({ id: customFields.id });
      await addChoices(tx, created.id, field.choices.map((label, weight) => ({ label, weight })));
      continue;
    }
    const [before] = await tx.select({ kind: customFields.kind }).from(customFields).where(and(eq(customFields.id, field.id), eq(customFields.moduleId, moduleId)));
    if (!before) continue;
    await tx.update(customFields).set({ ...values, modified: new Date() }).where(eq(customFields.id, field.id));
    if (before.kind !== field.kind) await tx.delete(customFieldAnswers).where(eq(customFieldAnswers.fieldId, field.id));
    await saveChoices(tx, field.id, field.choices);
  }
}

/** Stores an item's answers (inside its write's transaction): an empty answer removes the stored one. */
export async function saveAnswers(tx: Tx, objectPk: number, answers: AnswerInput[]): Promise<void> {
  const empty = answers.filter((a) => a.value === '' && a.choiceId === null).map((a) => a.fieldId);
  if (empty.length) await tx.delete(customFieldAnswers).where(and(eq(customFieldAnswers.objectPk, objectPk), inArray(customFieldAnswers.fieldId, empty)));
  const given = answers.filter((a) => a.value !== '' || a.choiceId !== null);
  if (!given.length) return;
  await tx
    .insert(customFieldAnswers)
    .values(given.map((a) => ({ fieldId: a.fieldId, objectPk, value: a.value, choiceId: a.choiceId })))
    .onConflictDoUpdate({ target: [customFieldAnswers.fieldId, customFieldAnswers.objectPk], set: { value: sql`excluded.value`, choiceId: sql`excluded.choice_id` } });
}

/** Removes an item's answers (before the item goes): the answers to its module's questions. */
export async function deleteAnswersOf(tx: Tx, moduleId: number | SQL, objectPk: number): Promise<void> {
  await tx.delete(customFieldAnswers).where(and(eq(customFieldAnswers.objectPk, objectPk), inArray(customFieldAnswers.fieldId, tx.select({ id: customFields.id }).from(customFields).where(eq(customFields.moduleId, moduleId)))));
}

/** A question as loaddata and the adhocracy+ import give it: ids kept where given. */
interface NewCustomField {
  id?: number;
  moduleId: number;
  label: string;
  helpText?: string;
  kind: 'text' | 'choice';
  required?: boolean;
  weight?: number;
  choices?: { id?: number; label: string }[];
}

/** Adds one question with its choices (loaddata: the ids of the fixture kept). */
export async function createCustomField(tx: Tx, field: NewCustomField): Promise<number> {
  const [created] = await tx
    .insert(customFields)
    .values({ ...(field.id ? { id: field.id } : {}), moduleId: field.moduleId, label: field.label, helpText: field.helpText ?? '', kind: field.kind, required: field.required ?? false, weight: field.weight ?? 0 })
    .returning({ id: customFields.id });
  const choices = field.choices ?? [];
  if (choices.length) await tx.insert(customFieldChoices).values(choices.map((c, weight) => ({ ...(c.id ? { id: c.id } : {}), fieldId: created.id, label: c.label, weight })));
  return created.id;
}
