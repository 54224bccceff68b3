import { CONTENT_KINDS, type ContentKind } from '../../db/schema/index.js';
import { contentTypeOfModule } from '../modules/registry.js';

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
  subject: { id: 14, appLabel: 'a4_candy_debate', model: 'subject' },
  topic: { id: 15, appLabel: 'a4_candy_topicprio', model: 'topic' },
  comment: { id: 8, appLabel: 'a4comments', model: 'comment' },
  rating: { id: 9, appLabel: 'a4ratings', model: 'rating' },
  report: { id: 10, appLabel: 'a4reports', model: 'report' },
  moderatorcommentfeedback: { id: 11, appLabel: 'a4_candy_moderatorfeedback', model: 'moderatorcommentfeedback' },
  mapidea: { id: 12, appLabel: 'a4_candy_mapideas', model: 'mapidea' },
  proposal: { id: 13, appLabel: 'a4_candy_budgeting', model: 'proposal' },
  livequestion: { id: 16, appLabel: 'a4_candy_interactive_events', model: 'livequestion' },
};

const byId = new Map(Object.entries(CONTENT_TYPES).map(([kind, ct]) => [ct.id, kind as ContentKind]));

export const contentTypeId = (kind: ContentKind): number => CONTENT_TYPES[kind].id;
export const contentKindOf = (id: number): ContentKind | undefined => byId.get(id);

// What may be commented on, rated and reported: comments themselves, and what module types declare (the registry).
const declared = (flag: 'commentable' | 'rateable' | 'reportable'): ContentKind[] =>
  CONTENT_KINDS.filter((kind) => kind === 'comment' || contentTypeOfModule(kind)?.[flag] === true);

/** Objects that can be commented on (A4_COMMENTABLES, as far as Allmende has them). */
export const commentable = (): readonly ContentKind[] => declared('commentable');
/** Objects that can be rated (A4_RATEABLES). */
export const rateable = (): readonly ContentKind[] => declared('rateable');
/** Objects that can be reported. */
export const reportable = (): readonly ContentKind[] => declared('reportable');
