import { integer, pgTable, serial, text, varchar } from 'drizzle-orm/pg-core';
import { modules, authorRef, timestamps } from '../../db/schema/index.js';

/* The Text Review module type's tables: chapters and their paragraphs (drizzle.config.ts finds them here). */

export const chapters = pgTable('chapters', {
  id: serial('id').primaryKey(),
  moduleId: integer('module_id')
    .notNull()
    .references(() => modules.id, { onDelete: 'cascade' }),
  creatorId: authorRef(),
  name: varchar('name', { length: 120 }).notNull(),
  weight: integer('weight').notNull().default(0),
  ...timestamps,
});

export const paragraphs = pgTable('paragraphs', {
  id: serial('id').primaryKey(),
  chapterId: integer('chapter_id')
    .notNull()
    .references(() => chapters.id, { onDelete: 'cascade' }),
  name: varchar('name', { length: 120 }).notNull().default(''),
  text: text('text').notNull().default(''),
  weight: integer('weight').notNull().default(0),
  ...timestamps,
});
