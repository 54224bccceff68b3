import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { apiErrors, PathId } from '../../http/responses.js';
import { type AuthUser, currentUser, denied, requireUser } from '../../http/auth.js';
import { badRequest, fieldErrors, notFound, permissionDenied } from '../../http/errors.js';
import { checkPageInRange, pageLinks, PageParam, pageNumber } from '../../http/pagination.js';
import { renderContext } from '../../http/render.js';
import { loadObjectContext, type ObjectContext } from '../../core/contenttypes/context.js';
import { commentable, contentKindOf } from '../../core/contenttypes/registry.js';
import { organisationTextPath } from '../../core/legal/texts.js';
import { loadOrganisationTerms } from '../../core/organisations/queries.js';
import { organisationTermsError } from '../../core/organisations/rules.js';
import { extrasFor, extrasOf } from './extras.js';
import { type CommentPosting, type CommentRow, commentPostLoader, loadCommentRow, loadReplies, loadThreadPage, locateInThread, type ThreadFilter, type ThreadOrdering } from './queries.js';
import { canAddComment, canChangeComment, canDeleteComment, canViewComments, replyTargetError, wouldHaveCommentingPermission } from './rules.js';
import { CommentSchema, serializeComment, type SerializeContext } from './serialize.js';
import { createCommentRow, editComment, removeComment } from './services.js';
import { CommentCategories, commentCategories, commentCategoryChoices, CommentText, commentText } from './input.js';

const PAGE_SIZE = 20;
const ObjectParams = Type.Object({ ct: PathId, pk: PathId });
const DetailParams = Type.Object({ ct: PathId, pk: PathId, id: PathId });
const CommentBody = Type.Object({
  comment: CommentText,
  comment_categories: Type.Optional(CommentCategories),
  agreed_terms_of_use: Type.Optional(Type.Boolean({ description: "true agrees to the organisation's terms of use; required while the user has not agreed to written terms (§A11.7)" })),
});
const CommentPatch = Type.Partial(CommentBody);
const ListResponse = Type.Object({
  count: Type.Integer(),
  next: Type.Union([Type.String(), Type.Null()]),
  previous: Type.Union([Type.String(), Type.Null()]),
  results: Type.Array(CommentSchema),
  comment_count: Type.Integer(),
  use_org_terms_of_use: Type.Boolean({ description: 'the organisation has written terms of use that writers must agree to once' }),
  user_has_agreed: Type.Union([Type.Boolean(), Type.Null()], { description: 'null for anonymous callers' }),
  org_terms_url: Type.String(),
  has_commenting_permission: Type.Boolean({ description: 'the caller may comment on the object now (the rule POST asks)' }),
  would_have_commenting_permission: Type.Boolean({ description: 'an ordinary signed-in user without roles could comment now (a4: "log in to comment")' }),
  project_is_public: Type.Boolean({ description: "the project's access is public" }),
  comment_found: Type.Optional(Type.Boolean({ description: 'with commentID: the comment (or the comment a reply answers) is in the list as filtered' })),
  comment_parent: Type.Optional(Type.Integer({ description: 'with commentID of a reply that was found: the comment it answers' })),
  categories: Type.Optional(Type.Record(Type.String(), Type.String(), { description: 'with categories=true: the comment categories offered, key to name (a4, for its category filter and form)' })),
});

/** a4's orderings of the comment list (its widget's sort menu); any other value keeps the default, newest first, as in a4. */
const A4_ORDERINGS: Record<string, ThreadOrdering> = {
  new: '-created',
  ans: '-child_comment_count',
  pos: '-positive_rating_count',
  neg: '-negative_rating_count',
  dis: '-last_discussed',
  mom: '-is_moderator_marked',
};
const ListQuery = Type.Object({
  page: PageParam,
  ordering: Type.Optional(Type.String({ maxLength: 40, description: 'new (default), ans (most answers), pos (most up votes), neg (most down votes), dis (last discussed), mom (moderator-marked first); other values are ignored' })),
  search: Type.Optional(Type.String({ maxLength: 200, description: 'comments whose text contains it (any case), or by the user of exactly that name, or with such a reply; never removed, censored or blocked ones' })),
  comment_category: Type.Optional(Type.String({ maxLength: 40, description: 'comments carrying this category (sug, not, que)' })),
  commentID: Type.Optional(Type.String({ maxLength: 40, description: 'a comment or reply to find: the answer says comment_found, and comment_parent for a reply' })),
  categories: Type.Optional(Type.String({ maxLength: 10, description: 'true: the answer names the comment categories offered (categories)' })),
});
const listFilter = (query: { ordering?: string; search?: string; comment_category?: string }): ThreadFilter => ({
  ordering: (query.ordering !== undefined && Object.hasOwn(A4_ORDERINGS, query.ordering) ? A4_ORDERINGS[query.ordering] : undefined) ?? '-created',
  search: query.search?.trim() ?? '',
  category: query.comment_category ?? '',
});
/** `commentID` as a4 reads it: a whole number, else 400. */
function commentIdOf(raw: string | undefined): number | undefined {
  if (raw === undefined) return undefined;
  const id = /^\s*[+-]?\d{1,9}\s*$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id)) throw badRequest('commentID must be a whole number.');
  return id;
}

const categoriesOf = (raw: string | undefined) => (raw === undefined ? undefined : commentCategories(raw));

export async function commentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  const objectFor = async (params: { ct: number; pk: number }, user: AuthUser | null) => {
    const context = await loadObjectContext(db, params.ct, params.pk, user, commentable());
    if (!canViewComments(context)) throw denied(user);
    return context;
  };

  /** A comment on the object, or a reply to one of its comments. */
  const commentOn = async (context: ObjectContext, id: number): Promise<CommentRow> => {
    const row = await loadCommentRow(db, id);
    if (!row) throw notFound();
    const direct = row.contentType === context.target.kind && row.objectPk === context.target.id;
    if (direct) return row;
    if (row.contentType === 'comment') {
      const parent = await loadCommentRow(db, row.objectPk);
      if (parent && parent.contentType === context.target.kind && parent.objectPk === context.target.id) return row;
    }
    throw notFound();
  };

  /** The organisation's terms of use for a write (§A11.7): a 400 on `comment` while the user must still agree and did not. */
  const termsAgreement = async (context: ObjectContext, user: AuthUser, agreed: boolean | undefined) => {
    const terms = await loadOrganisationTerms(db, context.project.organisationId, user.id);
    const error = organisationTermsError(terms, agreed === true);
    if (error) throw fieldErrors({ comment: [error] });
    return terms;
  };

  const render = async (row: CommentRow, context: ObjectContext, user: AuthUser | null, ctx: SerializeContext) => {
    const replies = row.contentType === 'comment' ? new Map<number, CommentRow[]>() : await loadReplies(db, [row.id]);
    return serializeComment(row, await extrasFor(db, [row], replies, context.project.projectId, user?.id ?? null, context), ctx);
  };

  app.get(
    '/api/contenttypes/:ct/objects/:pk/comments/',
    { schema: { tags: ['comments'], params: ObjectParams, querystring: ListQuery, response: { 200: ListResponse, ...apiErrors } } },
    async (request) => {
      const user = await currentUser(request);
      const context = await objectFor(request.params, user);
      const page = pageNumber(request.query.page);
      const commentId = commentIdOf(request.query.commentID);
      const filter = listFilter(request.query);
      const ref = { type: context.target.kind, id: context.target.id };
      const thread = await loadThreadPage(db, ref, page, PAGE_SIZE, filter, { projectId: context.project.projectId, userId: user?.id ?? null });
      checkPageInRange(page, PAGE_SIZE, thread.count);
      const located = commentId === undefined ? undefined : await locateInThread(db, ref, filter, commentId);
      const extras = extrasOf(thread.comments, thread.replies, thread, context);
      const ctx = renderContext(request, user, config);
      const terms = await loadOrganisationTerms(db, context.project.organisationId, user?.id ?? null);
      return {
        count: thread.count,
        ...pageLinks(new URL(request.url, ctx.origin).toString(), page, PAGE_SIZE, thread.count),
        results: thread.comments.map((row) => serializeComment(row, extras, ctx)),
        comment_count: thread.commentCount,
        use_org_terms_of_use: terms?.written ?? false,
        user_has_agreed: user ? (terms?.agreed ?? false) : null,
        org_terms_url: terms ? organisationTextPath(terms.slug, 'terms-of-use') : '',
        has_commenting_permission: canAddComment(context),
        would_have_commenting_permission: wouldHaveCommentingPermission(context),
        project_is_public: context.project.access === 'PUBLIC',
        ...(located && { comment_found: located.found }),
        ...(located?.parent && { comment_parent: located.parent }),
        ...(request.query.categories === 'true' && { categories: commentCategoryChoices(ctx.lang) }),
      };
    },
  );

  /**
   * What posting needs: in one statement for the objects it knows (`commentPostLoader`, an app's
   * token included), else by the general path, which answers 401 or 404 as the other routes do.
   */
  const loadPosting = commentPostLoader(db);
  const posting = async (request: FastifyRequest, params: { ct: number; pk: number }): Promise<CommentPosting & { user: AuthUser }> => {
    const kind = contentKindOf(params.ct);
    const loaded = kind && commentable().includes(kind) ? await loadPosting(request, kind, params.pk) : null;
    if (loaded?.user) return { ...loaded, user: loaded.user };
    const user = await requireUser(request);
    const context = await objectFor(params, user);
    const parent = context.target.kind === 'comment' ? await loadCommentRow(db, context.target.id) : null;
    return { user, context, parent, terms: await loadOrganisationTerms(db, context.project.organisationId, user.id) };
  };

  app.post(
    '/api/contenttypes/:ct/objects/:pk/comments/',
    { schema: { tags: ['comments'], params: ObjectParams, body: CommentBody, response: { 201: CommentSchema, ...apiErrors } } },
    async (request, reply) => {
      // Two round trips: what posting needs (posting), then the comment with all it brings (createCommentRow); its notice after the answer.
      const { user, context, parent, terms } = await posting(request, request.params);
      if (!canViewComments(context) || !canAddComment(context)) throw denied(user);
      const targetError = parent && replyTargetError(parent);
      if (targetError) throw badRequest(targetError);
      const text = commentText(request.body.comment);
      const termsError = organisationTermsError(terms, request.body.agreed_terms_of_use === true);
      if (termsError) throw fieldErrors({ comment: [termsError] });
      const ctx = renderContext(request, user, config);
      const input = { creatorId: user.id, target: { type: context.target.kind, id: context.target.id }, comment: text, commentCategories: categoriesOf(request.body.comment_categories) };
      const agreement = { userId: user.id, organisationId: context.project.organisationId, terms };
      const row = await createCommentRow(db, input, context.target, { origin: ctx.origin }, agreement);
      // A new comment has no replies, ratings or feedback yet; its author moderates the project or not.
      const facts = { ratings: new Map(), feedback: new Map(), moderatorIds: new Set(context.project.roles.moderator ? [user.id] : []) };
      return reply.status(201).send(serializeComment(row, extrasOf([row], new Map(), facts, context), ctx));
    },
  );

  app.get(
    '/api/contenttypes/:ct/objects/:pk/comments/:id/',
    { schema: { tags: ['comments'], params: DetailParams, response: { 200: CommentSchema, ...apiErrors } } },
    async (request) => {
      const user = await currentUser(request);
      const context = await objectFor(request.params, user);
      const row = await commentOn(context, request.params.id);
      return render(row, context, user, renderContext(request, user, config));
    },
  );

  const update = async (request: FastifyRequest<{ Params: { ct: number; pk: number; id: number }; Body: { comment?: string; comment_categories?: string; agreed_terms_of_use?: boolean } }>) => {
    const user = await requireUser(request);
    const context = await objectFor(request.params, user);
    const row = await commentOn(context, request.params.id);
    if (!canChangeComment(context, row)) throw permissionDenied();
    const { comment, comment_categories: categories } = request.body;
    const text = comment === undefined ? row.comment : commentText(comment);
    const terms = await termsAgreement(context, user, request.body.agreed_terms_of_use);
    const changes = comment !== undefined || categories !== undefined ? { text, commentCategories: categoriesOf(categories) } : {};
    await db.transaction((tx) => editComment(tx, row.id, { ...changes, agreement: { userId: user.id, organisationId: context.project.organisationId, terms } }));
    const fresh = await loadCommentRow(db, row.id);
    if (!fresh) throw notFound();
    return render(fresh, context, user, renderContext(request, user, config));
  };

  app.put(
    '/api/contenttypes/:ct/objects/:pk/comments/:id/',
    { schema: { tags: ['comments'], params: DetailParams, body: CommentBody, response: { 200: CommentSchema, ...apiErrors } } },
    update,
  );
  app.patch(
    '/api/contenttypes/:ct/objects/:pk/comments/:id/',
    { schema: { tags: ['comments'], params: DetailParams, body: CommentPatch, response: { 200: CommentSchema, ...apiErrors } } },
    update,
  );

  app.delete(
    '/api/contenttypes/:ct/objects/:pk/comments/:id/',
    { schema: { tags: ['comments'], params: DetailParams, response: { 200: CommentSchema, ...apiErrors } } },
    async (request) => {
      const user = await requireUser(request);
      const context = await objectFor(request.params, user);
      const row = await commentOn(context, request.params.id);
      if (!canDeleteComment(context, row)) throw permissionDenied();
      await db.transaction((tx) => removeComment(tx, row.id, row.creatorId === user.id));
      const fresh = await loadCommentRow(db, row.id);
      if (!fresh) throw notFound();
      return render(fresh, context, user, renderContext(request, user, config));
    },
  );
}
