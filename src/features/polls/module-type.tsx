import { and, count, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { QUESTION_PLACEHOLDER } from '../../http/challenge.js';
import { pollQuestions, polls } from './schema.js';
import { loadOrganisationTerms } from '../../core/organisations/queries.js';
import { SHARED_COMPONENTS } from '../../core/modules/registry.js';
import { type Lang, t } from '../../i18n/index.js';
import { loginRedirectUrl } from '../../web/render.js';
import { modulePath } from '../../core/urls.js';
import { contentPart, type ModuleType } from '../moduletypes/contract.js';
import { handOverItems, itemsInModules, itemTarget } from '../moduletypes/items.js';
import { ItemThread } from '../threads/items.js';
import { pollEditor } from './editor.js';
import { pollExport } from './export.js';
import { pollFixtures } from './fixtures.js';
import { pollView } from './page-model.js';
import { pollsPlugin } from './plugin.js';
import { ballotsInModules, loadModulePoll, loadPollContent, pollPlaces, pollsNamed, questionPlaces, questionsInModules, questionsNamed } from './queries.js';
import { type PollView, PollSection, questionAnchor } from './views.js';
import { loadResultsOf, loadResultsOfEach, type ResultOfItem } from '../results/queries.js';
import { BecamePartOf } from '../results/views.js';

/**
 * Poll (PO, adhocracy4's a4polls): one poll per module with single-choice, multiple-choice and
 * open questions; the adhocracy+ poll API (routes.ts), the module page's form and results, the
 * dashboard's question editor, the export of one row per voter, and comments on the poll.
 */

/** Beside a question of the poll: the results that answer it (issue 39), or nothing. */
function becamePartOfQuestion(lang: Lang, data: { view: PollView; becameOf: { questions: Map<number, ResultOfItem[]> } }, questionId: number) {
  const results = data.becameOf.questions.get(questionId);
  return results?.length ? <BecamePartOf lang={lang} results={results} part={data.view.questions.find((q) => q.id === questionId)?.label} /> : null;
}

const pollPart = contentPart({
  load: async (input) => {
    // The module page's statement brought the polls' ids (PageModule.items): no poll, no statement.
    if (!input.module.items.poll?.length) return null;
    const target = await loadModulePoll(input.db, input.module.id, input.context.project.user);
    if (!target) return null;
    const userId = input.context.project.user?.id ?? null;
    const [content, terms] = [await loadPollContent(input.db, target.poll.id, userId), await loadOrganisationTerms(input.db, target.rules.project.organisationId, userId)];
    // What became of the poll and of each question (issue 39): two statements.
    const becameOf = { poll: await loadResultsOf(input.db, 'poll', target.poll.id), questions: await loadResultsOfEach(input.db, 'pollquestion', content.questions.map((q) => q.id)) };
    // The module page (sendKeptPage) puts a fresh no-script question per visitor in the placeholder's place.
    return { view: pollView(target, content, terms, QUESTION_PLACEHOLDER, loginRedirectUrl(input.path)), moduleName: input.module.name, becameOf };
  },
  threads: (data) => [{ type: 'poll' as const, id: data.view.pollId }],
  View: ({ page, data, threads }) => (
    <section aria-labelledby="poll-heading" id={`poll-${data.view.pollId}`}>
      <h2 id="poll-heading">{t(page.lang, 'Poll')}</h2>
      <BecamePartOf lang={page.lang} results={data.becameOf.poll} />
      <PollSection page={page} view={data.view} beside={(id) => becamePartOfQuestion(page.lang, data, id)} />
      <ItemThread page={page} threads={threads} object={{ type: 'poll', id: data.view.pollId }} />
    </section>
  ),
});

export const poll: ModuleType = {
  blueprintType: 'PO',
  key: 'poll',
  title: { en: 'Poll', de: 'Umfrage' },
  description: { en: 'Participants can answer open and multiple choice questions and comment on the poll.', de: 'Teilnehmende können offene und Multiple-Choice-Fragen beantworten und die Umfrage kommentieren.' },
  offered: true,
  phases: [
    {
      type: 'a4polls:voting',
      content: 'poll',
      features: ['vote', 'comment'],
      name: { en: 'Voting phase', de: 'Abstimmungsphase' },
      description: { en: 'Answer the questions and comment on the poll.', de: 'Beantworten Sie die Fragen und kommentieren Sie die Umfrage.' },
    },
  ],
  components: [
    SHARED_COMPONENTS.basic,
    SHARED_COMPONENTS.phases,
    { key: 'polls', label: { en: 'Poll', de: 'Umfrage' }, missing: (module) => (Number(module.facts?.questions ?? 0) > 0 ? [] : [{ field: { en: 'At least one question', de: 'Mindestens eine Frage' } }]) },
  ],
  facts: async (db, moduleIds) => {
    const rows = moduleIds.length
      ? await db.select({ moduleId: polls.moduleId, questions: count(pollQuestions.id) }).from(polls).innerJoin(pollQuestions, eq(pollQuestions.pollId, polls.id)).where(inArray(polls.moduleId, moduleIds)).groupBy(polls.moduleId)
      : [];
    const byModule = new Map(rows.map((r) => [r.moduleId, r.questions]));
    return new Map(moduleIds.map((id) => [id, { questions: byModule.get(id) ?? 0 }]));
  },
  contentTypes: [
    {
      kind: 'poll',
      id: 5,
      appLabel: 'a4polls',
      model: 'poll',
      commentable: true,
      // A poll is named after its module.
      resultable: { named: pollsNamed },
      target: itemTarget(polls),
      inModules: itemsInModules(polls),
      onModulePage: true,
      inFeed: false,
      // A poll's page is its module's page.
      pages: async (db, ids) => new Map((await pollPlaces(db, ids)).map((p) => [p.id, { path: modulePath(p.orgSlug, p.moduleSlug), name: p.moduleName }])),
      onAuthorDeleted: handOverItems(polls.creatorId),
    },
    {
      // A question of a poll, so that a result can answer one question rather than the whole poll (issue 39).
      kind: 'pollquestion',
      id: 19,
      appLabel: 'a4polls',
      model: 'question',
      resultable: { named: questionsNamed },
      target: async (db, id) => {
        const [question] = await questionPlaces(db, [id]);
        return question ? { moduleId: question.moduleId, creatorId: null } : null;
      },
      inModules: questionsInModules,
      inFeed: false,
      pages: async (db, ids) => new Map((await questionPlaces(db, ids)).map((q) => [q.id, { path: `${modulePath(q.orgSlug, q.moduleSlug)}#${questionAnchor(q.id)}`, name: q.label }])),
      // The poll's questions are the poll's: they go with it, never with a voter's account.
      onAuthorDeleted: async () => [],
    },
  ],
  tables: ['polls', 'poll_questions', 'poll_choices', 'poll_votes', 'poll_answers'],
  // A poll's tile counts its ballots: each voter once, with an account or without.
  tileCount: { one: { en: '%(count)s ballot', de: '%(count)s Stimmabgabe' }, many: { en: '%(count)s ballots', de: '%(count)s Stimmabgaben' }, items: ballotsInModules },
  mediaPaths: async (db, moduleIds) =>
    moduleIds.length
      ? (
          await db
            .select({ path: sql<string>`${pollQuestions.image}` })
            .from(pollQuestions)
            .innerJoin(polls, eq(polls.id, pollQuestions.pollId))
            .where(and(inArray(polls.moduleId, moduleIds), isNotNull(pollQuestions.image)))
        ).map((row) => row.path)
      : [],
  dashboardForms: { polls: pollEditor },
  exports: [pollExport],
  appProjectField: 'single_poll_module',
  plugin: pollsPlugin,
  mediaColumns: [pollQuestions.image],
  content: pollPart,
  fixtures: pollFixtures,
  notifications: ['Voting in a poll makes a registered voter follow the project, so that they hear of its news and phases.', 'Comments on the poll notify as comments on ideas do.'],
};
