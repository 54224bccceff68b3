import { index, integer, pgTable, serial, varchar } from 'drizzle-orm/pg-core';
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
    ...timestamps,
  },
  (t) => [index('subjects_module_idx').on(t.moduleId)],
);
