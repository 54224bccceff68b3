import { phaseType, SHARED_COMPONENTS, type PhaseType } from '../../core/modules/registry.js';
import { mapIdeas } from './schema.js';
import { IdeaListQuery } from '../idealike/list.js';
import { commentExportOf } from '../idealike/export.js';
import { IDEA_TILE_COUNT, ideaContentTypeOf } from '../idealike/content-type.js';
import { contentPart, exportFile, mediaPathsOf, type ModuleType } from '../moduletypes/contract.js';
import { AREA_COMPONENT, AREA_FORM } from './area.js';
import { placedBatches, placedSheetOf } from './export.js';
import { loadPlaceList, PlaceList } from './list.js';
import { AREA_FIXTURE_FIELDS, placedFixtureKind } from './fixtures.js';
import { mapIdeaPages } from './plugin.js';
import { areaFacts, MAPIDEA_KIND } from './queries.js';

/**
 * Spatial Brainstorming (MBS) and Spatial Idea Challenge (MIC): ideas with a place inside the
 * module's area (§4.1, §11). Everything of ideas (filters, orderings, moderation, ratings,
 * comments, reports, images, exports) comes from the idea code over the map ideas' table.
 */

const phase = (type: string, features: PhaseType['features'], name: PhaseType['name'], description: PhaseType['description']): PhaseType => ({ type, content: 'mapidea', features, name, description });

const COLLECT = phase(
  'a4_candy_mapideas:collect',
  ['crud', 'comment'],
  { en: 'Collect phase', de: 'Phase zur Einreichung von Ideen' },
  { en: 'Create new ideas located on a map and comment on them.', de: 'Neue Ideen auf einer Karte verorten und kommentieren.' },
);
const RATING = phase(
  'a4_candy_mapideas:rating',
  ['rate'],
  { en: 'Rating phase', de: 'Bewertungsphase' },
  { en: 'Rate the previously collected ideas to get quantitative feedback.', de: 'Die gesammelten Ideen bewerten, um ein quantitatives Feedback zu erhalten.' },
);
/** The other map idea phases of the reference (imported data; not in these blueprints). */
const OTHER_PHASES = [
  phase('a4_candy_mapideas:issue', ['crud'], { en: 'Issue phase', de: 'Themenphase' }, { en: 'Create new ideas, locate them on a map and comment on them.', de: 'Neue Ideen einreichen und auf einer Karte verorten.' }),
  phase('a4_candy_mapideas:feedback', ['rate', 'comment'], { en: 'Feedback phase', de: 'Feedbackphase' }, { en: 'Get feedback for collected ideas through rates and comments.', de: 'Feedback zu den Ideen durch Bewertungen und Kommentare.' }),
  phase(
    'a4_candy_mapideas:collect_feedback',
    ['crud', 'comment', 'rate'],
    { en: 'Collect ideas and get feedback', de: 'Ideen sammeln und Feedback erhalten' },
    { en: 'Create new ideas located on a map and get feedback through rates and comments.', de: 'Neue Ideen auf einer Karte verorten und Feedback durch Bewertungen und Kommentare erhalten.' },
  ),
];

/** The list with the map on the module page: for these types, and for any module whose phases are about map ideas. */
const mapIdeaList = contentPart({
  load: async (input) => {
    const { module } = input;
    const ours = module.blueprintType === 'MBS' || module.blueprintType === 'MIC' || module.phases.some((p) => phaseType(p.type)?.content === 'mapidea');
    return ours ? loadPlaceList(input, MAPIDEA_KIND) : null;
  },
  View: ({ page, data }) => <PlaceList page={page} data={data} />,
});

const shared = {
  otherPhases: OTHER_PHASES,
  components: [SHARED_COMPONENTS.basic, SHARED_COMPONENTS.phases, AREA_COMPONENT, SHARED_COMPONENTS.categories, SHARED_COMPONENTS.labels],
  facts: areaFacts,
  dashboardForms: { area_settings: AREA_FORM },
  contentTypes: [ideaContentTypeOf(MAPIDEA_KIND, { id: 12, appLabel: 'a4_candy_mapideas', model: 'mapidea' }, { one: { en: 'reported map idea', de: 'gemeldete Kartenidee' }, many: { en: 'reported map ideas', de: 'gemeldete Kartenideen' } })],
  tables: ['map_ideas', 'map_idea_labels'],
  mediaPaths: mediaPathsOf(mapIdeas, mapIdeas.moduleId, mapIdeas.image),
  countsIdeas: true,
  tileCount: IDEA_TILE_COUNT,
  offered: true,
  pageQuery: IdeaListQuery.properties,
  content: mapIdeaList,
  exports: [exportFile({ name: 'ideas', heading: 'Ideas', sheet: placedSheetOf(MAPIDEA_KIND), batches: (db, moduleId) => placedBatches(db, moduleId, MAPIDEA_KIND) }), commentExportOf(MAPIDEA_KIND)],
  notifications: ['a new map idea and a comment on it reach the project’s followers (shared actions)', 'the moderator’s status and statement reach the idea’s creator'],
  fixtureModuleFields: AREA_FIXTURE_FIELDS,
  mediaColumns: [mapIdeas.image],
} satisfies Partial<ModuleType>;

export const mapBrainstorming: ModuleType = {
  ...shared,
  blueprintType: 'MBS',
  key: 'map-brainstorming',
  title: { en: 'Spatial Brainstorming', de: 'Brainstorming mit Karte' },
  description: {
    en: 'Participants can submit their own ideas and locate them on a map. They can also discuss the ideas of others.',
    de: 'Teilnehmende können eigene Ideen einreichen und auf einer Karte verorten. Sie können auch die Ideen anderer diskutieren.',
  },
  phases: [COLLECT],
  // The map ideas' pages and loaddata kind serve both map types: registered once, here.
  plugin: mapIdeaPages,
  fixtures: [placedFixtureKind('map_ideas', 'map_ideas', MAPIDEA_KIND, {}, () => ({}))],
};

export const mapIdeaChallenge: ModuleType = {
  ...shared,
  blueprintType: 'MIC',
  key: 'map-idea-collection',
  title: { en: 'Spatial Idea Challenge', de: 'Ideenwettbewerb mit Karte' },
  description: {
    en: 'In a first phase, participants can submit their own ideas, mark them on a map, and discuss the ideas of others. In a second phase, the ideas can be rated (pro/contra).',
    de: 'In einer ersten Phase können Teilnehmende eigene Ideen einreichen, sie auf einer Karte verorten und die Ideen anderer diskutieren. In einer zweiten Phase werden die Ideen bewertet (pro/contra).',
  },
  phases: [COLLECT, RATING],
};
