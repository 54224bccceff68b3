import type { ModuleType } from '../moduletypes/contract.js';
import { RESULT_EXPORT, SUPPORT_PHASE_TYPE, VOTING_COMPONENTS, VOTING_FORMS, VOTING_PHASE_TYPE, votingFacts, votingPart } from './voting-parts.js';
import { votingPages } from './ballot-pages.js';

/**
 * The participatory budgets beyond adhocracy+ (issue 24, part 3; meinBerlin's PB2 and PB3, spec
 * §4.3): the participatory budgeting type (PB, its request phase, proposals, area and pages) with a
 * voting phase after the request phase (PB2), or a support phase and then a voting phase (PB3). They
 * share everything of PB and add the phases, the dashboard components "Support", "Voting" and "Vote
 * codes", the module page's links to the support, ballot and result pages, and the result export.
 * A module of any type whose phases include the support or voting phase (loaddata) gets the same pages.
 */
export function budgetVotingTypes(pb: ModuleType): ModuleType[] {
  const request = pb.phases[0];
  const facts: ModuleType['facts'] = async (db, ids) => {
    const own = await votingFacts(db, ids);
    const base = pb.facts ? await pb.facts(db, ids) : new Map<number, Record<string, unknown>>();
    return new Map(ids.map((id) => [id, { ...base.get(id), ...own.get(id) }]));
  };
  const shared = {
    ...pb,
    appProjectField: undefined,
    // The proposals' fixture kind is PB's, declared once.
    fixtures: undefined,
    offered: true,
    otherPhases: [...(pb.otherPhases ?? [])],
    facts,
    dashboardForms: { ...pb.dashboardForms, ...VOTING_FORMS },
    content: votingPart,
    exports: [...(pb.exports ?? []), RESULT_EXPORT],
  } satisfies ModuleType;
  const withVoting: ModuleType = {
    ...shared,
    blueprintType: 'PB2',
    key: 'participatory-budgeting-voting',
    title: { en: 'Participatory budgeting with a vote', de: 'Bürgerhaushalt mit Abstimmung' },
    description: {
      en: 'Participants submit proposals with a budget and mark them on a map. In a second phase they vote on them with a ballot, also with vote codes and without an account.',
      de: 'Teilnehmende reichen Vorschläge mit einem Budget ein und verorten sie auf einer Karte. In einer zweiten Phase stimmen sie mit einem Stimmzettel darüber ab, auch mit Abstimmungscodes und ohne Konto.',
    },
    phases: [request, VOTING_PHASE_TYPE],
    components: [...pb.components, ...VOTING_COMPONENTS.filter((c) => c.key !== 'support_settings')],
    // The pages of the support and voting phases are registered once, with this type.
    plugin: votingPages,
  };
  const withSupportAndVoting: ModuleType = {
    ...shared,
    blueprintType: 'PB3',
    key: 'participatory-budgeting-support-voting',
    title: { en: 'Participatory budgeting with support and vote', de: 'Bürgerhaushalt mit Unterstützung und Abstimmung' },
    description: {
      en: 'Participants submit proposals with a budget and mark them on a map. Then each participant supports a few of them; the proposals with enough supports go on to the vote with a ballot, also with vote codes and without an account.',
      de: 'Teilnehmende reichen Vorschläge mit einem Budget ein und verorten sie auf einer Karte. Dann unterstützt jede Person einige davon; die Vorschläge mit genug Unterstützung kommen zur Abstimmung mit einem Stimmzettel, auch mit Abstimmungscodes und ohne Konto.',
    },
    phases: [request, SUPPORT_PHASE_TYPE, VOTING_PHASE_TYPE],
    components: [...pb.components, ...VOTING_COMPONENTS],
    plugin: undefined,
  };
  return [withVoting, withSupportAndVoting];
}
