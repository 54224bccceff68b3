import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { type Static, Type } from 'typebox';
import { denied } from '../../http/auth.js';
import { type FieldErrors, notFound } from '../../http/errors.js';
import { PathId, Slug } from '../../http/responses.js';
import { checkPageInRange, pageLinks, PageParam, pageNumber } from '../../http/pagination.js';
import { type Lang, t } from '../../i18n/index.js';
import type { Tx } from '../../db/client.js';
import { CONTENT_KINDS, type ContentKind } from '../../db/schema/index.js';
import { loadProjectContext } from '../../core/projects/queries.js';
import { loadProjectPage } from '../../core/modules/project-page.js';
import type { LoadedProjectContext } from '../../core/projects/context.js';
import { loadThreadView, threadFilter, ThreadQuery, threadUrl } from '../threads/queries.js';
import { CommentThread } from '../threads/views.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, fieldList, FormBody, htmlResponses, pageRoute, RepeatedFormBody } from '../../web/forms.js';
import { sendSheet } from '../exports/sheets.js';
import { RESULT_COLUMNS, RESULT_SHEET } from './export.js';
import { type CheckedRow, checkRows, IMPORT_MAX_ROWS, type ImportCells, isXlsx, parseCsv, parseXlsx, toCells } from './import.js';
import { readMultipartBody } from '../../http/bodies.js';
import { ImageInvalid } from '../../media/images.js';
import { contextUser, managedOrganisation } from '../../web/guards.js';
import { sendPage } from '../../web/render.js';
import {
  contributionInProject,
  findResult,
  loadEntries,
  LINKABLE_PAGE_SIZE,
  loadLinkable,
  loadLinks,
  loadOrganisationResults,
  loadProjectResults,
  loadResultsForExport,
  loadTree,
  loadWinnerModules,
  manageResultsPath,
  organisationBySlug,
  projectContributions,
  projectProgress,
  resultPath,
  statusChoices,
  statusesPath,
} from './queries.js';
import { canEditResults, canViewResults, type EntryForm, readEntryForm, readResultForm, readStatusForm, type ResultForm, selfAndDescendants } from './rules.js';
import { addEntry, createResult, createStatus, deleteResult, deleteStatus, linkContributions, NestingRefused, refuseNestingInItself, type ResultScope, resultsFromWinners, storedStatuses, unlinkContribution, updateResult, updateStatus } from './services.js';
import { DeleteResultPage, ImportPage, ManageResultsPage, OrganisationResultsPage, ResultFormPage, ResultPage, type ResultPageData, StatusesPage } from './views.js';

const OrgParams = Type.Object({ org: Slug });
const ProjectParams = Type.Object({ org: Slug, slug: Slug });
const ResultParams = Type.Object({ org: Slug, id: PathId });
/** The result page's discussion: a comment to show (`?comment=`, a notice's link) and the thread's filter and page. */
const ResultQuery = Type.Object({ comment: Type.Optional(Type.String({ maxLength: 20 })), ...ThreadQuery.properties });
type ResultQueryValues = Static<typeof ResultQuery>;
const StatusParams = Type.Object({ org: Slug, id: PathId });
/** The edit page's link form: a search in the contributions' names and the page of them shown. */
const LinkQuery = Type.Object({ q: Type.Optional(Type.String({ maxLength: 200 })), page: PageParam });
const ExportParams = Type.Object({ org: Slug, slug: Slug, ext: Type.Union([Type.Literal('xlsx'), Type.Literal('csv')]) });
const fileRoute = { config: { page: true }, schema: { hide: true, params: ExportParams, response: { ...htmlResponses, 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'An xlsx or CSV file' }) } } };
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

/** The messages after a write, by key (the list shows it once). */
const DONE = { imported: 'The results have been imported.', saved: 'The result has been saved.', deleted: 'The result has been deleted.', winners: 'The winners are results now.', none: 'Every winner is a result already.' } as const;

const EMPTY_RESULT: ResultForm = { title: '', description: '', category: '', district: '', lat: '', lng: '', start_date: '', end_date: '', budget_planned: '', budget_spent: '', status: '', progress: '', parent: '' };
const RESULT_FIELDS = Object.keys(EMPTY_RESULT) as (keyof ResultForm)[];
const resultFormOf = (body: FormBody): ResultForm => Object.fromEntries(RESULT_FIELDS.map((name) => [name, field(body, name, name !== 'description')])) as unknown as ResultForm;
const entryFormOf = (body: FormBody): EntryForm => ({ date: field(body, 'date'), text: field(body, 'text', false), status: field(body, 'status'), progress: field(body, 'progress') });
/** A timeline entry's image: any size within the limits of every image. */
const ENTRY_IMAGE_RULES = { minWidth: 1, minHeight: 1 };
const today = () => new Date().toISOString().slice(0, 10);
const translator = (lang: Lang) => (key: string, vars?: Record<string, string | number>) => t(lang, key, vars);
const numberText = (n: number | null) => (n === null ? '' : String(n));

declare module 'fastify' {
  interface FastifyRequest {
    /** The results import's file or a timeline entry's image (multipart). */
    resultsFile: Buffer | null;
  }
}

/** The rows a preview handed back to be written (JSON of cells under known columns), or null. */
function confirmedCells(value: string): ImportCells[] | null {
  try {
    const parsed: unknown = JSON.parse(value);
    if (!Array.isArray(parsed) || parsed.length > IMPORT_MAX_ROWS) return null;
    return parsed.map((row) => Object.fromEntries(Object.entries(row as Record<string, unknown>).filter(([k, v]) => (RESULT_COLUMNS as readonly string[]).includes(k) && typeof v === 'string')) as ImportCells);
  } catch {
    return null;
  }
}

/** A contribution named `kind:id` in a form (an unknown kind is null; whether it may be linked is asked later). */
function parseLink(value: string): { kind: ContentKind; pk: number } | null {
  const [kind, id] = value.split(':');
  const pk = Number(id);
  return Number.isInteger(pk) && pk > 0 && (CONTENT_KINDS as readonly string[]).includes(kind) ? { kind: kind as ContentKind, pk } : null;
}

/**
 * The results pages (issue 39): the organisation's overview, each result's page with its timeline,
 * and, for the project's moderators and the organisation's initiators, the results dashboard
 * (add, edit, delete, link contributions, the winners of a vote, timeline entries) and the
 * organisation's statuses (initiators). The project page's Results tab is `site/project`'s.
 */
export async function resultPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config, media } = app.ctx;
  const notice = { origin: config.baseUrl };

  /** The organisation's statuses, the defaults made once (a write of its own). */
  const choicesOf = (organisationId: number) => statusChoices(db, organisationId);

  /** A project whose results the viewer edits: login for visitors, 403 for others, 404 for none. */
  async function editableProject(request: FastifyRequest, reply: FastifyReply, params: { org: string; slug: string }) {
    const page = await pageContext(request, reply);
    const loaded = await loadProjectPage(db, params.org, params.slug, contextUser(page));
    const organisation = loaded && (await organisationBySlug(db, params.org));
    if (!loaded || !organisation) throw notFound();
    if (!page.user) {
      await reply.redirect(`/accounts/login/?next=${encodeURIComponent(request.url)}`, 302);
      return null;
    }
    if (!canEditResults(loaded.context)) throw denied(page.user);
    const scope: ResultScope = { projectId: loaded.project.id, projectName: loaded.project.name, orgSlug: params.org, organisationId: organisation.id, actorId: page.user.id };
    return { page, project: loaded.project, scope };
  }

  /** A result and whether the viewer may see and edit it; 404 for a result of another organisation. */
  async function viewedResult(request: FastifyRequest, reply: FastifyReply, params: { org: string; id: number }) {
    const page = await pageContext(request, reply);
    const result = await findResult(db, params.org, params.id);
    if (!result) throw notFound();
    const context = await loadProjectContext(db, result.projectId, contextUser(page));
    if (!context) throw notFound();
    if (!canViewResults(context)) throw denied(page.user);
    const scope: ResultScope | null = page.user && canEditResults(context) ? { projectId: result.projectId, projectName: result.projectName, orgSlug: params.org, organisationId: result.organisationId, actorId: page.user.id } : null;
    return { page, result, scope, context };
  }

  /** The same for an editor only. */
  async function editedResult(request: FastifyRequest, reply: FastifyReply, params: { org: string; id: number }) {
    const viewed = await viewedResult(request, reply, params);
    if (!viewed.page.user) {
      await reply.redirect(`/accounts/login/?next=${encodeURIComponent(request.url)}`, 302);
      return null;
    }
    if (!viewed.scope) throw denied(viewed.page.user);
    return { ...viewed, scope: viewed.scope };
  }

  /** The result's discussion (issue 39.3): the comment thread of every item, decided by the project (comments/rules `canCommentInProject`). */
  async function resultThread(request: FastifyRequest, page: PageContext, context: LoadedProjectContext, path: string, result: { id: number }, query: ResultQueryValues) {
    const selected = Number(query.comment ?? '') || null;
    const filter = threadFilter(query);
    const commenting = { project: context, module: null, now: new Date(), root: { type: 'result' as const } };
    const at = { page: query.comment_page === undefined ? undefined : pageNumber(query.comment_page), comment: selected };
    const thread = await loadThreadView(db, request, config, page, commenting, { type: 'result', id: result.id }, at, undefined, filter);
    if (thread.page > thread.pages) throw notFound();
    return <CommentThread page={page} thread={thread} selected={selected} pageLink={(n) => threadUrl(path, filter, n)} controls={path} />;
  }

  async function resultPageData(
    request: FastifyRequest,
    viewed: { page: PageContext; result: NonNullable<Awaited<ReturnType<typeof findResult>>>; context: LoadedProjectContext },
    orgSlug: string,
    edit: ResultPageData['edit'],
    query: ResultQueryValues = {},
  ): Promise<ResultPageData> {
    const { page, result } = viewed;
    const rows = await loadProjectResults(db, result.projectId);
    const effective = rows.find((r) => r.id === result.id)?.effective ?? 0;
    const thread = await resultThread(request, page, viewed.context, resultPath(orgSlug, result.id), result, query);
    return { orgSlug, result: { ...result, effective }, entries: await loadEntries(db, result.id), links: await loadLinks(db, result.id), children: rows.filter((r) => r.parentId === result.id), edit, thread };
  }

  // The organisation's overview.
  app.get('/:org/results/', pageRoute({ params: OrgParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const organisation = await organisationBySlug(db, request.params.org);
    if (!organisation) throw notFound();
    const rows = await loadOrganisationResults(db, organisation.id);
    const projects = [...new Set(rows.map((r) => r.projectId))].map((id) => {
      const own = rows.filter((r) => r.projectId === id);
      return { slug: own[0].projectSlug, name: own[0].projectName, overall: projectProgress(own), rows: own };
    });
    return sendPage(reply, <OrganisationResultsPage page={page} organisation={organisation} projects={projects} />);
  });

  // A result's page, and its timeline entries.
  app.get('/:org/results/:id/', pageRoute({ params: ResultParams, querystring: ResultQuery }), async (request, reply) => {
    const viewed = await viewedResult(request, reply, request.params);
    const { page, scope } = viewed;
    const edit = scope ? { statuses: await choicesOf(scope.organisationId), values: { date: today(), text: '', status: '', progress: '' }, errors: {} } : null;
    return sendPage(reply, <ResultPage page={page} data={await resultPageData(request, viewed, request.params.org, edit, request.query)} />);
  });

  app.decorateRequest('resultsFile', null);
  async function readFile(request: FastifyRequest, field: 'file' | 'image') {
    if (request.isMultipart()) request.resultsFile = await readMultipartBody(request, field);
  }

  app.post('/:org/results/:id/entries/', { ...pageRoute({ params: ResultParams, body: FormBody }), preValidation: (request) => readFile(request, 'image') }, async (request, reply) => {
    checkCsrf(request);
    const found = await editedResult(request, reply, request.params);
    if (!found) return reply;
    const { page, result, scope } = found;
    const statuses = await choicesOf(scope.organisationId);
    const values = entryFormOf(request.body);
    const upload = request.resultsFile;
    const { errors, input } = readEntryForm(values, statuses.map((s) => s.id), translator(page.lang), Boolean(upload));
    // The image is stored only when the entry is valid; a refused image is an error beside its field.
    let image: string | null = null;
    if (input && upload) {
      try {
        image = await media.storeImage('results/images', upload, ENTRY_IMAGE_RULES);
      } catch (error) {
        if (!(error instanceof ImageInvalid)) throw error;
        errors.image = [t(page.lang, error.message)];
      }
    }
    if (!input || errors.image) return sendPage(reply, <ResultPage page={page} data={await resultPageData(request, found, request.params.org, { statuses, values, errors })} />, 400);
    try {
      await db.transaction(async (tx) => {
        const { idOf } = await storedStatuses(tx, scope.organisationId);
        await addEntry(tx, scope, result.id, { ...input, statusId: idOf(input.statusId) ?? undefined, image }, notice);
      });
    } catch (error) {
      await media.remove(image);
      throw error;
    }
    return redirectWithMessage(request, reply, resultPath(request.params.org, result.id), 'The entry has been added.');
  });

  // The results dashboard of a project.
  app.get('/:org/results/project/:slug/', pageRoute({ params: ProjectParams, querystring: DoneQuery }), async (request, reply) => {
    const found = await editableProject(request, reply, request.params);
    if (!found) return reply;
    const { page, project } = found;
    const done = request.query.done && Object.hasOwn(DONE, request.query.done) ? DONE[request.query.done as keyof typeof DONE] : null;
    const winners = await loadWinnerModules(db, project.id);
    return sendPage(reply, <ManageResultsPage page={page} data={{ orgSlug: request.params.org, project, rows: await loadProjectResults(db, project.id), winners, done }} />);
  });

  app.post('/:org/results/project/:slug/winners/', pageRoute({ params: ProjectParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const found = await editableProject(request, reply, request.params);
    if (!found) return reply;
    const { project, scope } = found;
    const module = (await loadWinnerModules(db, project.id)).find((m) => String(m.id) === field(request.body, 'module'));
    if (!module) throw notFound();
    const winners: { kind: ContentKind; id: number; name: string; budget: number; creatorId: number | null }[] = [];
    for (const w of module.winners) {
      const inProject = await contributionInProject(db, project.id, module.kind, w.id);
      if (inProject) winners.push({ ...w, kind: module.kind, creatorId: inProject.creatorId });
    }
    const made = await db.transaction(async (tx) => resultsFromWinners(tx, scope, winners, (await storedStatuses(tx, scope.organisationId)).stored, notice));
    return reply.redirect(`${manageResultsPath(request.params.org, project.slug)}?done=${made ? 'winners' : 'none'}`, 302);
  });

  /** The statuses and the results a result may nest under (not itself nor its parts). */
  async function formChoices(scope: ResultScope, resultId: number | null) {
    const statuses = await choicesOf(scope.organisationId);
    const tree = await loadTree(db, scope.projectId);
    const excluded = resultId === null ? new Set<number>() : selfAndDescendants(tree, resultId);
    return { statuses, parents: tree.filter((r) => !excluded.has(r.id)) };
  }

  const createPath = '/:org/results/project/:slug/create/';
  app.get(createPath, pageRoute({ params: ProjectParams }), async (request, reply) => {
    const found = await editableProject(request, reply, request.params);
    if (!found) return reply;
    const { page, scope } = found;
    const back = manageResultsPath(request.params.org, request.params.slug);
    return sendPage(reply, <ResultFormPage page={page} title={t(page.lang, 'Add result')} action={request.url} back={back} values={EMPTY_RESULT} errors={{}} {...await formChoices(scope, null)} />);
  });

  app.post(createPath, pageRoute({ params: ProjectParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const found = await editableProject(request, reply, request.params);
    if (!found) return reply;
    const { page, scope } = found;
    const choices = await formChoices(scope, null);
    const values = resultFormOf(request.body);
    const { errors, input } = readResultForm(values, { statusIds: choices.statuses.map((s) => s.id), parentIds: choices.parents.map((p) => p.id) }, translator(page.lang));
    const back = manageResultsPath(request.params.org, request.params.slug);
    if (!input) return sendPage(reply, <ResultFormPage page={page} title={t(page.lang, 'Add result')} action={request.url} back={back} values={values} errors={errors} {...choices} />, 400);
    const id = await db.transaction(async (tx) => {
      const { idOf } = await storedStatuses(tx, scope.organisationId);
      return createResult(tx, scope, { ...input, statusId: idOf(input.statusId) ?? null }, notice);
    });
    return reply.redirect(`${resultPath(request.params.org, id)}update/`, 302);
  });

  const updatePath = '/:org/results/:id/update/';
  const formOfResult = (r: NonNullable<Awaited<ReturnType<typeof findResult>>>): ResultForm => ({
    title: r.title,
    description: r.description,
    category: r.category,
    district: r.district,
    lat: numberText(r.lat),
    lng: numberText(r.lng),
    start_date: r.startDate ?? '',
    end_date: r.endDate ?? '',
    budget_planned: numberText(r.budgetPlanned),
    budget_spent: numberText(r.budgetSpent),
    status: numberText(r.statusId),
    progress: numberText(r.progress),
    parent: numberText(r.parentId),
  });

  async function renderEdit(reply: FastifyReply, found: NonNullable<Awaited<ReturnType<typeof editedResult>>>, org: string, values: ResultForm, errors: FieldErrors, status = 200, query = { search: '', page: 1 }) {
    const { page, result, scope } = found;
    const editPath = `${resultPath(org, result.id)}update/`;
    const linkable = await loadLinkable(db, scope.projectId, result.id, query);
    checkPageInRange(query.page, LINKABLE_PAGE_SIZE, linkable.count);
    const searched = query.search ? `${editPath}?q=${encodeURIComponent(query.search)}` : editPath;
    const links = {
      action: `${resultPath(org, result.id)}links/`,
      linked: await loadLinks(db, result.id),
      linkable: { ...linkable, search: query.search, searchAction: editPath, pager: pageLinks(searched, query.page, LINKABLE_PAGE_SIZE, linkable.count) },
    };
    const title = `${t(page.lang, 'Edit result')}: ${result.title}`;
    return sendPage(reply, <ResultFormPage page={page} title={title} action={`${resultPath(org, result.id)}update/`} back={manageResultsPath(org, result.projectSlug)} values={values} errors={errors} links={links} {...await formChoices(scope, result.id)} />, status);
  }

  app.get(updatePath, pageRoute({ params: ResultParams, querystring: LinkQuery }), async (request, reply) => {
    const found = await editedResult(request, reply, request.params);
    if (!found) return reply;
    const query = { search: (request.query.q ?? '').trim(), page: pageNumber(request.query.page) };
    return renderEdit(reply, found, request.params.org, formOfResult(found.result), {}, 200, query);
  });

  app.post(updatePath, pageRoute({ params: ResultParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const found = await editedResult(request, reply, request.params);
    if (!found) return reply;
    const { page, result, scope } = found;
    const choices = await formChoices(scope, result.id);
    const values = resultFormOf(request.body);
    const { errors, input } = readResultForm(values, { statusIds: choices.statuses.map((s) => s.id), parentIds: choices.parents.map((p) => p.id) }, translator(page.lang));
    if (!input) return renderEdit(reply, found, request.params.org, values, errors, 400);
    try {
      await db.transaction(async (tx) => {
        const { idOf } = await storedStatuses(tx, scope.organisationId);
        await updateResult(tx, scope, result.id, { ...input, statusId: idOf(input.statusId) ?? null }, notice);
      });
    } catch (error) {
      if (!(error instanceof NestingRefused)) throw error;
      return renderEdit(reply, found, request.params.org, values, { parent: [t(page.lang, error.message)] }, 400);
    }
    return reply.redirect(`${manageResultsPath(request.params.org, result.projectSlug)}?done=saved`, 302);
  });

  app.post('/:org/results/:id/links/', pageRoute({ params: ResultParams, body: RepeatedFormBody }), async (request, reply) => {
    checkCsrf(request);
    const found = await editedResult(request, reply, request.params);
    if (!found) return reply;
    const { result, scope } = found;
    const back = `${resultPath(request.params.org, result.id)}update/`;
    const removed = parseLink(field(request.body, 'remove'));
    if (removed) {
      await db.transaction((tx) => unlinkContribution(tx, result.id, removed.kind, removed.pk));
      return redirectWithMessage(request, reply, back, 'The link has been removed.');
    }
    const links: { kind: ContentKind; pk: number; creatorId: number | null }[] = [];
    for (const value of fieldList(request.body, 'link')) {
      const link = parseLink(value);
      const inProject = link && (await contributionInProject(db, scope.projectId, link.kind, link.pk));
      // A contribution of another project, or no contribution at all, is not linked.
      if (!link || !inProject) throw notFound();
      links.push({ ...link, creatorId: inProject.creatorId });
    }
    await db.transaction((tx) => linkContributions(tx, scope, result.id, links, notice));
    return redirectWithMessage(request, reply, back, 'The contributions have been linked.');
  });

  const deletePath = '/:org/results/:id/delete/';
  app.get(deletePath, pageRoute({ params: ResultParams }), async (request, reply) => {
    const found = await editedResult(request, reply, request.params);
    if (!found) return reply;
    return sendPage(reply, <DeleteResultPage page={found.page} title={found.result.title} action={request.url} back={manageResultsPath(request.params.org, found.result.projectSlug)} />);
  });

  app.post(deletePath, pageRoute({ params: ResultParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const found = await editedResult(request, reply, request.params);
    if (!found) return reply;
    const images = await db.transaction((tx) => deleteResult(tx, found.scope, found.result.id, notice));
    await media.remove(...images);
    return reply.redirect(`${manageResultsPath(request.params.org, found.result.projectSlug)}?done=deleted`, 302);
  });

  app.get('/:org/results/project/:slug/export.:ext', fileRoute, async (request, reply) => {
    const found = await editableProject(request, reply, request.params);
    if (!found) return reply;
    const { page, project } = found;
    const context = { lang: page.lang, timeZone: config.timeZone, baseUrl: config.baseUrl, orgSlug: request.params.org };
    const rows = await loadResultsForExport(db, project.id);
    return sendSheet(reply, { ext: request.params.ext, projectSlug: project.slug, kind: 'results', timeZone: config.timeZone, sheet: RESULT_SHEET, rows, context });
  });

  // The import: upload, preview with every row's errors, then the write of all rows in one transaction.
  const importPath = '/:org/results/project/:slug/import/';

  /** Checks the rows against the project's statuses, results and contributions. */
  async function checkImport(scope: ResultScope, lang: Lang, cells: ImportCells[]) {
    const statuses = await choicesOf(scope.organisationId);
    const tree = await loadTree(db, scope.projectId);
    const contributions = new Set((await projectContributions(db, scope.projectId)).map((l) => `${l.kind}:${l.pk}`));
    return { rows: checkRows(cells, { lang, statuses, tree, contributions }) };
  }

  app.get(importPath, pageRoute({ params: ProjectParams }), async (request, reply) => {
    const found = await editableProject(request, reply, request.params);
    if (!found) return reply;
    return sendPage(reply, <ImportPage page={found.page} back={manageResultsPath(request.params.org, request.params.slug)} action={request.url} rows={null} error={null} />);
  });

  app.post(importPath, { ...pageRoute({ params: ProjectParams, body: FormBody }), preValidation: (request) => readFile(request, 'file') }, async (request, reply) => {
    checkCsrf(request);
    const found = await editableProject(request, reply, request.params);
    if (!found) return reply;
    const { page, scope } = found;
    const back = manageResultsPath(request.params.org, request.params.slug);
    const file = request.resultsFile;
    const confirmed = field(request.body, 'rows', false);
    let cells: ImportCells[];
    if (file) {
      const parsed = toCells(isXlsx(file) ? await parseXlsx(file).catch(() => []) : parseCsv(file.toString('utf8')));
      if (parsed.error) return sendPage(reply, <ImportPage page={page} back={back} action={request.url} rows={null} error={t(page.lang, parsed.error)} />, 400);
      cells = parsed.cells;
    } else {
      const decoded = confirmedCells(confirmed);
      if (!decoded) return sendPage(reply, <ImportPage page={page} back={back} action={request.url} rows={null} error={t(page.lang, 'Choose a CSV or xlsx file.')} />, 400);
      cells = decoded;
    }
    const { rows } = await checkImport(scope, page.lang, cells);
    const valid = rows.every((r) => r.input);
    // The preview: nothing is written until the checked rows come back confirmed, and none has an error.
    if (file || !valid) return sendPage(reply, <ImportPage page={page} back={back} action={request.url} rows={rows} error={null} />, valid ? 200 : 400);
    try {
      await db.transaction((tx) => importRows(tx, scope, rows));
    } catch (error) {
      if (!(error instanceof NestingRefused)) throw error;
      return sendPage(reply, <ImportPage page={page} back={back} action={request.url} rows={null} error={`${t(page.lang, 'Parent ID')}: ${t(page.lang, error.message)}`} />, 400);
    }
    return reply.redirect(`${back}?done=imported`, 302);
  });

  /** Writes the checked rows of an import: a row with an ID changes that result, one without adds one. */
  async function importRows(tx: Tx, scope: ResultScope, rows: CheckedRow[]): Promise<void> {
    const { idOf } = await storedStatuses(tx, scope.organisationId);
    for (const row of rows) {
      if (!row.input) continue;
      const { id, links, ...fields } = row.input;
      const input = { ...fields, statusId: idOf(fields.statusId) ?? null };
      const resultId = id ?? (await createResult(tx, scope, input, notice));
      // The file may move results in any order: its nesting is checked once all rows are written.
      if (id !== null) await updateResult(tx, scope, id, input, notice, { nesting: 'checked later' });
      const linked: { kind: ContentKind; pk: number; creatorId: number | null }[] = [];
      for (const link of links) linked.push({ ...link, creatorId: (await contributionInProject(tx, scope.projectId, link.kind, link.pk))?.creatorId ?? null });
      await linkContributions(tx, scope, resultId, linked, notice);
    }
    await refuseNestingInItself(tx, scope.projectId);
  }

  // The organisation's statuses (its initiators).
  const emptyStatus = { name: '', description: '', progress: '0' };
  app.get('/:org/results/statuses/', pageRoute({ params: OrgParams }), async (request, reply) => {
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const statuses = await choicesOf(managed.organisation.id);
    return sendPage(reply, <StatusesPage page={managed.page} orgSlug={request.params.org} statuses={statuses} values={emptyStatus} errors={{}} />);
  });

  app.post('/:org/results/statuses/', pageRoute({ params: OrgParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const values = { name: field(request.body, 'name'), description: field(request.body, 'description'), progress: field(request.body, 'progress') };
    const { errors, input } = readStatusForm(values, translator(managed.page.lang));
    if (!input) return sendPage(reply, <StatusesPage page={managed.page} orgSlug={request.params.org} statuses={await choicesOf(managed.organisation.id)} values={values} errors={errors} />, 400);
    await db.transaction((tx) => createStatus(tx, managed.organisation.id, input));
    return redirectWithMessage(request, reply, statusesPath(request.params.org), 'The status has been saved.');
  });

  app.get('/:org/results/statuses/:id/', pageRoute({ params: StatusParams }), async (request, reply) => {
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const statuses = await choicesOf(managed.organisation.id);
    const status = statuses.find((s) => s.id === request.params.id);
    if (!status) throw notFound();
    const values = { name: status.name, description: status.description, progress: String(status.progress) };
    return sendPage(reply, <StatusesPage page={managed.page} orgSlug={request.params.org} statuses={statuses} values={emptyStatus} errors={{}} editing={{ id: status.id, values, errors: {} }} />);
  });

  app.post('/:org/results/statuses/:id/', pageRoute({ params: StatusParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const values = { name: field(request.body, 'name'), description: field(request.body, 'description'), progress: field(request.body, 'progress') };
    const { errors, input } = readStatusForm(values, translator(managed.page.lang));
    if (!input) return sendPage(reply, <StatusesPage page={managed.page} orgSlug={request.params.org} statuses={await choicesOf(managed.organisation.id)} values={emptyStatus} errors={{}} editing={{ id: request.params.id, values, errors }} />, 400);
    const saved = await db.transaction((tx) => updateStatus(tx, managed.organisation.id, request.params.id, input));
    if (!saved) throw notFound();
    return redirectWithMessage(request, reply, statusesPath(request.params.org), 'The status has been saved.');
  });

  app.post('/:org/results/statuses/:id/delete/', pageRoute({ params: StatusParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedOrganisation(request, reply, request.params.org);
    if (!managed) return reply;
    const deleted = await db.transaction((tx) => deleteStatus(tx, managed.organisation.id, request.params.id));
    if (!deleted) throw notFound();
    return redirectWithMessage(request, reply, statusesPath(request.params.org), 'The status has been deleted.');
  });
}
