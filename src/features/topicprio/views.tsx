import type { JSX } from 'preact';
import { type Lang, t } from '../../i18n/index.js';
import type { FieldErrors } from '../../http/errors.js';
import { RichText } from '../../web/components.js';
import type { PageContext } from '../../web/context.js';
import { Checkboxes, HTML_HELP, Input, RICH_TEXT_SCRIPTS, Select, TextArea } from '../../web/controls.js';
import type { NamedRef } from '../../core/modules/queries.js';
import { KindBadge, RatingButtons } from '../idealike/views.js';
import { type ModuleAliases, termWords } from '../../core/modules/terms.js';
import { figureText } from '../../web/page-keeping.js';
import type { ItemModule } from '../moduletypes/items.js';
import { AddButton, ItemDeletePage, ItemFilter, ItemFormFrame, ItemPageFrame, ItemPanel } from '../moduletypes/item-views.js';
import { TOPIC_ORDERINGS, type TopicOrdering, topicPath, type TopicRow } from './queries.js';
import { TOPIC_LIMITS } from './rules.js';

const ORDERING_LABELS: Record<TopicOrdering, string> = { name: 'Alphabetical', '-positive_rating_count': 'Most popular', '-comment_count': 'Most commented' };

/** A topic's figures (filled in at sending on a kept page: web/page-keeping.ts). */
const counts = (page: PageContext, topic: TopicRow) =>
  `${figureText(page, 'agrees', `topic:${topic.id}`, topic.positiveRatingCount)}, ${figureText(page, 'disagrees', `topic:${topic.id}`, topic.negativeRatingCount)}, ${figureText(page, 'comments', `topic:${topic.id}`, topic.commentCount)}`;

function Badges({ lang, topic, aliases }: { lang: Lang; topic: TopicRow; aliases: ModuleAliases }) {
  if (!topic.category && !topic.labels.length) return null;
  const words = termWords(lang, aliases);
  return (
    <p>
      {topic.category && <KindBadge lang={lang} kind="category" name={topic.category.name} words={words} />}{' '}
      {topic.labels.map((label) => (
        <>
          <KindBadge lang={lang} kind="label" name={label.name} words={words} />{' '}
        </>
      ))}
    </p>
  );
}

interface TopicListData {
  orgSlug: string;
  path: string;
  topics: TopicRow[];
  search: string;
  category: number | null;
  ordering: TopicOrdering;
  categories: NamedRef[];
  /** The module's own words for category and label. */
  aliases: ModuleAliases;
  create: string | null;
}

/** The module page's part (§8.2): the topics, searchable, filtered by category and ordered (by rating too), each linked by its title. */
export function TopicList({ page, data }: { page: PageContext; data: TopicListData }) {
  const { lang } = page;
  // The order by ratings or comments is baked into a kept page (the figures are filled in at sending): kept per comment and rating too.
  if (data.ordering !== 'name') page.keptCounts?.dependOnComments();
  return (
    <section aria-labelledby="topics-heading" class="topics">
      <h2 id="topics-heading">{t(lang, 'Topics')}</h2>
      {data.create && <AddButton href={data.create} label={t(lang, 'Add topic')} />}
      <ItemFilter lang={lang} data={{ prefix: 'topic', label: t(lang, 'Filter topics'), path: data.path, search: data.search, maxLength: TOPIC_LIMITS.name.maxChars, ordering: data.ordering, orderings: TOPIC_ORDERINGS, orderingLabels: ORDERING_LABELS }}>
        {data.categories.length > 0 && (
          <div class="field">
            <label for="id_topic_category">{termWords(lang, data.aliases).category}</label>
            <select id="id_topic_category" name="topic_category">
              <option value="">{t(lang, 'All')}</option>
              {data.categories.map((c) => (
                <option value={String(c.id)} selected={data.category === c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </div>
        )}
      </ItemFilter>
      {data.topics.length === 0 ? (
        <p>{t(lang, 'Nothing to show')}</p>
      ) : (
        <ul class="item-list">
          {data.topics.map((topic) => (
            <li class="topic-item">
              <h3>
                <a href={topicPath(data.orgSlug, topic.created, topic.id)}>{topic.name}</a>
              </h3>
              <Badges lang={lang} topic={topic} aliases={data.aliases} />
              <p>{counts(page, topic)}</p>
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

interface TopicPageData {
  orgSlug: string;
  module: ItemModule;
  topic: TopicRow;
  path: string;
  mayRate: boolean;
  change: { edit: string; remove: string } | null;
  thread: JSX.Element;
  /** "This became part of": the results that answer the topic (features/results). */
  results?: JSX.Element;
}

/** A topic's page (§8.2): title, category and labels, description, pro and contra, comments. */
export function TopicPage({ page, data }: { page: PageContext; data: TopicPageData }) {
  const { topic } = data;
  return (
    <ItemPageFrame page={page} orgSlug={data.orgSlug} module={data.module} title={topic.name} change={data.change} thread={data.thread}>
      <Badges lang={page.lang} topic={topic} aliases={data.module.aliases} />
      {data.results}
      {topic.image && (
        <figure class="idea-image">
          <img src={`/media/${topic.image}`} alt={t(page.lang, 'Image of the topic %(name)s', { name: topic.name })} />
        </figure>
      )}
      <RichText html={topic.description} />
      <RatingButtons
        page={page}
        counts={{ positive: topic.positiveRatingCount, negative: topic.negativeRatingCount, mine: topic.userRating }}
        mayRate={data.mayRate}
        action={`${data.path}rate/`}
        label={t(page.lang, 'Rate this topic')}
      />
    </ItemPageFrame>
  );
}

export interface TopicFormValues {
  name: string;
  description: string;
  category: string;
  labels: string[];
}

interface TopicFormData {
  orgSlug: string;
  module: ItemModule;
  title: string;
  action: string;
  cancel: string;
  values: TopicFormValues;
  errors: FieldErrors;
}

/** Adding or editing a topic. */
export function TopicFormPage({ page, data }: { page: PageContext; data: TopicFormData }) {
  const { lang } = page;
  const { module } = data;
  const words = termWords(lang, module.aliases);
  return (
    <ItemFormFrame page={page} data={data} scripts={RICH_TEXT_SCRIPTS}>
      <Input name="name" label={t(lang, 'Title')} value={data.values.name} maxLength={TOPIC_LIMITS.name.maxChars} required errors={data.errors.name} help={t(lang, 'max 120 characters')} />
      <TextArea name="description" label={t(lang, 'Description')} value={data.values.description} rows={8} richText={lang} required errors={data.errors.description} help={t(lang, HTML_HELP)} />
      {module.categories.length > 0 && (
        <Select
          name="category"
          label={words.category}
          help={words.categoryHelp || undefined}
          value={data.values.category}
          required
          choices={[{ value: '', label: '---------' }, ...module.categories.map((c) => ({ value: String(c.id), label: c.name }))]}
          errors={data.errors.category}
        />
      )}
      {module.labels.length > 0 && (
        <Checkboxes name="labels" label={words.labels} help={words.labelHelp || undefined} values={data.values.labels} choices={module.labels.map((l) => ({ value: String(l.id), label: l.name }))} errors={data.errors.labels} />
      )}
    </ItemFormFrame>
  );
}

/** Asks before a topic is deleted with its ratings and discussion. */
export function TopicDeletePage({ page, topic, action, cancel }: { page: PageContext; topic: TopicRow; action: string; cancel: string }) {
  const { lang } = page;
  const question = t(lang, 'Do you really want to delete the topic "%(name)s"? Its comments (%(count)s) and ratings are deleted with it.', { name: topic.name, count: topic.commentCount });
  return <ItemDeletePage page={page} title={t(lang, 'Delete topic')} question={question} action={action} cancel={cancel} />;
}

/** The dashboard's "Topics" component: the module's topics with their edit pages, and the way to add one. */
export function TopicPanel({ page, orgSlug, data }: { page: PageContext; orgSlug: string; data: { topics: TopicRow[]; create: string; back: string } }) {
  const { lang } = page;
  const items = data.topics.map((topic) => ({ edit: `${topicPath(orgSlug, topic.created, topic.id)}update/`, name: topic.name, note: counts(page, topic) }));
  const empty = t(lang, 'No topics yet. A prioritisation needs at least one topic to be published.');
  return <ItemPanel data={{ id: 'topics-panel-heading', title: t(lang, 'Topics'), empty, items, create: { href: data.create, label: t(lang, 'Add topic') }, back: data.back }} />;
}
