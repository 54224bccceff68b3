import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, serial, smallint, text, varchar } from 'drizzle-orm/pg-core';
import { modules, timestamps } from '../../db/schema/index.js';

/*
 * Custom fields (a+ 2026): an initiator's own questions on a module's idea form, their choices,
 * and the participants' answers. drizzle.config.ts finds them here.
 */

/** A question of a module's idea form: open text or one choice of several, required or not, in `weight` order. */
export const customFields = pgTable(
  'custom_fields',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    label: varchar('label', { length: 200 }).notNull(),
    helpText: varchar('help_text', { length: 300 }).notNull().default(''),
    kind: varchar('kind', { length: 10 }).$type<'text' | 'choice'>().notNull(),
    required: boolean('required').notNull().default(false),
    weight: smallint('weight').notNull().default(0),
    ...timestamps,
  },
  (t) => [index('custom_fields_module_idx').on(t.moduleId, t.weight), check('custom_fields_kind_check', sql`${t.kind} IN ('text', 'choice')`)],
);

/** The choices of a choice question, in `weight` order. */
export const customFieldChoices = pgTable(
  'custom_field_choices',
  {
    id: serial('id').primaryKey(),
    fieldId: integer('field_id')
      .notNull()
      .references(() => customFields.id, { onDelete: 'cascade' }),
    label: varchar('label', { length: 120 }).notNull(),
    weight: smallint('weight').notNull().default(0),
  },
  (t) => [index('custom_field_choices_field_idx').on(t.fieldId, t.weight)],
);

/**
 * An item's answer to a question: text, or a choice. The item is one of the field's module's
 * items (a module holds one kind of them), so the field and the item's id name it.
 */
export const customFieldAnswers = pgTable(
  'custom_field_answers',
  {
    fieldId: integer('field_id')
      .notNull()
      .references(() => customFields.id, { onDelete: 'cascade' }),
    objectPk: integer('object_pk').notNull(),
    value: text('value').notNull().default(''),
    choiceId: integer('choice_id').references(() => customFieldChoices.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.fieldId, t.objectPk] }), index('custom_field_answers_object_idx').on(t.objectPk), index('custom_field_answers_choice_idx').on(t.choiceId, t.objectPk)],
);
