import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { Slug } from '../../http/responses.js';
import { t } from '../../i18n/index.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { withDone } from '../../web/paths.js';
import { SummaryServiceError } from '../../features/summaries/client.js';
import { projectSummaries, summarisedModules } from '../../features/summaries/queries.js';
import { readSummaryScope, summaryRefusal } from '../../features/summaries/rules.js';
import { makeSummary, setSummaryPublished } from '../../features/summaries/services.js';
import { frameData, managedProject } from './access.js';
import { type SummaryPageData, SummaryPage, summariesPath } from './summary-views.js';
import type { DashboardProject } from './queries.js';

const ProjectParams = Type.Object({ org: Slug, slug: Slug });
const SummaryParams = Type.Object({ org: Slug, slug: Slug, id: Type.Integer({ minimum: 1, maximum: 2_147_483_647 }), action: Type.Union([Type.Literal('publish'), Type.Literal('unpublish')]) });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });

/**
 * The project dashboard's machine summaries (issue 34.9; features/summaries): the organisation's
 * initiators and superusers (`managedProject`) ask the operator's language model for a summary of
 * the project or one module, read it, and publish it or take it back.
 */
export async function summaryDashboardRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  async function show(request: FastifyRequest, reply: FastifyReply, project: DashboardProject, page: Parameters<typeof SummaryPage>[0]['page'], extra: Partial<SummaryPageData> = {}, status = 200) {
    const data = await frameData(request, project, 'summary');
    const summary: SummaryPageData = {
      model: config.summaries?.model ?? null,
      refusal: summaryRefusal(project),
      modules: await summarisedModules(db, project.id, null),
      summaries: await projectSummaries(db, project.id, { publishedOnly: false }),
      scope: '',
      errors: {},
      failure: null,
      ...extra,
    };
    return sendPage(reply, SummaryPage({ page, data, summary }), status);
  }

  const path = '/:org/dashboard/projects/:slug/summary/';
  app.get(path, pageRoute({ params: ProjectParams, querystring: DoneQuery }), async (request, reply) => {
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    return show(request, reply, managed.project, managed.page);
  });

  app.post(path, pageRoute({ params: ProjectParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const { page, project, user } = managed;
    const summaries = config.summaries;
    if (!summaries || summaryRefusal(project)) return show(request, reply, project, page, {}, 400);
    const value = field(request.body, 'scope');
    const scope = readSummaryScope(value, (await summarisedModules(db, project.id, null)).map((m) => m.id));
    if ('error' in scope) return show(request, reply, project, page, { scope: value, errors: { scope: [t(page.lang, scope.error)] } }, 400);
    const back = summariesPath(project.organisationSlug, project.slug);
    try {
      const outcome = await makeSummary(db, summaries, { projectId: project.id, projectName: project.name, moduleId: scope.moduleId, userId: user.id, lang: page.lang });
      return reply.redirect(withDone(back, 'nothing' in outcome ? 'summary_nothing' : outcome.kept ? 'summary_kept' : 'summary_made'), 302);
    } catch (error) {
      if (!(error instanceof SummaryServiceError)) throw error;
      request.log.warn({ reason: error.message }, 'summary: the language model gave no summary');
      return show(request, reply, project, page, { scope: value, failure: error.message }, 502);
    }
  });

  app.post('/:org/dashboard/projects/:slug/summary/:id/:action/', pageRoute({ params: SummaryParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const managed = await managedProject(request, reply, request.params);
    if (!managed) return reply;
    const { project } = managed;
    const publish = request.params.action === 'publish';
    const found = await db.transaction((tx) => setSummaryPublished(tx, project.id, request.params.id, publish));
    if (!found) throw notFound();
    return reply.redirect(withDone(summariesPath(project.organisationSlug, project.slug), publish ? 'summary_published' : 'summary_unpublished'), 302);
  });
}
