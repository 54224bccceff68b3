import { phaseType, SHARED_COMPONENTS, type PhaseType } from '../../core/modules/registry.js';
import { contentPart, exportFile, mediaPathsOf, type ModuleType } from '../moduletypes/contract.js';
import { columnsWithQuestions, commentExportOf, ideaBatches, ideaSheetOf } from '../idealike/export.js';
import { IdeaListQuery, type IdeaListParams, loadIdeaList } from '../idealike/list.js';
import { IDEA_TILE_COUNT } from '../idealike/content-type.js';
import { IDEA_KIND, ideaContentType } from './idea-kind.js';
import { IdeaList } from '../idealike/views.js';
import { ideasPlugin } from './plugin.js';
import { ideaFixtures } from './fixtures.js';
import { ideas } from './schema.js';
import { customFieldsForm } from '../customfields/dashboard.js';

/**
 * Brainstorming (BS) and Idea Challenge (IC): the two idea module types (§B6). Both collect ideas,
 * which participants comment on and, in an Idea Challenge's second phase, rate.
 */

const phase = (type: string, features: PhaseType['features'], name: PhaseType['name'], description: PhaseType['description']): PhaseType => ({
  type,
  content: 'idea',
  features,
  name,
  description,
});

const COLLECT = phase('a4_candy_ideas:collect', ['crud', 'comment'], { en: 'Collect phase', de: 'Sammelphase' }, { en: 'Create new ideas and comment on them.', de: 'Neue Ideen einreichen und kommentieren.' });
const RATING = phase('a4_candy_ideas:rating', ['rate'], { en: 'Rating phase', de: 'Bewertungsphase' }, { en: 'Rate the collected ideas (pro and contra).', de: 'Die gesammelten Ideen bewerten (pro und contra).' });
/** The other idea phases of the reference (imported data; not in these blueprints). */
const OTHER_IDEA_PHASES = [
  phase('a4_candy_ideas:issue', ['crud'], { en: 'Issue phase', de: 'Themenphase' }, { en: '', de: '' }),
  phase('a4_candy_ideas:feedback', ['rate', 'comment'], { en: 'Feedback phase', de: 'Feedbackphase' }, { en: '', de: '' }),
  phase('a4_candy_ideas:collect_feedback', ['crud', 'comment', 'rate'], { en: 'Collect and feedback phase', de: 'Sammel- und Feedbackphase' }, { en: '', de: '' }),
];

/** The idea list on the module page: for these types, and for any module whose phases are about ideas. */
const ideaList = contentPart({
  load: async (input) => {
    const { module } = input;
    const ideaModule = module.blueprintType === 'BS' || module.blueprintType === 'IC' || module.phases.some((p) => phaseType(p.type)?.content === 'idea');
    if (!ideaModule) return null;
    // The module page's schema validated these (IdeaListQuery is this type's pageQuery).
    const query = input.query as IdeaListParams;
    return loadIdeaList(input.db, { orgSlug: input.orgSlug, path: input.path, module, rules: input.context, userId: input.page.user?.id ?? null, query }, IDEA_KIND);
  },
  View: ({ page, data }) => <IdeaList page={page} data={data} />,
});

const shared = {
  otherPhases: OTHER_IDEA_PHASES,
  components: [SHARED_COMPONENTS.basic, SHARED_COMPONENTS.phases, SHARED_COMPONENTS.categories, SHARED_COMPONENTS.labels, { key: 'custom_fields', label: 'Custom fields' }],
  dashboardForms: { custom_fields: customFieldsForm },
  contentTypes: [ideaContentType],
  tables: ['ideas', 'idea_labels'],
  mediaPaths: mediaPathsOf(ideas, ideas.moduleId, ideas.image),
  countsIdeas: true,
  tileCount: IDEA_TILE_COUNT,
  offered: true,
  pageQuery: IdeaListQuery.properties,
  content: ideaList,
  exports: [
    exportFile({ name: 'ideas', heading: 'Ideas', sheet: ideaSheetOf(IDEA_KIND.segment), batches: (db, moduleId) => ideaBatches(db, moduleId, IDEA_KIND), columns: columnsWithQuestions }),
    commentExportOf(IDEA_KIND),
  ],
  // The idea pages and API serve both types: the app registers a shared plugin once.
  plugin: ideasPlugin,
  mediaColumns: [ideas.image],
  notifications: ['a new idea and a comment on it reach the project’s followers (shared actions)', 'the moderator’s status and statement reach the idea’s creator'],
} satisfies Partial<ModuleType>;

export const brainstorming: ModuleType = {
  ...shared,
  blueprintType: 'BS',
  key: 'brainstorming',
  title: { en: 'Brainstorming', de: 'Brainstorming' },
  description: { en: 'Participants can submit their own ideas and discuss the ideas of others.', de: 'Teilnehmende können eigene Ideen einreichen und die Ideen anderer diskutieren.' },
  phases: [COLLECT],
  // The ideas' loaddata kind serves both idea types: taken once, here.
  fixtures: [ideaFixtures],
};

export const ideaChallenge: ModuleType = {
  ...shared,
  blueprintType: 'IC',
  key: 'idea-collection',
  title: { en: 'Idea Challenge', de: 'Ideenwettbewerb' },
  description: {
    en: 'In a first phase, participants can submit their own ideas and discuss the ideas of others. In a second phase, the ideas can be rated (pro/contra).',
    de: 'In einer ersten Phase können Teilnehmende eigene Ideen einreichen und die Ideen anderer diskutieren. In einer zweiten Phase werden die Ideen bewertet (pro/contra).',
  },
  phases: [COLLECT, RATING],
  appProjectField: 'single_idea_collection_module',
};
