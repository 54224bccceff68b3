import type { ComponentChildren } from 'preact';
import { formatDate } from '../../i18n/dates.js';
import { type Lang, t, tn } from '../../i18n/index.js';
import { Breadcrumbs, RichText, richTextEditor } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, FieldErrors, Layout } from '../../web/layout.js';
import { loginRedirectUrl } from '../../web/render.js';
import { commentCountText, figureText } from '../../web/page-keeping.js';
import type { NamedRef } from '../../core/modules/queries.js';
import { type IdeaWords, say, sayCount } from './words.js';
import { type ModuleAliases, type TermWords, termWords } from '../../core/modules/terms.js';
import { ORGANISATION_TERMS_FIELD, OrganisationTermsField } from '../../web/organisation-terms.js';
import { REPORT_MAX_LENGTH } from '../reports/rules.js';
import { ideaPath, ideaReferenceNumber, modulePath, profilePath, projectPath } from '../../core/urls.js';
import { IDEA_LIMITS } from './input.js';
import { IDEA_SEARCH_MAX_LENGTH } from './rules.js';
import type { IdeaModerationFacts, IdeaOrdering, IdeaRow } from './queries.js';
import { GuestBadge } from '../../web/guest-badge.js';
import type { CustomField } from '../customfields/rules.js';
import { AnswerFilter, CustomAnswers } from '../customfields/views.js';

/** The idea list's state, all of it in the URL (§A8.3): shareable, and the back button works. */
export interface IdeaListState {
  category: number | null;
  label: number | null;
  /** A choice of one of the module's questions (features/customfields). */
  answer: number | null;
  ordering: IdeaOrdering;
  search: string;
  page: number;
}

/** The list's URL for a state; a changed filter starts again on page 1, and `#index` keeps the list in view. */
function ideaListUrl(path: string, state: IdeaListState): string {
  const query = new URLSearchParams();
  if (state.category !== null) query.set('category', String(state.category));
  if (state.label !== null) query.set('label', String(state.label));
  if (state.answer !== null) query.set('answer', String(state.answer));
  if (state.ordering !== '-created') query.set('ordering', state.ordering);
  if (state.search) query.set('search', state.search);
  if (state.page > 1) query.set('page', String(state.page));
  const qs = query.toString();
  return `${path}${qs ? `?${qs}` : ''}#index`;
}

/**
 * Category and label badges differ beyond colour (WCAG 1.4.1): a category is a square box, a label a
 * pill with a dashed border, and each says what it is to screen readers.
 */
export function KindBadge({ lang, kind, name, words }: { lang: Lang; kind: 'category' | 'label'; name: string; words?: TermWords }) {
  const { category, label } = words ?? termWords(lang);
  return (
    <span class={`badge badge-light badge-${kind}`}>
      <span class="visually-hidden">{kind === 'category' ? category : label}: </span>
      {name}
    </span>
  );
}

/** The moderator's processing status (§A14.1), catalogue keys and badge colours. */
export const MODERATOR_STATUSES: Record<string, { label: string; tone: string }> = {
  CONSIDERATION: { label: 'Under consideration', tone: 'yellow' },
  REJECTED: { label: 'Rejected', tone: 'red' },
  ACCEPTED: { label: 'Accepted', tone: 'green' },
};

function StatusBadge({ lang, status }: { lang: Lang; status: string | null }) {
  const known = status ? MODERATOR_STATUSES[status] : undefined;
  if (!known) return null;
  return <span class={`badge badge-${known.tone}`}>{t(lang, known.label)}</span>;
}

export interface IdeaListData {
  orgSlug: string;
  /** The URL segment of the items' pages (`IdeaKind.segment`). */
  segment: string;
  /** The items' content kind (the registry's kind of an idea-like type): their comment figures' refs. */
  kind: string;
  /** The page the list sits on (module page or project page). */
  path: string;
  ideas: IdeaRow[];
  count: number;
  pages: number;
  state: IdeaListState;
  categories: NamedRef[];
  labels: NamedRef[];
  /** The module's own words for category and label (core/modules/terms.ts). */
  aliases: ModuleAliases;
  /** The module's own questions: those with choices filter the list. */
  customFields: CustomField[];
  /** Some phase of the module has the rate feature: counts shown and "most popular" offered. */
  rated: boolean;
  /** The "Submit idea" action: a create link, a login link (a visitor who could after login), or none. */
  /** `guest`: "take part as a guest" where the project allows guests (issue 34.4). */
  submit: { href: string; login: boolean; guest?: string } | null;
  /** What a kind shows between the filters and the list (the map of map ideas). */
  aside?: ComponentChildren;
  /** What a kind adds to an item of the list (a place, a budget). */
  itemExtra?: (idea: IdeaRow) => ComponentChildren;
  /** Further fields of the filter form (proposals: archived). */
  extraFilters?: ComponentChildren;
  /** What the kind calls its items, where not ideas. */
  words?: IdeaWords;
}

const ORDERING_LABELS: Record<IdeaOrdering, string> = {
  '-created': 'Most recent',
  '-positive_rating_count': 'Most popular',
  '-comment_count': 'Most commented',
};

function FilterBar({ lang, data }: { lang: Lang; data: IdeaListData }) {
  const { state } = data;
  const orderings = (Object.keys(ORDERING_LABELS) as IdeaOrdering[]).filter((o) => data.rated || o !== '-positive_rating_count');
  const words = termWords(lang, data.aliases);
  return (
    <form method="get" action={`${data.path}#index`} class="filter-bar" role="search" aria-label={say(lang, data.words, 'Filter ideas')}>
      {data.categories.length > 0 && (
        <div class="field">
          <label for="id_category">{words.category}</label>
          <select id="id_category" name="category">
            <option value="">{t(lang, 'All')}</option>
            {data.categories.map((c) => (
              <option value={String(c.id)} selected={state.category === c.id}>
                {c.name}
              </option>
            ))}
          </select>
        </div>
      )}
      {data.labels.length > 0 && (
        <div class="field">
          <label for="id_label">{words.label}</label>
          <select id="id_label" name="label">
            <option value="">{t(lang, 'All')}</option>
            {data.labels.map((l) => (
              <option value={String(l.id)} selected={state.label === l.id}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
      )}
      <div class="field">
        <label for="id_ordering">{t(lang, 'Ordering')}</label>
        <select id="id_ordering" name="ordering">
          {orderings.map((o) => (
            <option value={o} selected={state.ordering === o}>
              {t(lang, ORDERING_LABELS[o])}
            </option>
          ))}
        </select>
      </div>
      <div class="field">
        <label for="id_search">{t(lang, 'Search')}</label>
        <input id="id_search" type="search" name="search" value={state.search} maxLength={IDEA_SEARCH_MAX_LENGTH} />
      </div>
      <AnswerFilter lang={lang} fields={data.customFields} selected={state.answer} />
      {data.extraFilters}
      <button type="submit">{t(lang, 'Filter')}</button>
    </form>
  );
}

export function IdeaList({ page, data }: { page: PageContext; data: IdeaListData }) {
  const { lang, timeZone } = page;
  const { state } = data;
  // The order by comments or ratings is baked into a kept page (the figures are filled in at sending): kept per comment and rating too.
  if (state.ordering === '-comment_count' || state.ordering === '-positive_rating_count') page.keptCounts?.dependOnComments();
  const words = termWords(lang, data.aliases);
  return (
    <section aria-labelledby="index" class="idea-index">
      <div class="section-head">
        <h2 id="index" tabIndex={-1}>
          {sayCount(lang, data.words, data.count)}
        </h2>
        {data.submit && (
          <a class="btn" href={data.submit.href}>
            {say(lang, data.words, data.submit.login ? 'Log in to submit your idea' : 'Submit your idea')}
          </a>
        )}
        {data.submit?.guest && (
          <a class="btn" href={data.submit.guest}>
            {t(lang, 'Take part as a guest')}
          </a>
        )}
      </div>
      <FilterBar lang={lang} data={data} />
      {data.aside}
      {data.ideas.length ? (
        <ul class="idea-list">
          {data.ideas.map((idea) => (
            <li class="idea-item">
              <div>
                <h3>
                  <a href={ideaPath(data.orgSlug, idea.created, idea.id, data.segment)}>{idea.name}</a>
                </h3>
                {data.itemExtra?.(idea)}
                <p class="idea-badges">
                  {idea.category && <KindBadge lang={lang} kind="category" name={idea.category.name} words={words} />} <StatusBadge lang={lang} status={idea.moderatorStatus} />
                </p>
                <p class="idea-meta">
                  {t(lang, 'by %(user)s on %(date)s', { user: idea.creatorName, date: formatDate(idea.created, lang, timeZone) })} {idea.creatorIsGuest && <GuestBadge lang={lang} />}
                </p>
              </div>
              <p class="idea-counts">
                {data.rated && (
                  <>
                    <span>{figureText(page, 'agrees', `${data.kind}:${idea.id}`, idea.positiveRatingCount)}</span>
                    <span>{figureText(page, 'disagrees', `${data.kind}:${idea.id}`, idea.negativeRatingCount)}</span>
                  </>
                )}
                <span>{commentCountText(page, `${data.kind}:${idea.id}`, idea.commentCount)}</span>
              </p>
            </li>
          ))}
        </ul>
      ) : (
        <p>{t(lang, 'Nothing to show')}</p>
      )}
      {data.pages > 1 && (
        <nav class="pager" aria-label={say(lang, data.words, 'Pages of ideas')}>
          {state.page > 1 && <a href={ideaListUrl(data.path, { ...state, page: state.page - 1 })}>{t(lang, 'Previous page')}</a>}
          <span>{t(lang, 'Page %(page)s of %(pages)s', { page: state.page, pages: data.pages })}</span>
          {state.page < data.pages && <a href={ideaListUrl(data.path, { ...state, page: state.page + 1 })}>{t(lang, 'Next page')}</a>}
        </nav>
      )}
    </section>
  );
}

/** What the viewer may do with an idea, decided by the idea rules. */
interface IdeaActions {
  change: boolean;
  moderate: boolean;
  rate: boolean;
  report: boolean;
  /** The rating buttons are shown at all (some phase of the module rates ideas). */
  rated: boolean;
}

function IdeaRating({ page, idea, actions, action, words }: { page: PageContext; idea: IdeaRow; actions: IdeaActions; action: string; words?: IdeaWords }) {
  if (!actions.rated) return null;
  const counts = { positive: idea.positiveRatingCount, negative: idea.negativeRatingCount, mine: idea.userRating?.value ?? 0 };
  return <RatingButtons page={page} counts={counts} mayRate={actions.rate} action={action} label={say(page.lang, words, 'Rate this idea')} />;
}

/**
 * Pro and contra of a rated item (ideas, topics): two buttons that post `value` 1 or -1 to `action`
 * (the same value again withdraws it), or the counts alone for who may not rate, with a login link
 * for visitors.
 */
export function RatingButtons({ page, counts, mayRate, action, label }: { page: PageContext; counts: { positive: number; negative: number; mine: number }; mayRate: boolean; action: string; label: string }) {
  const { lang } = page;
  const up = tn(lang, '%(count)s agrees', '%(count)s agree', counts.positive);
  const down = tn(lang, '%(count)s disagrees', '%(count)s disagree', counts.negative);
  if (!mayRate) {
    return (
      <p class="idea-ratings">
        {up}, {down}
        {!page.user && (
          <>
            {' · '}
            <a href={loginRedirectUrl(page.path)}>{t(lang, 'Log in to rate')}</a>
          </>
        )}
      </p>
    );
  }
  return (
    <div class="ratings" role="group" aria-label={label}>
      {([
        [1, up],
        [-1, down],
      ] as const).map(([value, text]) => (
        <form method="post" action={action} class="inline-form">
          <CsrfField page={page} />
          <input type="hidden" name="value" value={String(value)} />
          <button type="submit" class="rating-button" aria-pressed={counts.mine === value ? 'true' : 'false'}>
            {text}
          </button>
        </form>
      ))}
    </div>
  );
}

interface IdeaPageData {
  orgSlug: string;
  place: { organisationName: string; projectSlug: string; projectName: string; moduleSlug: string; moduleName: string };
  idea: IdeaRow;
  path: string;
  actions: IdeaActions;
  following: boolean;
  thread: ComponentChildren;
  follow: ComponentChildren;
  /** What a kind shows of the item above its description (the place on a small map, the budget). */
  extra?: ComponentChildren;
  /** The module's own words for category and label. */
  aliases: ModuleAliases;
  /** The moderator remark's box, for the project's moderators and initiators only (features/moderatorremarks). */
  remark?: ComponentChildren;
  /** "This became part of": the results that answer the item (features/results). */
  results?: ComponentChildren;
  /** The image's `srcset` at its real width (issue 36.12: ideas, map ideas and proposals alike). */
  imageSrcset?: string;
  words?: IdeaWords;
}

export function IdeaPage({ page, data, scripts }: { page: PageContext; data: IdeaPageData; scripts?: string[] }) {
  const { lang, timeZone } = page;
  const { idea, place, path, actions } = data;
  const words = termWords(lang, data.aliases);
  return (
    <Layout page={page} title={idea.name} scripts={scripts}>
      <Breadcrumbs
        lang={lang}
        items={[
          { href: `/${data.orgSlug}/`, label: place.organisationName },
          { href: projectPath(data.orgSlug, place.projectSlug), label: place.projectName },
          { href: modulePath(data.orgSlug, place.moduleSlug), label: place.moduleName },
        ]}
      />
      <article class="idea">
        <h1>{idea.name}</h1>
        <p class="idea-badges">
          <StatusBadge lang={lang} status={idea.moderatorStatus} />
          {idea.category && <KindBadge lang={lang} kind="category" name={idea.category.name} words={words} />}
          {idea.labels.map((label) => (
            <KindBadge lang={lang} kind="label" name={label.name} words={words} />
          ))}
        </p>
        <p class="idea-meta">
          <a href={profilePath(idea.creatorName)}>{idea.creatorName}</a> {idea.creatorIsGuest && <GuestBadge lang={lang} />} <time dateTime={idea.created.toISOString()}>{formatDate(idea.created, lang, timeZone)}</time>
          {' · '}
          {t(lang, 'Reference No.: %(number)s', { number: ideaReferenceNumber(idea.created, idea.id) })}
        </p>
        {data.results}
        {data.extra}
        {idea.image && (
          <figure class="idea-image">
            <img src={`/media/${idea.image}`} srcset={data.imageSrcset} sizes="(min-width: 60rem) 50rem, 100vw" alt={say(lang, data.words, 'Image of the idea %(name)s', { name: idea.name })} />
            {idea.imageCopyright && <figcaption>© {idea.imageCopyright}</figcaption>}
          </figure>
        )}
        <RichText html={idea.description} />
        <CustomAnswers lang={lang} answers={idea.answers} />
        <IdeaRating page={page} idea={idea} actions={actions} action={`${path}rate/`} words={data.words} />
        <div class="idea-actions">
          {data.follow}
          {actions.change && (
            <>
              <a class="btn btn-secondary" href={`${path}update/`}>
                {t(lang, 'Edit')}
              </a>
              <a class="btn btn-secondary" href={`${path}delete/`}>
                {t(lang, 'Delete')}
              </a>
            </>
          )}
          {actions.moderate && (
            <a class="btn btn-secondary" href={`${path}moderate/`}>
              {t(lang, 'Give feedback')}
            </a>
          )}
        </div>
        {data.remark}
        {actions.report && (
          <details class="comment-action">
            <summary>{t(lang, 'Report')}</summary>
            <form method="post" action={`${path}report/`} class="comment-form">
              <CsrfField page={page} />
              <div class="field">
                <label for="id_report_idea">{say(lang, data.words, 'Why do you report this idea?')}</label>
                <textarea id="id_report_idea" name="description" required maxLength={REPORT_MAX_LENGTH} rows={3} />
              </div>
              <button type="submit">{t(lang, 'Send report')}</button>
            </form>
          </details>
        )}
        {(idea.moderatorStatus || idea.moderatorFeedbackText) && (
          <section class="feedback" aria-labelledby="idea-feedback-heading">
            <h2 id="idea-feedback-heading">{t(lang, 'Official feedback')}</h2>
            <p>
              <StatusBadge lang={lang} status={idea.moderatorStatus} /> {place.organisationName}
              {idea.moderatorFeedbackDate && (
                <>
                  {' '}
                  <time dateTime={idea.moderatorFeedbackDate.toISOString()}>{formatDate(idea.moderatorFeedbackDate, lang, timeZone)}</time>
                </>
              )}
            </p>
            {idea.moderatorFeedbackText && <RichText html={idea.moderatorFeedbackText} />}
          </section>
        )}
      </article>
      {data.thread}
    </Layout>
  );
}

/** The idea form's values as the user entered them (kept when the form comes back with errors). */
export interface IdeaFormValues {
  name: string;
  description: string;
  category: string;
  labels: string[];
  imageCopyright: string;
  rightOfUse: boolean;
  imageDeleted: boolean;
  /** The box "I agree to the organisation's terms of use" was ticked. */
  organisationTerms: boolean;
  /** The values of a kind's further fields (`IdeaPageHooks`). */
  extra?: Record<string, string>;
  /** The answers to the module's own questions, by field name (`custom_<id>`). */
  answers: Record<string, string>;
}

interface IdeaFormData {
  title: string;
  action: string;
  cancel: string;
  values: IdeaFormValues;
  errors: Record<string, string[]>;
  categories: NamedRef[];
  labels: NamedRef[];
  aliases: ModuleAliases;
  /** The stored image when editing. */
  image: string | null;
  /** The organisation (slug) whose terms of use the form asks the user to agree to; null when it does not ask. */
  termsOf: string | null;
  /** A kind's further fields (the place of a map idea, the budget of a proposal). */
  extraFields?: ComponentChildren;
  words?: IdeaWords;
  /** The module's own questions (features/customfields). */
  questions?: ComponentChildren;
}

export function errorAttrs(id: string, errors: string[] | undefined, help?: boolean) {
  const describedBy = [help ? `${id}_help` : '', errors?.length ? `${id}_errors` : ''].filter(Boolean).join(' ');
  return { 'aria-invalid': errors?.length ? ('true' as const) : undefined, 'aria-describedby': describedBy || undefined };
}

export function IdeaFormPage({ page, data, scripts = [] }: { page: PageContext; data: IdeaFormData; scripts?: string[] }) {
  const { lang } = page;
  const { values, errors } = data;
  const tr = (list: string[] | undefined) => list?.map((e) => t(lang, e));
  const words = termWords(lang, data.aliases);
  return (
    <Layout page={page} title={data.title} scripts={['/static/richtext.js', ...scripts]}>
      <h1>{data.title}</h1>
      {Object.keys(errors).length > 0 && (
        <div class="alert alert-error" role="alert">
          {t(lang, 'An error occurred. Please check the data you entered.')}
        </div>
      )}
      <form method="post" action={data.action} enctype="multipart/form-data" class="idea-form" novalidate>
        <CsrfField page={page} />
        <div class={`field${errors.name ? ' has-error' : ''}`}>
          <label for="id_name">{t(lang, 'Title')}</label>
          <input id="id_name" name="name" type="text" required maxLength={IDEA_LIMITS.name.maxChars} value={values.name} {...errorAttrs('id_name', errors.name)} />
          <FieldErrors id="id_name_errors" errors={tr(errors.name)} />
        </div>
        <div class={`field${errors.description ? ' has-error' : ''}`}>
          <label for="id_description">{t(lang, 'Description')}</label>
          <textarea id="id_description" name="description" required rows={8} {...richTextEditor(lang)} {...errorAttrs('id_description', errors.description)}>
            {values.description}
          </textarea>
          <FieldErrors id="id_description_errors" errors={tr(errors.description)} />
        </div>
        {data.categories.length > 0 && (
          <div class={`field${errors.category ? ' has-error' : ''}`}>
            <label for="id_category">{words.category}</label>
            {words.categoryHelp && (
              <p class="help" id="id_category_help">
                {words.categoryHelp}
              </p>
            )}
            <select id="id_category" name="category" required {...errorAttrs('id_category', errors.category, Boolean(words.categoryHelp))}>
              {!values.category && <option value="">{t(lang, 'Choose a category')}</option>}
              {data.categories.map((c) => (
                <option value={String(c.id)} selected={values.category === String(c.id)}>
                  {c.name}
                </option>
              ))}
            </select>
            <FieldErrors id="id_category_errors" errors={tr(errors.category)} />
          </div>
        )}
        {data.labels.length > 0 && (
          <fieldset class={`field${errors.labels ? ' has-error' : ''}`}>
            <legend>{words.labels}</legend>
            {words.labelHelp && <p class="help">{words.labelHelp}</p>}
            {data.labels.map((l) => (
              <div class="check">
                <input id={`id_labels_${l.id}`} type="checkbox" name="labels" value={String(l.id)} checked={values.labels.includes(String(l.id))} />
                <label for={`id_labels_${l.id}`}>{l.name}</label>
              </div>
            ))}
            <FieldErrors id="id_labels_errors" errors={tr(errors.labels)} />
          </fieldset>
        )}
        {data.questions}
        {data.extraFields}
        <fieldset class="field">
          <legend>{t(lang, 'Image')}</legend>
          {data.image && (
            <div>
              <img class="idea-image-preview" src={`/media/${data.image}`} alt={t(lang, 'Current image')} />
              <div class="check">
                <input id="id_image_deleted" type="checkbox" name="image_deleted" value="true" checked={values.imageDeleted} />
                <label for="id_image_deleted">{t(lang, 'Remove the image')}</label>
              </div>
            </div>
          )}
          <div class={`field${errors.image ? ' has-error' : ''}`}>
            <label for="id_image">{data.image ? t(lang, 'Replace the image') : t(lang, 'Upload an image')}</label>
            <input id="id_image" name="image" type="file" accept="image/png,image/jpeg,image/gif" {...errorAttrs('id_image', errors.image, true)} />
            <p class="help" id="id_image_help">
              {t(lang, 'PNG, JPEG or GIF, at least 600×400 pixels, at most 5 MB.')}
            </p>
            <FieldErrors id="id_image_errors" errors={tr(errors.image)} />
          </div>
          <div class={`field${errors.image_copyright ? ' has-error' : ''}`}>
            <label for="id_image_copyright">{t(lang, 'Copyright')}</label>
            <input id="id_image_copyright" name="image_copyright" type="text" maxLength={IDEA_LIMITS.image_copyright.maxChars} value={values.imageCopyright} {...errorAttrs('id_image_copyright', errors.image_copyright)} />
            <FieldErrors id="id_image_copyright_errors" errors={tr(errors.image_copyright)} />
          </div>
          <div class={`check${errors.right_of_use ? ' has-error' : ''}`}>
            <input id="id_right_of_use" type="checkbox" name="right_of_use" value="on" checked={values.rightOfUse} {...errorAttrs('id_right_of_use', errors.right_of_use)} />
            <label for="id_right_of_use">{t(lang, 'I hold the rights to this image, and the people shown agree to its publication.')}</label>
            <FieldErrors id="id_right_of_use_errors" errors={tr(errors.right_of_use)} />
          </div>
        </fieldset>
        {data.termsOf && <OrganisationTermsField lang={lang} id="id_organisation_terms_of_use" slug={data.termsOf} checked={values.organisationTerms} errors={errors[ORGANISATION_TERMS_FIELD]} />}
        <p>
          <button type="submit">{t(lang, 'Save')}</button> <a href={data.cancel}>{t(lang, 'Cancel')}</a>
        </p>
      </form>
    </Layout>
  );
}

export function IdeaDeletePage({ page, idea, action, cancel, words }: { page: PageContext; idea: IdeaRow; action: string; cancel: string; words?: IdeaWords }) {
  const { lang } = page;
  return (
    <Layout page={page} title={say(lang, words, 'Delete idea')}>
      <h1>{say(lang, words, 'Delete idea')}</h1>
      <p>{say(lang, words, 'Do you really want to delete the idea "%(name)s"? Its comments and ratings are deleted with it.', { name: idea.name })}</p>
      <form method="post" action={action}>
        <CsrfField page={page} />
        <button type="submit">{t(lang, 'Delete')}</button> <a href={cancel}>{t(lang, 'Cancel')}</a>
      </form>
    </Layout>
  );
}

/** How to reach the author (with their consent) and who gave the last official feedback: for moderators only. */
function ModerationFacts({ page, facts }: { page: PageContext; facts: IdeaModerationFacts }) {
  const { lang, timeZone } = page;
  const contact = facts.creatorEmail || facts.creatorPhone;
  if (!contact && !facts.feedbackDate) return null;
  return (
    <dl class="moderation-facts">
      {contact && (
        <>
          <dt>{t(lang, "The author's contact details")}</dt>
          <dd>
            {facts.creatorEmail && <a href={`mailto:${facts.creatorEmail}`}>{facts.creatorEmail}</a>} {facts.creatorPhone}{' '}
            ({facts.creatorContactConsent ? t(lang, 'the author agreed to be contacted') : t(lang, 'the author did not agree to be contacted')})
          </dd>
        </>
      )}
      {facts.feedbackDate && (
        <>
          <dt>{t(lang, 'Official feedback last given')}</dt>
          <dd>{t(lang, 'by %(user)s on %(date)s', { user: facts.feedbackBy ?? '—', date: formatDate(facts.feedbackDate, lang, timeZone) })}</dd>
        </>
      )}
    </dl>
  );
}

export function IdeaModeratePage(props: { page: PageContext; idea: IdeaRow; facts?: IdeaModerationFacts | null; action: string; cancel: string; status: string; feedback: string; errors: Record<string, string[]>; extra?: ComponentChildren; words?: IdeaWords }) {
  const { page, idea } = props;
  const { lang } = page;
  return (
    <Layout page={page} title={say(lang, props.words, 'Moderate the idea')} scripts={['/static/richtext.js']}>
      <h1>{say(lang, props.words, 'Moderate the idea')}</h1>
      <p class="lead">{idea.name}</p>
      {props.facts && <ModerationFacts page={page} facts={props.facts} />}
      <form method="post" action={props.action} class="idea-form">
        <CsrfField page={page} />
        <div class={`field${props.errors.moderator_status ? ' has-error' : ''}`}>
          <label for="id_moderator_status">{t(lang, 'Processing status')}</label>
          <select id="id_moderator_status" name="moderator_status">
            <option value="">{t(lang, 'No status')}</option>
            {Object.entries(MODERATOR_STATUSES).map(([value, { label }]) => (
              <option value={value} selected={props.status === value}>
                {t(lang, label)}
              </option>
            ))}
          </select>
          <FieldErrors errors={props.errors.moderator_status?.map((e) => t(lang, e))} />
        </div>
        <div class={`field${props.errors.moderator_feedback_text ? ' has-error' : ''}`}>
          <label for="id_moderator_feedback_text">{t(lang, 'Official feedback')}</label>
          <textarea id="id_moderator_feedback_text" name="moderator_feedback_text" rows={6} {...richTextEditor(lang)}>
            {props.feedback}
          </textarea>
          <FieldErrors errors={props.errors.moderator_feedback_text?.map((e) => t(lang, e))} />
        </div>
        {props.extra}
        <p>
          <button type="submit">{t(lang, 'Save')}</button> <a href={props.cancel}>{t(lang, 'Cancel')}</a>
        </p>
      </form>
    </Layout>
  );
}
