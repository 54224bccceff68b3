import { pgTable } from 'drizzle-orm/pg-core';
import { ideaColumns, ideaIndexes, labelLinks } from '../idealike/columns.js';

/* The ideas' tables (Brainstorming, Idea Challenge), built from the idea-like columns. drizzle.config.ts finds them here. */

export const ideas = pgTable('ideas', ideaColumns(), (t) => ideaIndexes('ideas', t));

export const ideaLabels = labelLinks('idea_labels', 'idea_id', ideas);
