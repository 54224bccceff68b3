import type { ContentKind } from '../../db/schema/index.js';

/**
 * Content types: stable integer ids for the kinds of objects that generic relations point at.
 * These ids are part of the API (the comments and ratings routes, the idea's `content_type`);
 * never renumber them.
 */
export const CONTENT_TYPES: Record<ContentKind, { id: number; appLabel: string; model: string }> = {
  project: { id: 1, appLabel: 'a4projects', model: 'project' },
  module: { id: 2, appLabel: 'a4modules', model: 'module' },
  phase: { id: 3, appLabel: 'a4phases', model: 'phase' },
  idea: { id: 4, appLabel: 'a4_candy_ideas', model: 'idea' },
  poll: { id: 5, appLabel: 'a4polls', model: 'poll' },
  chapter: { id: 6, appLabel: 'a4_candy_documents', model: 'chapter' },
  paragraph: { id: 7, appLabel: 'a4_candy_documents', model: 'paragraph' },
  comment: { id: 8, appLabel: 'a4comments', model: 'comment' },
  rating: { id: 9, appLabel: 'a4ratings', model: 'rating' },
  report: { id: 10, appLabel: 'a4reports', model: 'report' },
  moderatorcommentfeedback: { id: 11, appLabel: 'a4_candy_moderatorfeedback', model: 'moderatorcommentfeedback' },
};

const byId = new Map(Object.entries(CONTENT_TYPES).map(([kind, ct]) => [ct.id, kind as ContentKind]));

export const contentTypeId = (kind: ContentKind): number => CONTENT_TYPES[kind].id;
export const contentKindOf = (id: number): ContentKind | undefined => byId.get(id);

/** Objects that can be commented on (A4_COMMENTABLES, as far as Allmende has them). */
export const COMMENTABLE: readonly ContentKind[] = ['comment', 'poll', 'idea', 'chapter', 'paragraph'];
/** Objects that can be rated (A4_RATEABLES). */
export const RATEABLE: readonly ContentKind[] = ['comment', 'idea'];
/** Objects that can be reported. */
export const REPORTABLE: readonly ContentKind[] = ['comment', 'idea'];
