import type { ComponentChildren } from 'preact';
import { t } from '../../i18n/index.js';
import type { PageContext } from '../../web/context.js';
import { DataTable, PostButton } from '../../web/components.js';
import { CsrfField, FormErrors, Layout, Notice } from '../../web/layout.js';
import { Checkbox, Input } from '../../web/controls.js';
import { projectComponentPath, projectListPath } from '../../web/paths.js';
import { ORGANISATION_NAME_MAX_LENGTH } from '../../core/organisations/rules.js';
import { projectPath } from '../../core/urls.js';
import { accountCare, USER_SEARCH_MAX_LENGTH, userCarePath } from './rules.js';
import type { listOrganisations, listProjects, organisationPeople, searchUsers } from './services.js';

type Rows<F extends (...args: never[]) => Promise<unknown[]>> = Awaited<ReturnType<F>>;

export function Frame({ page, title, current, notice, children }: { page: PageContext; title: string; current: string; notice?: string | null; children: ComponentChildren }) {
  const { lang } = page;
  const tab = (href: string, key: string, label: string) => (
    <li>
      <a href={href} aria-current={current === key ? 'page' : undefined}>
        {t(lang, label)}
      </a>
    </li>
  );
  return (
    <Layout page={page} title={`${title} — ${t(lang, 'Back-office')}`}>
      <nav aria-label={t(lang, 'Back-office')}>
        <ul class="tabs">
          {tab('/backoffice/organisations/', 'organisations', 'Organisations')}
          {tab('/backoffice/users/', 'users', 'Users')}
          {tab('/backoffice/projects/', 'projects', 'Projects')}
          {tab('/backoffice/reports/', 'reports', 'Reported content')}
          {tab('/backoffice/pages/', 'pages', 'Legal pages')}
          {tab('/backoffice/content/', 'content', 'Content pages')}
          {tab('/backoffice/maps/', 'maps', 'Maps')}
          {tab('/backoffice/mails/', 'mails', 'E-mails')}
        </ul>
      </nav>
      {notice && <Notice>{t(lang, notice)}</Notice>}
      <h1>{title}</h1>
      {children}
    </Layout>
  );
}

export function OrganisationsPage({ page, organisations, name, error, notice }: { page: PageContext; organisations: Rows<typeof listOrganisations>; name: string; error?: string; notice: string | null }) {
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, 'Organisations')} current="organisations" notice={notice}>
      <DataTable headers={[t(lang, 'Name'), t(lang, 'Initiators'), t(lang, 'Geolocation for the app')]}>
        {organisations.map((o) => (
          <tr>
            <td>
              <a href={`/backoffice/organisations/${o.slug}/`}>{o.name}</a> (<a href={`/${o.slug}/`}>/{o.slug}/</a>)
            </td>
            <td>{o.initiators}</td>
            <td>{o.enableGeolocation ? t(lang, 'Yes') : t(lang, 'No')}</td>
          </tr>
        ))}
      </DataTable>
      <h2>{t(lang, 'New organisation')}</h2>
      <form method="post" action="/backoffice/organisations/" noValidate>
        <CsrfField page={page} />
        <Input name="name" label={t(lang, 'Name')} value={name} maxLength={ORGANISATION_NAME_MAX_LENGTH} required errors={error ? [error] : undefined} />
        <button type="submit">{t(lang, 'Create organisation')}</button>
      </form>
    </Frame>
  );
}

interface OrganisationData {
  organisation: { id: number; slug: string; name: string; enableGeolocation: boolean; isSupporting: boolean; language: string };
  initiators: Rows<typeof organisationPeople>;
  members: Rows<typeof organisationPeople>;
  values: Record<string, string>;
  errors: Record<string, string[]>;
  notice: string | null;
}

export function OrganisationPage({ page, data }: { page: PageContext; data: OrganisationData }) {
  const { lang } = page;
  const { organisation, values, errors } = data;
  const action = `/backoffice/organisations/${organisation.slug}/`;
  const people = (role: 'initiator' | 'member', list: OrganisationData['initiators']) => (
    <>
      <ul>
        {list.map((u) => (
          <li>
            {u.username} ({u.email}){u.memberNumber && `, ${t(lang, 'member number %(number)s', { number: u.memberNumber })}`}
            {Object.entries(u.additionalInfo).map(([label, value]) => `, ${label}: ${value}`)} <PostButton page={page} action={action} fields={{ action: `remove_${role}`, user_id: String(u.id) }} label={t(lang, 'Remove')} aria={`${t(lang, 'Remove')}: ${u.username}`} />
          </li>
        ))}
      </ul>
      <form method="post" action={action} noValidate>
        <CsrfField page={page} />
        <input type="hidden" name="action" value={`add_${role}`} />
        <Input name={`${role}_name`} label={t(lang, 'Username or e-mail address')} value={values[`${role}_name`]} errors={errors[`${role}_name`]} />
        <button type="submit">{t(lang, role === 'initiator' ? 'Appoint initiator' : 'Add member')}</button>
      </form>
    </>
  );
  return (
    <Frame page={page} title={organisation.name} current="organisations" notice={data.notice}>
      <p>
        <a href={projectListPath(organisation.slug)}>{t(lang, 'Projects of %(organisation)s', { organisation: organisation.name })}</a>
      </p>
      <FormErrors errors={errors.non_field_errors} />
      <form method="post" action={action} noValidate>
        <CsrfField page={page} />
        <input type="hidden" name="action" value="settings" />
        <Input name="name" label={t(lang, 'Name')} value={values.name ?? organisation.name} maxLength={ORGANISATION_NAME_MAX_LENGTH} required errors={errors.name} />
        <div class="field">
          <label for="id_language">{t(lang, 'Language of e-mails to people without an account')}</label>
          <select id="id_language" name="language">
            {['de', 'en'].map((l) => (
              <option value={l} selected={(values.language ?? organisation.language) === l}>
                {l === 'de' ? 'Deutsch' : 'English'}
              </option>
            ))}
          </select>
        </div>
        <Checkbox name="enable_geolocation" label={t(lang, 'Show the projects in the app (geolocation)')} checked={values.name === undefined ? organisation.enableGeolocation : values.enable_geolocation === 'on'} />
        <Checkbox
          name="is_supporting"
          label={t(lang, 'A supporting organisation (it supports the platform; marked on its page)')}
          checked={values.name === undefined ? organisation.isSupporting : values.is_supporting === 'on'}
        />
        <button type="submit">{t(lang, 'Save')}</button>
      </form>
      <h2>{t(lang, 'Initiators')}</h2>
      {people('initiator', data.initiators)}
      <h2>{t(lang, 'Members')}</h2>
      {people('member', data.members)}
    </Frame>
  );
}

export function UsersPage({ page, users, search, notice }: { page: PageContext; users: Rows<typeof searchUsers>; search: string; notice: string | null }) {
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, 'Users')} current="users" notice={notice}>
      <form method="get" action="/backoffice/users/" role="search" class="filter-form">
        <Input name="search" type="search" label={t(lang, 'Search')} value={search} maxLength={USER_SEARCH_MAX_LENGTH} />
        <button type="submit">{t(lang, 'Search')}</button>
      </form>
      <DataTable headers={[t(lang, 'Username'), t(lang, 'E-mail address'), t(lang, 'Status'), t(lang, 'Action')]}>
        {users.map((u) => {
          const care = accountCare(page.user?.id ?? 0, u, 0);
          return (
          <tr>
            <td>
              <a href={userCarePath(u.id)}>{u.username}</a>
            </td>
            <td>{u.email}</td>
            <td>
              {u.isActive ? t(lang, 'active') : t(lang, 'deactivated')}
              {u.isStaff && `, ${t(lang, 'staff')}`}
              {u.isSuperuser && `, ${t(lang, 'superuser')}`}
            </td>
            <td class="actions">
              {(care.deactivate || care.activate) && <PostButton page={page} action="/backoffice/users/" fields={{ action: u.isActive ? 'deactivate' : 'activate', user_id: String(u.id) }} label={t(lang, u.isActive ? 'Deactivate' : 'Activate')} aria={`${t(lang, u.isActive ? 'Deactivate' : 'Activate')}: ${u.username}`} />}
              {care.staff && <PostButton page={page} action="/backoffice/users/" fields={{ action: u.isStaff ? 'unstaff' : 'staff', user_id: String(u.id) }} label={t(lang, u.isStaff ? 'Remove staff status' : 'Make staff')} aria={`${t(lang, u.isStaff ? 'Remove staff status' : 'Make staff')}: ${u.username}`} />}
            </td>
          </tr>
          );
        })}
      </DataTable>
    </Frame>
  );
}

export function ProjectsPage({ page, projects, notice }: { page: PageContext; projects: Rows<typeof listProjects>; notice: string | null }) {
  const { lang } = page;
  return (
    <Frame page={page} title={t(lang, 'Projects')} current="projects" notice={notice}>
      <DataTable headers={[t(lang, 'Project'), t(lang, 'Organisation'), t(lang, 'Status'), t(lang, 'Action')]}>
        {projects.map((p) => (
          <tr>
            <td>
              <a href={projectPath(p.organisationSlug, p.slug)}>{p.name}</a> (
              <a href={projectComponentPath(p.organisationSlug, p.slug, 'basic')} aria-label={t(lang, 'Edit %(project)s in the dashboard', { project: p.name })}>
                {t(lang, 'Dashboard')}
              </a>
              )
            </td>
            <td>{p.organisationName}</td>
            <td>
              {p.isDraft ? t(lang, 'Draft') : t(lang, 'Published')}
              {p.isArchived && `, ${t(lang, 'archived')}`}
            </td>
            <td>
              <PostButton page={page} action="/backoffice/projects/" fields={{ action: p.isArchived ? 'unarchive' : 'archive', project_id: String(p.id) }} label={t(lang, p.isArchived ? 'Unarchive' : 'Archive')} aria={`${t(lang, p.isArchived ? 'Unarchive' : 'Archive')}: ${p.name}`} />
            </td>
          </tr>
        ))}
      </DataTable>
    </Frame>
  );
}
