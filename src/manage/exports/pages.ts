import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { notFound, permissionDenied } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { htmlResponses, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { userPageContext } from '../../web/context.js';
import { canExport, isExportOffered } from '../../features/exports/rules.js';
import { commentBatches, findExportModule, ideaBatches } from '../../features/exports/queries.js';
import { COMMENT_SHEET, exportFileName, IDEA_SHEET, sheetRows } from '../../features/exports/sheets.js';
import { csvStream, xlsxStream } from '../../features/exports/writers.js';
import { loadProjectContext } from '../../core/projects/queries.js';
import { canManageProject } from '../../core/projects/rules.js';
import { contextUser } from '../../web/guards.js';
import { frameData } from '../projects/access.js';
import { ExportPage } from './views.js';
import { loadDashboardProject } from '../projects/queries.js';

const PageParams = Type.Object({ org: Slug, module: Slug });
const FileParams = Type.Object({ org: Slug, module: Slug, file: Type.Union([Type.Literal('ideas.xlsx'), Type.Literal('ideas.csv'), Type.Literal('comments.xlsx'), Type.Literal('comments.csv')]) });
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
    const view = { orgSlug: request.params.org, module: { slug: module.slug, name: module.name || module.slug }, project: { name: module.projectName } };
    return sendPage(reply, ExportPage({ page, view, frame }));
  });

  app.get('/:org/dashboard/modules/:module/export/:file', fileRoute, async (request, reply) => {
    const found = await exportable(request, reply, request.params);
    if (!found) return reply;
    const { page, module } = found;
    const [kind, ext] = request.params.file.split('.') as ['ideas' | 'comments', 'xlsx' | 'csv'];
    const context = { lang: page.lang, timeZone: config.timeZone, baseUrl: config.baseUrl, orgSlug: request.params.org };
    const rows = kind === 'ideas' ? sheetRows(IDEA_SHEET, ideaBatches(db, module.id), context) : sheetRows(COMMENT_SHEET, commentBatches(db, module.id), context);
    const name = exportFileName(module.projectSlug, kind, new Date(), config.timeZone, ext);
    const sheetName = t(page.lang, (kind === 'ideas' ? IDEA_SHEET : COMMENT_SHEET).title);
    return reply
      .header('content-type', CONTENT_TYPES[ext])
      .header('content-disposition', `attachment; filename="${name}"`)
      .header('cache-control', 'private, no-store')
      .send(ext === 'xlsx' ? xlsxStream(sheetName, rows) : csvStream(rows));
  });
}
