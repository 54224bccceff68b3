import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type AuthUser, denied } from '../../http/auth.js';
import { csrfTokenValid } from '../../http/session.js';
import { commentPath as commentPathOf } from '../../core/urls.js';
import type { ContentKind } from '../../db/schema/index.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { renderContext } from '../../http/render.js';
import { PathId } from '../../http/responses.js';
import { t } from '../../i18n/index.js';
import { framedPage, type PageBasics, type PageContext, pageBasics } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, fieldList, FormBody, pageRoute, RepeatedFormBody } from '../../web/forms.js';
import { Layout } from '../../web/layout.js';
import { loginRedirectUrl, safeNext, sendPage } from '../../web/render.js';
import { loadObjectContext, type ObjectContext } from '../../core/contenttypes/context.js';
import { commentable, contentTypeId } from '../../core/contenttypes/registry.js';
import { feedbackTextError } from '../comments/feedback-rules.js';
import { addCommentFeedback, deleteCommentFeedback, updateCommentFeedback } from '../comments/feedback-services.js';
import { loadOrganisationTerms } from '../../core/organisations/queries.js';
import { type OrganisationTerms, organisationTermsAsked, organisationTermsError } from '../../core/organisations/rules.js';
import { ORGANISATION_TERMS_FIELD, OrganisationTermsField } from '../../web/organisation-terms.js';
import { canModerate } from '../../core/projects/rules.js';
import { toggleRating } from '../ratings/services.js';
import { createReport, takeReportAllowance } from '../reports/services.js';
import { reportDescriptionError } from '../reports/rules.js';
import { commentPostLoader, loadCommentPaths, loadCommentRow, loadFeedbackOf, loadObjectPaths, objectKey, type ObjectRef } from '../comments/queries.js';
import { canAddComment, canChangeComment, canDeleteComment, canRateComment, canReplyTo, canViewComments, commentCategoriesOffered, commentTextError, isDeletedComment } from '../comments/rules.js';
import { createCommentRow, editComment, MODERATION_ACTIONS, moderateComment, removeComment } from '../comments/services.js';
import { CategoryFields, CommentField } from './views.js';
import { checkCommentCategories } from '../comments/input.js';

/** The kinds a new comment may be about: what the module types declare commentable (read when the routes are registered). */
const newParams = () => Type.Object({ kind: Type.Union(commentable().filter((kind) => kind !== 'comment').map((kind) => Type.Literal(kind))), pk: PathId });
const ActionParams = Type.Object({ id: PathId });

/** A comment form sent again with its error, the text kept (a form has no page of its own to return to). */
function CommentFormPage({
  page,
  action,
  label,
  value,
  errors,
  back,
  categories,
  terms,
}: {
  page: PageContext;
  action: string;
  label: string;
  value: string;
  errors: string[];
  back: string;
  /** The category checkboxes, when the module offers them: the chosen ones and their error. */
  categories?: { chosen: string[]; errors: string[] };
  /** The organisation's terms of use box, while the form asks for it: the organisation, whether it was ticked, its error. */
  terms?: { slug: string; checked: boolean; errors: string[] };
}) {
  const { lang } = page;
  return (
    <Layout page={page} title={label}>
      <h1>{label}</h1>
      <div class="alert alert-error" role="alert">
        {t(lang, 'An error occurred. Please check the data you entered.')}
      </div>
      <form method="post" action={action} class="comment-form">
        <input type="hidden" name="csrfmiddlewaretoken" value={page.csrf} />
        <CommentField lang={lang} id="id_comment" label={label} value={value} errors={errors} />
        {categories && <CategoryFields lang={lang} id="id_comment_categories" chosen={categories.chosen} errors={categories.errors} />}
        {terms && <OrganisationTermsField lang={lang} id="id_organisation_terms_of_use" slug={terms.slug} checked={terms.checked} errors={terms.errors} />}
        <button type="submit">{t(lang, 'Post')}</button> <a href={back}>{t(lang, 'Cancel')}</a>
      </form>
    </Layout>
  );
}

/**
 * The comment forms of every discussion (ideas, and the commentable content of every module type): write, reply, edit,
 * delete, rate, report, and the moderator's block / read / feedback. Each asks the comment rules and
 * calls the services the API calls, then goes back to the comment (POST-redirect-GET with a message).
 */
export async function commentPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;
  const loadPosting = commentPostLoader(db);

  /** The signed-in page context of a form post (CSRF checked), or null after a redirect to login. */
  async function poster(request: FastifyRequest, reply: FastifyReply, back: string) {
    checkCsrf(request);
    // The frame (footer, menu) is read only where a form is shown again (framedPage).
    const page = await pageBasics(request, reply);
    if (!page.user) {
      await reply.redirect(loginRedirectUrl(back), 302);
      return null;
    }
    return { ...page, user: page.user };
  }

  const commentPath = async (row: { id: number; contentType: Parameters<typeof loadCommentPaths>[1][number]['contentType']; objectPk: number }) =>
    `${(await loadCommentPaths(db, [row])).get(row.id) ?? '/'}#comment-${row.id}`;

  /** Where a moderator's form goes back to: a local `next` (the moderation queue at its filter and page), else the comment in its discussion. */
  const backTo = async (body: FormBody, row: Parameters<typeof commentPath>[0]) => {
    const next = safeNext(field(body, 'next'), '');
    return next || commentPath(row);
  };

  /** A comment and its discussion's context, for a user who may see the discussion (403 otherwise). */
  async function commentContext(id: number, user: PageBasics['user']) {
    const row = await loadCommentRow(db, id);
    if (!row) throw notFound();
    const context: ObjectContext = await loadObjectContext(db, contentTypeId('comment'), id, user, commentable());
    if (!canViewComments(context)) throw denied(user);
    return { row, context };
  }

  /** The user's agreement to the organisation's terms given with a comment form; its command records it when the form asked. */
  const agreement = (context: ObjectContext, user: { id: number }, terms: OrganisationTerms | null) => ({ userId: user.id, organisationId: context.project.organisationId, terms });

  const origin = (request: FastifyRequest, page: PageBasics) => renderContext(request, page.user, config).origin;

  const termsOf = (context: ObjectContext, user: { id: number }) => loadOrganisationTerms(db, context.project.organisationId, user.id);

  /** The organisation's terms of use for a comment form (§A11.7): what the form asks, and its error when the box was not ticked. */
  function termsCheck(body: FormBody | RepeatedFormBody, terms: OrganisationTerms | null) {
    const checked = field(body, ORGANISATION_TERMS_FIELD) === 'on';
    const error = organisationTermsError(terms, checked);
    const form = organisationTermsAsked(terms) ? { slug: terms.slug, checked, errors: error ? [error] : [] } : undefined;
    return { terms, error, form };
  }

  /** The page of a thread's object (its root), or undefined when it is gone. */
  const threadPage = async (root: ObjectRef) => (await loadObjectPaths(db, [root])).get(objectKey(root));

  /** A comment in its thread: the page of the thread's object at the comment, `/` when that page is gone. */
  const commentIn = async (root: ObjectRef, id: number) => {
    const path = await threadPage(root);
    return `${path ? commentPathOf(path, id) : '/'}#comment-${id}`;
  };

  /**
   * What a comment form needs, in one statement with the browser session's user (`commentPostLoader`,
   * as the API's): for a form with its CSRF token from a signed-in browser, on an object the statement
   * knows. Null: the general path (the object's page, the form token, the login, the context and the
   * terms, read one by one), which answers 404, 403 or the login page as it always did.
   */
  async function formPosting(request: FastifyRequest, kind: ContentKind, id: number) {
    if (request.headers.authorization !== undefined || !csrfTokenValid(request)) return null;
    const posting = await loadPosting(request, kind, id);
    return posting?.user ? { ...posting, user: posting.user } : null;
  }

  /** A signed-in user's comment or reply form on an object they may comment on. */
  interface CommentForm {
    page: PageBasics & { user: AuthUser };
    context: ObjectContext;
    terms: OrganisationTerms | null;
    /** A reply: the comment it answers (the form goes back to it). */
    parentId?: number;
  }

  /**
   * The text, categories and terms of a comment form: the form again with the message beside the
   * field (400), or the comment in one statement (with the terms agreement) on the target the
   * context read and back to it in its thread; its notice after the answer (`createCommentRow`).
   */
  async function submitComment(request: FastifyRequest, body: FormBody | RepeatedFormBody, reply: FastifyReply, { page, context, terms: asked, parentId }: CommentForm) {
    const text = field(body, 'comment', false);
    const error = commentTextError(text);
    // Categories only where the module offers them (§A11.3, never on replies), checked by the API's one rule.
    const offered = parentId === undefined && commentCategoriesOffered(context);
    const chosen = offered ? fieldList(body, 'comment_categories') : [];
    const categories = checkCommentCategories(chosen.join(','));
    const terms = termsCheck(body, asked);
    if (error || 'problem' in categories || terms.error) {
      const form = {
        page: await framedPage(request, page),
        action: request.url,
        label: t(page.lang, parentId === undefined ? 'Your comment' : 'Your reply'),
        value: text,
        errors: error ? [t(page.lang, error)] : [],
        back: parentId === undefined ? ((await threadPage(context.root)) ?? '/') : await commentIn(context.root, parentId),
        categories: offered ? { chosen, errors: 'problem' in categories ? [t(page.lang, categories.problem)] : [] } : undefined,
        terms: terms.form,
      };
      return sendPage(reply, CommentFormPage(form), 400);
    }
    const input = { creatorId: page.user.id, target: { type: context.target.kind, id: context.target.id }, comment: text, commentCategories: categories.value };
    const created = await createCommentRow(db, input, context.target, { origin: origin(request, page) }, agreement(context, page.user, terms.terms));
    return redirectWithMessage(request, reply, await commentIn(context.root, created.id), parentId === undefined ? 'Your comment has been posted.' : 'Your reply has been posted.');
  }

  // A comment or reply from a signed-in browser: three statements before the answer (what posting needs, the comment, its place in the thread).
  app.post('/comments/on/:kind/:pk/', pageRoute({ params: newParams(), body: RepeatedFormBody }), async (request, reply) => {
    const { kind, pk } = request.params;
    const posting = await formPosting(request, kind, pk);
    if (posting) {
      const page = { ...(await pageBasics(request, reply)), user: posting.user };
      if (!canViewComments(posting.context) || !canAddComment(posting.context)) throw denied(page.user);
      return submitComment(request, request.body, reply, { page, context: posting.context, terms: posting.terms });
    }
    const objectPath = (await loadObjectPaths(db, [{ type: kind, id: pk }])).get(`${kind}:${pk}`);
    if (!objectPath) throw notFound();
    const page = await poster(request, reply, objectPath);
    if (!page) return reply;
    const context = await loadObjectContext(db, contentTypeId(kind), pk, page.user, commentable());
    if (!canViewComments(context) || !canAddComment(context)) throw denied(page.user);
    return submitComment(request, request.body, reply, { page, context, terms: await termsOf(context, page.user) });
  });

  app.post('/comments/:id/reply/', pageRoute({ params: ActionParams, body: FormBody }), async (request, reply) => {
    const { id } = request.params;
    const posting = await formPosting(request, 'comment', id);
    if (posting?.parent) {
      const page = { ...(await pageBasics(request, reply)), user: posting.user };
      if (!canViewComments(posting.context)) throw denied(page.user);
      if (!canReplyTo(posting.parent) || !canAddComment(posting.context)) throw permissionDenied();
      return submitComment(request, request.body, reply, { page, context: posting.context, terms: posting.terms, parentId: id });
    }
    const page = await poster(request, reply, '/');
    if (!page) return reply;
    const { row, context } = await commentContext(id, page.user);
    if (!canReplyTo(row) || !canAddComment(context)) throw permissionDenied();
    return submitComment(request, request.body, reply, { page, context, terms: await termsOf(context, page.user), parentId: id });
  });

  app.post('/comments/:id/edit/', pageRoute({ params: ActionParams, body: FormBody }), async (request, reply) => {
    const page = await poster(request, reply, '/');
    if (!page) return reply;
    const { row, context } = await commentContext(request.params.id, page.user);
    if (!canChangeComment(context, row)) throw permissionDenied();
    const text = field(request.body, 'comment', false);
    const error = commentTextError(text);
    const terms = termsCheck(request.body, await termsOf(context, page.user));
    if (error || terms.error) {
      return sendPage(reply, CommentFormPage({ page: await framedPage(request, page), action: request.url, label: t(page.lang, 'Your comment'), value: text, errors: error ? [t(page.lang, error)] : [], back: await commentPath(row), terms: terms.form }), 400);
    }
    await db.transaction((tx) => editComment(tx, row.id, { text, agreement: agreement(context, page.user, terms.terms) }));
    return redirectWithMessage(request, reply, await commentPath(row), 'Your comment has been changed.');
  });

  app.post('/comments/:id/delete/', pageRoute({ params: ActionParams, body: FormBody }), async (request, reply) => {
    const page = await poster(request, reply, '/');
    if (!page) return reply;
    const { row, context } = await commentContext(request.params.id, page.user);
    if (isDeletedComment(row) || !canDeleteComment(context, row)) throw permissionDenied();
    await db.transaction((tx) => removeComment(tx, row.id, row.creatorId === page.user.id));
    return redirectWithMessage(request, reply, await commentPath(row), 'The comment has been deleted.');
  });

  app.post('/comments/:id/rate/', pageRoute({ params: ActionParams, body: FormBody }), async (request, reply) => {
    const page = await poster(request, reply, '/');
    if (!page) return reply;
    const { row, context } = await commentContext(request.params.id, page.user);
    const value = field(request.body, 'value');
    if (value !== '1' && value !== '-1') throw notFound();
    if (!canRateComment(context, row)) throw permissionDenied();
    await db.transaction((tx) => toggleRating(tx, page.user.id, { type: 'comment', id: row.id }, Number(value)));
    return reply.redirect(await commentPath(row), 302);
  });

  app.post('/comments/:id/report/', pageRoute({ params: ActionParams, body: FormBody }), async (request, reply) => {
    const page = await poster(request, reply, '/');
    if (!page) return reply;
    const { row, context } = await commentContext(request.params.id, page.user);
    const description = field(request.body, 'description');
    const error = reportDescriptionError(description);
    if (error) return redirectWithMessage(request, reply, await commentPath(row), error);
    await takeReportAllowance(app.ctx, page.user.id);
    await db.transaction((tx) => createReport(tx, { creatorId: page.user.id, target: { type: 'comment', id: row.id }, projectId: context.project.projectId, description }, { origin: origin(request, page) }));
    return redirectWithMessage(request, reply, await commentPath(row), 'Thank you. The moderators have been told about this comment.');
  });

  app.post('/comments/:id/moderate/', pageRoute({ params: ActionParams, body: FormBody }), async (request, reply) => {
    const page = await poster(request, reply, '/');
    if (!page) return reply;
    const { row, context } = await commentContext(request.params.id, page.user);
    if (!canModerate(context.project)) throw permissionDenied();
    const changes = MODERATION_ACTIONS[field(request.body, 'action')];
    if (!changes) throw notFound();
    await db.transaction((tx) => moderateComment(tx, row.id, changes, { origin: origin(request, page) }));
    return redirectWithMessage(request, reply, await commentPath(row), 'The comment has been moderated.');
  });

  app.post('/comments/:id/feedback/', pageRoute({ params: ActionParams, body: FormBody }), async (request, reply) => {
    const page = await poster(request, reply, '/');
    if (!page) return reply;
    const { row, context } = await commentContext(request.params.id, page.user);
    if (!canModerate(context.project) || isDeletedComment(row)) throw permissionDenied();
    const text = field(request.body, 'feedback_text');
    if (!text) return redirectWithMessage(request, reply, await commentPath(row), 'The feedback may not be blank.');
    const tooLong = feedbackTextError(text);
    if (tooLong) return redirectWithMessage(request, reply, await commentPath(row), tooLong);
    const existing = (await loadFeedbackOf(db, [row.id])).get(row.id);
    const notice = { origin: origin(request, page) };
    await db.transaction((tx) =>
      existing ? updateCommentFeedback(tx, existing.id, page.user.id, text, notice) : addCommentFeedback(tx, { commentId: row.id, creatorId: page.user.id, feedbackText: text }, notice).then(() => undefined),
    );
    return redirectWithMessage(request, reply, await commentPath(row), 'Your feedback has been saved.');
  });

  // Issue 22.5: a moderator deletes the moderator feedback of a comment from the page.
  app.post('/comments/:id/feedback/delete/', pageRoute({ params: ActionParams, body: FormBody }), async (request, reply) => {
    const page = await poster(request, reply, '/');
    if (!page) return reply;
    const { row, context } = await commentContext(request.params.id, page.user);
    if (!canModerate(context.project)) throw permissionDenied();
    const existing = (await loadFeedbackOf(db, [row.id])).get(row.id);
    if (!existing) throw notFound();
    await db.transaction((tx) => deleteCommentFeedback(tx, existing.id));
    return redirectWithMessage(request, reply, await backTo(request.body, row), 'The feedback has been deleted.');
  });
}
