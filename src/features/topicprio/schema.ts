import { sql } from 'drizzle-orm';
import { index, integer, pgTable, primaryKey, serial, text, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
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
    /** The topic's picture (adhocracy+'s Topic.image), shown on its page. */
    image: text('image'),
    /** The slug adhocracy+ gave the topic (import-aplus), so that its old address `/<org>/topicprio/<slug>/` still leads to it. */
    legacySlug: varchar('legacy_slug', { length: 100 }),
    ...timestamps,
  },
  (t) => [index('topics_module_idx').on(t.moduleId), uniqueIndex('topics_legacy_slug_idx').on(t.legacySlug).where(sql`${t.legacySlug} IS NOT NULL`)],
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
