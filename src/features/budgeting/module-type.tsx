import { eq } from 'drizzle-orm';
import { Type } from 'typebox';
import { proposals } from './schema.js';
import { phaseType, SHARED_COMPONENTS, type PhaseType } from '../../core/modules/registry.js';
import { commentExportOf } from '../idealike/export.js';
import { IdeaListQuery } from '../idealike/list.js';
import { ideaContentTypeOf } from '../idealike/content-type.js';
import { AREA_COMPONENT, AREA_FORM } from '../mapideas/area.js';
import { loadPlaceList, PlaceList } from '../mapideas/list.js';
import { areaFacts } from '../mapideas/queries.js';
import { contentPart, exportFile, mediaPathsOf, type ModuleType } from '../moduletypes/contract.js';
import { PROPOSAL_SHEET, proposalBatches } from './export.js';
import { AREA_FIXTURE_FIELDS, placedFixtureKind } from '../mapideas/fixtures.js';
import { BUDGET_MAX } from './proposal-rules.js';
import { proposalPages } from './plugin.js';
import { loadProposalFacts, PROPOSAL_KIND } from './queries.js';
import { copyBudgetSettings, hashLegacyVoteCodes } from './ballot-services.js';
import { loadWinners } from './ballot-queries.js';
import { ArchivedFilter } from './views.js';
import { euros } from '../../i18n/index.js';

/**
 * Participatory budgeting (PB): proposals are map ideas with a budget (§4.2). Its request phase
 * lets participants submit, comment and rate; the support and voting phases of a real budget
 * (§4.3) are added to this folder on top of the proposals.
 */

const REQUEST = {
  type: 'a4_candy_budgeting:request',
  content: 'proposal',
  features: ['crud', 'comment', 'rate'],
  name: { en: 'Request phase', de: 'Vorschlagsphase' },
  // Budgeting speaks of proposals (issue 37.7); adhocracy+ said "Post ideas with budget proposals".
  description: { en: 'Post proposals with a budget, comment on them and rate them.', de: 'Vorschläge mit einem Budget einreichen, kommentieren und bewerten.' },
} satisfies PhaseType;
/** adhocracy+'s own identifier of the request phase (imported data). */
const SUBMIT: PhaseType = { ...REQUEST, type: 'a4_candy_budgeting:submit' };

/** The list's archived filter: "" all, "false" not archived (the default), "true" archived. */
const ArchivedQuery = { is_archived: Type.Optional(Type.Union([Type.Literal(''), Type.Literal('false'), Type.Literal('true')])) };

const proposalList = contentPart({
  load: async (input) => {
    const { module } = input;
    const ours = module.blueprintType === 'PB' || module.phases.some((p) => phaseType(p.type)?.content === 'proposal');
    if (!ours) return null;
    const archived = input.query.is_archived ?? 'false';
    const where = archived === '' ? undefined : eq(proposals.isArchived, archived === 'true');
    const lang = input.page.lang;
    const data = await loadPlaceList(input, PROPOSAL_KIND, where, async () => ({ extraFilters: <ArchivedFilter lang={lang} value={archived} /> }));
    const facts = await loadProposalFacts(input.db, data.list.ideas.map((i) => i.id));
    return { ...data, facts };
  },
  View: ({ page, data }) => (
    <PlaceList
      page={page}
      data={data}
      itemExtra={(idea) => {
        const budget = data.facts.get(idea.id)?.budget ?? 0;
        return budget > 0 ? <p class="proposal-budget">{euros(page.lang, budget)}</p> : null;
      }}
    />
  ),
});

export const participatoryBudgeting: ModuleType = {
  blueprintType: 'PB',
  key: 'participatory-budgeting',
  title: { en: 'Participatory budgeting', de: 'Bürgerhaushalt' },
  description: {
    en: 'Participants can submit their own proposals, mark them on a map, and add a budget. The proposals of others can be discussed and rated (pro/contra).',
    de: 'Teilnehmende können eigene Vorschläge einreichen, auf einer Karte verorten und mit einem Budget versehen. Die Vorschläge anderer können diskutiert und bewertet werden (pro/contra).',
  },
  offered: true,
  phases: [REQUEST],
  otherPhases: [SUBMIT],
  components: [SHARED_COMPONENTS.basic, SHARED_COMPONENTS.phases, AREA_COMPONENT, SHARED_COMPONENTS.categories, SHARED_COMPONENTS.labels],
  facts: areaFacts,
  dashboardForms: { area_settings: AREA_FORM },
  contentTypes: [{ ...ideaContentTypeOf(PROPOSAL_KIND, { id: 13, appLabel: 'a4_candy_budgeting', model: 'proposal' }, { one: { en: 'reported proposal', de: 'gemeldeter Vorschlag' }, many: { en: 'reported proposals', de: 'gemeldete Vorschläge' } }), winners: loadWinners }],
  tables: ['proposals', 'proposal_labels', 'budget_settings', 'proposal_supports', 'budget_ballots', 'budget_ballot_choices', 'budget_vote_codes'],
  mediaPaths: mediaPathsOf(proposals, proposals.moduleId, proposals.image),
  copySettings: copyBudgetSettings,
  afterMigrate: async (db, config) => {
    const hashed = await hashLegacyVoteCodes(db, config.secretKey);
    return hashed ? `${hashed} vote codes kept in the clear from before are now stored as keyed hashes.` : null;
  },
  countsIdeas: true,
  tileCount: { one: { en: '%(count)s proposal', de: '%(count)s Vorschlag' }, many: { en: '%(count)s proposals', de: '%(count)s Vorschläge' } },
  pageQuery: { ...IdeaListQuery.properties, ...ArchivedQuery },
  content: proposalList,
  exports: [exportFile({ name: 'proposals', heading: 'Proposals', sheet: PROPOSAL_SHEET, batches: proposalBatches }), commentExportOf(PROPOSAL_KIND)],
  plugin: proposalPages,
  fixtures: [
    placedFixtureKind('proposals', 'proposals', PROPOSAL_KIND, { budget: Type.Integer({ minimum: 0, maximum: BUDGET_MAX }), is_archived: Type.Optional(Type.Boolean()) }, (r) => ({ budget: r.budget, is_archived: r.is_archived ?? false })),
  ],
  notifications: ['a new proposal and a comment on it reach the project’s followers (shared actions)', 'the moderator’s status and statement reach the proposal’s creator'],
  fixtureModuleFields: AREA_FIXTURE_FIELDS,
  mediaColumns: [proposals.image],
};
