import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ComponentChildren, JSX } from 'preact';
import type { Db, Tx } from '../../db/client.js';
import { Type } from 'typebox';
import { readMultipartBody } from '../../http/bodies.js';
import { denied } from '../../http/auth.js';
import { type FieldErrors, notFound, permissionDenied } from '../../http/errors.js';
import { pageNumber } from '../../http/pagination.js';
import { renderContext } from '../../http/render.js';
import { ImageInvalid } from '../../media/images.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, fieldList, FormBody, pageRoute, RepeatedFormBody } from '../../web/forms.js';
import { loginRedirectUrl, sendPage } from '../../web/render.js';
import { sendKeptPage } from '../../web/page-keeping.js';
import { loadRemark, remarkPath } from '../moderatorremarks/queries.js';
import { canSeeRemarks } from '../moderatorremarks/rules.js';
import { RemarkPanel } from '../moderatorremarks/views.js';
import { loadResultsOf } from '../results/queries.js';
import { BecamePartOf } from '../results/views.js';
import { findIdeaByLegacySlug } from './legacy.js';
import { IDEA_KIND, type IdeaKind } from './kinds.js';
import { loadThreadView, threadFilter, ThreadQuery, threadUrl } from '../threads/queries.js';
import { CommentThread } from '../threads/views.js';
import { loadModulePage } from '../../core/modules/queries.js';
import { loadOrganisationTerms } from '../../core/organisations/queries.js';
import { type OrganisationTerms, organisationTermsAsked, organisationTermsError } from '../../core/organisations/rules.js';
import { ORGANISATION_TERMS_FIELD } from '../../web/organisation-terms.js';
import { FollowForm } from '../../web/follow-form.js';
import { toggleRating } from '../ratings/services.js';
import { reportDescriptionError } from '../reports/rules.js';
import { createReport, takeReportAllowance } from '../reports/services.js';
import { ideaPath, ideaReferenceNumber, modulePath, projectPath } from '../../core/urls.js';
import { removeIdeaImage, storeIdeaImage } from './images.js';
import { checkIdeaInput, ideaTextError, rightOfUseError } from './input.js';
import { moduleRatesIdeas } from './list.js';
import { type DetailFields, ideaHeadLoader, type IdeaModule, type IdeaRow, ideaModuleLoader, loadIdeaPlace, loadIdeas } from './queries.js';
import { canAddIdea, canChangeIdea, canDeleteIdea, canModerateIdea, canRateIdea, canViewIdeas } from './rules.js';
import { deleteIdea, MODERATOR_STATUS_VALUES, type ModeratorStatus, moderateIdea, submitIdea, updateIdea } from './services.js';
import { say, wordOf } from './words.js';
import { checkAnswers } from '../customfields/rules.js';
import { saveAnswers } from '../customfields/services.js';
import { answerValues, CustomFieldInputs } from '../customfields/views.js';
import { type IdeaFormValues, IdeaDeletePage, IdeaFormPage, IdeaModeratePage, IdeaPage, MODERATOR_STATUSES } from './views.js';

const IdeaParams = Type.Object({ org: Slug, ref: Type.String({ pattern: '^\\d{4}-\\d{1,10}$' }) });
const CreateParams = Type.Object({ org: Slug, slug: Slug });
/** The detail page also answers the old adhocracy+ slug address (`/<org>/ideas/<slug>/`) and a reference without its zeros. */
const IdeaAddressParams = Type.Object({ org: Slug, ref: Type.String({ pattern: '^[-\\w]{1,200}$' }) });
const REFERENCE = /^\d{4}-\d{1,10}$/;
const IdeaQuery = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 20 })), ...ThreadQuery.properties });

const EMPTY_FORM: IdeaFormValues = { name: '', description: '', category: '', labels: [], imageCopyright: '', rightOfUse: false, imageDeleted: false, organisationTerms: false, answers: {} };

const toId = (value: string) => (/^\d{1,9}$/.test(value) ? Number(value) : value);

/**
 * What an idea-like kind adds to the idea pages (map ideas: a place; proposals: a place and a
 * budget): its form fields, their check, their storage, and its part of the detail page.
 */
export interface IdeaPageHooks {
  /** The kind's form values of a stored item. */
  stored: (db: Db, ideaId: number) => Promise<Record<string, string>>;
  /** Reads and checks the kind's fields of a posted form against the module: the values as entered, field errors, and what to store. */
  check: (db: Db, moduleId: number, body: RepeatedFormBody) => Promise<{ values: Record<string, string>; errors: FieldErrors; extra: Record<string, unknown> }>;
  /** Stores the kind's fields of an existing item (inside the edit's transaction). */
  update: (tx: Tx, ideaId: number, extra: Record<string, unknown>) => Promise<void>;
  /** The kind's form fields. */
  Fields: (props: { page: PageContext; db: Db; values: Record<string, string>; errors: FieldErrors; area: unknown }) => JSX.Element;
  /** The module's facts the fields show (the area of a map). */
  formContext: (db: Db, moduleId: number) => Promise<unknown>;
  /** What the kind's part of the detail page shows, as select fields over the kind's table (joined with its module), loaded in the idea's own statement. */
  detailFields: DetailFields;
  /** The kind's part of the detail page, from its `detailFields` (no statements). */
  detail: (page: PageContext, idea: IdeaRow, orgSlug: string, facts: Record<string, unknown>) => ComponentChildren;
  /** Scripts of the form and the detail page (the map). */
  scripts: string[];
  /** Further fields of the moderation (proposals: archived). */
  moderation?: {
    values: (db: Db, ideaId: number) => Promise<Record<string, string>>;
    read: (body: FormBody) => Record<string, string>;
    save: (tx: Tx, ideaId: number, values: Record<string, string>) => Promise<void>;
    Fields: (props: { page: PageContext; values: Record<string, string> }) => JSX.Element;
  };
}

/** The idea pages (§A9, §A13, §A14): detail, create, edit, delete, moderate, and the rating and report forms. */
export const ideaPages = (fastify: FastifyInstance) => ideaPagesOf(IDEA_KIND)(fastify);

/** The idea pages of an idea-like kind, under `/<org>/<segment>/`, with what the kind adds (hooks). */
export const ideaPagesOf = (kind: IdeaKind, hooks?: IdeaPageHooks) => async (fastify: FastifyInstance): Promise<void> => {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;
  const seg = kind.segment;
  const { media } = app.ctx;
  const loadIdeaModule = ideaModuleLoader(db);
  const loadIdeaHead = ideaHeadLoader(db, kind, hooks?.detailFields);

  if (!app.hasRequestDecorator('upload')) app.decorateRequest('upload', null);
  /** Multipart forms (with an image) become an ordinary body before validation; the file waits on the request. */
  async function readUpload(request: FastifyRequest) {
    if (request.isMultipart()) request.upload = await readMultipartBody(request, 'image');
  }

  /**
   * An idea its viewer may see, from `/<org>/ideas/<yyyy>-<pk>/`; 404 for a wrong year or
   * organisation, login or 403 when they may not see it — or 404 (`hidden: 'missing'`) where an
   * address must not tell a hidden idea from a missing one (the old slug addresses, which anyone
   * can guess from a title: issue 21, finding 4).
   */
  async function visibleIdea(page: PageContext, params: { org: string; ref: string }, hidden: 'denied' | 'missing' = 'denied') {
    const [year, pk] = params.ref.split('-').map(Number);
    if (!(pk >= 1 && pk <= 2147483647)) throw notFound();
    const head = await loadIdeaHead(params.org, pk, page.user);
    if (!head || ideaReferenceNumber(head.idea.created, head.idea.id) !== `${year}-${String(pk).padStart(5, '0')}`) throw notFound();
    if (!canViewIdeas(head.target.rules)) throw hidden === 'missing' ? notFound() : denied(page.user);
    return { ...head, path: ideaPath(params.org, head.idea.created, head.idea.id, seg) };
  }

  /** The signed-in page context of a form, or null after a redirect to login. */
  async function signedIn(request: FastifyRequest, reply: FastifyReply) {
    const page = await pageContext(request, reply);
    if (page.user) return { ...page, user: page.user };
    await reply.redirect(loginRedirectUrl(request.url.replace(/(rate|report)\/$/, '')), 302);
    return null;
  }

  app.get(`/:org/${seg}/:ref/`, pageRoute({ params: IdeaAddressParams, querystring: IdeaQuery }), async (request, reply) => {
    const { org, ref } = request.params;
    const viewer = await pageContext(request, reply);
    const legacyId = REFERENCE.test(ref) ? null : await findIdeaByLegacySlug(db, ref, kind.table);
    const legacy = legacyId === null ? null : await loadIdeaPlace(db, org, legacyId, kind);
    if (!REFERENCE.test(ref) && !legacy) throw notFound();
    const { place, idea, target, path, following, terms, facts, pageVersion } = await visibleIdea(viewer, legacy ? { org, ref: ideaReferenceNumber(legacy.created, legacy.id) } : { org, ref }, legacy ? 'missing' : 'denied');
    // §A9.10: the reference number is the canonical address; other addresses of the idea redirect to it, the query kept.
    if (legacy || ref !== ideaReferenceNumber(idea.created, idea.id)) return reply.redirect(`${path}${request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''}`, 301);
    /** The page for its viewer (kept: web/page-keeping.ts). */
    const render = async (page: PageContext) => {
      const rules = target.rules;
      const commenting = { ...rules, root: { type: kind.kind }, terms };
      const selected = Number(request.query.comment ?? '') || null;
      const filter = threadFilter(request.query);
      const thread = await loadThreadView(db, request, config, page, commenting, { type: kind.kind, id: idea.id }, { page: request.query.comment_page === undefined ? undefined : pageNumber(request.query.comment_page), comment: selected }, undefined, filter);
      if (thread.page > thread.pages) throw notFound();
      const project = { organisationSlug: request.params.org, slug: place.projectSlug };
      const data = {
        orgSlug: request.params.org,
        place,
        idea,
        path,
        following,
        actions: {
          change: canChangeIdea(rules, idea, kind.kind),
          moderate: canModerateIdea(rules),
          rate: page.user !== null && canRateIdea(rules, kind.kind),
          report: page.user !== null,
          rated: moduleRatesIdeas(target.module, kind.kind),
        },
        extra: hooks ? hooks.detail(page, idea, request.params.org, facts) : undefined,
        aliases: target.module.aliases,
        remark: canSeeRemarks(rules.project) ? <RemarkPanel page={page} action={remarkPath(kind.kind, idea.id)} next={path} remark={(await loadRemark(db, kind.kind, idea.id))?.remark ?? ''} /> : undefined,
        results: <BecamePartOf lang={page.lang} results={await loadResultsOf(db, kind.kind, idea.id)} />,
        imageSrcset: await app.ctx.media.srcset(idea.image),
        words: kind.words,
        follow: <FollowForm page={page} project={project} following={following} next={path} />,
        thread: <CommentThread page={page} thread={thread} selected={selected} pageLink={(n) => threadUrl(path, filter, n)} controls={path} />,
      };
      return <IdeaPage page={page} data={data} scripts={hooks?.scripts} />;
    };
    return sendKeptPage(request, reply, viewer, pageVersion, render);
  });

  app.post(`/:org/${seg}/:ref/rate/`, pageRoute({ params: IdeaParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { idea, target, path } = await visibleIdea(page, request.params);
    const value = field(request.body, 'value');
    if (value !== '1' && value !== '-1') throw notFound();
    if (!canRateIdea(target.rules, kind.kind)) throw permissionDenied();
    await db.transaction((tx) => toggleRating(tx, page.user.id, { type: kind.kind, id: idea.id }, Number(value)));
    return reply.redirect(path, 302);
  });

  app.post(`/:org/${seg}/:ref/report/`, pageRoute({ params: IdeaParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { idea, target, path } = await visibleIdea(page, request.params);
    const description = field(request.body, 'description');
    const error = reportDescriptionError(description);
    if (error) return redirectWithMessage(request, reply, path, error);
    const origin = renderContext(request, page.user, config).origin;
    await takeReportAllowance(app.ctx, page.user.id);
    await db.transaction((tx) => createReport(tx, { creatorId: page.user.id, target: { type: kind.kind, id: idea.id }, projectId: target.module.projectId, description }, { origin }));
    return redirectWithMessage(request, reply, path, wordOf(kind.words, 'Thank you. The moderators have been told about this idea.'));
  });

  /** The form's values from a post, as entered. */
  const formValues = (body: RepeatedFormBody): IdeaFormValues => ({
    name: field(body, 'name'),
    description: field(body, 'description'),
    category: field(body, 'category'),
    labels: fieldList(body, 'labels'),
    imageCopyright: field(body, 'image_copyright'),
    rightOfUse: field(body, 'right_of_use') === 'on',
    imageDeleted: field(body, 'image_deleted') === 'true',
    organisationTerms: field(body, ORGANISATION_TERMS_FIELD) === 'on',
    answers: Object.fromEntries(Object.keys(body).flatMap((name) => (/^custom_\d{1,9}$/.test(name) ? [[name, field(body, name, false)]] : []))),
  });

  /** The organisation's terms of use as the idea form of this user sees them (§A13). */
  const termsFor = (page: { user: { id: number } }, target: IdeaModule) => loadOrganisationTerms(db, target.rules.project.organisationId, page.user.id);

  /** Checks a posted idea form; stores its image. Errors are field → catalogue keys. */
  async function checkForm(request: FastifyRequest, target: IdeaModule, values: IdeaFormValues, mode: 'create' | 'put', hadImage: boolean, terms: OrganisationTerms | null) {
    const kindFields = hooks ? await hooks.check(db, target.module.id, request.body as RepeatedFormBody) : null;
    values.extra = kindFields?.values;
    const { input, errors: ideaErrors } = checkIdeaInput(
      { name: values.name, description: values.description, category: values.category ? toId(values.category) : null, labels: values.labels.map(toId), image_deleted: values.imageDeleted },
      target.module,
      mode,
    );
    const custom = checkAnswers(target.customFields, (name) => (request.body as RepeatedFormBody)[name], mode);
    const errors: FieldErrors = { ...ideaErrors, ...kindFields?.errors, ...custom.errors };
    const upload = request.upload?.length ? request.upload : null;
    const rights = rightOfUseError(upload !== null || (hadImage && !values.imageDeleted), values.rightOfUse);
    if (rights) errors.right_of_use = [rights];
    const copyright = ideaTextError('image_copyright', values.imageCopyright);
    if (copyright) errors.image_copyright = [copyright];
    const termsError = organisationTermsError(terms, values.organisationTerms);
    if (termsError) errors[ORGANISATION_TERMS_FIELD] = [termsError];
    let image: string | null = null;
    if (upload && !Object.keys(errors).length) {
      try {
        image = await storeIdeaImage(media, upload);
      } catch (error) {
        if (!(error instanceof ImageInvalid)) throw error;
        errors.image = [error.message];
      }
    }
    return { input, errors, image, extra: kindFields?.extra ?? {}, answers: custom.answers };
  }

  const KindFields = hooks?.Fields;
  /** The form's view model, with the kind's fields (and the module's area they show). */
  const formData = async (page: PageContext, target: IdeaModule, title: string, action: string, cancel: string, values: IdeaFormValues, errors: Record<string, string[]>, image: string | null, terms: OrganisationTerms | null) => ({
    extraFields: hooks && KindFields ? <KindFields page={page} db={db} values={values.extra ?? {}} errors={errors} area={await hooks.formContext(db, target.module.id)} /> : undefined,
    title,
    action,
    cancel,
    values,
    errors,
    categories: target.module.categories,
    labels: target.module.labels,
    aliases: target.module.aliases,
    questions: target.customFields.length ? <CustomFieldInputs lang={page.lang} fields={target.customFields} values={values.answers} errors={errors} /> : undefined,
    image,
    termsOf: organisationTermsAsked(terms) ? terms.slug : null,
    words: kind.words,
  });

  /** A module its viewer may add ideas to; 403 when they may not see it or add. */
  async function creatableModule(page: PageContext, params: { org: string; slug: string }) {
    const module = (await loadModulePage(db, params.org, params.slug, page.user))?.module;
    const target = module && (await loadIdeaModule(module.id, page.user));
    if (!module || !target) throw notFound();
    if (!canViewIdeas(target.rules) || !canAddIdea(target.rules, kind.kind)) throw denied(page.user);
    return { module, target };
  }

  const createRoute = `/:org/${seg}/create/module/:slug/`;
  app.get(createRoute, pageRoute({ params: CreateParams }), async (request, reply) => {
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { target } = await creatableModule(page, request.params);
    const cancel = modulePath(request.params.org, request.params.slug);
    return sendPage(reply, <IdeaFormPage page={page} scripts={hooks?.scripts} data={await formData(page, target, say(page.lang, kind.words, 'Submit a new idea for this project'), request.url, cancel, EMPTY_FORM, {}, null, await termsFor(page, target))} />);
  });

  app.post(createRoute, { ...pageRoute({ params: CreateParams, body: RepeatedFormBody }), preValidation: readUpload }, async (request, reply) => {
    checkCsrf(request);
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { module, target } = await creatableModule(page, request.params);
    const values = formValues(request.body);
    const terms = await termsFor(page, target);
    const { input, errors, image, extra, answers } = await checkForm(request, target, values, 'create', false, terms);
    if (Object.keys(errors).length) {
      const cancel = modulePath(request.params.org, request.params.slug);
      return sendPage(reply, <IdeaFormPage page={page} scripts={hooks?.scripts} data={await formData(page, target, say(page.lang, kind.words, 'Submit a new idea for this project'), request.url, cancel, values, errors, null, terms)} />, 400);
    }
    const agreement = { userId: page.user.id, organisationId: target.rules.project.organisationId, terms };
    const ideaId = await db.transaction((tx) =>
      submitIdea(tx, {
        moduleId: module.id,
        creatorId: page.user.id,
        name: input.name ?? '',
        description: input.description ?? '',
        categoryId: input.categoryId ?? null,
        labelIds: input.labelIds ?? [],
        image,
        imageCopyright: image ? values.imageCopyright : '',
        extra,
      }, { answers, agreement }, kind),
    );
    const [idea] = await loadIdeas(db, { moduleId: module.id, ideaId }, page.user.id, kind);
    return redirectWithMessage(request, reply, ideaPath(request.params.org, idea.created, idea.id, seg), wordOf(kind.words, 'Your idea has been saved.'));
  });

  /** An idea the signed-in viewer may change (403 otherwise). */
  async function changeableIdea(page: PageContext, params: { org: string; ref: string }, remove = false) {
    const loaded = await visibleIdea(page, params);
    const allowed = remove ? canDeleteIdea(loaded.target.rules, loaded.idea, kind.kind) : canChangeIdea(loaded.target.rules, loaded.idea, kind.kind);
    if (!allowed) throw permissionDenied();
    return loaded;
  }

  const storedValues = (idea: IdeaRow): IdeaFormValues => ({
    name: idea.name,
    description: idea.description,
    category: idea.category ? String(idea.category.id) : '',
    labels: idea.labels.map((l) => String(l.id)),
    imageCopyright: idea.imageCopyright,
    rightOfUse: idea.image !== null,
    imageDeleted: false,
    organisationTerms: false,
    answers: answerValues(idea.answers),
  });

  app.get(`/:org/${seg}/:ref/update/`, pageRoute({ params: IdeaParams }), async (request, reply) => {
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { idea, target, path } = await changeableIdea(page, request.params);
    return sendPage(reply, <IdeaFormPage page={page} scripts={hooks?.scripts} data={await formData(page, target, say(page.lang, kind.words, 'Edit idea'), request.url, path, { ...storedValues(idea), extra: hooks ? await hooks.stored(db, idea.id) : undefined }, {}, idea.image, await termsFor(page, target))} />);
  });

  app.post(`/:org/${seg}/:ref/update/`, { ...pageRoute({ params: IdeaParams, body: RepeatedFormBody }), preValidation: readUpload }, async (request, reply) => {
    checkCsrf(request);
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { idea, target, path } = await changeableIdea(page, request.params);
    const values = formValues(request.body);
    const terms = await termsFor(page, target);
    const { input, errors, image, extra, answers } = await checkForm(request, target, values, 'put', idea.image !== null, terms);
    if (Object.keys(errors).length) {
      return sendPage(reply, <IdeaFormPage page={page} scripts={hooks?.scripts} data={await formData(page, target, say(page.lang, kind.words, 'Edit idea'), request.url, path, values, errors, idea.image, terms)} />, 400);
    }
    const replacesImage = image !== null || values.imageDeleted;
    await db.transaction(async (tx) => {
      await updateIdea(tx, idea.id, {
        name: input.name,
        description: input.description,
        categoryId: input.categoryId,
        labelIds: input.labelIds,
        imageCopyright: replacesImage && !image ? '' : values.imageCopyright,
        ...(replacesImage ? { image } : {}),
        agreement: { userId: page.user.id, organisationId: target.rules.project.organisationId, terms },
      }, kind);
      await hooks?.update(tx, idea.id, extra);
      await saveAnswers(tx, idea.id, answers);
    });
    if (replacesImage) await removeIdeaImage(media, idea.image);
    return redirectWithMessage(request, reply, path, wordOf(kind.words, 'Your idea has been saved.'));
  });

  app.get(`/:org/${seg}/:ref/delete/`, pageRoute({ params: IdeaParams }), async (request, reply) => {
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { idea, path } = await changeableIdea(page, request.params, true);
    return sendPage(reply, <IdeaDeletePage page={page} idea={idea} action={request.url} cancel={path} words={kind.words} />);
  });

  app.post(`/:org/${seg}/:ref/delete/`, pageRoute({ params: IdeaParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { idea, place } = await changeableIdea(page, request.params, true);
    await db.transaction((tx) => deleteIdea(tx, idea.id, kind));
    await removeIdeaImage(media, idea.image);
    return redirectWithMessage(request, reply, projectPath(request.params.org, place.projectSlug), wordOf(kind.words, 'Your idea has been deleted.'));
  });

  const ModerationFields = hooks?.moderation?.Fields;
  const moderationFields = async (page: PageContext, values: Record<string, string> | undefined) => (ModerationFields && values ? <ModerationFields page={page} values={values} /> : undefined);

  /** An idea the signed-in viewer may moderate (§A14; 403 otherwise). */
  async function moderatableIdea(page: PageContext, params: { org: string; ref: string }) {
    const loaded = await visibleIdea(page, params);
    if (!canModerateIdea(loaded.target.rules)) throw permissionDenied();
    return loaded;
  }

  app.get(`/:org/${seg}/:ref/moderate/`, pageRoute({ params: IdeaParams }), async (request, reply) => {
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { idea, path } = await moderatableIdea(page, request.params);
    return sendPage(
      reply,
      <IdeaModeratePage page={page} words={kind.words} idea={idea} action={request.url} cancel={path} status={idea.moderatorStatus ?? ''} feedback={idea.moderatorFeedbackText ?? ''} errors={{}} extra={await moderationFields(page, hooks?.moderation && (await hooks.moderation.values(db, idea.id)))} />,
    );
  });

  app.post(`/:org/${seg}/:ref/moderate/`, pageRoute({ params: IdeaParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await signedIn(request, reply);
    if (!page) return reply;
    const { idea, path } = await moderatableIdea(page, request.params);
    const raw = field(request.body, 'moderator_status');
    const feedback = field(request.body, 'moderator_feedback_text');
    const status = (MODERATOR_STATUS_VALUES as readonly string[]).includes(raw) ? (raw as ModeratorStatus) : null;
    const feedbackError = ideaTextError('moderator_feedback_text', feedback);
    if ((raw && !status) || feedbackError) {
      const errors = { ...(raw && !status ? { moderator_status: ['Select a valid choice.'] } : {}), ...(feedbackError ? { moderator_feedback_text: [feedbackError] } : {}) };
      return sendPage(reply, <IdeaModeratePage page={page} words={kind.words} idea={idea} action={request.url} cancel={path} status={raw} feedback={feedback} errors={errors} extra={await moderationFields(page, hooks?.moderation?.read(request.body))} />, 400);
    }
    const origin = renderContext(request, page.user, config).origin;
    const statusLabel = status ? MODERATOR_STATUSES[status].label : 'No status';
    await db.transaction(async (tx) => {
      await moderateIdea(tx, idea.id, { status, feedback, actorId: page.user.id, statusLabel }, { origin, url: `${origin}${path}` }, kind);
      if (hooks?.moderation) await hooks.moderation.save(tx, idea.id, hooks.moderation.read(request.body));
    });
    return redirectWithMessage(request, reply, path, wordOf(kind.words, 'The moderation of the idea has been saved.'));
  });
};
