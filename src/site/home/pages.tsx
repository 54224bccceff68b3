import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { Slug } from '../../http/responses.js';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { type Lang, t, tn } from '../../i18n/index.js';
import { type PageContext, pageBasics, pageContext } from '../../web/context.js';
import { pageRoute } from '../../web/forms.js';
import { Layout } from '../../web/layout.js';
import { sendPage } from '../../web/render.js';
import { sendKeptPage } from '../../web/page-keeping.js';
import { noProjectPageVersion } from '../../db/versions.js';
import { SETUP_PATH } from '../../web/paths.js';
import { operatorExists } from '../../core/users/queries.js';
import { ProjectTile } from '../../web/project-tile.js';
import { listedProjects, type TiledProject } from '../../core/projects/tiles.js';
import { loadProjectContexts } from '../../core/projects/context.js';
import { byParticipation, canViewProject, isFiltered, PROJECT_STATUS_FILTERS, type ProjectFilter, projectMatches, type ProjectStatusFilter } from '../../core/projects/rules.js';
import { TextPage } from '../legal/pages.js';
import { type Figure, loadStartPage, type StartPageTexts } from '../../core/legal/content.js';
import { inLanguage } from '../../core/legal/queries.js';
import { RichText } from '../../web/rich-text.js';
import { Input, Select } from '../../web/controls.js';
import { PROJECT_TOPICS, type ProjectTopic } from '../../core/projects/topics.js';
import { organisationResultsPath } from '../../features/results/queries.js';
import { loadOrganisationProfile, type OrganisationProfile, translated } from '../../core/organisations/queries.js';

const PROJECT_SEARCH_MAX_LENGTH = 200;
/** The start page's filter in the URL; '' is "all" (what the form sends for it). */
const HomeQuery = Type.Object({
  search: Type.Optional(Type.String({ maxLength: PROJECT_SEARCH_MAX_LENGTH })),
  topic: Type.Optional(Type.Union([Type.Literal(''), ...Object.keys(PROJECT_TOPICS).map((code) => Type.Literal(code))])),
  organisation: Type.Optional(Type.Union([Type.Literal(''), Slug])),
  status: Type.Optional(Type.Union([Type.Literal(''), ...Object.keys(PROJECT_STATUS_FILTERS).map((s) => Type.Literal(s as ProjectStatusFilter))])),
  district: Type.Optional(Type.String({ maxLength: 10, pattern: '^\\d*$' })),
});
const OrgParams = Type.Object({ org: Slug });

/** The start page and the organisation landing pages (§A3). */
export async function organisationPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;
  /** Once an operator exists the setup is over for this process (the question costs a statement per start page until then). */
  let setUp = false;
  app.ctx.memory.keep({ forget: () => void (setUp = false) });

  app.get('/', pageRoute({ querystring: HomeQuery }), async (request, reply) => {
    setUp ||= await operatorExists(db);
    if (!setUp) return reply.redirect(SETUP_PATH, 302);
    /** The page for its viewer (kept: web/page-keeping.ts). */
    const render = async (page: PageContext) => {
      const now = new Date();
      const { search = '', topic = '', organisation = '', status = '', district = '' } = request.query;
      const filter: ProjectFilter = { search: search.trim(), topic, organisation, status, district };
      const listed = byParticipation(await listedProjects(db, { listedForAll: true }), now);
      const projects = await app.ctx.media.withTileSrcsets(listed.filter((p) => projectMatches(p, filter, now)));
      return HomePage({ page, projects, now, filter, organisations: organisationsOf(listed), districts: districtsOf(listed), start: await loadStartPage(db) });
    };
    const viewer = await pageBasics(request, reply);
    return sendKeptPage(request, reply, viewer, await noProjectPageVersion(db), render);
  });

  app.get('/:org/', pageRoute({ params: OrgParams }), async (request, reply) => {
    const page = await pageContext(request, reply);
    const organisation = await loadOrganisationProfile(db, request.params.org);
    if (!organisation) throw notFound();
    const now = new Date();
    const listed = await listedProjects(db, { organisationId: organisation.id });
    const contexts = await loadProjectContexts(db, listed.map((p) => p.id), page.user);
    const visible = listed.filter((p) => {
      const context = contexts.get(p.id);
      return context !== undefined && canViewProject(context);
    });
    return sendPage(reply, OrganisationPage({ page, organisation, projects: byParticipation(await app.ctx.media.withTileSrcsets(visible), now), now }));
  });

  /** The "About" page: the organisation's information in the reader's language (§A2, §B3.1). */
  app.get('/:org/information/', pageRoute({ params: OrgParams }), async (request, reply) => {
    const organisation = await loadOrganisationProfile(db, request.params.org);
    if (!organisation) throw notFound();
    const page = await pageContext(request, reply);
    const information = translated(organisation, 'information', page.lang);
    return sendPage(
      reply,
      TextPage({ page, title: `${t(page.lang, 'About')} — ${organisation.name}`, body: information, empty: t(page.lang, 'This page has not been written yet.'), organisation: footerOf(organisation) }),
    );
  });
}

const footerOf = (o: OrganisationProfile) => ({ slug: o.slug, name: o.name, legal: o.legal });

export function Tiles({ page, projects, now, empty, level }: { page: PageContext; projects: TiledProject[]; now: Date; empty: string; level?: 2 | 3 }) {
  if (!projects.length) return <p>{empty}</p>;
  return (
    <ul class="tiles">
      {projects.map((project) => (
        <ProjectTile page={page} project={project} now={now} level={level} />
      ))}
    </ul>
  );
}

/** The organisations of the listed projects, by name: the choices of the start page's filter. */
function organisationsOf(projects: TiledProject[]) {
  const seen = new Map(projects.map((p) => [p.organisationSlug, p.organisationName]));
  return [...seen].map(([slug, name]) => ({ slug, name })).sort((a, b) => a.name.localeCompare(b.name));
}

/** The districts of the listed projects (read with their tiles, so the filter offers only districts that have a project). */
function districtsOf(projects: TiledProject[]): District[] {
  const seen = new Map(projects.flatMap((p) => (p.administrativeDistrictId === null || p.districtName === null ? [] : [[p.administrativeDistrictId, p.districtName] as const])));
  return [...seen].map(([id, name]) => ({ id, name })).sort((a, b) => a.name.localeCompare(b.name));
}

/** A district as the filter offers it. */
interface District {
  id: number;
  name: string;
}

const STATUS_LABELS: Record<ProjectStatusFilter, string> = { running: 'Running', upcoming: 'Upcoming', finished: 'Finished' };

/** The start page's search and filters, sent as GET so that the URL carries them (bookmarkable, shareable). */
function ProjectFilterForm({ page, filter, organisations, districts }: { page: PageContext; filter: ProjectFilter; organisations: { slug: string; name: string }[]; districts: District[] }) {
  const { lang } = page;
  const all = { value: '', label: t(lang, 'All') };
  return (
    <form method="get" action="/" class="filter-form" role="search" aria-label={t(lang, 'Find projects')}>
      <Input name="search" type="search" label={t(lang, 'Search')} value={filter.search} maxLength={PROJECT_SEARCH_MAX_LENGTH} />
      <Select name="topic" label={t(lang, 'Topic')} value={filter.topic} choices={[all, ...(Object.keys(PROJECT_TOPICS) as ProjectTopic[]).map((code) => ({ value: code, label: t(lang, PROJECT_TOPICS[code]) }))]} />
      <Select name="organisation" label={t(lang, 'Organisation')} value={filter.organisation} choices={[all, ...organisations.map((o) => ({ value: o.slug, label: o.name }))]} />
      <Select name="status" label={t(lang, 'Status')} value={filter.status} choices={[all, ...(Object.keys(STATUS_LABELS) as ProjectStatusFilter[]).map((s) => ({ value: s, label: t(lang, STATUS_LABELS[s]) }))]} />
      {districts.length > 0 && <Select name="district" label={t(lang, 'District')} value={filter.district} choices={[all, ...districts.map((d) => ({ value: String(d.id), label: d.name }))]} />}
      <button type="submit">{t(lang, 'Filter')}</button>
      {isFiltered(filter) && <a href="/">{t(lang, 'Show all projects')}</a>}
    </form>
  );
}

/**
 * The empty start page of a new install: the operator's first steps, and for a visitor a way in
 * for the operator. Once a project is listed the start page shows neither (issue 22, item 8).
 */
function FirstSteps({ page }: { page: PageContext }) {
  const { lang, user } = page;
  if (!user) {
    return (
      <p>
        {t(lang, 'Do you run this platform?')} <a href="/accounts/login/">{t(lang, 'Log in as its operator to begin.')}</a>
      </p>
    );
  }
  if (!user.isSuperuser) return null;
  const step = (href: string, text: string, rest: string) => (
    <li>
      <a href={href}>{t(lang, text)}</a> {t(lang, rest)}
    </li>
  );
  return (
    <section aria-labelledby="first-steps" class="first-steps">
      <h2 id="first-steps">{t(lang, 'Getting started')}</h2>
      <ol>
        {step('/backoffice/pages/', 'Write the legal pages', '(imprint, data protection, terms of use, netiquette): the footer and the sign-up form link them.')}
        {step('/backoffice/organisations/', 'Create an organisation', 'and appoint its initiators (they need an account: they register first).')}
        <li>{t(lang, 'The initiators describe the organisation and create, fill in and publish the first project in its dashboard. It appears here.')}</li>
        {step('/backoffice/mails/', 'Check the e-mails', 'that the platform sends (confirmations, invitations): without SMTP_URL they stay in the outbox.')}
      </ol>
    </section>
  );
}

/** The operator's start page texts and image (a+ CMS home page), above the projects; nothing when none is written. */
function StartIntro({ lang, start }: { lang: Lang; start: StartPageTexts }) {
  const heading = inLanguage(start.heading, lang);
  const intro = inLanguage(start.intro, lang);
  if (!heading && !intro && !start.image) return null;
  return (
    <section class="start-intro" aria-labelledby={heading ? 'start-heading' : undefined}>
      {start.image && <img class="start-image" src={`/media/${start.image}`} alt={inLanguage(start.imageAlt, lang)} />}
      {heading && <h1 id="start-heading">{heading}</h1>}
      {intro && <RichText html={intro} />}
    </section>
  );
}

/** The operator's figures (a+ landing page statistics): numbers with captions, testimonials, pictures; nothing when there are none. */
function StartFigures({ lang, figures }: { lang: Lang; figures: Figure[] }) {
  if (!figures.length) return null;
  return (
    <section class="start-figures" aria-label={t(lang, 'In figures')}>
      <ul class="start-figure-list">
        {figures.map((f) => (
          <li class={`start-figure start-figure-${f.kind}`}>
            {f.kind === 'number' && (
              <>
                <p class="start-figure-number">{inLanguage(f.figure, lang)}</p>
                {inLanguage(f.caption, lang) && <p>{inLanguage(f.caption, lang)}</p>}
              </>
            )}
            {f.kind === 'testimonial' && (
              <figure>
                <blockquote>
                  <p>{inLanguage(f.quote, lang)}</p>
                </blockquote>
                <figcaption>
                  {f.image && <img class="start-figure-portrait" src={`/media/${f.image}`} alt="" />}
                  {f.personName}
                  {inLanguage(f.personDescription, lang) && `, ${inLanguage(f.personDescription, lang)}`}
                </figcaption>
              </figure>
            )}
            {f.kind === 'picture' && f.image && <img src={`/media/${f.image}`} alt={inLanguage(f.imageAlt, lang)} />}
          </li>
        ))}
      </ul>
    </section>
  );
}

function HomePage(props: { page: PageContext; projects: TiledProject[]; now: Date; filter: ProjectFilter; organisations: { slug: string; name: string }[]; districts: District[]; start: StartPageTexts & { figures: Figure[] } }) {
  const { page, filter } = props;
  const { lang } = page;
  const filtered = isFiltered(filter);
  const ownHeading = Boolean(inLanguage(props.start.heading, lang));
  return (
    <Layout page={page} title={t(lang, 'Projects')}>
      <StartIntro lang={lang} start={props.start} />
      <StartFigures lang={lang} figures={props.start.figures} />
      {ownHeading ? <h2>{t(lang, 'Projects')}</h2> : <h1>{t(lang, 'Projects')}</h1>}
      {(filtered || props.projects.length > 0) && <ProjectFilterForm page={page} filter={filter} organisations={props.organisations} districts={props.districts} />}
      {filtered && <p role="status">{tn(lang, '%(count)s project found', '%(count)s projects found', props.projects.length, { count: props.projects.length })}</p>}
      <Tiles page={page} projects={props.projects} now={props.now} level={ownHeading ? 3 : 2} empty={t(lang, filtered ? 'No project matches this search.' : 'There are no projects yet.')} />
      {!filtered && props.projects.length === 0 && <FirstSteps page={page} />}
    </Layout>
  );
}

export function OrganisationPage(props: { page: PageContext; organisation: OrganisationProfile; projects: TiledProject[]; now: Date }) {
  const { page, organisation } = props;
  const { lang } = page;
  const slogan = translated(organisation, 'slogan', lang);
  const description = translated(organisation, 'description', lang);
  return (
    <Layout page={page} title={organisation.name} organisation={footerOf(organisation)}>
      {organisation.image && (
        <figure class="organisation-header">
          <img src={`/media/${organisation.image}`} alt="" />
          {organisation.imageCopyright && <figcaption>© {organisation.imageCopyright}</figcaption>}
        </figure>
      )}
      <div class="organisation-head">
        {organisation.logo && <img class="organisation-logo" src={`/media/${organisation.logo}`} alt={t(lang, 'Logo of %(organisation)s', { organisation: organisation.name })} width={96} height={96} />}
        <h1>{organisation.title || organisation.name}</h1>
        {organisation.isSupporting && <span class="badge">{t(lang, 'Supporting organisation')}</span>}
      </div>
      {slogan && <p class="lead">{slogan}</p>}
      {description && <p>{description}</p>}
      <p>
        <a href={`/${organisation.slug}/information/`}>{t(lang, 'About %(organisation)s', { organisation: organisation.name })}</a>
        {' · '}
        <a href={organisationResultsPath(organisation.slug)}>{t(lang, 'What became of it')}</a>
        {organisation.url && (
          <>
            {' · '}
            <a href={organisation.url} rel="noopener">
              {t(lang, 'Website')}
            </a>
          </>
        )}
      </p>
      <section aria-labelledby="projects-heading">
        <h2 id="projects-heading">{t(lang, 'Projects')}</h2>
        <Tiles page={page} projects={props.projects} now={props.now} empty={t(lang, 'This organisation has no projects yet.')} />
      </section>
    </Layout>
  );
}
