import { Slug } from '../../http/responses.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ComponentChildren, JSX } from 'preact';
import type { Db, Tx } from '../../db/client.js';
import { type Static, Type } from 'typebox';
import { readMultipartBody } from '../../http/bodies.js';
import { denied } from '../../http/auth.js';
import { type FieldErrors, notFound, permissionDenied } from '../../http/errors.js';
import { pageNumber } from '../../http/pagination.js';
import { renderContext } from '../../http/render.js';
import { ImageInvalid } from '../../media/images.js';
import { type PageBasics, type PageContext, pageBasics, pageContext } from '../../web/context.js';
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
import type { IdeaKind } from './kinds.js';
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
import { type DetailFields, ideaHeadLoader, type IdeaModule, type IdeaRow, ideaModuleLoader, loadIdeaModerationFacts, loadIdeaPlace, loadIdeas } from './queries.js';
import { canAddIdea, canChangeIdea, canDeleteIdea, canModerateIdea, canRateIdea, canViewIdeas } from './rules.js';
import { deleteIdea, MODERATOR_STATUS_VALUES, type ModeratorStatus, moderateIdea, submitIdea, updateIdea } from './services.js';
import { say, wordOf } from './words.js';
import { type AnswerInput, checkAnswers } from '../customfields/rules.js';
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

/** What the idea pages of one kind work with: the app's handles, the kind, its hooks and its statements (prepared once). */
interface KindPages {
  ctx: FastifyInstance['ctx'];
  kind: IdeaKind;
  hooks: IdeaPageHooks | undefined;
  loadIdeaModule: ReturnType<typeof ideaModuleLoader>;
  loadIdeaHead: ReturnType<typeof ideaHeadLoader>;
}

type SignedInPage = PageContext & { user: NonNullable<PageContext['user']> };
type IdeaAddress = Static<typeof IdeaParams>;
type ModuleAddress = Static<typeof CreateParams>;
/** The routes' parameters, query and body, as their schemas (`pageRoute`) check them. */
type DetailRoute = { Params: Static<typeof IdeaAddressParams>; Querystring: Static<typeof IdeaQuery> };
type IdeaRoute = { Params: IdeaAddress };
type IdeaPostRoute = { Params: IdeaAddress; Body: FormBody };
type IdeaFormRoute = { Params: IdeaAddress; Body: RepeatedFormBody };
type CreateRoute = { Params: ModuleAddress };
type CreatePostRoute = { Params: ModuleAddress; Body: RepeatedFormBody };
type DetailRequest = FastifyRequest<DetailRoute>;
type IdeaRequest = FastifyRequest<IdeaRoute>;
type IdeaPost = FastifyRequest<IdeaPostRoute>;
type IdeaFormPost = FastifyRequest<IdeaFormRoute>;
type CreateRequest = FastifyRequest<CreateRoute>;
type CreatePost = FastifyRequest<CreatePostRoute>;

/** The idea pages of an idea-like kind, under `/<org>/<segment>/`, with what the kind adds (hooks). */
export const ideaPagesOf = (kind: IdeaKind, hooks?: IdeaPageHooks) => async (app: FastifyInstance): Promise<void> => {
  const { db } = app.ctx;
  const pages: KindPages = { ctx: app.ctx, kind, hooks, loadIdeaModule: ideaModuleLoader(db), loadIdeaHead: ideaHeadLoader(db, kind, hooks?.detailFields) };
  const seg = kind.segment;
  if (!app.hasRequestDecorator('upload')) app.decorateRequest('upload', null);
  const withUpload = { preValidation: readUpload };

  app.get<DetailRoute>(`/:org/${seg}/:ref/`, pageRoute({ params: IdeaAddressParams, querystring: IdeaQuery }), (request, reply) => showIdea(pages, request, reply));
  app.post<IdeaPostRoute>(`/:org/${seg}/:ref/rate/`, pageRoute({ params: IdeaParams, body: FormBody }), (request, reply) => rateIdea(pages, request, reply));
  app.post<IdeaPostRoute>(`/:org/${seg}/:ref/report/`, pageRoute({ params: IdeaParams, body: FormBody }), (request, reply) => reportIdea(pages, request, reply));
  const createRoute = `/:org/${seg}/create/module/:slug/`;
  app.get<CreateRoute>(createRoute, pageRoute({ params: CreateParams }), (request, reply) => showCreateForm(pages, request, reply));
  app.post<CreatePostRoute>(createRoute, { ...pageRoute({ params: CreateParams, body: RepeatedFormBody }), ...withUpload }, (request, reply) => createFromForm(pages, request, reply));
  app.get<IdeaRoute>(`/:org/${seg}/:ref/update/`, pageRoute({ params: IdeaParams }), (request, reply) => showEditForm(pages, request, reply));
  app.post<IdeaFormRoute>(`/:org/${seg}/:ref/update/`, { ...pageRoute({ params: IdeaParams, body: RepeatedFormBody }), ...withUpload }, (request, reply) => editFromForm(pages, request, reply));
  app.get<IdeaRoute>(`/:org/${seg}/:ref/delete/`, pageRoute({ params: IdeaParams }), (request, reply) => showDeleteForm(pages, request, reply));
  app.post<IdeaPostRoute>(`/:org/${seg}/:ref/delete/`, pageRoute({ params: IdeaParams, body: FormBody }), (request, reply) => deleteFromForm(pages, request, reply));
  app.get<IdeaRoute>(`/:org/${seg}/:ref/moderate/`, pageRoute({ params: IdeaParams }), (request, reply) => showModerateForm(pages, request, reply));
  app.post<IdeaPostRoute>(`/:org/${seg}/:ref/moderate/`, pageRoute({ params: IdeaParams, body: FormBody }), (request, reply) => moderateFromForm(pages, request, reply));
};

/** Multipart forms (with an image) become an ordinary body before validation; the file waits on the request. */
async function readUpload(request: FastifyRequest) {
  if (request.isMultipart()) request.upload = await readMultipartBody(request, 'image');
}

/** The signed-in page context of a form, or null after a redirect to login. */
async function signedIn(request: FastifyRequest, reply: FastifyReply): Promise<SignedInPage | null> {
  const page = await pageContext(request, reply);
  if (page.user) return { ...page, user: page.user };
  await reply.redirect(loginRedirectUrl(request.url.replace(/(rate|report)\/$/, '')), 302);
  return null;
}

/**
 * An idea its viewer may see, from `/<org>/ideas/<yyyy>-<pk>/`; 404 for a wrong year or
 * organisation, login or 403 when they may not see it — or 404 (`hidden: 'missing'`) where an
 * address must not tell a hidden idea from a missing one (the old slug addresses, which anyone
 * can guess from a title: issue 21, finding 4).
 */
async function visibleIdea({ kind, loadIdeaHead }: KindPages, page: PageBasics, params: IdeaAddress, hidden: 'denied' | 'missing' = 'denied') {
  const [year, pk] = params.ref.split('-').map(Number);
  if (!(pk >= 1 && pk <= 2147483647)) throw notFound();
  const head = await loadIdeaHead(params.org, pk, page.user);
  if (!head || ideaReferenceNumber(head.idea.created, head.idea.id) !== `${year}-${String(pk).padStart(5, '0')}`) throw notFound();
  if (!canViewIdeas(head.target.rules)) throw hidden === 'missing' ? notFound() : denied(page.user);
  return { ...head, path: ideaPath(params.org, head.idea.created, head.idea.id, kind.segment) };
}

type VisibleIdea = Awaited<ReturnType<typeof visibleIdea>>;

/** The item an old adhocracy+ slug address names (`/<org>/ideas/<slug>/`); null for a reference number; 404 for an unknown slug. */
async function legacyIdea({ ctx, kind }: KindPages, org: string, ref: string) {
  if (REFERENCE.test(ref)) return null;
  const legacyId = await findIdeaByLegacySlug(ctx.db, ref, kind.table);
  const legacy = legacyId === null ? null : await loadIdeaPlace(ctx.db, org, legacyId, kind);
  if (!legacy) throw notFound();
  return legacy;
}

/** The detail page; other addresses of the idea redirect to it. */
async function showIdea(pages: KindPages, request: DetailRequest, reply: FastifyReply) {
  const { org, ref } = request.params;
  const viewer = await pageBasics(request, reply);
  const legacy = await legacyIdea(pages, org, ref);
  const found = await visibleIdea(pages, viewer, legacy ? { org, ref: ideaReferenceNumber(legacy.created, legacy.id) } : { org, ref }, legacy ? 'missing' : 'denied');
  // §A9.10: the reference number is the canonical address; other addresses of the idea redirect to it, the query kept.
  if (legacy || ref !== ideaReferenceNumber(found.idea.created, found.idea.id)) return reply.redirect(`${found.path}${request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : ''}`, 301);
  // The page for its viewer (kept: web/page-keeping.ts).
  return sendKeptPage(request, reply, viewer, found.pageVersion, (page) => ideaPage(pages, request, found, page));
}

/** What the viewer may do on the detail page. */
const ideaActions = ({ kind }: KindPages, { idea, target }: VisibleIdea, page: PageContext) => ({
  change: canChangeIdea(target.rules, idea, kind.kind),
  moderate: canModerateIdea(target.rules),
  rate: page.user !== null && canRateIdea(target.rules, kind.kind),
  report: page.user !== null,
  rated: moduleRatesIdeas(target.module, kind.kind),
});

/** The detail page for a viewer: the idea, its thread and what the kind adds. */
async function ideaPage(pages: KindPages, request: DetailRequest, found: VisibleIdea, page: PageContext) {
  const { ctx, kind, hooks } = pages;
  const { db, config } = ctx;
  const { place, idea, target, path, following, terms, facts } = found;
  const rules = target.rules;
  const commenting = { ...rules, root: { type: kind.kind }, terms };
  const selected = Number(request.query.comment ?? '') || null;
  const filter = threadFilter(request.query);
  const thread = await loadThreadView(db, request, config, page, commenting, { type: kind.kind, id: idea.id }, { page: request.query.comment_page === undefined ? undefined : pageNumber(request.query.comment_page), comment: selected }, undefined, filter);
  if (thread.page > thread.pages) throw notFound();
  const org = request.params.org;
  const project = { organisationSlug: org, slug: place.projectSlug };
  const data = {
    orgSlug: org,
    place,
    idea,
    path,
    following,
    actions: ideaActions(pages, found, page),
    extra: hooks ? hooks.detail(page, idea, org, facts) : undefined,
    aliases: target.module.aliases,
    remark: canSeeRemarks(rules.project) ? <RemarkPanel page={page} action={remarkPath(kind.kind, idea.id)} next={path} remark={(await loadRemark(db, kind.kind, idea.id))?.remark ?? ''} /> : undefined,
    results: <BecamePartOf lang={page.lang} results={await loadResultsOf(db, kind.kind, idea.id)} />,
    imageSrcset: await ctx.media.srcset(idea.image),
    words: kind.words,
    follow: <FollowForm page={page} project={project} following={following} next={path} />,
    thread: <CommentThread page={page} thread={thread} selected={selected} pageLink={(n) => threadUrl(path, filter, n)} controls={path} />,
  };
  return <IdeaPage page={page} data={data} scripts={hooks?.scripts} />;
}

async function rateIdea(pages: KindPages, request: IdeaPost, reply: FastifyReply) {
  const { ctx, kind } = pages;
  checkCsrf(request);
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { idea, target, path } = await visibleIdea(pages, page, request.params);
  const value = field(request.body, 'value');
  if (value !== '1' && value !== '-1') throw notFound();
  if (!canRateIdea(target.rules, kind.kind)) throw permissionDenied();
  await ctx.db.transaction((tx) => toggleRating(tx, page.user.id, { type: kind.kind, id: idea.id }, Number(value)));
  return reply.redirect(path, 302);
}

async function reportIdea(pages: KindPages, request: IdeaPost, reply: FastifyReply) {
  const { ctx, kind } = pages;
  checkCsrf(request);
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { idea, target, path } = await visibleIdea(pages, page, request.params);
  const description = field(request.body, 'description');
  const error = reportDescriptionError(description);
  if (error) return redirectWithMessage(request, reply, path, error);
  const origin = renderContext(request, page.user, ctx.config).origin;
  await takeReportAllowance(ctx, page.user.id);
  await ctx.db.transaction((tx) => createReport(tx, { creatorId: page.user.id, target: { type: kind.kind, id: idea.id }, projectId: target.module.projectId, description }, { origin }));
  return redirectWithMessage(request, reply, path, wordOf(kind.words, 'Thank you. The moderators have been told about this idea.'));
}

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

/** A stored idea's values for its edit form. */
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

/** The organisation's terms of use as the idea form of this user sees them (§A13). */
const termsFor = ({ ctx }: KindPages, page: SignedInPage, target: IdeaModule) => loadOrganisationTerms(ctx.db, target.rules.project.organisationId, page.user.id);

/** A posted form as checked: what to store, the errors (field → catalogue keys), the stored image, the kind's values and the answers. */
interface CheckedForm {
  input: ReturnType<typeof checkIdeaInput>['input'];
  errors: FieldErrors;
  image: string | null;
  extra: Record<string, unknown>;
  answers: AnswerInput[];
}

/** A posted form to check: its values as entered, whether it creates or replaces, whether the item had an image, the terms it asks. */
interface FormCheck {
  values: IdeaFormValues;
  mode: 'create' | 'put';
  hadImage: boolean;
  terms: OrganisationTerms | null;
}

/** Checks a posted idea form; stores its image when the form has no errors. Errors are field → catalogue keys. */
async function checkForm({ ctx, hooks }: KindPages, { body, upload: posted }: { body: RepeatedFormBody; upload: Buffer | null }, target: IdeaModule, { values, mode, hadImage, terms }: FormCheck): Promise<CheckedForm> {
  const kindFields = hooks ? await hooks.check(ctx.db, target.module.id, body) : null;
  values.extra = kindFields?.values;
  const { input, errors: ideaErrors } = checkIdeaInput(
    { name: values.name, description: values.description, category: values.category ? toId(values.category) : null, labels: values.labels.map(toId), image_deleted: values.imageDeleted },
    target.module,
    mode,
  );
  const custom = checkAnswers(target.customFields, (name) => body[name], mode);
  const upload = posted?.length ? posted : null;
  const errors: FieldErrors = { ...ideaErrors, ...kindFields?.errors, ...custom.errors, ...formFieldErrors(values, upload !== null || (hadImage && !values.imageDeleted), terms) };
  const stored = upload && !Object.keys(errors).length ? await storeUpload(ctx.media, upload) : { image: null };
  if (stored.error) errors.image = [stored.error];
  return { input, errors, image: stored.image, extra: kindFields?.extra ?? {}, answers: custom.answers };
}

/** The form's own fields' errors beside the idea's: the right of use of an image, its copyright, the organisation's terms. */
function formFieldErrors(values: IdeaFormValues, hasImage: boolean, terms: OrganisationTerms | null): FieldErrors {
  const errors: FieldErrors = {};
  const rights = rightOfUseError(hasImage, values.rightOfUse);
  if (rights) errors.right_of_use = [rights];
  const copyright = ideaTextError('image_copyright', values.imageCopyright);
  if (copyright) errors.image_copyright = [copyright];
  const termsError = organisationTermsError(terms, values.organisationTerms);
  if (termsError) errors[ORGANISATION_TERMS_FIELD] = [termsError];
  return errors;
}

/** Stores an uploaded image: its media path, or why it is no valid image. */
async function storeUpload(media: FastifyInstance['ctx']['media'], upload: Buffer): Promise<{ image: string | null; error?: string }> {
  try {
    return { image: await storeIdeaImage(media, upload) };
  } catch (error) {
    if (!(error instanceof ImageInvalid)) throw error;
    return { image: null, error: error.message };
  }
}

/** What a form page shows beside the module: its title, where it posts and cancels to, its values and errors, the stored image and the terms asked. */
interface FormPage {
  title: string;
  action: string;
  cancel: string;
  values: IdeaFormValues;
  errors: Record<string, string[]>;
  image: string | null;
  terms: OrganisationTerms | null;
}

/** The form's view model, with the kind's fields (and the module's area they show). */
async function formData({ ctx, kind, hooks }: KindPages, page: PageContext, target: IdeaModule, form: FormPage) {
  const KindFields = hooks?.Fields;
  const { values, errors, terms } = form;
  return {
    extraFields: hooks && KindFields ? <KindFields page={page} db={ctx.db} values={values.extra ?? {}} errors={errors} area={await hooks.formContext(ctx.db, target.module.id)} /> : undefined,
    title: form.title,
    action: form.action,
    cancel: form.cancel,
    values,
    errors,
    categories: target.module.categories,
    labels: target.module.labels,
    aliases: target.module.aliases,
    questions: target.customFields.length ? <CustomFieldInputs lang={page.lang} fields={target.customFields} values={values.answers} errors={errors} /> : undefined,
    image: form.image,
    termsOf: organisationTermsAsked(terms) ? terms.slug : null,
    words: kind.words,
  };
}

/** The create or edit form page (400 when it shows a post's errors). */
async function sendForm(pages: KindPages, reply: FastifyReply, page: PageContext, target: IdeaModule, form: FormPage) {
  return sendPage(reply, <IdeaFormPage page={page} scripts={pages.hooks?.scripts} data={await formData(pages, page, target, form)} />, Object.keys(form.errors).length ? 400 : 200);
}

/** A module its viewer may add ideas to; 403 when they may not see it or add. */
async function creatableModule({ ctx, kind, loadIdeaModule }: KindPages, page: PageContext, params: ModuleAddress) {
  const module = (await loadModulePage(ctx.db, params.org, params.slug, page.user))?.module;
  const target = module && (await loadIdeaModule(module.id, page.user));
  if (!module || !target) throw notFound();
  if (!canViewIdeas(target.rules) || !canAddIdea(target.rules, kind.kind)) throw denied(page.user);
  return { module, target };
}

/** The create form's title, action and cancel link. */
const createForm = ({ kind }: KindPages, page: PageContext, request: CreateRequest) => ({
  title: say(page.lang, kind.words, 'Submit a new idea for this project'),
  action: request.url,
  cancel: modulePath(request.params.org, request.params.slug),
});

async function showCreateForm(pages: KindPages, request: CreateRequest, reply: FastifyReply) {
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { target } = await creatableModule(pages, page, request.params);
  return sendForm(pages, reply, page, target, { ...createForm(pages, page, request), values: EMPTY_FORM, errors: {}, image: null, terms: await termsFor(pages, page, target) });
}

async function createFromForm(pages: KindPages, request: CreatePost, reply: FastifyReply) {
  const { ctx, kind } = pages;
  checkCsrf(request);
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { module, target } = await creatableModule(pages, page, request.params);
  const values = formValues(request.body);
  const terms = await termsFor(pages, page, target);
  const checked = await checkForm(pages, request, target, { values, mode: 'create', hadImage: false, terms });
  if (Object.keys(checked.errors).length) return sendForm(pages, reply, page, target, { ...createForm(pages, page, request), values, errors: checked.errors, image: null, terms });
  const ideaId = await ctx.db.transaction((tx) => saveNewIdea(pages, tx, { page, target, values, terms, checked }));
  const [idea] = await loadIdeas(ctx.db, { moduleId: module.id, ideaId }, page.user.id, kind);
  return redirectWithMessage(request, reply, ideaPath(request.params.org, idea.created, idea.id, kind.segment), wordOf(kind.words, 'Your idea has been saved.'));
}

/** A checked form's post, with whom and where it comes from. */
interface FormPost {
  page: SignedInPage;
  target: IdeaModule;
  values: IdeaFormValues;
  terms: OrganisationTerms | null;
  checked: CheckedForm;
}

/** The new idea of a checked create form, its answers and the terms agreement, inside the caller's transaction. */
async function saveNewIdea({ kind }: KindPages, tx: Tx, { page, target, values, terms, checked }: FormPost): Promise<number> {
  const { input, image, extra, answers } = checked;
  const agreement = { userId: page.user.id, organisationId: target.rules.project.organisationId, terms };
  return submitIdea(tx, {
    moduleId: target.module.id,
    creatorId: page.user.id,
    name: input.name ?? '',
    description: input.description ?? '',
    categoryId: input.categoryId ?? null,
    labelIds: input.labelIds ?? [],
    image,
    imageCopyright: image ? values.imageCopyright : '',
    extra,
  }, { answers, agreement }, kind);
}

/** An idea the signed-in viewer may change (403 otherwise). */
async function changeableIdea(pages: KindPages, page: PageContext, params: IdeaAddress, remove = false) {
  const { kind } = pages;
  const loaded = await visibleIdea(pages, page, params);
  const allowed = remove ? canDeleteIdea(loaded.target.rules, loaded.idea, kind.kind) : canChangeIdea(loaded.target.rules, loaded.idea, kind.kind);
  if (!allowed) throw permissionDenied();
  return loaded;
}

async function showEditForm(pages: KindPages, request: IdeaRequest, reply: FastifyReply) {
  const { ctx, kind, hooks } = pages;
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { idea, target, path } = await changeableIdea(pages, page, request.params);
  const values = { ...storedValues(idea), extra: hooks ? await hooks.stored(ctx.db, idea.id) : undefined };
  return sendForm(pages, reply, page, target, { title: say(page.lang, kind.words, 'Edit idea'), action: request.url, cancel: path, values, errors: {}, image: idea.image, terms: await termsFor(pages, page, target) });
}

async function editFromForm(pages: KindPages, request: IdeaFormPost, reply: FastifyReply) {
  const { ctx, kind } = pages;
  checkCsrf(request);
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { idea, target, path } = await changeableIdea(pages, page, request.params);
  const values = formValues(request.body);
  const terms = await termsFor(pages, page, target);
  const checked = await checkForm(pages, request, target, { values, mode: 'put', hadImage: idea.image !== null, terms });
  if (Object.keys(checked.errors).length) return sendForm(pages, reply, page, target, { title: say(page.lang, kind.words, 'Edit idea'), action: request.url, cancel: path, values, errors: checked.errors, image: idea.image, terms });
  const replacesImage = checked.image !== null || values.imageDeleted;
  await ctx.db.transaction((tx) => saveIdeaChanges(pages, tx, idea, replacesImage, { page, target, values, terms, checked }));
  if (replacesImage) await removeIdeaImage(ctx.media, idea.image);
  return redirectWithMessage(request, reply, path, wordOf(kind.words, 'Your idea has been saved.'));
}

/** The changes of a checked edit form, the kind's fields, the answers and the terms agreement, inside the caller's transaction. */
async function saveIdeaChanges({ kind, hooks }: KindPages, tx: Tx, idea: IdeaRow, replacesImage: boolean, { page, target, values, terms, checked }: FormPost) {
  const { input, image, extra, answers } = checked;
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
}

async function showDeleteForm(pages: KindPages, request: IdeaRequest, reply: FastifyReply) {
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { idea, path } = await changeableIdea(pages, page, request.params, true);
  return sendPage(reply, <IdeaDeletePage page={page} idea={idea} action={request.url} cancel={path} words={pages.kind.words} />);
}

async function deleteFromForm(pages: KindPages, request: IdeaPost, reply: FastifyReply) {
  const { ctx, kind } = pages;
  checkCsrf(request);
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { idea, place } = await changeableIdea(pages, page, request.params, true);
  await ctx.db.transaction((tx) => deleteIdea(tx, idea.id, kind));
  await removeIdeaImage(ctx.media, idea.image);
  return redirectWithMessage(request, reply, projectPath(request.params.org, place.projectSlug), wordOf(kind.words, 'Your idea has been deleted.'));
}

/** An idea the signed-in viewer may moderate (§A14; 403 otherwise). */
async function moderatableIdea(pages: KindPages, page: PageContext, params: IdeaAddress) {
  const loaded = await visibleIdea(pages, page, params);
  if (!canModerateIdea(loaded.target.rules)) throw permissionDenied();
  return loaded;
}

/** The kind's further moderation fields with their values (none without). */
function moderationFields({ hooks }: KindPages, page: PageContext, values: Record<string, string> | undefined) {
  const ModerationFields = hooks?.moderation?.Fields;
  return ModerationFields && values ? <ModerationFields page={page} values={values} /> : undefined;
}

/** The moderation form's status and feedback from a post, with their errors (none: null). */
function moderationInput(body: FormBody) {
  const raw = field(body, 'moderator_status');
  const feedback = field(body, 'moderator_feedback_text');
  const status = (MODERATOR_STATUS_VALUES as readonly string[]).includes(raw) ? (raw as ModeratorStatus) : null;
  const feedbackError = ideaTextError('moderator_feedback_text', feedback);
  const errors = (raw && !status) || feedbackError ? { ...(raw && !status ? { moderator_status: ['Select a valid choice.'] } : {}), ...(feedbackError ? { moderator_feedback_text: [feedbackError] } : {}) } : null;
  return { raw, feedback, status, errors };
}

async function showModerateForm(pages: KindPages, request: IdeaRequest, reply: FastifyReply) {
  const { ctx, kind, hooks } = pages;
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { idea, path } = await moderatableIdea(pages, page, request.params);
  const extra = moderationFields(pages, page, hooks?.moderation && (await hooks.moderation.values(ctx.db, idea.id)));
  const facts = await loadIdeaModerationFacts(ctx.db, kind, idea.id);
  return sendPage(reply, <IdeaModeratePage page={page} words={kind.words} idea={idea} facts={facts} action={request.url} cancel={path} status={idea.moderatorStatus ?? ''} feedback={idea.moderatorFeedbackText ?? ''} errors={{}} extra={extra} />);
}

async function moderateFromForm(pages: KindPages, request: IdeaPost, reply: FastifyReply) {
  const { ctx, kind, hooks } = pages;
  checkCsrf(request);
  const page = await signedIn(request, reply);
  if (!page) return reply;
  const { idea, path } = await moderatableIdea(pages, page, request.params);
  const { raw, feedback, status, errors } = moderationInput(request.body);
  if (errors) {
    const extra = moderationFields(pages, page, hooks?.moderation?.read(request.body));
    return sendPage(reply, <IdeaModeratePage page={page} words={kind.words} idea={idea} action={request.url} cancel={path} status={raw} feedback={feedback} errors={errors} extra={extra} />, 400);
  }
  const origin = renderContext(request, page.user, ctx.config).origin;
  const statusLabel = status ? MODERATOR_STATUSES[status].label : 'No status';
  await ctx.db.transaction(async (tx) => {
    await moderateIdea(tx, idea.id, { status, feedback, actorId: page.user.id, statusLabel }, { origin, url: `${origin}${path}` }, kind);
    if (hooks?.moderation) await hooks.moderation.save(tx, idea.id, hooks.moderation.read(request.body));
  });
  return redirectWithMessage(request, reply, path, wordOf(kind.words, 'The moderation of the idea has been saved.'));
}
