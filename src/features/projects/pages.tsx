import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { notFound, permissionDenied } from '../../http/errors.js';
import { formatDate } from '../../i18n/dates.js';
import { type Lang, t } from '../../i18n/index.js';
import { Breadcrumbs, RichText } from '../../web/components.js';
import { type PageContext, pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { CsrfField, Layout } from '../../web/layout.js';
import { loginRedirectUrl, safeNext, sendPage } from '../../web/render.js';
import { isFollowing } from '../follows/queries.js';
import { setFollow } from '../follows/services.js';
import { IdeaListQuery } from '../ideas/list.js';
import { loadModuleContent, ModuleContent, type ModuleContentData } from '../modules/pages.js';
import { loadProjectModules, type PageModule } from '../modules/queries.js';
import { moduleIsFuture, moduleIsPast, moduleRunningProgress, moduleSpan } from '../modules/timeline.js';
import { Slug } from '../organisations/pages.js';
import { modulePath, projectPath } from '../urls.js';
import { loadProjectPage, type ProjectPageRow } from './queries.js';
import { canModerate, canViewProject } from './rules.js';
import { loadModuleContext, loadProjectContext } from './context.js';
import { canFollowProject } from '../follows/rules.js';
import { participationTimeDisplay } from './serialize.js';

const ProjectParams = Type.Object({ org: Slug, slug: Slug });
const ProjectQuery = Type.Object({ ...IdeaListQuery.properties, tab: Type.Optional(Type.Union([Type.Literal('information'), Type.Literal('participation'), Type.Literal('result')])) });
const FollowBody = Type.Object({ csrfmiddlewaretoken: Type.Optional(Type.String({ maxLength: 200 })), follow: Type.Optional(Type.String({ maxLength: 10 })), next: Type.Optional(Type.String({ maxLength: 2000 })) });

export interface ProjectPageData {
  project: ProjectPageRow;
  timeDisplay: string;
  modules: PageModule[];
  /** The participation view in place when the project has exactly one published module (§A4.6). */
  single: ModuleContentData | null;
  following: boolean;
  mayModerate: boolean;
  tab: 'information' | 'participation' | 'result';
  now: Date;
}

/** The project page (§A4) and its follow form (§A16). */
export async function projectPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, config } = app.ctx;

  /** A project its viewer may see, with the viewer's context; 404 otherwise (private and draft projects stay hidden). */
  async function visibleProject(page: PageContext, params: { org: string; slug: string }) {
    const project = await loadProjectPage(db, params.org, params.slug);
    const context = project && (await loadProjectContext(db, project.id, page.user));
    if (!project || !context || !canViewProject(context)) throw notFound();
    return { project, context };
  }

  app.get('/:org/projects/:slug/', pageRoute({ params: ProjectParams, querystring: ProjectQuery }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const { project, context } = await visibleProject(page, request.params);
    const now = new Date();
    const mayModerate = canModerate(context);
    const modules = await loadProjectModules(db, project.id, mayModerate);
    const published = modules.filter((m) => !m.isDraft);
    const spans = published.map((m) => ({ id: m.id, blueprintType: m.blueprintType, span: moduleSpan(m.phases) }));
    const path = projectPath(project.organisationSlug, project.slug);
    const moduleContext = modules.length === 1 ? await loadModuleContext(db, modules[0].id, page.user) : null;
    const single = moduleContext
      ? await loadModuleContent(db, request, config, { page, orgSlug: project.organisationSlug, path, module: modules[0], context: moduleContext, query: request.query })
      : null;
    const data: ProjectPageData = {
      project,
      timeDisplay: participationTimeDisplay(spans, { lang: page.lang, timeZone: page.timeZone, now }),
      modules,
      single,
      following: page.user ? await isFollowing(db, page.user.id, project.id) : false,
      mayModerate,
      tab: request.query.tab ?? 'participation',
      now,
    };
    return sendPage(reply, <ProjectPage page={page} data={data} />);
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
}

export function FollowForm({ page, project, following, next }: { page: PageContext; project: { organisationSlug: string; slug: string }; following: boolean; next?: string }) {
  const { lang } = page;
  if (!page.user) return null;
  return (
    <form method="post" action={`${projectPath(project.organisationSlug, project.slug)}follow/`} class="inline-form">
      <CsrfField page={page} />
      <input type="hidden" name="follow" value={following ? 'false' : 'true'} />
      {next && <input type="hidden" name="next" value={next} />}
      <button type="submit" aria-pressed={following ? 'true' : 'false'}>
        {following ? t(lang, 'Unfollow') : t(lang, 'Follow')}
      </button>
    </form>
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

/** A module tile (§A4.8): name, status bar, link. */
function ModuleTile({ page, orgSlug, module, now }: { page: PageContext; orgSlug: string; module: PageModule; now: Date }) {
  const { lang, timeZone } = page;
  const span = moduleSpan(module.phases);
  const progress = moduleRunningProgress(span, now);
  return (
    <li class="tile">
      {module.isDraft && <span class="badge">{t(lang, 'draft')}</span>}
      <h3>
        <a href={modulePath(orgSlug, module.slug)}>{module.name}</a>
      </h3>
      {module.description && <p>{module.description}</p>}
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

export function ProjectPage({ page, data }: { page: PageContext; data: ProjectPageData }) {
  const { lang } = page;
  const { project } = data;
  const path = projectPath(project.organisationSlug, project.slug);
  const access = ACCESS_NOTICES[project.access];
  return (
    <Layout page={page} title={project.name}>
      <Breadcrumbs lang={lang} items={[{ href: `/${project.organisationSlug}/`, label: project.organisationName }]} />
      {project.isDraft && <p class="alert alert-info">{t(lang, 'This project is not yet published.')}</p>}
      {project.isArchived && <p class="alert alert-info">{t(lang, 'This project is archived.')}</p>}
      <header class="project-header">
        {project.image && <img class="hero" src={`/media/${project.image}`} alt="" />}
        <h1>{project.name}</h1>
        <p class="lead">{project.description}</p>
        {data.timeDisplay && <p>{data.timeDisplay}</p>}
        <FollowForm page={page} project={project} following={data.following} />
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
          {data.single ? (
            <ModuleContent page={page} data={data.single} />
          ) : data.modules.length ? (
            <ul class="tiles">
              {data.modules.map((module) => (
                <ModuleTile page={page} orgSlug={project.organisationSlug} module={module} now={data.now} />
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
