import type { JSX } from 'preact';
import { t } from '../../i18n/index.js';
import type { FieldErrors } from '../../http/errors.js';
import { PlainText } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { figureText } from '../../web/page-keeping.js';
import { Input, TextArea } from '../../web/controls.js';
import type { ItemModule } from '../moduletypes/items.js';
import { AddButton, ItemDeletePage, ItemFilter, ItemFormFrame, ItemPageFrame, ItemPanel } from '../moduletypes/item-views.js';
import { SUBJECT_ORDERINGS, type SubjectOrdering, subjectPath, type SubjectRow } from './queries.js';
import { type SubjectInput, SUBJECT_LIMITS } from './rules.js';

const ORDERING_LABELS: Record<SubjectOrdering, string> = { name: 'Alphabetical', '-comment_count': 'Most commented' };

/** A subject's comments (filled in at sending on a kept page: web/page-keeping.ts). */
const contributions = (page: PageContext, subject: SubjectRow) => figureText(page, 'contributions', `subject:${subject.id}`, subject.commentCount);

interface SubjectListData {
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
  // The order by comments is baked into a kept page (the figures are filled in at sending): kept per comment too.
  if (data.ordering === '-comment_count') page.keptCounts?.dependOnComments();
  return (
    <section aria-labelledby="subjects-heading" class="subjects">
      <h2 id="subjects-heading">{t(lang, 'Subjects')}</h2>
      {data.create && <AddButton href={data.create} label={t(lang, 'Add subject')} />}
      <ItemFilter lang={lang} data={{ prefix: 'subject', label: t(lang, 'Filter subjects'), path: data.path, search: data.search, maxLength: SUBJECT_LIMITS.name.maxChars, ordering: data.ordering, orderings: SUBJECT_ORDERINGS, orderingLabels: ORDERING_LABELS }} />
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
                {contributions(page, subject)} ·{' '}
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

interface SubjectPageData {
  orgSlug: string;
  module: ItemModule;
  subject: SubjectRow;
  /** The edit and delete pages, for those who may change it. */
  change: { edit: string; remove: string } | null;
  thread: JSX.Element;
}

/** A subject's page (§9.2): title, description, and its comments with their categories. */
export function SubjectPage({ page, data }: { page: PageContext; data: SubjectPageData }) {
  return (
    <ItemPageFrame page={page} orgSlug={data.orgSlug} module={data.module} title={data.subject.name} change={data.change} thread={data.thread}>
      {data.subject.description && <PlainText text={data.subject.description} class="lead" />}
    </ItemPageFrame>
  );
}

interface SubjectFormData {
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
  return (
    <ItemFormFrame page={page} data={data}>
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
    </ItemFormFrame>
  );
}

/** Asks before a subject is deleted with its discussion. */
export function SubjectDeletePage({ page, subject, action, cancel }: { page: PageContext; subject: SubjectRow; action: string; cancel: string }) {
  const { lang } = page;
  const question = t(lang, 'Do you really want to delete the subject "%(name)s"? Its comments (%(count)s) are deleted with it.', { name: subject.name, count: subject.commentCount });
  return <ItemDeletePage page={page} title={t(lang, 'Delete subject')} question={question} action={action} cancel={cancel} />;
}

/** The dashboard's "Subjects" component: the module's subjects with their edit pages, and the way to add one. */
export function SubjectPanel({ page, orgSlug, data }: { page: PageContext; orgSlug: string; data: { subjects: SubjectRow[]; create: string; back: string } }) {
  const { lang } = page;
  const items = data.subjects.map((subject) => ({ edit: `${subjectPath(orgSlug, subject.created, subject.id)}update/`, name: subject.name, note: contributions(page, subject) }));
  const empty = t(lang, 'No subjects yet. A debate needs at least one subject to be published.');
  return <ItemPanel data={{ id: 'subjects-panel-heading', title: t(lang, 'Subjects'), empty, items, create: { href: data.create, label: t(lang, 'Add subject') }, back: data.back }} />;
}
