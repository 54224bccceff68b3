import { Type } from 'typebox';
import { topics } from './schema.js';
import { SHARED_COMPONENTS } from '../../core/modules/registry.js';
import { moduleComponentPath } from '../../web/paths.js';
import { contentPart, dashboardPanel, type ModuleType } from '../moduletypes/contract.js';
import { handOverItems, itemCountFacts, itemsInModules, itemsNamed, itemTarget } from '../moduletypes/items.js';
import { TOPIC_EXPORTS } from './export.js';
import { topicFixtures } from './fixtures.js';
import { topicPages } from './pages.js';
import { countTopics, loadTopics, TOPIC_ORDERINGS, type TopicOrdering, topicCreatePath, topicPath, topicPlaces } from './queries.js';
import { canAddTopic, TOPIC_LIMITS } from './rules.js';
import { TopicList, TopicPanel } from './views.js';

/**
 * Prioritisation (TP, §8): initiators and moderators post topics with categories and labels; while
 * the prioritisation phase runs, participants rate them pro and contra and discuss them.
 */

/** The module page's list state in the address (names of their own, beside the idea list's). */
const TopicListQuery = {
  topic_search: Type.Optional(Type.String({ maxLength: TOPIC_LIMITS.name.maxChars })),
  topic_category: Type.Optional(Type.String({ maxLength: 10, pattern: '^\\d{0,9}$' })),
  topic_ordering: Type.Optional(Type.Union([Type.Literal(''), ...TOPIC_ORDERINGS.map((o) => Type.Literal(o))])),
  // adhocracy+'s parameter (issue 36.13); the idea list takes `ordering` too, so the module page's
  // schema allows the values of both, and each list keeps to its own.
  ordering: Type.Optional(Type.Union([Type.Literal(''), ...TOPIC_ORDERINGS.map((o) => Type.Literal(o))])),
};
const isTopicOrdering = (value: string | undefined): value is TopicOrdering => TOPIC_ORDERINGS.some((o) => o === value);

const topicList = contentPart({
  load: async (input) => {
    if (input.module.blueprintType !== 'TP') return null;
    const search = (input.query.topic_search ?? '').trim();
    const asked = input.query.ordering || input.query.topic_ordering;
    const ordering: TopicOrdering = isTopicOrdering(asked) ? asked : 'name';
    const category = input.query.topic_category ? Number(input.query.topic_category) : null;
    const rows = await loadTopics(input.db, { moduleId: input.module.id, search: search || undefined, categoryId: category ?? undefined, ordering }, input.page.user?.id ?? null);
    const create = canAddTopic(input.context) ? topicCreatePath(input.orgSlug, input.module.slug) : null;
    return { orgSlug: input.orgSlug, path: input.path, topics: rows, search, category, ordering, categories: input.module.categories, aliases: input.module.aliases, create };
  },
  View: ({ page, data }) => <TopicList page={page} data={data} />,
});

const topicPanel = dashboardPanel({
  load: async (db, module, orgSlug) => ({
    topics: await loadTopics(db, { moduleId: module.id }, null),
    create: topicCreatePath(orgSlug, module.slug),
    back: moduleComponentPath(orgSlug, module.slug, 'topic_edit'),
  }),
  View: ({ page, orgSlug, data }) => <TopicPanel page={page} orgSlug={orgSlug} data={data} />,
});

export const prioritisation: ModuleType = {
  blueprintType: 'TP',
  key: 'topic-prioritization',
  title: { en: 'Prioritization', de: 'Priorisierung' },
  description: {
    en: 'Participants can discuss and rate (pro/contra) previously added ideas and topics. Participants cannot add ideas or topics.',
    de: 'Teilnehmende können vorher hinzugefügte Ideen und Themen diskutieren und bewerten (pro/contra). Teilnehmende können keine Ideen oder Themen hinzufügen.',
  },
  offered: true,
  phases: [
    { type: 'a4_candy_topicprio:prioritize', content: 'topic', features: ['comment', 'rate'], name: { en: 'Prioritize phase', de: 'Priorisierungsphase' }, description: { en: 'Prioritize and comment topics.', de: 'Themen priorisieren und kommentieren.' } },
  ],
  components: [
    SHARED_COMPONENTS.basic,
    SHARED_COMPONENTS.phases,
    {
      key: 'topic_edit',
      label: { en: 'Topics', de: 'Themen' },
      missing: (module) => (Number(module.facts?.topics ?? 0) > 0 ? [] : [{ field: { en: 'Topics: at least one topic', de: 'Themen: mindestens ein Thema' } }]),
    },
    SHARED_COMPONENTS.categories,
    SHARED_COMPONENTS.labels,
  ],
  facts: itemCountFacts('topics', countTopics),
  dashboardPanels: { topic_edit: topicPanel },
  tables: ['topics', 'topic_labels'],
  tileCount: { one: { en: '%(count)s topic', de: '%(count)s Thema' }, many: { en: '%(count)s topics', de: '%(count)s Themen' } },
  contentTypes: [
    {
      kind: 'topic',
      id: 15,
      appLabel: 'a4_candy_topicprio',
      model: 'topic',
      commentable: true,
      rateable: true,
      resultable: { named: itemsNamed(topics) },
      target: itemTarget(topics),
      inModules: itemsInModules(topics),
      onAuthorDeleted: handOverItems(topics.creatorId),
      pages: async (db, ids) => new Map((await topicPlaces(db, ids)).map((r) => [r.id, { path: topicPath(r.orgSlug, r.created, r.id), name: r.name }])),
    },
  ],
  pageQuery: TopicListQuery,
  content: topicList,
  plugin: topicPages,
  mediaColumns: [topics.image],
  exports: TOPIC_EXPORTS,
  notifications: ['a comment on a topic reaches the project’s followers and moderators (shared actions)'],
  fixtures: [topicFixtures],
};
