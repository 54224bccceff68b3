import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { denied } from '../../http/auth.js';
import { notFound, permissionDenied } from '../../http/errors.js';
import { formatDate, formatDateTime } from '../../i18n/dates.js';
import { type Lang, t } from '../../i18n/index.js';
import { Breadcrumbs, RichText } from '../../web/components.js';
import { type PageBasics, type PageContext, pageBasics, pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { figureText, sendKeptPage } from '../../web/page-keeping.js';
import { sendPage } from '../../web/render.js';
import { MachineSummary } from '../../web/summary-text.js';
import { projectSummaries, type Summary } from '../../features/summaries/queries.js';
import { Layout } from '../../web/layout.js';
import { loginRedirectUrl, safeNext } from '../../web/render.js';
import { hasIdeaModules, loadProjectInsights, type ProjectInsights } from '../../core/insights/queries.js';
import { showsInsightsPublicly } from '../../core/insights/rules.js';
import { InsightsBlock } from '../../web/insights.js';
import { setFollow } from '../../core/follows/services.js';
import { loadModuleContent, ModuleContent, type ModuleContentData, modulePageQuery } from '../module/pages.js';
import { loadModuleCounts, type ModuleCounts } from '../../core/modules/figures.js';
import { loadProjectModules, type PageModule } from '../../core/modules/queries.js';
import { type ModuleCluster, moduleClusters, moduleIsFuture, moduleIsPast, moduleIsRunning, moduleRunningProgress, moduleSpan, participationTimeDisplay, selectedCluster } from '../../core/modules/timeline.js';
import { moduleTypeOf } from '../../core/modules/registry.js';
import { projectComponentPath } from '../../web/paths.js';
import { canEditProjectInDashboard } from '../../core/projects/rules.js';
import { modulePath, projectPath } from '../../core/urls.js';
import { loadProjectPage, type ProjectPageRow, type TimelineEvent } from '../../core/modules/project-page.js';
import { TopicList } from '../../web/topic-list.js';
import { FollowForm } from '../../web/follow-form.js';
import { canModerate, canViewProject } from '../../core/projects/rules.js';
import { canFollowProject } from '../../core/follows/rules.js';
import { offlineEventPath } from '../../features/offlineevents/queries.js';
import { loadProjectResults, manageResultsPath, projectProgress, type ResultRow } from '../../features/results/queries.js';
import { canEditResults, canViewResults } from '../../features/results/rules.js';
import { ProjectResults, RESULT_MAP_SCRIPT, type ResultFilter } from '../../features/results/views.js';

const ProjectParams = Type.Object({ org: Slug, slug: Slug });
const ProjectOwnQuery = Type.Object({
  initialSlide: Type.Optional(Type.Integer({ minimum: 0, maximum: 1000 })),
  tab: Type.Optional(Type.Union([Type.Literal('information'), Type.Literal('participation'), Type.Literal('result')])),
  // The Results tab's filter (features/results).
  status: Type.Optional(Type.String({ maxLength: 12 })),
  category: Type.Optional(Type.String({ maxLength: 120 })),
  district: Type.Optional(Type.String({ maxLength: 120 })),
});
/** The project page's query: its tab and timeline entry, and what a one-module project's module content reads (built when the routes are, after the module types registered). */
const projectQuery = () => Type.Object({ ...modulePageQuery().properties, ...ProjectOwnQuery.properties }) as unknown as typeof ProjectOwnQuery;
const FollowBody = Type.Object({ csrfmiddlewaretoken: Type.Optional(Type.String({ maxLength: 200 })), follow: Type.Optional(Type.String({ maxLength: 10 })), next: Type.Optional(Type.String({ maxLength: 2000 })) });

interface ProjectPageData {
  /** The header image's `srcset` (its real width; media/store.ts `srcset`). */
  imageSrcset?: string;
  project: ProjectPageRow;
  timeDisplay: string;
  /** The timeline (§A4.4): clusters of published modules; shown when there are several. */
  clusters: ModuleCluster<PageModule>[];
  /** The timeline entry shown (§A4.5). */
  selected: number;
  /** The project's offline events: entries of the timeline between the clusters, by date, each linked to its page. */
  events: TimelineEvent[];
  /** Tiles of the selected entry (§A4.8) with their counts; draft modules for moderators at the end. */
  tiles: PageModule[];
  counts: Map<number, ModuleCounts>;
  /** The participation view in place when the entry (or the project) has exactly one module (§A4.6). */
  single: ModuleContentData | null;
  following: boolean;
  mayModerate: boolean;
  /** The Edit button to the project dashboard (§A4.2). */
  mayEdit: boolean;
  tab: 'information' | 'participation' | 'result';
  /** The platform makes machine summaries (SUMMARIES_URL): the Result tab links to the published ones. */
  summaries: boolean;
  /** The statistics on the Result tab, when the initiator chose to show them (§B17.3). */
  insights: { data: ProjectInsights; showIdeas: boolean } | null;
  /** The Result tab's results (issue 39): the list, the overall progress, the filter, the way to manage them. */
  results: { rows: ResultRow[]; overall: number | null; filter: ResultFilter; manage: string | null } | null;
  now: Date;
}

/** The project page (§A4) and its follow form (§A16). */
export async function projectPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  /** The Results tab's data: one statement however many results. */
  async function resultsTab(projectId: number, orgSlug: string, slug: string, context: Parameters<typeof canEditResults>[0], filter: ResultFilter): Promise<ProjectPageData['results']> {
    const rows = await loadProjectResults(db, projectId);
    return { rows, overall: projectProgress(rows), filter, manage: canEditResults(context) ? manageResultsPath(orgSlug, slug) : null };
  }

  /** A project its viewer may see, with the viewer's context; 404 when there is none, login or 403 when they may not (§A5.4). */
  async function visibleProject(page: PageBasics, params: { org: string; slug: string }) {
    const loaded = await loadProjectPage(db, params.org, params.slug, page.user);
    if (!loaded) throw notFound();
    if (!canViewProject(loaded.context)) throw denied(page.user);
    return loaded;
  }

  app.get('/:org/projects/:slug/', pageRoute({ params: ProjectParams, querystring: projectQuery() }), async (request, reply) => {
    const viewer = await pageBasics(request, reply);
    const { project, context, following, pageVersion } = await visibleProject(viewer, request.params);
    /** The page for its viewer (kept: web/page-keeping.ts). */
    const render = async (page: PageContext) => {
      const now = new Date();
      const mayModerate = canModerate(context);
      const modules = await loadProjectModules(db, project.id, mayModerate);
      const published = modules.filter((m) => !m.isDraft);
      const spans = published.map((m) => ({ id: m.id, phases: m.phases, span: moduleSpan(m.phases) }));
      const clusters = moduleClusters(published);
      const selected = selectedCluster(clusters, now, request.query.initialSlide);
      const entry = clusters.at(selected)?.modules ?? published;
      const inPlace = modules.length === 1 ? modules[0] : entry.length === 1 ? entry[0] : null;
      const orgSlug = project.organisationSlug;
      // With several timeline entries the idea list's links go to the module page, so that they keep the chosen entry.
      const path = inPlace && clusters.length > 1 ? modulePath(orgSlug, inPlace.slug) : projectPath(orgSlug, project.slug);
      // The module's rule context from what is loaded: the project's context and the module's phases.
      const moduleContext = inPlace ? { project: context, module: { id: inPlace.id, isDraft: inPlace.isDraft, blueprintType: inPlace.blueprintType }, phases: inPlace.phases, now } : null;
      // The module's content shows on the Participation tab only (the Results tab stays within its statements).
      const participation = (request.query.tab ?? 'participation') === 'participation';
      const single =
        participation && inPlace && moduleContext ? await loadModuleContent({ db, request, config, page, orgSlug, path, module: inPlace, context: moduleContext, query: request.query as unknown as Record<string, string | undefined> }) : null;
      const data: ProjectPageData = {
        project,
        imageSrcset: await app.ctx.media.srcset(project.image),
        timeDisplay: participationTimeDisplay(spans, { lang: page.lang, timeZone: page.timeZone, now }),
        clusters,
        selected,
        events: project.events,
        tiles: single ? [] : [...entry, ...modules.filter((m) => m.isDraft)],
        counts: single || !participation ? new Map() : await loadModuleCounts(db, project.id),
        single,
        following,
        mayModerate,
        mayEdit: canEditProjectInDashboard(context),
        tab: request.query.tab ?? 'participation',
        summaries: config.summaries !== null,
        insights:
          request.query.tab === 'result' && showsInsightsPublicly(project)
            ? { data: await loadProjectInsights(db, project.id), showIdeas: hasIdeaModules(published.map((m) => m.blueprintType)) }
            : null,
        results: request.query.tab === 'result' && canViewResults(context) ? await resultsTab(project.id, orgSlug, project.slug, context, { status: request.query.status, category: request.query.category, district: request.query.district }) : null,
        now,
      };
      // The tiles' counts are filled in at sending; the statistics are baked in: that tab is kept per comment too (web/page-keeping.ts).
      if (data.insights) page.keptCounts?.dependOnComments();
      return <ProjectPage page={page} data={data} />;
    };
    return sendKeptPage(request, reply, viewer, pageVersion, render);
  });

  app.post('/:org/projects/:slug/follow/', pageRoute({ params: ProjectParams, body: FollowBody }), async (request, reply) => {
    checkCsrf(request);
    const back = safeNext(request.body.next, projectPath(request.params.org, request.params.slug));
    const page = await pageContext(request, reply);
    if (!page.user) return reply.redirect(loginRedirectUrl(back), 302);
    const { project, context } = await visibleProject(page, request.params);
    if (!canFollowProject(context)) throw permissionDenied();
    const enabled = field(request.body as FormBody, 'follow') !== 'false';
    const userId = page.user.id;
    await db.transaction((tx) => setFollow(tx, userId, project.id, enabled));
    return redirectWithMessage(request, reply, back, enabled ? 'You are now following this project.' : 'You no longer follow this project.');
  });

  /** The project's published machine summaries (issue 34.9; features/summaries), for whoever may see the project. */
  app.get('/:org/projects/:slug/summary/', pageRoute({ params: ProjectParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const { project } = await visibleProject(page, request.params);
    return sendPage(reply, <SummariesPage page={page} project={project} summaries={await projectSummaries(db, project.id, { publishedOnly: true })} />);
  });
}

function SummariesPage({ page, project, summaries }: { page: PageContext; project: ProjectPageRow; summaries: (Summary & { moduleName: string | null })[] }) {
  const { lang } = page;
  return (
    <Layout page={page} title={`${t(lang, 'Summary of the contributions')} — ${project.name}`}>
      <p>
        <a href={projectPath(project.organisationSlug, project.slug)}>{project.name}</a>
      </p>
      <h1>{t(lang, 'Summary of the contributions')}</h1>
      {summaries.length ? summaries.map((s) => <MachineSummary page={page} summary={s} heading={s.moduleName ?? project.name} />) : <p>{t(lang, 'No summary has been published yet.')}</p>}
    </Layout>
  );
}


function ContactInfo({ lang, project }: { lang: Lang; project: ProjectPageRow }) {
  const { contactName, contactAddressText, contactEmail, contactPhone, contactUrl } = project;
  if (![contactName, contactAddressText, contactEmail, contactPhone, contactUrl].some(Boolean)) return null;
  return (
    <section aria-labelledby="contact-heading">
      <h3 id="contact-heading">{t(lang, 'Contact for questions')}</h3>
      <address>
        {contactName && <p>{contactName}</p>}
        {contactAddressText && <p class="pre-line">{contactAddressText}</p>}
        {contactPhone && <p>{contactPhone}</p>}
        {contactEmail && (
          <p>
            <a href={`mailto:${contactEmail}`}>{contactEmail}</a>
          </p>
        )}
        {/^https?:\/\//i.test(contactUrl) && (
          <p>
            <a href={contactUrl}>{contactUrl}</a>
          </p>
        )}
      </address>
    </section>
  );
}

/** A module tile (§A4.8): name, type, counts, status bar, link. */
function ModuleTile({ page, orgSlug, module, counts, now }: { page: PageContext; orgSlug: string; module: PageModule; counts?: ModuleCounts; now: Date }) {
  const { lang, timeZone } = page;
  const span = moduleSpan(module.phases);
  const progress = moduleRunningProgress(span, now);
  const type = moduleTypeOf(module.blueprintType);
  return (
    <li class="tile">
      {module.isDraft && <span class="badge">{t(lang, 'draft')}</span>}
      {type?.offered && <span class="badge">{type.title[lang]}</span>}
      <h3>
        <a href={modulePath(orgSlug, module.slug)}>{module.name}</a>
      </h3>
      {module.description && <p>{module.description}</p>}
      {counts && (
        <ul class="tile-counts">
          {type?.tileCount && <li>{figureText(page, 'items', `module:${module.id}`, counts.items, module.blueprintType)}</li>}
          <li>{figureText(page, 'comments', `module:${module.id}`, counts.comments)}</li>
          <li>{figureText(page, 'participants', `module:${module.id}`, counts.participants)}</li>
        </ul>
      )}
      {progress !== null ? (
        <progress class="progress" max={100} value={progress} aria-label={t(lang, 'Progress')}>
          {`${progress}%`}
        </progress>
      ) : moduleIsFuture(span, now) && span.start ? (
        <p>{t(lang, 'Participation: from %(date)s', { date: formatDate(span.start, lang, timeZone) })}</p>
      ) : moduleIsPast(span, now) ? (
        <p>{t(lang, 'Participation ended. Read result.')}</p>
      ) : null}
    </li>
  );
}

/** The title of a timeline entry: "Online Participation" alone, "1. Online Participation" among several (§A4.4). */
const clusterTitle = (lang: Lang, index: number, count: number) =>
  count > 1 ? `${index + 1}. ${t(lang, 'Online Participation')}` : t(lang, 'Online Participation');

/** The timeline's entries in date order: the module clusters (by start) and the offline events (by date; a+ `participation_dates`). */
function timelineEntries<C extends { start: Date }, E extends { date: Date }>(clusters: C[], events: E[]) {
  const entries = [...clusters.map((cluster, index) => ({ at: cluster.start, cluster, index }) as const), ...events.map((event) => ({ at: event.date, event }) as const)];
  return entries.sort((a, b) => a.at.getTime() - b.at.getTime());
}

/** The timeline (§A4.4–5): one link per module cluster, the shown one `aria-current`, the running one marked; the offline events among them, each linked to its page. */
function Timeline({ page, path, data }: { page: PageContext; path: string; data: ProjectPageData }) {
  const { lang, timeZone } = page;
  if (data.clusters.length + data.events.length < 2) return null;
  return (
    <nav aria-label={t(lang, 'Participation dates')}>
      <ol class="timeline">
        {timelineEntries(data.clusters, data.events).map((entry) =>
          'event' in entry ? (
            <li class="timeline-event">
              <a href={offlineEventPath(data.project.organisationSlug, entry.event.slug)}>
                <strong>{entry.event.name}</strong> <span>{formatDateTime(entry.event.date, lang, timeZone)}</span>
              </a>{' '}
              <span class="badge">{entry.event.eventType}</span>
            </li>
          ) : (
            <li class={entry.index === data.selected ? 'selected' : undefined}>
              <a href={`${path}?initialSlide=${entry.index}`} aria-current={entry.index === data.selected ? 'true' : undefined}>
                <strong>{clusterTitle(lang, entry.index, data.clusters.length)}</strong>{' '}
                <span>
                  {formatDate(entry.cluster.start, lang, timeZone)} – {formatDate(entry.cluster.end, lang, timeZone)}
                </span>
              </a>
              {moduleIsRunning(entry.cluster, data.now) && <span class="badge">{t(lang, 'running now')}</span>}
            </li>
          ),
        )}
      </ol>
    </nav>
  );
}

const ACCESS_NOTICES: Record<string, string> = {
  PRIVATE: 'This project is not publicly visible. Only invited users can see content and actively participate.',
  SEMIPUBLIC: 'This project is publicly visible. Invited users can actively participate.',
};

function Tabs({ lang, path, tab }: { lang: Lang; path: string; tab: ProjectPageData['tab'] }) {
  const tabs: [ProjectPageData['tab'], string][] = [
    ['information', 'Information'],
    ['participation', 'Participation'],
    ['result', 'Result'],
  ];
  return (
    <nav aria-label={t(lang, 'Project sections')}>
      <ul class="tabs">
        {tabs.map(([key, label]) => (
          <li>
            <a href={key === 'participation' ? path : `${path}?tab=${key}`} aria-current={tab === key ? 'page' : undefined}>
              {t(lang, label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

function ProjectPage({ page, data }: { page: PageContext; data: ProjectPageData }) {
  const { lang } = page;
  const { project } = data;
  const path = projectPath(project.organisationSlug, project.slug);
  const access = ACCESS_NOTICES[project.access];
  return (
    <Layout page={page} title={project.name} scripts={data.results?.rows.some((r) => r.lat !== null) ? [RESULT_MAP_SCRIPT] : []}>
      <Breadcrumbs lang={lang} items={[{ href: `/${project.organisationSlug}/`, label: project.organisationName }]} />
      {project.isDraft && <p class="alert alert-info">{t(lang, 'This project is not yet published.')}</p>}
      {project.isArchived && <p class="alert alert-info">{t(lang, 'This project is archived.')}</p>}
      <header class="project-header">
        {project.image && <img class="hero" src={`/media/${project.image}`} srcset={data.imageSrcset} sizes="100vw" alt="" />}
        <h1>{project.name}</h1>
        <p class="lead">{project.description}</p>
        <TopicList lang={lang} topics={project.topics} />
        {project.districtName && (
          <p class="project-district">
            {t(lang, 'District')}: {project.districtName}
          </p>
        )}
        {data.timeDisplay && <p>{data.timeDisplay}</p>}
        <FollowForm page={page} project={project} following={data.following} />
        {data.mayEdit && (
          <a class="btn btn-secondary" href={projectComponentPath(project.organisationSlug, project.slug, 'basic')}>
            {t(lang, 'Edit')}
          </a>
        )}
      </header>
      <Tabs lang={lang} path={path} tab={data.tab} />
      {data.tab === 'information' && (
        <section aria-labelledby="information-heading">
          <h2 id="information-heading">{t(lang, 'Information')}</h2>
          {project.information.trim() ? <RichText html={project.information} /> : <p>{t(lang, 'No information yet.')}</p>}
          <ContactInfo lang={lang} project={project} />
        </section>
      )}
      {data.tab === 'participation' && (
        <section aria-labelledby="participation-heading">
          <h2 id="participation-heading">
            {data.single ? <a href={modulePath(project.organisationSlug, data.single.module.slug)}>{data.single.module.name}</a> : t(lang, 'Participation')}
          </h2>
          {data.single?.module.description && <p class="lead">{data.single.module.description}</p>}
          <Timeline page={page} path={path} data={data} />
          {data.single ? (
            <ModuleContent page={page} data={data.single} />
          ) : data.tiles.length ? (
            <ul class="tiles">
              {data.tiles.map((module) => (
                <ModuleTile page={page} orgSlug={project.organisationSlug} module={module} counts={data.counts.get(module.id)} now={data.now} />
              ))}
            </ul>
          ) : (
            <p>{t(lang, 'No participation modules are published yet.')}</p>
          )}
        </section>
      )}
      {data.tab === 'result' && (
        <section aria-labelledby="result-heading">
          <h2 id="result-heading">{t(lang, 'Result')}</h2>
          {project.result.trim() ? <RichText html={project.result} /> : <p>{t(lang, 'No results yet.')}</p>}
          {data.summaries && (
            <p>
              <a href={`${path}summary/`}>{t(lang, 'Machine-made summary of the contributions')}</a>
            </p>
          )}
          {data.insights && <InsightsBlock lang={lang} insights={data.insights.data} showIdeas={data.insights.showIdeas} />}
          {data.results && <ProjectResults lang={lang} orgSlug={project.organisationSlug} action={path} rows={data.results.rows} overall={data.results.overall} filter={data.results.filter} manage={data.results.manage} />}
        </section>
      )}
      {access && (
        <p class="access-notice" role="note">
          {t(lang, access)}
        </p>
      )}
    </Layout>
  );
}
