import { type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { fromJson } from '../../db/sql.js';
import type { CustomAnswer, CustomField } from './rules.js';
import { customFieldAnswers, customFieldChoices, customFields } from './schema.js';

/*
 * Reads of custom fields, as select fields that a caller adds to its own statement (the idea
 * module's, the idea's) so that questions and answers cost no statement of their own.
 */

/** A module's questions with their choices, in order, as one select field correlated on `moduleId` (a qualified column or SQL). */
export const customFieldsField = (moduleId: SQL) =>
  sql<CustomField[] | string | null>`(select json_agg(json_build_object('id', f.id, 'label', f.label, 'helpText', f.help_text, 'kind', f.kind, 'required', f.required, 'weight', f.weight,
    'choices', coalesce((select json_agg(json_build_object('id', ch.id, 'label', ch.label) order by ch.weight, ch.id) from ${customFieldChoices} ch where ch.field_id = f.id), '[]'::json))
    order by f.weight, f.id) from ${customFields} f where f.module_id = ${moduleId})`;

/**
 * An item's answers to every question of its module, in the questions' order (an unanswered one
 * with an empty answer), as one select field correlated on the item's module and id.
 */
export const customAnswersField = (moduleId: SQL, objectPk: SQL) =>
  sql<CustomAnswer[] | string | null>`(select json_agg(json_build_object('field', f.id, 'question', f.label, 'kind', f.kind, 'answer', coalesce(ch.label, a.value, ''), 'choice', a.choice_id) order by f.weight, f.id)
    from ${customFields} f left join ${customFieldAnswers} a on a.field_id = f.id and a.object_pk = ${objectPk} left join ${customFieldChoices} ch on ch.id = a.choice_id
    where f.module_id = ${moduleId})`;

/** The questions read back from `customFieldsField`. */
export const toCustomFields = (value: CustomField[] | string | null): CustomField[] => fromJson(value) ?? [];
/** The answers read back from `customAnswersField`. */
export const toCustomAnswers = (value: CustomAnswer[] | string | null): CustomAnswer[] => fromJson(value) ?? [];

/** The condition "the item chose this choice" over an item's id column (the idea list's filter). */
export const choiceFilter = (objectPk: SQL, choiceId: number) =>
  sql`exists (select 1 from ${customFieldAnswers} a where a.choice_id = ${choiceId} and a.object_pk = ${objectPk})`;

/** A module's questions with their choices, in order: one statement. */
export async function loadCustomFields(db: DbOrTx, moduleId: number): Promise<CustomField[]> {
  const [row] = await db.select({ fields: customFieldsField(sql`${moduleId}::integer`) }).from(sql`(select 1) as one`);
  return toCustomFields(row?.fields ?? null);
}
