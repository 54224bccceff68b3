import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { notFound, permissionDenied } from '../../http/errors.js';
import { htmlResponses, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { userPageContext } from '../../web/context.js';
import { canExport, isExportOffered } from '../../features/exports/rules.js';
import { findExportModule } from '../../features/exports/queries.js';
import { exportFileName, sheetRows } from '../../features/exports/sheets.js';
import { appModuleType } from '../../features/moduletypes/contract.js';
import { labelIn } from '../../core/modules/registry.js';
import { loadModuleAliases } from '../../core/modules/queries.js';
import { csvStream, xlsxStream } from '../../features/exports/writers.js';
import { loadProjectContext } from '../../core/projects/queries.js';
import { canManageProject } from '../../core/projects/rules.js';
import { contextUser } from '../../web/guards.js';
import { frameData } from '../projects/access.js';
import { ExportPage } from './views.js';
import { loadDashboardProject } from '../projects/queries.js';

const PageParams = Type.Object({ org: Slug, module: Slug });
const FileParams = Type.Object({ org: Slug, module: Slug, file: Type.String({ maxLength: 64, pattern: '^[a-z_]+\\.(xlsx|csv)$' }) });
/** A download: the file, streamed (or an HTML error page). */
const fileRoute = { config: { page: true }, schema: { hide: true, params: FileParams, response: { ...htmlResponses, 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'An xlsx or CSV file' }) } } };

const CONTENT_TYPES = { xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', csv: 'text/csv; charset=utf-8' } as const;

/** The module to export and the user's rights: login redirect (null) for visitors, 404 for unknown modules and where no export is offered (drafts, types without one: §B9), 403 for people who may not export. The two halves of `mayExportModule`. */
async function exportable(request: FastifyRequest, reply: FastifyReply, params: { org: string; module: string }) {
  const page = await userPageContext(request, reply);
  if (!page) return null;
  const { db } = request.server.ctx;
  const module = await findExportModule(db, params.org, params.module);
  const context = module && (await loadProjectContext(db, module.projectId, contextUser(page)));
  if (!module || !context || !isExportOffered(context, module)) throw notFound();
  if (!canExport(context)) throw permissionDenied();
  return { page, module, manages: canManageProject(context) };
}

/** §B16: the export page and the idea and comment downloads of a module, as xlsx and CSV, streamed. */
export async function exportRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  app.get('/:org/dashboard/modules/:module/export/', pageRoute({ params: PageParams }), async (request, reply) => {
    const found = await exportable(request, reply, request.params);
    if (!found) return reply;
    const { page, module, manages } = found;
    const project = manages ? await loadDashboardProject(db, { id: module.projectId }) : null;
    const frame = project && (await frameData(request, project, `${module.slug}/export`));
    const files = (appModuleType(module.blueprintType)?.exports ?? []).map((f) => ({ name: f.name, heading: f.heading }));
    const view = { orgSlug: request.params.org, module: { slug: module.slug, name: module.name || module.slug }, project: { name: module.projectName }, files };
    return sendPage(reply, ExportPage({ page, view, frame }));
  });

  app.get('/:org/dashboard/modules/:module/export/:file', fileRoute, async (request, reply) => {
    const found = await exportable(request, reply, request.params);
    if (!found) return reply;
    const { page, module } = found;
    const [name, ext] = request.params.file.split('.') as [string, 'xlsx' | 'csv'];
    // The module type's export files (§B16); another name is not found.
    const file = appModuleType(module.blueprintType)?.exports?.find((f) => f.name === name);
    if (!file) throw notFound();
    const context = { lang: page.lang, timeZone: config.timeZone, baseUrl: config.baseUrl, orgSlug: request.params.org, aliases: await loadModuleAliases(db, module.id) };
    const sheet = file.columns ? { ...file.sheet, columns: await file.columns(db, module.id) } : file.sheet;
    const rows = sheetRows(sheet, file.batches(db, module.id) as AsyncIterable<never[]>, context);
    const fileName = exportFileName(module.projectSlug, file.name, new Date(), config.timeZone, ext);
    const sheetName = labelIn(page.lang, file.sheet.title);
    return reply
      .header('content-type', CONTENT_TYPES[ext])
      .header('content-disposition', `attachment; filename="${fileName}"`)
      .header('cache-control', 'private, no-store')
      .send(ext === 'xlsx' ? xlsxStream(sheetName, rows) : csvStream(rows));
  });
}
