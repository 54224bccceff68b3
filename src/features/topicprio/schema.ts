import { index, integer, pgTable, primaryKey, serial, text, varchar } from 'drizzle-orm/pg-core';
import { categories, labels, modules, authorRef, timestamps } from '../../db/schema/index.js';

/* The Prioritisation module type's tables (drizzle.config.ts finds them here). */

/** A topic of a Prioritisation module (§8): posted by initiators and moderators, rated pro and contra and discussed. */
export const topics = pgTable(
  'topics',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    creatorId: authorRef(),
    name: varchar('name', { length: 120 }).notNull(),
    description: text('description').notNull().default(''),
    categoryId: integer('category_id').references(() => categories.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [index('topics_module_idx').on(t.moduleId)],
);

export const topicLabels = pgTable(
  'topic_labels',
  {
    topicId: integer('topic_id')
      .notNull()
      .references(() => topics.id, { onDelete: 'cascade' }),
    labelId: integer('label_id')
      .notNull()
      .references(() => labels.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.topicId, t.labelId] })],
);
