import { type BuildColumns, sql } from 'drizzle-orm';
import { type AnyPgColumn, boolean, index, type PgTableWithColumns, integer, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { authorRef, categories, labels, modules, timestamps, users } from '../../db/schema/index.js';
import { djangoSlugSql } from '../../text/django-slug.js';

/*
 * The columns, indexes and label links every idea-like table shares: each idea-like module type
 * builds its tables from them in its own schema.ts (drizzle.config.ts finds them there). This file
 * holds no table.
 */

/**
 * The columns every idea-like item has (ideas, map ideas, proposals). One definition, so that the
 * idea code (lists, filters, moderation, ratings, exports) works over all three tables.
 */
export const ideaColumns = () => ({
  id: serial('id').primaryKey(),
  moduleId: integer('module_id')
    .notNull()
    .references(() => modules.id, { onDelete: 'cascade' }),
  creatorId: authorRef(),
  name: varchar('name', { length: 120 }).notNull(),
  description: text('description').notNull(),
  image: text('image'),
  imageCopyright: varchar('image_copyright', { length: 120 }).notNull().default(''),
  categoryId: integer('category_id').references(() => categories.id, { onDelete: 'set null' }),
  moderatorStatus: varchar('moderator_status', { length: 254 }),
  moderatorFeedbackText: text('moderator_feedback_text'),
  /** Who gave the official feedback, and when (set with it; adhocracy+'s ModeratorFeedback creator and modified/created). */
  moderatorFeedbackCreatorId: integer('moderator_feedback_creator_id').references(() => users.id, { onDelete: 'set null' }),
  moderatorFeedbackDate: timestamp('moderator_feedback_date', { withTimezone: true }),
  /**
   * How moderators may reach the author (adhocracy+'s creator_email, creator_phone and the
   * author's consent to be contacted): shown to moderators only, on the moderation page.
   */
  creatorEmail: varchar('creator_email', { length: 254 }).notNull().default(''),
  creatorPhone: varchar('creator_phone', { length: 64 }).notNull().default(''),
  creatorContactConsent: boolean('creator_contact_consent').notNull().default(false),
  /** The slug adhocracy+ gave the idea, kept by loaddata so that its old address finds it after a rename (idealike/legacy.ts). */
  legacySlug: varchar('legacy_slug', { length: 100 }),
  /**
   * The slug adhocracy+ would make of the title (Django's slugify), computed by the database on
   * every write, so that an old address is an index look-up, not a slugify over every idea
   * (issue 21, finding 3; idealike/legacy.ts).
   */
  titleSlug: varchar('title_slug', { length: 50 })
    .notNull()
    .generatedAlwaysAs(sql.raw(djangoSlugSql('"name"'))),
  ...timestamps,
});


type IdeaIndexTable = { moduleId: AnyPgColumn; created: AnyPgColumn; creatorId: AnyPgColumn; legacySlug: AnyPgColumn; titleSlug: AnyPgColumn; id: AnyPgColumn };
export const ideaIndexes = (name: string, t: IdeaIndexTable) => [
  index(`${name}_module_idx`).on(t.moduleId, t.created),
  index(`${name}_creator_idx`).on(t.creatorId),
  uniqueIndex(`${name}_legacy_slug_idx`).on(t.legacySlug).where(sql`${t.legacySlug} IS NOT NULL`),
  index(`${name}_title_slug_idx`).on(t.titleSlug, t.id).where(sql`${t.legacySlug} IS NULL`),
];


/** A table of an idea-like kind and the module labels of its items (`<kind>_labels`). */
export const labelLinks = (name: string, column: string, items: { id: AnyPgColumn }) =>
  pgTable(
    name,
    {
      ideaId: integer(column)
        .notNull()
        .references(() => items.id, { onDelete: 'cascade' }),
      labelId: integer('label_id')
        .notNull()
        .references(() => labels.id, { onDelete: 'cascade' }),
    },
    (t) => [primaryKey({ columns: [t.ideaId, t.labelId] })],
  );

/**
 * Every idea-like table as the engine sees it: the idea columns under their names (a kind's table
 * has more; `asIdeaTable` in ./kinds.ts). A type only: no table of this name exists.
 */
export type IdeaTable = PgTableWithColumns<{ name: string; schema: undefined; columns: BuildColumns<string, ReturnType<typeof ideaColumns>, 'pg'>; dialect: 'pg' }>;
/** The label links of an idea-like table. */
export type IdeaLabelsTable = ReturnType<typeof labelLinks>;
