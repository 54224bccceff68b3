import type { JSX } from 'preact';
import { type Lang, t, tn } from '../../i18n/index.js';
import type { FieldErrors } from '../../http/errors.js';
import { Breadcrumbs, PlainText } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { Input, TextArea } from '../../web/controls.js';
import { CsrfField, Layout } from '../../web/layout.js';
import { withNext } from '../../web/render.js';
import { modulePath, projectPath } from '../../core/urls.js';
import type { ItemModule } from '../moduletypes/items.js';
import { SUBJECT_ORDERINGS, type SubjectOrdering, subjectPath, type SubjectRow } from './queries.js';
import { type SubjectInput, SUBJECT_LIMITS } from './rules.js';

const ORDERING_LABELS: Record<SubjectOrdering, string> = { name: 'Alphabetical', '-comment_count': 'Most commented' };

const contributions = (lang: Lang, n: number) => tn(lang, '%(count)s contribution', '%(count)s contributions', n);

export interface SubjectListData {
  orgSlug: string;
  path: string;
  subjects: SubjectRow[];
  search: string;
  ordering: SubjectOrdering;
  /** The viewer may comment (the list says "Discuss with us!", else "Read more"). */
  mayComment: boolean;
  /** The create page, for those who may add subjects. */
  create: string | null;
}

/** The module page's part (§9.2): the subjects, searchable and ordered, each linked by its title to its page. */
export function SubjectList({ page, data }: { page: PageContext; data: SubjectListData }) {
  const { lang } = page;
  return (
    <section aria-labelledby="subjects-heading" class="subjects">
      <h2 id="subjects-heading">{t(lang, 'Subjects')}</h2>
      {data.create && (
        <p>
          <a class="btn" href={data.create}>
            {t(lang, 'Add subject')}
          </a>
        </p>
      )}
      <form method="get" action={`${data.path}#subjects-heading`} class="filter-bar" role="search" aria-label={t(lang, 'Filter subjects')}>
        <div class="field">
          <label for="id_subject_search">{t(lang, 'Search')}</label>
          <input id="id_subject_search" type="search" name="subject_search" value={data.search} maxLength={SUBJECT_LIMITS.name.maxChars} />
        </div>
        <div class="field">
          <label for="id_subject_ordering">{t(lang, 'Ordering')}</label>
          <select id="id_subject_ordering" name="subject_ordering">
            {SUBJECT_ORDERINGS.map((o) => (
              <option value={o} selected={data.ordering === o}>
                {t(lang, ORDERING_LABELS[o])}
              </option>
            ))}
          </select>
        </div>
        <button type="submit">{t(lang, 'Filter')}</button>
      </form>
      {data.subjects.length === 0 ? (
        <p>{t(lang, 'Nothing to show')}</p>
      ) : (
        <ul class="item-list">
          {data.subjects.map((subject) => (
            <li class="subject-item">
              <h3>
                <a href={subjectPath(data.orgSlug, subject.created, subject.id)}>{subject.name}</a>
              </h3>
              {subject.description && <PlainText text={subject.description} />}
              <p>
                {contributions(lang, subject.commentCount)} ·{' '}
                <a href={subjectPath(data.orgSlug, subject.created, subject.id)} aria-label={`${t(lang, data.mayComment ? 'Discuss with us!' : 'Read more')}: ${subject.name}`}>
                  {t(lang, data.mayComment ? 'Discuss with us!' : 'Read more')}
                </a>
              </p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

const crumbs = (lang: Lang, orgSlug: string, module: ItemModule) => (
  <Breadcrumbs
    lang={lang}
    items={[
      { href: `/${orgSlug}/`, label: module.organisationName },
      { href: projectPath(orgSlug, module.projectSlug), label: module.projectName },
      { href: modulePath(orgSlug, module.slug), label: module.name },
    ]}
  />
);

export interface SubjectPageData {
  orgSlug: string;
  module: ItemModule;
  subject: SubjectRow;
  /** The edit and delete pages, for those who may change it. */
  change: { edit: string; remove: string } | null;
  thread: JSX.Element;
}

/** A subject's page (§9.2): title, description, and its comments with their categories. */
export function SubjectPage({ page, data }: { page: PageContext; data: SubjectPageData }) {
  const { lang } = page;
  return (
    <Layout page={page} title={data.subject.name}>
      {crumbs(lang, data.orgSlug, data.module)}
      <h1>{data.subject.name}</h1>
      {data.subject.description && <PlainText text={data.subject.description} class="lead" />}
      {data.change && (
        <p>
          <a href={data.change.edit}>{t(lang, 'Edit')}</a> · <a href={data.change.remove}>{t(lang, 'Delete')}</a>
        </p>
      )}
      {data.thread}
    </Layout>
  );
}

export interface SubjectFormData {
  orgSlug: string;
  module: ItemModule;
  title: string;
  action: string;
  cancel: string;
  values: SubjectInput;
  errors: FieldErrors;
}

/** Adding or editing a subject; "Cancel" goes back to where the form was opened (adhocracy-plus#335). */
export function SubjectFormPage({ page, data }: { page: PageContext; data: SubjectFormData }) {
  const { lang } = page;
  const failed = Object.keys(data.errors).length > 0;
  return (
    <Layout page={page} title={data.title}>
      {crumbs(lang, data.orgSlug, data.module)}
      <h1>{data.title}</h1>
      {failed && (
        <div class="alert alert-error" role="alert">
          {t(lang, 'An error occurred. Please check the data you entered.')}
        </div>
      )}
      <form method="post" action={data.action}>
        <CsrfField page={page} />
        <Input name="name" label={t(lang, 'Title')} value={data.values.name} maxLength={SUBJECT_LIMITS.name.maxChars} required errors={data.errors.name} help={t(lang, 'max 120 characters')} />
        <TextArea
          name="description"
          label={t(lang, 'Description')}
          value={data.values.description}
          maxLength={SUBJECT_LIMITS.description.maxChars}
          rows={4}
          errors={data.errors.description}
          help={t(lang, 'At most 350 characters. The description is shown only if it is filled out.')}
        />
        <button type="submit">{t(lang, 'Save')}</button> <a href={data.cancel}>{t(lang, 'Cancel')}</a>
      </form>
    </Layout>
  );
}

/** Asks before a subject is deleted with its discussion. */
export function SubjectDeletePage({ page, subject, action, cancel }: { page: PageContext; subject: SubjectRow; action: string; cancel: string }) {
  const { lang } = page;
  return (
    <Layout page={page} title={t(lang, 'Delete subject')}>
      <h1>{t(lang, 'Delete subject')}</h1>
      <p>{t(lang, 'Do you really want to delete the subject "%(name)s"? Its comments (%(count)s) are deleted with it.', { name: subject.name, count: subject.commentCount })}</p>
      <form method="post" action={action}>
        <CsrfField page={page} />
        <button type="submit">{t(lang, 'Delete')}</button> <a href={cancel}>{t(lang, 'Cancel')}</a>
      </form>
    </Layout>
  );
}

/** The dashboard's "Subjects" component: the module's subjects with their edit pages, and the way to add one. */
export function SubjectPanel({ page, orgSlug, data }: { page: PageContext; orgSlug: string; data: { subjects: SubjectRow[]; create: string; back: string } }) {
  const { lang } = page;
  return (
    <section aria-labelledby="subjects-panel-heading">
      <h2 id="subjects-panel-heading">{t(lang, 'Subjects')}</h2>
      {data.subjects.length === 0 ? (
        <p>{t(lang, 'No subjects yet. A debate needs at least one subject to be published.')}</p>
      ) : (
        <ul>
          {data.subjects.map((subject) => (
            <li>
              <a href={withNext(`${subjectPath(orgSlug, subject.created, subject.id)}update/`, data.back)}>{subject.name}</a> ({contributions(lang, subject.commentCount)})
            </li>
          ))}
        </ul>
      )}
      <p>
        <a class="btn" href={withNext(data.create, data.back)}>
          {t(lang, 'Add subject')}
        </a>
      </p>
    </section>
  );
}
