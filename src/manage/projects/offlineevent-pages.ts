import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { readMultipartFiles } from '../../http/bodies.js';
import { type FieldErrors, notFound } from '../../http/errors.js';
import { Slug } from '../../http/responses.js';
import { toLocalInput } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { sha256 } from '../../media/store.js';
import { checkCsrf, field, FormBody, htmlResponses, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { sendSheet } from '../../features/exports/sheets.js';
import { OFFLINE_EVENT_SHEET } from '../../features/offlineevents/export.js';
import { findOfflineEvent, loadProjectEvents } from '../../features/offlineevents/queries.js';
import { documentError, type OfflineEventForm, readOfflineEventForm } from '../../features/offlineevents/rules.js';
import { createOfflineEvent, deleteOfflineEvent, updateOfflineEvent } from '../../features/offlineevents/services.js';
import { frameData, managedProject } from './access.js';
import { OfflineEventDeletePage, OfflineEventFormPage, OfflineEventListPage, offlineEventsPath } from './offlineevent-views.js';
import { type DoneKey, withDone } from '../../web/paths.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The offline event form's document upload (multipart). */
    eventDocument: Buffer | null;
  }
}

const ProjectParams = Type.Object({ org: Slug, slug: Slug });
const EventParams = Type.Object({ org: Slug, slug: Slug, event: Slug });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const ExportParams = Type.Object({ org: Slug, slug: Slug, ext: Type.Union([Type.Literal('xlsx'), Type.Literal('csv')]) });
const fileRoute = { config: { page: true }, schema: { hide: true, params: ExportParams, response: { ...htmlResponses, 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'An xlsx or CSV file' }) } } };

const EMPTY: OfflineEventForm = { name: '', event_type: '', date: '', description: '' };
const formOf = (body: FormBody): OfflineEventForm => ({ name: field(body, 'name'), event_type: field(body, 'event_type'), date: field(body, 'date'), description: field(body, 'description', false) });

/**
 * The project dashboard's offline events (a+ `OfflineEventsComponent`): the list, adding, editing
 * and deleting an event, and the export of the list. Who may: `managedProject` (the organisation's
 * initiators and superusers, the rule `canManageOfflineEvents` names).
 */
export async function offlineEventDashboardRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, media, config } = app.ctx;
  /** The followers' notices of an added, moved or cancelled event (features/offlineevents/notices.ts). */
  const notice = { origin: config.baseUrl, timeZone: config.timeZone };

  app.decorateRequest('eventDocument', null);
  async function readDocument(request: FastifyRequest) {
    if (request.isMultipart()) request.eventDocument = (await readMultipartFiles(request, ['document'])).document ?? null;
  }

  /** An event of the managed project (an event of another project is not found). */
  async function managedEvent(request: FastifyRequest, reply: FastifyReply, params: { org: string; slug: string; event: string }) {
    const managed = await managedProject(request, reply, params);
    if (!managed) return null;
    const found = await findOfflineEvent(db, params.org, params.event);
    if (!found || found.projectId !== managed.project.id) throw notFound();
    return { ...managed, event: found };
  }

  const listPath = (p: { organisationSlug: string; slug: string }) => offlineEventsPath(p.organisationSlug, p.slug);
  const done = (p: { organisationSlug: string; slug: string }, key: DoneKey) => withDone(listPath(p), key);

  /** Checks the form and the upload; writes the document to the store when all is well (nothing is stored otherwise). */
  async function readForm(request: FastifyRequest, body: FormBody, lang: 'en' | 'de') {
    const values = formOf(body);
    const { errors, input } = readOfflineEventForm(values, config.timeZone, (key, vars) => t(lang, key, vars));
    const upload = request.eventDocument;
    const uploadError = upload ? documentError(upload) : null;
    if (uploadError) errors.document = [t(lang, uploadError)];
    return { values, errors, input: Object.keys(errors).length ? null : input, upload: uploadError ? null : upload };
  }

  async function storeDocument(upload: Buffer | null): Promise<string | null> {
    if (!upload) return null;
    const path = `offlineevents/documents/${sha256(upload)}.pdf`;
    await media.write(path, upload);
    return path;
  }

  app.get('/:org/dashboard/projects/:slug/offlineevents/', pageRoute({ params: ProjectParams, querystring: DoneQuery }), async (request, reply) => {
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const data = await frameData(request, managed.project, 'offlineevents');
    return sendPage(reply, OfflineEventListPage({ page: managed.page, data, events: await loadProjectEvents(db, managed.project.id) }));
  });

  app.get('/:org/dashboard/projects/:slug/offlineevents/export.:ext', fileRoute, async (request, reply) => {
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const { page, project } = managed;
    const context = { lang: page.lang, timeZone: config.timeZone, baseUrl: config.baseUrl, orgSlug: request.params.org };
    const rows = await loadProjectEvents(db, project.id);
    return sendSheet(reply, { ext: request.params.ext, projectSlug: project.slug, kind: 'offlineevents', timeZone: config.timeZone, sheet: OFFLINE_EVENT_SHEET, rows, context });
  });

  const createPath = '/:org/dashboard/projects/:slug/offlineevents/create/';
  app.get(createPath, pageRoute({ params: ProjectParams }), async (request, reply) => {
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const data = await frameData(request, managed.project, 'offlineevents');
    return sendPage(reply, OfflineEventFormPage({ page: managed.page, data, title: t(managed.page.lang, 'Add event'), action: request.url, values: EMPTY, errors: {}, document: null }));
  });

  app.post(createPath, { ...pageRoute({ params: ProjectParams, body: FormBody }), preValidation: readDocument }, async (request, reply) => {
    checkCsrf(request);
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const { page, project, user } = managed;
    const { values, errors, input, upload } = await readForm(request, request.body, page.lang);
    if (!input) {
      const data = await frameData(request, project, 'offlineevents');
      return sendPage(reply, OfflineEventFormPage({ page, data, title: t(page.lang, 'Add event'), action: request.url, values, errors, document: null }), 400);
    }
    const document = await storeDocument(upload);
    try {
      await db.transaction((tx) => createOfflineEvent(tx, { ...input, projectId: project.id, creatorId: user.id, document }, notice));
    } catch (error) {
      await media.remove(document);
      throw error;
    }
    return reply.redirect(done(project, 'event_saved'), 302);
  });

  const updatePath = '/:org/dashboard/projects/:slug/offlineevents/:event/update/';
  app.get(updatePath, pageRoute({ params: EventParams }), async (request, reply) => {
    const managed = await managedEvent(request, reply, request.params);
    if (!managed) return reply;
    const { page, project, event } = managed;
    const data = await frameData(request, project, 'offlineevents');
    const values = { name: event.name, event_type: event.eventType, date: toLocalInput(event.date, config.timeZone), description: event.description };
    return sendPage(reply, OfflineEventFormPage({ page, data, title: t(page.lang, 'Edit event'), action: request.url, values, errors: {}, document: event.document }));
  });

  app.post(updatePath, { ...pageRoute({ params: EventParams, body: FormBody }), preValidation: readDocument }, async (request, reply) => {
    checkCsrf(request);
    const managed = await managedEvent(request, reply, request.params);
    if (!managed) return reply;
    const { page, project, event, user } = managed;
    const { values, errors, input, upload } = await readForm(request, request.body, page.lang);
    if (!input) {
      const data = await frameData(request, project, 'offlineevents');
      return sendPage(reply, OfflineEventFormPage({ page, data, title: t(page.lang, 'Edit event'), action: request.url, values, errors: errors as FieldErrors, document: event.document }), 400);
    }
    // An upload wins over "remove".
    const stored = await storeDocument(upload);
    const document = stored ?? (field(request.body, 'document_clear') === 'on' ? null : undefined);
    let obsolete: string | null;
    try {
      obsolete = await db.transaction((tx) => updateOfflineEvent(tx, event, { ...input, document }, user.id, notice));
    } catch (error) {
      if (stored !== event.document) await media.remove(stored);
      throw error;
    }
    await media.remove(obsolete);
    return reply.redirect(done(project, 'event_saved'), 302);
  });

  const deletePath = '/:org/dashboard/projects/:slug/offlineevents/:event/delete/';
  app.get(deletePath, pageRoute({ params: EventParams }), async (request, reply) => {
    const managed = await managedEvent(request, reply, request.params);
    if (!managed) return reply;
    const data = await frameData(request, managed.project, 'offlineevents');
    return sendPage(reply, OfflineEventDeletePage({ page: managed.page, data, event: managed.event, action: request.url }));
  });

  app.post(deletePath, pageRoute({ params: EventParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedEvent(request, reply, request.params);
    if (!managed) return reply;
    const { project, event, user } = managed;
    const document = await db.transaction((tx) => deleteOfflineEvent(tx, event, { ...notice, actorId: user.id }));
    await media.remove(document);
    return reply.redirect(done(project, 'event_deleted'), 302);
  });
}
