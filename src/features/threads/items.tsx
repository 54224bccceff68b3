import type { PageContext } from '../../web/context.js';
import { objectKey, type ObjectRef } from '../comments/queries.js';
import type { ModuleContentInput } from '../moduletypes/contract.js';
import { loadWholeThreadViews, type ThreadView } from './queries.js';
import { CommentThread } from './views.js';

/** The discussions of a module's items, and the comment a `?comment=` link selects. */
export interface ItemThreads {
  views: Map<string, ThreadView>;
  selected: number | null;
}

/** Whole threads (a module has few polls or paragraphs), so that every `?comment=` link lands; in a constant number of statements. */
export const loadItemThreads = async (input: ModuleContentInput, objects: ObjectRef[]): Promise<ItemThreads> => ({
  views: await loadWholeThreadViews(input.db, input.request, input.config, input.page, input.context, objects),
  selected: Number(input.query.comment ?? '') || null,
});

/** One item's discussion on its module page. */
export function ItemThread({ page, threads, object }: { page: PageContext; threads: ItemThreads; object: ObjectRef }) {
  const thread = threads.views.get(objectKey(object));
  if (!thread) return null;
  return <CommentThread page={page} thread={thread} selected={threads.selected} pageLink={() => '#'} heading={{ id: `${object.type}-${object.id}-comments`, level: 4 }} />;
}
