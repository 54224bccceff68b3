import type { ComponentChildren } from 'preact';
import type { FieldErrors } from '../../http/errors.js';
import { formatDate } from '../../i18n/dates.js';
import { euros, type Lang, t, tn } from '../../i18n/index.js';
import type { PageLinks } from '../../http/pagination.js';
import { Pager } from '../../web/pager.js';
import { Breadcrumbs, DataTable, PostButton, RichText } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { Input, Select, TextArea } from '../../web/controls.js';
import { CsrfField, FormErrors, Layout } from '../../web/layout.js';
import { projectPath } from '../../core/urls.js';
import { type EntryRow, type FoundResult, type LinkedContribution, manageResultsPath, organisationResultsPath, type ResultOfItem, type ResultRow, resultPath, type StatusRow, statusesPath } from './queries.js';
import { type EntryForm, RESULT_LIMITS, type ResultForm, type StatusForm } from './rules.js';
import type { ResultChange } from './schema.js';
import type { CheckedRow } from './import.js';

/** The map script of the platform (Leaflet, drawn from the element's data; /maps/config/ gives the tiles). */
export const RESULT_MAP_SCRIPT = '/static/maps.js';

/** A sum of money, or a dash where none is set. */
const money = (lang: Lang, amount: number | null) => (amount === null ? '—' : euros(lang, amount));
const day = (lang: Lang, value: string | null) => (value ? formatDate(new Date(`${value}T12:00:00Z`), lang, 'UTC') : '');

/** A status's name as shown: the default names are catalogue keys. */
export const statusName = (lang: Lang, name: string | null) => (name ? t(lang, name) : t(lang, 'no status'));

/** A progress bar with its number. */
function ProgressBar({ lang, value, label }: { lang: Lang; value: number; label?: string }) {
  return (
    <span class="result-progress">
      <progress class="progress" max={100} value={value} aria-label={label ?? t(lang, 'Progress')}>{`${value} %`}</progress> <span>{`${value} %`}</span>
    </span>
  );
}

/** A map of results with a place, each marker linked to the result's page. */
function ResultMap({ lang, markers, input }: { lang: Lang; markers: { lat: number; lng: number; name: string; url: string }[]; input?: boolean }) {
  if (!markers.length && !input) return null;
  const spec = { area: null, markers, ...(input ? { input: { lat: 'id_lat', lng: 'id_lng' } } : {}) };
  return (
    <div class="map" role="region" aria-label={t(lang, 'Map of the results')} data-map={JSON.stringify(spec)} data-search-label={t(lang, 'Search an address')} data-search-button={t(lang, 'Find')}>
      <noscript>{t(lang, 'The map needs JavaScript; the list and the fields work without it.')}</noscript>
    </div>
  );
}

export interface ResultFilter {
  status?: string;
  category?: string;
  district?: string;
}

/** Whether a result matches the list's filter. */
const matchesFilter = (row: ResultRow, filter: ResultFilter) =>
  (!filter.status || String(row.statusId ?? '') === filter.status) && (!filter.category || row.category === filter.category) && (!filter.district || row.district === filter.district);

const distinct = (values: string[]) => [...new Set(values.filter(Boolean))].sort((a, b) => a.localeCompare(b));

/** The filter form (GET): status, category, district from what the results use. */
function FilterForm({ lang, action, rows, filter, hidden }: { lang: Lang; action: string; rows: ResultRow[]; filter: ResultFilter; hidden: Record<string, string> }) {
  const statuses = new Map(rows.filter((r) => r.statusId !== null).map((r) => [String(r.statusId), statusName(lang, r.statusName)]));
  const choice = (name: keyof ResultFilter, label: string, options: [string, string][]) => (
    <Select name={name} label={label} value={filter[name] ?? ''} choices={[{ value: '', label: t(lang, 'All') }, ...options.map(([value, text]) => ({ value, label: text }))]} />
  );
  return (
    <form method="get" action={action} class="result-filter">
      {Object.entries(hidden).map(([name, value]) => (
        <input type="hidden" name={name} value={value} />
      ))}
      {choice('status', t(lang, 'Status'), [...statuses])}
      {choice('category', t(lang, 'Category'), distinct(rows.map((r) => r.category)).map((c) => [c, c]))}
      {choice('district', t(lang, 'District'), distinct(rows.map((r) => r.district)).map((d) => [d, d]))}
      <button type="submit">{t(lang, 'Filter')}</button>
    </form>
  );
}

/** One result in a list: title, status, progress, category, district, budget. */
function ResultItem({ lang, orgSlug, row }: { lang: Lang; orgSlug: string; row: ResultRow }) {
  return (
    <li class="result-item">
      <h3>
        <a href={resultPath(orgSlug, row.id)}>{row.title}</a>
      </h3>
      <p>
        <span class="badge">{statusName(lang, row.statusName)}</span> <ProgressBar lang={lang} value={row.effective} label={`${t(lang, 'Progress')}: ${row.title}`} />
      </p>
      <p class="meta">{[row.category, row.district, row.budgetPlanned !== null ? `${t(lang, 'Budget')}: ${money(lang, row.budgetPlanned)}` : ''].filter(Boolean).join(' · ')}</p>
    </li>
  );
}

/** The project's Results tab: overall progress, the filter, the map, the list (sub-results under their parent). */
export function ProjectResults({ lang, orgSlug, action, rows, overall, filter, manage }: { lang: Lang; orgSlug: string; action: string; rows: ResultRow[]; overall: number | null; filter: ResultFilter; manage: string | null }) {
  const shown = rows.filter((row) => matchesFilter(row, filter));
  const filtered = Boolean(filter.status || filter.category || filter.district);
  const top = filtered ? shown : shown.filter((r) => r.parentId === null);
  const markers = shown.flatMap((r) => (r.lat !== null && r.lng !== null ? [{ lat: r.lat, lng: r.lng, name: r.title, url: resultPath(orgSlug, r.id) }] : []));
  return (
    <section aria-labelledby="results-heading" class="results">
      <h3 id="results-heading">{t(lang, 'What became of it')}</h3>
      {manage && (
        <p>
          <a href={manage}>{t(lang, 'Manage results')}</a>
        </p>
      )}
      {overall === null ? (
        <p>{t(lang, 'No results yet.')}</p>
      ) : (
        <>
          <p>
            {t(lang, 'Overall progress')}: <ProgressBar lang={lang} value={overall} label={t(lang, 'Overall progress')} />
          </p>
          <FilterForm lang={lang} action={action} rows={rows} filter={filter} hidden={{ tab: 'result' }} />
          <ResultMap lang={lang} markers={markers} />
          {top.length ? (
            <ul class="result-list">
              {top.map((row) => (
                <>
                  <ResultItem lang={lang} orgSlug={orgSlug} row={row} />
                  {!filtered && rows.some((r) => r.parentId === row.id) && (
                    <li class="result-children">
                      <ul class="result-list">
                        {rows
                          .filter((r) => r.parentId === row.id)
                          .map((child) => (
                            <ResultItem lang={lang} orgSlug={orgSlug} row={child} />
                          ))}
                      </ul>
                    </li>
                  )}
                </>
              ))}
            </ul>
          ) : (
            <p>{t(lang, 'No result matches the filter.')}</p>
          )}
        </>
      )}
    </section>
  );
}

const CHANGE_LABELS: Record<ResultChange['field'], string> = { status: 'Status', progress: 'Progress', budget_planned: 'Budget planned', budget_spent: 'Budget spent' };

function changeValue(lang: Lang, change: ResultChange, value: string | null) {
  if (value === null) return '—';
  if (change.field === 'status') return statusName(lang, value);
  if (change.field === 'progress') return `${value} %`;
  return money(lang, Number(value));
}

/** The timeline: dated entries, their text and what changed (old → new). */
function Timeline({ lang, entries }: { lang: Lang; entries: EntryRow[] }) {
  if (!entries.length) return <p>{t(lang, 'No entries yet.')}</p>;
  return (
    <ol class="result-timeline">
      {entries.map((entry) => (
        <li>
          <p class="meta">
            <time datetime={entry.date}>{day(lang, entry.date)}</time>
            {entry.authorName ? ` · ${entry.authorName}` : ''}
          </p>
          {entry.text && <p class="pre-line">{entry.text}</p>}
          {entry.image && <img class="result-entry-image" src={`/media/${entry.image}`} alt={t(lang, 'Image of the entry of %(date)s', { date: day(lang, entry.date) })} />}
          {entry.changes.length > 0 && (
            <ul class="result-changes">
              {entry.changes.map((change) => (
                <li>
                  {t(lang, CHANGE_LABELS[change.field])}: {changeValue(lang, change, change.from)} → {changeValue(lang, change, change.to)}
                </li>
              ))}
            </ul>
          )}
        </li>
      ))}
    </ol>
  );
}

/** The timeline entry's form (editors only): the date, the text, a new status or progress. */
function EntryFormView({ page, action, statuses, values, errors }: { page: PageContext; action: string; statuses: StatusRow[]; values: EntryForm; errors: FieldErrors }) {
  const { lang } = page;
  return (
    <form method="post" action={action} class="dashboard-form" noValidate enctype="multipart/form-data">
      <h3>{t(lang, 'Add a timeline entry')}</h3>
      <CsrfField page={page} />
      <FormErrors errors={errors.non_field_errors} />
      <Input name="date" label={t(lang, 'Date (YYYY-MM-DD)')} value={values.date} required errors={errors.date} />
      <TextArea name="text" label={t(lang, 'What happened')} value={values.text} rows={4} maxLength={RESULT_LIMITS.text.maxChars} errors={errors.text} />
      <Select name="status" label={t(lang, 'New status')} value={values.status} errors={errors.status} choices={[{ value: '', label: t(lang, 'unchanged') }, ...statuses.map((s) => ({ value: String(s.id), label: `${statusName(lang, s.name)} (${s.progress} %)` }))]} />
      <Input name="progress" type="number" label={t(lang, 'New progress (%)')} value={values.progress} errors={errors.progress} help={t(lang, 'Empty: with a new status, the mean of its parts or the status’s default progress; else unchanged.')} />
      <Input name="image" type="file" label={t(lang, 'Image (optional)')} accept="image/png,image/jpeg,image/gif" errors={errors.image} />
      <button type="submit">{t(lang, 'Add entry')}</button>
    </form>
  );
}

export interface ResultPageData {
  orgSlug: string;
  result: FoundResult & { effective: number };
  entries: EntryRow[];
  links: LinkedContribution[];
  children: ResultRow[];
  /** For editors: the entry form and the edit link. */
  edit: { statuses: StatusRow[]; values: EntryForm; errors: FieldErrors } | null;
  /** The result's discussion (the comment thread of every item). */
  thread: ComponentChildren;
}

/** A result's page: its facts, progress, place, description, timeline, linked contributions and sub-results. */
export function ResultPage({ page, data }: { page: PageContext; data: ResultPageData }) {
  const { lang } = page;
  const { result, orgSlug } = data;
  const place = result.lat !== null && result.lng !== null ? [{ lat: result.lat, lng: result.lng, name: result.title, url: resultPath(orgSlug, result.id) }] : [];
  return (
    <Layout page={page} title={`${result.title} — ${result.projectName}`} scripts={place.length ? [RESULT_MAP_SCRIPT] : []}>
      <Breadcrumbs
        lang={lang}
        items={[
          { href: `/${orgSlug}/`, label: result.organisationName },
          { href: projectPath(orgSlug, result.projectSlug), label: result.projectName },
          { href: `${projectPath(orgSlug, result.projectSlug)}?tab=result`, label: t(lang, 'Results') },
        ]}
      />
      <article class="result" aria-labelledby="result-heading">
        <h1 id="result-heading">{result.title}</h1>
        <p>
          <span class="badge">{statusName(lang, result.statusName)}</span> <ProgressBar lang={lang} value={result.effective} />
        </p>
        <dl class="result-facts">
          {result.category && (
            <>
              <dt>{t(lang, 'Category')}</dt>
              <dd>{result.category}</dd>
            </>
          )}
          {result.district && (
            <>
              <dt>{t(lang, 'District')}</dt>
              <dd>{result.district}</dd>
            </>
          )}
          {(result.startDate || result.endDate) && (
            <>
              <dt>{t(lang, 'Period')}</dt>
              <dd>
                {day(lang, result.startDate)} – {day(lang, result.endDate)}
              </dd>
            </>
          )}
          <dt>{t(lang, 'Budget planned')}</dt>
          <dd>{money(lang, result.budgetPlanned)}</dd>
          <dt>{t(lang, 'Budget spent')}</dt>
          <dd>{money(lang, result.budgetSpent)}</dd>
        </dl>
        {result.description && <RichText html={result.description} />}
        <ResultMap lang={lang} markers={place} />
        {data.children.length > 0 && (
          <section aria-labelledby="children-heading">
            <h2 id="children-heading">{t(lang, 'Parts of this result')}</h2>
            <ul class="result-list">
              {data.children.map((child) => (
                <ResultItem lang={lang} orgSlug={orgSlug} row={child} />
              ))}
            </ul>
          </section>
        )}
        <section aria-labelledby="links-heading">
          <h2 id="links-heading">{t(lang, 'The contributions it answers')}</h2>
          {data.links.length ? (
            <ul>
              {data.links.map((link) => (
                <li>
                  <a href={link.path}>{link.name}</a>
                </li>
              ))}
            </ul>
          ) : (
            <p>{t(lang, 'No contributions linked.')}</p>
          )}
        </section>
        <section aria-labelledby="timeline-heading">
          <h2 id="timeline-heading">{t(lang, 'Timeline')}</h2>
          <Timeline lang={lang} entries={data.entries} />
          {data.edit && <EntryFormView page={page} action={`${resultPath(orgSlug, result.id)}entries/`} statuses={data.edit.statuses} values={data.edit.values} errors={data.edit.errors} />}
        </section>
      </article>
      {data.thread}
      {data.edit && (
        <p>
          <a href={`${resultPath(orgSlug, result.id)}update/`}>{t(lang, 'Edit result')}</a> · <a href={manageResultsPath(orgSlug, result.projectSlug)}>{t(lang, 'Manage results')}</a>
        </p>
      )}
    </Layout>
  );
}

/**
 * "This became part of": on a contribution's page, each result that answers it. `part`: the part of
 * the page's item it stands beside (a poll's question), named to assistive technology.
 */
export function BecamePartOf({ lang, results, part }: { lang: Lang; results: ResultOfItem[]; part?: string }) {
  if (!results.length) return null;
  return (
    <aside class="became-part-of" aria-label={part ? `${t(lang, 'What became of it')}: ${part}` : t(lang, 'What became of it')}>
      {results.map((result) => (
        <p>
          {t(lang, 'This became part of:')} <a href={result.path}>{result.title}</a> — {statusName(lang, result.statusName)}, {`${result.progress} %`}
        </p>
      ))}
    </aside>
  );
}

/** The organisation's overview: every project's results with their progress. */
export function OrganisationResultsPage({ page, organisation, projects }: { page: PageContext; organisation: { slug: string; name: string }; projects: { slug: string; name: string; overall: number | null; rows: ResultRow[] }[] }) {
  const { lang } = page;
  return (
    <Layout page={page} title={`${t(lang, 'Results')} — ${organisation.name}`}>
      <Breadcrumbs lang={lang} items={[{ href: `/${organisation.slug}/`, label: organisation.name }]} />
      <h1>{t(lang, 'What became of it: the results of %(organisation)s', { organisation: organisation.name })}</h1>
      {projects.length === 0 && <p>{t(lang, 'No results yet.')}</p>}
      {projects.map((project) => (
        <section aria-labelledby={`project-${project.slug}`}>
          <h2 id={`project-${project.slug}`}>
            <a href={`${projectPath(organisation.slug, project.slug)}?tab=result`}>{project.name}</a>
          </h2>
          {project.overall !== null && <ProgressBar lang={lang} value={project.overall} label={`${t(lang, 'Overall progress')}: ${project.name}`} />}
          <ul class="result-list">
            {project.rows.map((row) => (
              <ResultItem lang={lang} orgSlug={organisation.slug} row={row} />
            ))}
          </ul>
        </section>
      ))}
    </Layout>
  );
}

interface ManageData {
  orgSlug: string;
  project: { slug: string; name: string };
  rows: ResultRow[];
  winners: { id: number; name: string; winners: { name: string }[] }[];
  done: string | null;
}

/** The results dashboard of a project: the list, add, the winners of each vote, the statuses, import and export. */
export function ManageResultsPage({ page, data }: { page: PageContext; data: ManageData }) {
  const { lang } = page;
  const base = manageResultsPath(data.orgSlug, data.project.slug);
  return (
    <Layout page={page} title={`${t(lang, 'Results')} — ${data.project.name}`}>
      <Breadcrumbs lang={lang} items={[{ href: projectPath(data.orgSlug, data.project.slug), label: data.project.name }]} />
      <h1>{t(lang, 'Results')}</h1>
      {data.done && (
        <p class="alert alert-success" role="status">
          {t(lang, data.done)}
        </p>
      )}
      <p class="help">{t(lang, 'Results show what became of the contributions: their status, progress, budget and a timeline that citizens can follow.')}</p>
      <p>
        <a class="btn" href={`${base}create/`}>
          {t(lang, 'Add result')}
        </a>{' '}
        <a href={statusesPath(data.orgSlug)}>{t(lang, 'Statuses of the organisation')}</a> · <a href={`${base}import/`}>{t(lang, 'Import results')}</a> · <a href={`${base}export.xlsx`}>{t(lang, 'Results as a spreadsheet (xlsx)')}</a> · <a href={`${base}export.csv`}>{t(lang, 'Results as CSV')}</a>
      </p>
      {data.winners.map((module) => (
        <section aria-labelledby={`winners-${module.id}`} class="winners">
          <h2 id={`winners-${module.id}`}>{t(lang, 'Winners of "%(module)s"', { module: module.name })}</h2>
          <p>{module.winners.map((w) => w.name).join(', ')}</p>
          <PostButton page={page} action={`${base}winners/`} fields={{ module: String(module.id) }} label={t(lang, 'Make the winners results')} aria={`${t(lang, 'Make the winners results')}: ${module.name}`} />
        </section>
      ))}
      {data.rows.length === 0 ? (
        <p>{t(lang, 'No results yet.')}</p>
      ) : (
        <DataTable headers={[t(lang, 'Title'), t(lang, 'Status'), t(lang, 'Progress'), t(lang, 'Actions')]}>
          {data.rows.map((row) => (
            <tr>
              <td>
                <a href={resultPath(data.orgSlug, row.id)}>{row.title}</a>
              </td>
              <td>{statusName(lang, row.statusName)}</td>
              <td>{`${row.effective} %`}</td>
              <td>
                <a href={`${resultPath(data.orgSlug, row.id)}update/`} aria-label={`${t(lang, 'Edit')}: ${row.title}`}>
                  {t(lang, 'Edit')}
                </a>{' '}
                <a href={`${resultPath(data.orgSlug, row.id)}delete/`} aria-label={`${t(lang, 'Delete')}: ${row.title}`}>
                  {t(lang, 'Delete')}
                </a>
              </td>
            </tr>
          ))}
        </DataTable>
      )}
      <p>
        <a href={organisationResultsPath(data.orgSlug)}>{t(lang, 'All results of the organisation')}</a>
      </p>
    </Layout>
  );
}

/** Adding or editing a result: the fields, errors beside each; when editing, the contributions it answers. */
export function ResultFormPage(props: {
  page: PageContext;
  title: string;
  action: string;
  back: string;
  values: ResultForm;
  errors: FieldErrors;
  statuses: StatusRow[];
  parents: { id: number; title: string }[];
  links?: { action: string; linked: LinkedContribution[]; linkable: Linkable };
}) {
  const { page, values, errors } = props;
  const { lang } = page;
  return (
    <Layout page={page} title={props.title} scripts={['/static/richtext.js', RESULT_MAP_SCRIPT]}>
      <p>
        <a href={props.back}>{t(lang, 'Back to the results')}</a>
      </p>
      <h1>{props.title}</h1>
      <form method="post" action={props.action} class="dashboard-form" noValidate>
        <CsrfField page={page} />
        <FormErrors errors={errors.non_field_errors} />
        <Input name="title" label={t(lang, 'Title')} value={values.title} maxLength={RESULT_LIMITS.title.maxChars} required errors={errors.title} />
        <TextArea name="description" label={t(lang, 'Description')} value={values.description} rows={8} richText={lang} errors={errors.description} />
        <Input name="category" label={t(lang, 'Category')} value={values.category} maxLength={RESULT_LIMITS.category.maxChars} errors={errors.category} />
        <Input name="district" label={t(lang, 'District')} value={values.district} maxLength={RESULT_LIMITS.district.maxChars} errors={errors.district} />
        <fieldset>
          <legend>{t(lang, 'Place on the map')}</legend>
          <ResultMap lang={lang} markers={[]} input />
          <Input name="lat" label={t(lang, 'Latitude')} value={values.lat} errors={errors.lat} />
          <Input name="lng" label={t(lang, 'Longitude')} value={values.lng} errors={errors.lng} />
        </fieldset>
        <Input name="start_date" label={t(lang, 'Start (YYYY-MM-DD)')} value={values.start_date} errors={errors.start_date} />
        <Input name="end_date" label={t(lang, 'End (YYYY-MM-DD)')} value={values.end_date} errors={errors.end_date} />
        <Input name="budget_planned" type="number" label={t(lang, 'Budget planned (€)')} value={values.budget_planned} errors={errors.budget_planned} />
        <Input name="budget_spent" type="number" label={t(lang, 'Budget spent (€)')} value={values.budget_spent} errors={errors.budget_spent} />
        <Select name="status" label={t(lang, 'Status')} value={values.status} errors={errors.status} choices={[{ value: '', label: t(lang, 'no status') }, ...props.statuses.map((s) => ({ value: String(s.id), label: `${statusName(lang, s.name)} (${s.progress} %)` }))]} />
        <Input name="progress" type="number" label={t(lang, 'Progress (%)')} value={values.progress} errors={errors.progress} help={t(lang, 'Empty: the mean of its parts, or the status’s default progress.')} />
        <Select name="parent" label={t(lang, 'Part of')} value={values.parent} errors={errors.parent} choices={[{ value: '', label: t(lang, 'none (a result of its own)') }, ...props.parents.map((p) => ({ value: String(p.id), label: p.title }))]} />
        <button type="submit">{t(lang, 'Save')}</button>
      </form>
      {props.links && <LinksForm page={page} {...props.links} />}
    </Layout>
  );
}

/** One page of the project's contributions not linked yet, found by `search` ('' for all), with their count. */
interface Linkable {
  count: number;
  items: LinkedContribution[];
  search: string;
  /** Where the search form goes (the edit page). */
  searchAction: string;
  pager: PageLinks;
}

/** The contributions a result answers: linked ones with "Remove", and a searchable, paged choice of the project's others. */
function LinksForm({ page, action, linked, linkable }: { page: PageContext; action: string; linked: LinkedContribution[]; linkable: Linkable }) {
  const { lang } = page;
  const key = (l: LinkedContribution) => `${l.kind}:${l.pk}`;
  const open = linkable.items;
  return (
    <section aria-labelledby="links-heading">
      <h2 id="links-heading">{t(lang, 'The contributions it answers')}</h2>
      <ul>
        {linked.map((link) => (
          <li>
            <a href={link.path}>{link.name}</a> <PostButton page={page} action={action} fields={{ remove: key(link) }} label={t(lang, 'Remove')} aria={`${t(lang, 'Remove')}: ${link.name}`} />
          </li>
        ))}
      </ul>
      <form method="get" action={linkable.searchAction} role="search" class="inline-form">
        <label for="id_q">{t(lang, 'Find contributions of the project')}</label> <input type="search" id="id_q" name="q" value={linkable.search} maxLength={200} />{' '}
        <button type="submit">{t(lang, 'Search')}</button>
      </form>
      <p>
        {linkable.search
          ? tn(lang, '%(count)s contribution not linked yet contains "%(search)s".', '%(count)s contributions not linked yet contain "%(search)s".', linkable.count, { search: linkable.search })
          : tn(lang, '%(count)s contribution of the project is not linked yet.', '%(count)s contributions of the project are not linked yet.', linkable.count)}
      </p>
      {open.length > 0 && (
        <form method="post" action={action}>
          <CsrfField page={page} />
          <fieldset>
            <legend>{t(lang, 'Link contributions of the project')}</legend>
            {open.map((link, i) => (
              <div class="check">
                <input type="checkbox" id={`id_link_${i}`} name="link" value={key(link)} /> <label for={`id_link_${i}`}>{link.name}</label>
              </div>
            ))}
          </fieldset>
          <button type="submit">{t(lang, 'Link')}</button>
        </form>
      )}
      <Pager lang={lang} pager={linkable.pager} />
    </section>
  );
}

/** Deleting a result asks first. */
export function DeleteResultPage({ page, title, action, back }: { page: PageContext; title: string; action: string; back: string }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Delete result')}>
      <h1>{t(lang, 'Delete result')}</h1>
      <p>{t(lang, 'Do you really want to delete the result "%(name)s" with its parts and timeline?', { name: title })}</p>
      <form method="post" action={action}>
        <CsrfField page={page} />
        <button type="submit">{t(lang, 'Delete')}</button> <a href={back}>{t(lang, 'Cancel')}</a>
      </form>
    </Layout>
  );
}

/** A status's fields: name, description, default progress (`prefix` keeps the ids of several forms apart). */
function StatusFields({ lang, values, errors }: { lang: Lang; values: StatusForm; errors: FieldErrors }) {
  return (
    <>
      <Input name="name" label={t(lang, 'Name')} value={values.name} maxLength={RESULT_LIMITS.name.maxChars} required errors={errors.name} />
      <TextArea name="description" label={t(lang, 'Description')} value={values.description} rows={2} errors={errors.description} />
      <Input name="progress" type="number" label={t(lang, 'Default progress (%)')} value={values.progress} errors={errors.progress} />
    </>
  );
}

/** The organisation's statuses: each with its name, description and default progress, changed or deleted; add one. `editing`: a refused change, shown with its errors. */
export function StatusesPage({ page, orgSlug, statuses, values, errors, editing }: { page: PageContext; orgSlug: string; statuses: StatusRow[]; values: StatusForm; errors: FieldErrors; editing?: { id: number; values: StatusForm; errors: FieldErrors } }) {
  const { lang } = page;
  const base = statusesPath(orgSlug);
  return (
    <Layout page={page} title={t(lang, 'Statuses of results')}>
      <h1>{t(lang, 'Statuses of results')}</h1>
      <p class="help">{t(lang, 'Every project of the organisation uses these statuses; a result that gets a status takes its default progress.')}</p>
      {statuses.some((s) => s.id < 0) && <p class="help">{t(lang, 'These are the default statuses; they are saved with the first result or status, and can be changed then.')}</p>}
      {editing ? (
        <form method="post" action={`${base}${editing.id}/`} class="dashboard-form" noValidate>
          <h2>{t(lang, 'Edit status')}</h2>
          <CsrfField page={page} />
          <StatusFields lang={lang} values={editing.values} errors={editing.errors} />
          <button type="submit">{t(lang, 'Save')}</button> <a href={base}>{t(lang, 'Cancel')}</a>
        </form>
      ) : null}
      <DataTable headers={[t(lang, 'Name'), t(lang, 'Description'), t(lang, 'Default progress'), t(lang, 'Actions')]}>
        {statuses.map((status) => (
          <tr>
            <td>{statusName(lang, status.name)}</td>
            <td>{t(lang, status.description)}</td>
            <td>{`${status.progress} %`}</td>
            <td>
              {status.id > 0 ? (
                <>
                  <a href={`${base}${status.id}/`} aria-label={`${t(lang, 'Edit')}: ${statusName(lang, status.name)}`}>
                    {t(lang, 'Edit')}
                  </a>{' '}
                  <PostButton page={page} action={`${base}${status.id}/delete/`} label={t(lang, 'Delete')} aria={`${t(lang, 'Delete')}: ${statusName(lang, status.name)}`} />
                </>
              ) : (
                t(lang, 'default')
              )}
            </td>
          </tr>
        ))}
      </DataTable>
      {!editing && (
        <form method="post" action={base} class="dashboard-form" noValidate>
          <h2>{t(lang, 'Add status')}</h2>
          <CsrfField page={page} />
          <StatusFields lang={lang} values={values} errors={errors} />
          <button type="submit">{t(lang, 'Add status')}</button>
        </form>
      )}
    </Layout>
  );
}

/** The import: the file, then the preview of every row with its errors; the rows go back to be written only when none has one. */
export function ImportPage({ page, back, action, rows, error }: { page: PageContext; back: string; action: string; rows: CheckedRow[] | null; error: string | null }) {
  const { lang } = page;
  const valid = rows !== null && rows.length > 0 && rows.every((r) => r.input);
  return (
    <Layout page={page} title={t(lang, 'Import results')}>
      <p>
        <a href={back}>{t(lang, 'Back to the results')}</a>
      </p>
      <h1>{t(lang, 'Import results')}</h1>
      <p class="help">{t(lang, 'A CSV or xlsx file with the columns of the export (Title at least). A row with the ID of a result changes it; a row without adds one. Nothing is saved before you confirm the preview.')}</p>
      <form method="post" action={action} enctype="multipart/form-data" class="dashboard-form" noValidate>
        <CsrfField page={page} />
        <Input name="file" type="file" label={t(lang, 'File (CSV or xlsx)')} accept=".csv,.xlsx,text/csv,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet" errors={error ? [error] : undefined} />
        <button type="submit">{t(lang, 'Show the preview')}</button>
      </form>
      {rows && (
        <section aria-labelledby="preview-heading">
          <h2 id="preview-heading">{t(lang, 'Preview')}</h2>
          <DataTable headers={[t(lang, 'Row'), 'ID', t(lang, 'Title'), t(lang, 'Status'), t(lang, 'Errors')]}>
            {rows.map((row) => (
              <tr class={row.errors.length ? 'has-error' : undefined}>
                <td>{row.line}</td>
                <td>{row.cells.ID ?? ''}</td>
                <td>{row.cells.Title ?? ''}</td>
                <td>{row.cells.Status ?? ''}</td>
                <td>{row.errors.length ? <ul>{row.errors.map((e) => <li>{e}</li>)}</ul> : t(lang, 'ready')}</td>
              </tr>
            ))}
          </DataTable>
          {valid ? (
            <form method="post" action={action}>
              <CsrfField page={page} />
              <input type="hidden" name="rows" value={JSON.stringify(rows.map((r) => r.cells))} />
              <button type="submit">{tn(lang, 'Import %(count)s result', 'Import %(count)s results', rows.length)}</button>
            </form>
          ) : (
            <p class="alert alert-danger" role="alert">
              {t(lang, 'Correct the rows with errors and upload the file again; nothing has been saved.')}
            </p>
          )}
        </section>
      )}
    </Layout>
  );
}
