import type { ComponentChildren } from 'preact';
import type { FieldErrors } from '../../http/errors.js';
import { t, tn } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { PostButton } from '../../web/components.js';
import { CsrfField, FormErrors, Layout, Notice } from '../../web/layout.js';
import type { PageLinks } from '../../http/pagination.js';
import { Pager } from '../../web/pager.js';
import { labelIn, moduleComponents } from '../../core/modules/registry.js';
import { projectPath } from '../../core/urls.js';
import { withNext } from '../../http/urls.js';
import type { Missing, PublishCheck } from './completeness.js';
import { platformPageEditPath } from '../../core/legal/texts.js';
import { accessChoices, Input, Radios, RICH_TEXT_SCRIPTS, TextArea } from '../../web/controls.js';
import { PROJECT_FIELDS } from './input.js';
import { isExportOffered } from '../../features/exports/rules.js';
import { legalSettingsPath, moduleComponentPath, moduleExportPath, newsletterListPath, organisationSettingsPath, projectActionPath, projectComponentPath, projectCreatePath, projectListPath } from '../../web/paths.js';
import type { ArchivedFilter, DashboardModule, DashboardProject } from './queries.js';

interface OrganisationView {
  slug: string;
  name: string;
}

/** The project components of the left menu (§B8), in order; participants only for projects that are not public. */
export const PROJECT_COMPONENTS = [
  { key: 'basic', label: 'Basic settings' },
  { key: 'information', label: 'Information' },
  { key: 'result', label: 'Result' },
  { key: 'moderators', label: 'Moderators' },
  { key: 'participants', label: 'Participants' },
  { key: 'location', label: 'Location' },
  { key: 'offlineevents', label: 'Offline events' },
  { key: 'summary', label: 'Summary' },
  { key: 'results', label: 'Results' },
] as const;

const projectComponentsOf = (project: { access: string }) => PROJECT_COMPONENTS.filter((c) => c.key !== 'participants' || project.access !== 'PUBLIC');

function MissingMark({ lang }: { lang: PageContext['lang'] }) {
  return (
    <span class="missing" title={t(lang, 'Missing fields for publication')}>
      {' '}
      ⚠<span class="visually-hidden">{t(lang, 'Missing fields for publication')}</span>
    </span>
  );
}

function missingLink(organisation: OrganisationView, projectSlug: string, m: Missing) {
  // The operator writes the platform's text and comes back here to publish (issue 37: no guessing the way back).
  if (m.legal) return withNext(platformPageEditPath(m.legal), projectComponentPath(organisation.slug, projectSlug, 'basic'));
  return m.module ? moduleComponentPath(organisation.slug, m.module.slug, m.component) : projectComponentPath(organisation.slug, projectSlug, m.component);
}

/** Links to every field that blocks publishing, each to its form (E1). */
export function MissingItems({ page, organisation, projectSlug, missing }: { page: PageContext; organisation: OrganisationView; projectSlug: string; missing: Missing[] }) {
  const { lang } = page;
  return (
    <ul class="missing-list">
      {missing.map((m) => (
        <li>
          <a href={missingLink(organisation, projectSlug, m)}>
            {m.module ? `${m.module.name}: ` : ''}
            {labelIn(lang, m.field, m.vars)}
          </a>
        </li>
      ))}
    </ul>
  );
}

export interface FrameData {
  organisation: OrganisationView;
  project: DashboardProject;
  modules: DashboardModule[];
  /** Missing fields of the project and of every module (drafts included). */
  missing: Missing[];
  check: PublishCheck;
  /** `basic`, … or `<module slug>/<component>`. */
  current: string;
  done: string | null;
  /** Set when publishing was just refused. */
  refused?: PublishCheck;
  error?: string | null;
  /** The administrative districts (the basic settings' choice; empty elsewhere). */
  districts: { id: number; name: string }[];
}

function PublishBox({ page, data }: { page: PageContext; data: FrameData }) {
  const { lang } = page;
  const { organisation, project, check } = data;
  const action = projectActionPath(organisation.slug, project.slug, 'publish');
  const button = (value: string, label: string) => <PostButton page={page} action={action} fields={{ action: value }} label={t(lang, label)} />;
  return (
    <section class="publish-box" aria-labelledby="publish-heading">
      <h2 id="publish-heading" class="visually-hidden">
        {t(lang, 'Publication')}
      </h2>
      <p>
        <span class="badge">{project.isDraft ? t(lang, 'Draft') : t(lang, 'Published')}</span>
        {project.isArchived && <span class="badge">{t(lang, 'archived')}</span>}{' '}
        {project.isDraft && (check.ok ? t(lang, 'Ready for publication.') : t(lang, 'Not ready for publication.'))}
      </p>
      <div class="actions">
        {project.isDraft ? button('publish', 'Publish') : button('unpublish', 'Unpublish')}
        {!project.isDraft && (project.isArchived ? button('unarchive', 'Unarchive') : button('archive', 'Archive'))}
        <a class="btn btn-secondary" href={projectPath(organisation.slug, project.slug)}>
          {project.isDraft ? t(lang, 'Preview') : t(lang, 'View')}
        </a>
      </div>
      {!check.ok && !data.refused && (
        // Open while the project has no module: a new project's first step is named at once (issue 37).
        <details open={check.noModule}>
          <summary>{t(lang, 'What is missing for publication?')}</summary>
          {check.noModule && (
            <p>
              <a href={projectActionPath(organisation.slug, project.slug, 'blueprints')}>{t(lang, 'Add at least one module to the project.')}</a>
            </p>
          )}
          <MissingItems page={page} organisation={organisation} projectSlug={project.slug} missing={check.missing} />
        </details>
      )}
    </section>
  );
}

function Refusal({ page, data }: { page: PageContext; data: FrameData }) {
  const { lang } = page;
  const refused = data.refused;
  if (!refused || refused.ok) return null;
  return (
    <div class="alert alert-error" role="alert">
      <p>
        <strong>{t(lang, 'Project cannot be published.')}</strong>
      </p>
      {refused.noModule && <p>{t(lang, 'No module is added. Add a module and then "Add to project" in its menu.')}</p>}
      {refused.missing.length > 0 && (
        <>
          <p>{t(lang, 'Required fields are missing:')}</p>
          <MissingItems page={page} organisation={data.organisation} projectSlug={data.project.slug} missing={refused.missing} />
        </>
      )}
    </div>
  );
}

function ProjectMenu({ page, data }: { page: PageContext; data: FrameData }) {
  const { lang } = page;
  const { organisation, project, modules, missing, current } = data;
  const projectMissingIn = (component: string) => missing.some((m) => !m.module && m.component === component);
  const moduleMissingIn = (slug: string, component: string) => missing.some((m) => m.module?.slug === slug && m.component === component);
  return (
    <nav class="sidebar dashboard-menu" aria-label={t(lang, 'Project dashboard')}>
      <h2>{t(lang, 'Project')}</h2>
      <ul>
        {projectComponentsOf(project).map((c) => (
          <li>
            <a href={projectComponentPath(organisation.slug, project.slug, c.key)} aria-current={current === c.key ? 'page' : undefined}>
              {t(lang, c.label)}
            </a>
            {projectMissingIn(c.key) && <MissingMark lang={lang} />}
          </li>
        ))}
      </ul>
      <h2>{t(lang, 'Modules')}</h2>
      {modules.map((m) => (
        <div class="menu-module">
          <h3>
            {m.name || m.slug} <span class="badge">{m.isDraft ? t(lang, 'not added') : t(lang, 'added')}</span>
          </h3>
          <ul>
            {moduleComponents(m.blueprintType).map((c) => (
              <li>
                <a href={moduleComponentPath(organisation.slug, m.slug, c.key)} aria-current={current === `${m.slug}/${c.key}` ? 'page' : undefined}>
                  {labelIn(lang, c.label)}
                </a>
                {moduleMissingIn(m.slug, c.key) && <MissingMark lang={lang} />}
              </li>
            ))}
            {isExportOffered(project, m) && (
              <li>
                <a href={moduleExportPath(organisation.slug, m.slug)} aria-current={current === `${m.slug}/export` ? 'page' : undefined}>
                  {t(lang, 'Export')}
                </a>
              </li>
            )}
          </ul>
        </div>
      ))}
      <p>
        <a href={projectActionPath(organisation.slug, project.slug, 'blueprints')} aria-current={current === 'blueprints' ? 'page' : undefined}>
          {t(lang, 'Add module')}
        </a>
      </p>
    </nav>
  );
}

/** The project dashboard: breadcrumbs, the left menu, the publication box, a message, the component's form. */
export function ProjectFrame({ page, data, title, children }: { page: PageContext; data: FrameData; title: string; children: ComponentChildren }) {
  const { lang } = page;
  const { organisation, project } = data;
  return (
    <Layout page={page} title={`${title} — ${project.name}`} scripts={RICH_TEXT_SCRIPTS}>
      <nav aria-label={t(lang, 'Breadcrumbs')}>
        <ol class="breadcrumbs">
          <li>
            <a href={projectListPath(organisation.slug)}>{t(lang, 'Projects of %(organisation)s', { organisation: organisation.name })}</a>
          </li>
          <li aria-current="page">{project.name}</li>
        </ol>
      </nav>
      <div class="dashboard">
        <ProjectMenu page={page} data={data} />
        <div>
          <PublishBox page={page} data={data} />
          <Refusal page={page} data={data} />
          {data.done && <Notice>{t(lang, data.done)}</Notice>}
          {data.error && <FormErrors errors={[t(lang, data.error)]} />}
          <h1>{title}</h1>
          {children}
        </div>
      </div>
    </Layout>
  );
}

/** A form of the frame: CSRF, the fields, a save button. */
export function DashboardForm({ page, action, children, button = 'Save', multipart = false }: { page: PageContext; action: string; children: ComponentChildren; button?: string; multipart?: boolean }) {
  return (
    <form method="post" action={action} class="dashboard-form" noValidate enctype={multipart ? 'multipart/form-data' : undefined}>
      <CsrfField page={page} />
      {children}
      <button type="submit">{t(page.lang, button)}</button>
    </form>
  );
}

interface ListData {
  organisation: OrganisationView;
  projects: { id: number; slug: string; name: string; description: string; access: string; isDraft: boolean; isArchived: boolean; tileImage: string | null }[];
  search: string;
  archived: ArchivedFilter;
  pager: PageLinks;
  count: number;
  done: string | null;
}

/** §B4: the organisation's projects with search, archived filter, pages, and each project's actions. */
/** The organisation's dashboard sections: its projects, settings, legal information and newsletters (§B2). */
export function OrganisationTabs({ page, organisation, current }: { page: PageContext; organisation: string; current: 'projects' | 'settings' | 'legal' | 'newsletters' }) {
  const tabs = [
    ['projects', projectListPath(organisation), 'Projects'],
    ['settings', organisationSettingsPath(organisation), 'Organisation settings'],
    ['legal', legalSettingsPath(organisation), 'Legal information'],
    ['newsletters', newsletterListPath(organisation), 'Newsletter'],
  ] as const;
  return (
    <nav aria-label={t(page.lang, 'Organisation')}>
      <ul class="tabs">
        {tabs.map(([key, href, label]) => (
          <li>
            <a href={href} aria-current={key === current ? 'page' : undefined}>
              {t(page.lang, label)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}

/** The empty dashboard's next step (the last of the first-run setup, issue 37). */
function FirstProject({ page, organisation }: { page: PageContext; organisation: string }) {
  const { lang } = page;
  return (
    <section class="first-steps" aria-labelledby="first-project">
      <h2 id="first-project">{t(lang, 'Create your first project')}</h2>
      <p>{t(lang, 'A project holds the modules in which people take part (ideas, polls, texts, …) and their phases. It stays a draft, visible only to you, until you publish it.')}</p>
      <a class="btn" href={projectCreatePath(organisation)}>
        {t(lang, 'Create your first project')}
      </a>
    </section>
  );
}

export function ProjectListPage({ page, data }: { page: PageContext; data: ListData }) {
  const { lang } = page;
  const { organisation } = data;
  return (
    <Layout page={page} title={t(lang, 'Projects of %(organisation)s', { organisation: organisation.name })}>
      <div class="section-head">
        <h1>{t(lang, 'Projects of %(organisation)s', { organisation: organisation.name })}</h1>
        <a class="btn" href={projectCreatePath(organisation.slug)}>
          {t(lang, 'New project')}
        </a>
      </div>
      <OrganisationTabs page={page} organisation={organisation.slug} current="projects" />
      {data.done && <Notice>{t(lang, data.done)}</Notice>}
      <form method="get" action={projectListPath(organisation.slug)} class="filter-form" role="search">
        <Input name="search" type="search" label={t(lang, 'Search')} value={data.search} maxLength={200} />
        <div class="field">
          <label for="id_is_archived">{t(lang, 'Archived')}</label>
          <select id="id_is_archived" name="is_archived">
            {(['all', 'no', 'yes'] as const).map((v) => (
              <option value={v} selected={data.archived === v}>
                {t(lang, v === 'all' ? 'All' : v === 'no' ? 'No' : 'Yes')}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">{t(lang, 'Filter')}</button>
      </form>
      <p>{tn(lang, '%(count)s project', '%(count)s projects', data.count)}</p>
      {data.count === 0 && !data.search && data.archived !== 'yes' && <FirstProject page={page} organisation={organisation.slug} />}
      <ul class="dashboard-projects">
        {data.projects.map((p) => (
          <li class="dashboard-project">
            {p.tileImage && <img src={`/media/${p.tileImage}`} alt="" width={120} height={72} />}
            <div>
              <h2>
                <a href={projectComponentPath(organisation.slug, p.slug, 'basic')}>{p.name}</a>
              </h2>
              <p>
                {p.isDraft && <span class="badge">{t(lang, 'Draft')}</span>} {p.isArchived && <span class="badge">{t(lang, 'archived')}</span>}{' '}
                {p.access === 'PRIVATE' && <span class="badge">{t(lang, 'private')}</span>}
                {p.access === 'SEMIPUBLIC' && <span class="badge">{t(lang, 'semi-public')}</span>}
              </p>
              <p>{p.description}</p>
            </div>
            <div class="actions">
              <a class="btn btn-secondary" href={projectComponentPath(organisation.slug, p.slug, 'basic')} aria-label={`${t(lang, 'Edit')}: ${p.name}`}>
                {t(lang, 'Edit')}
              </a>
              <a class="btn btn-secondary" href={projectPath(organisation.slug, p.slug)} aria-label={`${p.isDraft ? t(lang, 'Preview') : t(lang, 'View')}: ${p.name}`}>
                {p.isDraft ? t(lang, 'Preview') : t(lang, 'View')}
              </a>
              <PostButton page={page} action={projectActionPath(organisation.slug, p.slug, 'duplicate')} label={t(lang, 'Duplicate')} aria={`${t(lang, 'Duplicate')}: ${p.name}`} />
              <a class="btn btn-secondary" href={projectActionPath(organisation.slug, p.slug, 'delete')} aria-label={`${t(lang, 'Delete')}: ${p.name}`}>
                {t(lang, 'Delete')}
              </a>
            </div>
          </li>
        ))}
      </ul>
      {!data.projects.length && <p>{t(lang, 'No projects found.')}</p>}
      <Pager lang={lang} pager={data.pager} />
    </Layout>
  );
}

/** §B5: name, short description, access; "Create draft". */
export function ProjectCreatePage({ page, organisation, values, errors }: { page: PageContext; organisation: OrganisationView; values: Record<string, string>; errors: FieldErrors }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'New project')}>
      <nav aria-label={t(lang, 'Breadcrumbs')}>
        <ol class="breadcrumbs">
          <li>
            <a href={projectListPath(organisation.slug)}>{t(lang, 'Projects of %(organisation)s', { organisation: organisation.name })}</a>
          </li>
          <li aria-current="page">{t(lang, 'New project')}</li>
        </ol>
      </nav>
      <div class="narrow">
        <h1>{t(lang, 'New project')}</h1>
        <FormErrors errors={errors.non_field_errors} />
        <form method="post" action={projectCreatePath(organisation.slug)} noValidate>
          <CsrfField page={page} />
          <BasicFields page={page} values={values} errors={errors} />
          <p class="help">{t(lang, 'The project is created as a draft. You can add details and modules and publish it later.')}</p>
          <button type="submit">{t(lang, 'Create draft')}</button>
        </form>
      </div>
    </Layout>
  );
}

export function BasicFields({ page, values, errors }: { page: PageContext; values: Record<string, string>; errors: FieldErrors }) {
  const { lang } = page;
  return (
    <>
      <Input name="name" label={t(lang, 'Title of your project')} value={values.name} maxLength={PROJECT_FIELDS.name.max} required errors={errors.name} help={t(lang, 'At most %(max)s characters.', { max: PROJECT_FIELDS.name.max })} />
      <TextArea name="description" label={t(lang, 'Short description of your project')} value={values.description} maxLength={PROJECT_FIELDS.description.max} required rows={3} errors={errors.description} help={t(lang, 'At most %(max)s characters; shown on the project tile.', { max: PROJECT_FIELDS.description.max })} />
      <Radios name="access" label={t(lang, 'Access to the project')} value={values.access || 'PUBLIC'} choices={accessChoices(lang)} errors={errors.access} />
    </>
  );
}

/** Asks before deleting a project (§B4, §B15.8). */
export function DeleteProjectPage({ page, organisation, project }: { page: PageContext; organisation: OrganisationView; project: { slug: string; name: string } }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Delete project')}>
      <div class="narrow">
        <h1>{t(lang, 'Delete project')}</h1>
        <p>{t(lang, 'Do you really want to delete the project "%(project)s" with all its modules, ideas and comments? This cannot be undone.', { project: project.name })}</p>
        <form method="post" action={projectActionPath(organisation.slug, project.slug, 'delete')}>
          <CsrfField page={page} />
          <button type="submit">{t(lang, 'Delete')}</button> <a href={projectListPath(organisation.slug)}>{t(lang, 'Cancel')}</a>
        </form>
      </div>
    </Layout>
  );
}

/** Asks before a running project is unpublished: its participants lose it until it is published again. */
export function UnpublishConfirmPage({ page, project }: { page: PageContext; project: DashboardProject }) {
  const { lang } = page;
  const back = projectComponentPath(project.organisationSlug, project.slug, 'basic');
  return (
    <Layout page={page} title={t(lang, 'Unpublish the running project?')}>
      <div class="narrow">
        <h1>{t(lang, 'Unpublish the running project?')}</h1>
        <p>{t(lang, 'Participation in "%(project)s" is running. Unpublished, the project is a draft again: participants can no longer see it or take part until it is published again.', { project: project.name })}</p>
        <div class="actions">
          <PostButton page={page} action={projectActionPath(project.organisationSlug, project.slug, 'publish')} fields={{ action: 'unpublish', confirmed: 'yes' }} label={t(lang, 'Unpublish')} aria={`${t(lang, 'Unpublish')}: ${project.name}`} />{' '}
          <a href={back}>{t(lang, 'Cancel')}</a>
        </div>
      </div>
    </Layout>
  );
}
