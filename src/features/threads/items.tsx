import type { PageContext } from '../../web/context.js';
import { objectKey, type ObjectRef } from '../comments/queries.js';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import type { LoadedModuleContext } from '../../core/projects/context.js';
import { loadWholeThreadViews, type ThreadView } from './queries.js';
import { CommentThread } from './views.js';

/** The discussions of a module's items, and the comment a `?comment=` link selects. */
export interface ItemThreads {
  views: Map<string, ThreadView>;
  selected: number | null;
}

/** What a module page's threads are loaded for. */
interface ItemThreadsInput {
  db: DbOrTx;
  request: FastifyRequest;
  config: Config;
  page: PageContext;
  context: LoadedModuleContext;
  query: Record<string, string | undefined>;
}

export const NO_ITEM_THREADS: ItemThreads = { views: new Map(), selected: null };

/** Whole threads (a module has few polls or paragraphs), so that every `?comment=` link lands; in a constant number of statements, however many objects. */
export const loadItemThreads = async (input: ItemThreadsInput, objects: ObjectRef[]): Promise<ItemThreads> => ({
  views: await loadWholeThreadViews(input.db, input.request, input.config, input.page, input.context, objects),
  selected: Number(input.query.comment ?? '') || null,
});

/** One item's discussion on its module page. */
export function ItemThread({ page, threads, object }: { page: PageContext; threads: ItemThreads; object: ObjectRef }) {
  const thread = threads.views.get(objectKey(object));
  if (!thread) return null;
  return <CommentThread page={page} thread={thread} selected={threads.selected} pageLink={() => '#'} heading={{ id: `${object.type}-${object.id}-comments`, level: 4 }} />;
}
