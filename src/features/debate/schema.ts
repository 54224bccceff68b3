import { sql } from 'drizzle-orm';
import { index, integer, pgTable, serial, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { modules, authorRef, timestamps } from '../../db/schema/index.js';

/* The Debate module type's table (drizzle.config.ts finds it here). */

/** A subject of a Debate module (§9): posted by initiators and moderators, discussed in comments. */
export const subjects = pgTable(
  'subjects',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    creatorId: authorRef(),
    name: varchar('name', { length: 120 }).notNull(),
    description: varchar('description', { length: 350 }).notNull().default(''),
    /** The slug adhocracy+ gave the subject (import-aplus), so that its old address `/<org>/subjects/<slug>/` still leads to it. */
    legacySlug: varchar('legacy_slug', { length: 100 }),
    ...timestamps,
  },
  (t) => [index('subjects_module_idx').on(t.moduleId), uniqueIndex('subjects_legacy_slug_idx').on(t.legacySlug).where(sql`${t.legacySlug} IS NOT NULL`)],
);
