import type { FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import type { Config } from '../../config.js';
import type { DbOrTx } from '../../db/client.js';
import { notFound } from '../../http/errors.js';
import { pageNumber } from '../../http/pagination.js';
import { Slug } from '../../http/responses.js';
import type { PageContext } from '../../web/context.js';
import { safeNext } from '../../web/render.js';
import type { LoadedModuleContext } from '../../core/projects/context.js';
import type { ObjectRef } from '../comments/queries.js';
import { loadThreadView, threadFilter, ThreadQuery, threadUrl } from '../threads/queries.js';
import { CommentThread } from '../threads/views.js';

/** What the routes of a module type's item pages share: their parameters, an item's discussion, the way back from a form. */

/** An item by its reference number (`<yyyy>-<pk:05>`) inside an organisation. */
export const RefParams = Type.Object({ org: Slug, ref: Type.String({ pattern: '^\\d{4}-\\d{1,10}$' }) });
/** An item page's reference number, or the slug adhocracy+ gave the item (its old address, kept by import-aplus). */
export const RefOrSlugParams = Type.Object({ org: Slug, ref: Type.String({ pattern: '^(\\d{4}-\\d{1,10}|[A-Za-z0-9_][A-Za-z0-9_-]{0,99})$' }) });
export const isReference = (ref: string) => /^\d{4}-\d{1,10}$/.test(ref);
export const ModuleParams = Type.Object({ org: Slug, slug: Slug });
export const NextQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 500 })) });
/** An item page's address: the selected comment and the state of its discussion. */
export const ItemQuery = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 20 })), ...ThreadQuery.properties });
export type ItemQuery = Static<typeof ItemQuery>;

/** Where a form goes back to: a local `next` (the dashboard), else the given page. */
export const backTo = (request: FastifyRequest, fallback: string) => safeNext((request.query as { next?: string }).next, fallback);

/** The discussion of an item on its page, at the state of the page's address (404 past its last page). */
export async function itemThread(
  app: { db: DbOrTx; config: Config },
  at: { request: FastifyRequest; query: ItemQuery; page: PageContext; context: LoadedModuleContext },
  object: ObjectRef,
  path: string,
) {
  const { request, query, page } = at;
  const selected = Number(query.comment ?? '') || null;
  const filter = threadFilter(query);
  const where = { page: query.comment_page === undefined ? undefined : pageNumber(query.comment_page), comment: selected };
  const view = await loadThreadView(app.db, request, app.config, page, { ...at.context, root: { type: object.type } }, object, where, undefined, filter);
  if (view.page > view.pages) throw notFound();
  return <CommentThread page={page} thread={view} selected={selected} pageLink={(n) => threadUrl(path, filter, n)} controls={path} />;
}
