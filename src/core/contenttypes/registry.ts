import type { DbOrTx } from '../../db/client.js';
import { CONTENT_KINDS, type ContentKind } from '../../db/schema/index.js';
import { contentTypeOfModule } from '../modules/registry.js';

/** A content type as the API names it: its stable id, adhocracy+'s app label and model. */
interface ContentTypeRow {
  id: number;
  appLabel: string;
  model: string;
}

/**
 * Content types: stable integer ids for the kinds of objects that generic relations point at.
 * These ids are part of the API (the comments and ratings routes, the idea's `content_type`);
 * never renumber them. The kinds of the floor are here; a module type's content types declare
 * their own (`ContentTypeOfModule.id`). test/core/contenttypes/ids.test.ts holds them all.
 */
const CORE_CONTENT_TYPES: Partial<Record<ContentKind, ContentTypeRow>> = {
  project: { id: 1, appLabel: 'a4projects', model: 'project' },
  module: { id: 2, appLabel: 'a4modules', model: 'module' },
  phase: { id: 3, appLabel: 'a4phases', model: 'phase' },
  comment: { id: 8, appLabel: 'a4comments', model: 'comment' },
  rating: { id: 9, appLabel: 'a4ratings', model: 'rating' },
  report: { id: 10, appLabel: 'a4reports', model: 'report' },
  moderatorcommentfeedback: { id: 11, appLabel: 'a4_candy_moderatorfeedback', model: 'moderatorcommentfeedback' },
  offlineevent: { id: 17, appLabel: 'a4_candy_offlineevents', model: 'offlineevent' },
  result: { id: 18, appLabel: 'allmende_results', model: 'result' },
};

const rowOf = (kind: ContentKind): ContentTypeRow | undefined => CORE_CONTENT_TYPES[kind] ?? contentTypeOfModule(kind) ?? undefined;

/** Every known content type (the floor's and the registered module types'), by kind. */
export const allContentTypes = (): Map<ContentKind, ContentTypeRow> =>
  new Map(CONTENT_KINDS.flatMap((kind) => {
    const row = rowOf(kind);
    return row ? [[kind, { id: row.id, appLabel: row.appLabel, model: row.model }] as const] : [];
  }));

export function contentTypeId(kind: ContentKind): number {
  const row = rowOf(kind);
  if (!row) throw new Error(`content kind ${kind} has no content type (no registered module type declares it)`);
  return row.id;
}
export const contentKindOf = (id: number): ContentKind | undefined => CONTENT_KINDS.find((kind) => rowOf(kind)?.id === id);

/**
 * Content of a project that belongs to none of its modules (a result, features/results) and has a
 * discussion: its comments are decided by the project alone (a project-level comment context, no
 * phase). The feature registers it (src/module-types.ts); shared code reads it here.
 */
export interface ProjectContentType {
  kind: ContentKind;
  /** The object's project and creator; null when it does not exist. */
  target: (db: DbOrTx, id: number) => Promise<{ projectId: number; creatorId: number | null } | null>;
  /** The page of each object (where its discussion is) and its name, by id, in a constant number of statements. */
  pages: (db: DbOrTx, ids: number[]) => Promise<Map<number, { path: string; name: string }>>;
}

const projectContentTypes = new Map<ContentKind, ProjectContentType>();

/** Registers a project's commentable content type (once per kind; the same object again is no change). */
export function registerProjectContentType(type: ProjectContentType): void {
  const known = projectContentTypes.get(type.kind);
  if (known && known !== type) throw new Error(`project content type ${type.kind} is registered twice`);
  projectContentTypes.set(type.kind, type);
}

/** The registered project-level content type of a kind, or null (module content and comments have none). */
export const projectContentType = (kind: ContentKind): ProjectContentType | null => projectContentTypes.get(kind) ?? null;

// What may be commented on, rated and reported: comments themselves, and what module types declare (the registry).
const declared = (flag: 'commentable' | 'rateable' | 'reportable'): ContentKind[] =>
  CONTENT_KINDS.filter((kind) => kind === 'comment' || contentTypeOfModule(kind)?.[flag] === true);

/** Objects that can be commented on (A4_COMMENTABLES, as far as Allmende has them), and a project's own commentable content (results). */
export const commentable = (): readonly ContentKind[] => [...declared('commentable'), ...CONTENT_KINDS.filter((kind) => projectContentTypes.has(kind))];
/** Objects that can be rated (A4_RATEABLES). */
export const rateable = (): readonly ContentKind[] => declared('rateable');
/** Objects that can be reported. */
export const reportable = (): readonly ContentKind[] => declared('reportable');
