import type { FastifyRequest } from 'fastify';
import type { DbOrTx } from '../../db/client.js';
import { renderContext } from '../../http/render.js';
import { checkPageInRange, PageParam } from '../../http/pagination.js';
import type { Config } from '../../config.js';
import type { PageContext } from '../../web/context.js';
import { extrasFor, extrasOf } from '../comments/extras.js';
import { Type } from 'typebox';
import { COMMENT_CATEGORIES } from '../comments/input.js';
import { COMMENT_ORDERINGS, type CommentRow, DEFAULT_THREAD_FILTER, loadThreadPage, loadThreads, objectKey, type ObjectRef, type ThreadFilter, type ThreadPage, threadPageOf } from '../comments/queries.js';
import { canAddComment, canChangeComment, canDeleteComment, canRateComment, canReplyTo, commentCategoriesOffered, type CommentContext, commentingOpen, type ModuleCommentContext, isDeletedComment } from '../comments/rules.js';
import type { CommentExtras } from '../comments/extras.js';
import { commentViewOf, type CommentView } from './view-model.js';
import { asSignedInUser, canModerate, isGuest, mayBecomeGuest } from '../../core/projects/rules.js';
import { loadOrganisationTerms } from '../../core/organisations/queries.js';
import { type OrganisationTerms, organisationTermsAsked } from '../../core/organisations/rules.js';

/** Top-level comments a thread page shows (§A11.4). */
const THREAD_PAGE_SIZE = 20;

/** The longest comment search. */
export const COMMENT_SEARCH_MAX_LENGTH = 120;

/** A thread's state in the page address (§A11.4): `comment_ordering`, `comment_search`, `comment_category`, `comment_page`. */
export const ThreadQuery = Type.Object({
  comment_ordering: Type.Optional(Type.Union([Type.Literal(''), ...COMMENT_ORDERINGS.map((o) => Type.Literal(o))])),
  comment_search: Type.Optional(Type.String({ maxLength: COMMENT_SEARCH_MAX_LENGTH })),
  comment_category: Type.Optional(Type.Union([Type.Literal(''), ...COMMENT_CATEGORIES.map((c) => Type.Literal(c))])),
  comment_page: PageParam,
});

export function threadFilter(query: { comment_ordering?: string; comment_search?: string; comment_category?: string }): ThreadFilter {
  return {
    ordering: (query.comment_ordering || DEFAULT_THREAD_FILTER.ordering) as ThreadFilter['ordering'],
    search: (query.comment_search ?? '').trim(),
    category: query.comment_category ?? '',
  };
}

const isDefault = (filter: ThreadFilter) => filter.ordering === '-created' && !filter.search && !filter.category;

/** The address of a thread's page under a state: only the parameters that differ from the default, then `#comments-heading`. */
export function threadUrl(path: string, filter: ThreadFilter, page = 1): string {
  const params = new URLSearchParams();
  if (filter.ordering !== '-created') params.set('comment_ordering', filter.ordering);
  if (filter.search) params.set('comment_search', filter.search);
  if (filter.category) params.set('comment_category', filter.category);
  if (page > 1) params.set('comment_page', String(page));
  const qs = params.toString();
  return `${path}${qs ? `?${qs}` : ''}#comments-heading`;
}

export interface ThreadView {
  object: ObjectRef;
  comments: CommentView[];
  filter: ThreadFilter;
  /** Top-level comments the filter keeps. */
  matches: number;
  /** The module offers comment categories (the form's checkboxes and the category filter). */
  categories: boolean;
  /** Comments plus their replies. */
  commentCount: number;
  page: number;
  pages: number;
  /** The viewer may write a new comment. */
  mayComment: boolean;
  /** Why the viewer may not (a catalogue key), or null. */
  notice: string | null;
  /** "Take part as a guest" is offered beside the login notice (issue 34.4). */
  guest: boolean;
  /** The organisation (slug) whose terms of use the comment forms ask the viewer to agree to (§A11.7); null when they do not ask. */
  termsOf: string | null;
}

/** Why the comment form is not offered (§A11.6): the guidance a visitor or member sees instead. */
function commentNotice(context: CommentContext): string {
  if (!context.project.user && canAddComment({ ...context, project: asSignedInUser(context.project) })) return 'Please log in to comment.';
  if (isGuest(context.project) && canAddComment({ ...context, project: { ...context.project, user: { id: 0, isSuperuser: false } } })) return 'Guests cannot take part in this project. Please create an account.';
  if (commentingOpen(context)) return 'Only invited users can actively participate.';
  return "The currently active phase doesn't allow to comment.";
}

/** The context a thread view is decided in: the comment rules' context, the project, and the organisation's terms when the caller loaded them already (a page of several threads). */
type ThreadViewContext = CommentContext & { project: { projectId: number; organisationId: number }; terms?: OrganisationTerms | null };

/** A loaded thread as the pages show it: each comment's view model, with what the viewer may do with it decided by the comment rules. No statements. */
function threadView(
  page: PageContext,
  context: ThreadViewContext,
  object: ObjectRef,
  loaded: { thread: ThreadPage; extras: CommentExtras; ctx: ReturnType<typeof renderContext>; terms: OrganisationTerms | null },
  at: { page: number; size: number; filter: ThreadFilter },
): ThreadView {
  const { thread, extras, ctx, terms } = loaded;
  const mayComment = canAddComment(context);
  const signedIn = page.user !== null;
  const notice = signedIn && mayComment ? null : commentNotice(context);
  const moderates = canModerate(context.project);
  const actions = (row: CommentRow) => ({
    reply: signedIn && mayComment && canReplyTo(row),
    edit: canChangeComment(context, row),
    delete: signedIn && !isDeletedComment(row) && canDeleteComment(context, row),
    rate: signedIn && canRateComment(context, row),
    report: signedIn && !isDeletedComment(row),
    moderate: moderates,
  });
  // Moderators see who wrote a blocked comment (they see its text too): the author, not "unknown user".
  const shown = { lang: ctx.lang, timeZone: ctx.timeZone, showsBlockedAuthors: moderates, actions };
  return {
    object,
    comments: thread.comments.map((row) => commentViewOf(row, extras, shown)),
    filter: at.filter,
    matches: thread.count,
    categories: commentCategoriesOffered(context),
    commentCount: thread.commentCount,
    page: at.page,
    pages: Math.max(1, Math.ceil(thread.count / at.size)),
    mayComment: signedIn && mayComment,
    notice,
    guest: notice === 'Please log in to comment.' && mayBecomeGuest(context.project),
    termsOf: organisationTermsAsked(terms) ? terms.slug : null,
  };
}

const viewerTerms = (db: DbOrTx, page: PageContext, context: Pick<ThreadViewContext, 'terms' | 'project'>) =>
  context.terms !== undefined ? context.terms : page.user ? loadOrganisationTerms(db, context.project.organisationId, page.user.id) : null;

/** One page of an object's comment thread as the pages show it. */
export async function loadThreadView(
  db: DbOrTx,
  request: FastifyRequest,
  config: Config,
  page: PageContext,
  context: ThreadViewContext,
  object: ObjectRef,
  /** A page number, or the comment whose page to show (a `?comment=` link), or both absent: page 1. */
  at: { page?: number; comment?: number | null },
  size = THREAD_PAGE_SIZE,
  filter: ThreadFilter = DEFAULT_THREAD_FILTER,
): Promise<ThreadView> {
  // A `?comment=` link finds its page in the default order.
  const number = at.page ?? (at.comment && isDefault(filter) ? await threadPageOf(db, object, at.comment, size) : 1);
  const thread = await loadThreadPage(db, object, number, size, filter, { projectId: context.project.projectId, userId: page.user?.id ?? null });
  checkPageInRange(number, size, thread.count);
  const extras = extrasOf(thread.comments, thread.replies, thread);
  const loaded = { thread, extras, ctx: renderContext(request, page.user, config), terms: await viewerTerms(db, page, context) };
  return threadView(page, context, object, loaded, { page: number, size, filter });
}

/**
 * The whole threads of several objects of one module (its polls, chapters and paragraphs), newest
 * first, in a constant number of statements however many objects: the comments and replies of all
 * of them at once, their ratings and feedback at once, the terms once. Keyed by `objectKey`.
 */
export async function loadWholeThreadViews(
  db: DbOrTx,
  request: FastifyRequest,
  config: Config,
  page: PageContext,
  context: Omit<ModuleCommentContext, 'root'> & Omit<ThreadViewContext, 'root' | 'module'>,
  objects: ObjectRef[],
): Promise<Map<string, ThreadView>> {
  const views = new Map<string, ThreadView>();
  if (!objects.length) return views;
  const threads = await loadThreads(db, objects);
  const extras = await extrasFor(db, [...threads.comments.values()].flat(), threads.replies, context.project.projectId, page.user?.id ?? null);
  const shared = { ctx: renderContext(request, page.user, config), terms: await viewerTerms(db, page, context) };
  for (const object of objects) {
    const threadContext = { ...context, root: { type: object.type } };
    const comments = threads.comments.get(objectKey(object)) ?? [];
    const rows = [...comments, ...comments.flatMap((row) => threads.replies.get(row.id) ?? [])];
    // What the viewer may do with a comment depends on its thread's root (the phase of polls differs from the document's): threadView asks the rules in threadContext.
    const thread = { count: comments.length, commentCount: rows.length, comments, replies: threads.replies };
    views.set(objectKey(object), threadView(page, threadContext, object, { ...shared, thread, extras }, { page: 1, size: Math.max(1, comments.length), filter: DEFAULT_THREAD_FILTER }));
  }
  return views;
}
