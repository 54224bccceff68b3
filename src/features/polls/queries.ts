import { asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { modules, organisations, projects } from '../../db/schema/index.js';
import { pollAnswers, pollChoices, pollQuestions, polls, pollVotes } from './schema.js';
import { qualified as q } from '../../db/sql.js';
import { type LoadedModuleContext, loadModuleContext } from '../../core/projects/context.js';
import type { RuleUser } from '../../core/projects/rules.js';
import type { BallotChoice, BallotQuestion, StoredQuestion } from './rules.js';

/** A poll with its module, project and organisation names, and the caller's rule context. */
export interface PollTarget {
  poll: { id: number; moduleId: number; creatorId: number; allowUnregisteredUsers: boolean; hideResultsUntilFinished: boolean };
  module: { name: string; description: string; slug: string };
  organisationSlug: string;
  rules: LoadedModuleContext;
}

const pollFields = {
  id: polls.id,
  moduleId: polls.moduleId,
  creatorId: polls.creatorId,
  allowUnregisteredUsers: polls.allowUnregisteredUsers,
  hideResultsUntilFinished: polls.hideResultsUntilFinished,
  moduleName: modules.name,
  moduleDescription: modules.description,
  moduleSlug: modules.slug,
  organisationSlug: organisations.slug,
};

interface PollRow {
  id: number;
  moduleId: number;
  creatorId: number;
  allowUnregisteredUsers: boolean;
  hideResultsUntilFinished: boolean;
  moduleName: string;
  moduleDescription: string | null;
  moduleSlug: string;
  organisationSlug: string;
}

async function targetOf(db: DbOrTx, row: PollRow | undefined, user: RuleUser): Promise<PollTarget | null> {
  if (!row) return null;
  const rules = await loadModuleContext(db, row.moduleId, user);
  if (!rules) return null;
  const { moduleName, moduleDescription, moduleSlug, organisationSlug, ...poll } = row;
  return { poll, module: { name: moduleName, description: moduleDescription ?? '', slug: moduleSlug }, organisationSlug, rules };
}

const pollRows = (db: DbOrTx) =>
  db.select(pollFields).from(polls).innerJoin(modules, eq(modules.id, polls.moduleId)).innerJoin(projects, eq(projects.id, modules.projectId)).innerJoin(organisations, eq(organisations.id, projects.organisationId));

/** A poll by id with the caller's context; null when there is none. */
export async function loadPollTarget(db: DbOrTx, pollId: number, user: RuleUser): Promise<PollTarget | null> {
  const [row] = await pollRows(db).where(eq(polls.id, pollId));
  return targetOf(db, row, user);
}

/** A module's poll (the first, adhocracy4 has one per module) with the caller's context; null when it has none yet. */
export async function loadModulePoll(db: DbOrTx, moduleId: number, user: RuleUser): Promise<PollTarget | null> {
  const [row] = await pollRows(db).where(eq(polls.moduleId, moduleId)).orderBy(asc(polls.id)).limit(1);
  return targetOf(db, row, user);
}

interface ChoiceRow {
  id: number;
  label: string;
  isOtherChoice: boolean;
  count: number;
}

export interface QuestionRow {
  id: number;
  label: string;
  helpText: string;
  multipleChoice: boolean;
  isOpen: boolean;
  isConfidential: boolean;
  image: string | null;
  imageAltText: string;
  choices: ChoiceRow[];
  /** Distinct voters, vote rows, distinct answerers. */
  voterCount: number;
  voteCount: number;
  answerCount: number;
  answers: { id: number; answer: string; creatorId: number | null }[];
  otherAnswers: { voteId: number; answer: string; creatorId: number | null }[];
  userChoices: number[];
  userAnswer: { id: number; answer: string } | null;
  userOtherVote: { id: number; answer: string } | null;
}

/** The poll's questions with counts, answers and the caller's own votes, in a constant number of statements. */
export interface PollContent {
  questions: QuestionRow[];
  totalParticipants: number;
  /** Unregistered ballots, and the distinct client addresses (keyed hashes) they came from. */
  unregistered: { ballots: number; addresses: number };
  hasUserVote: boolean;
}

/** Who voted: the account, or the ballot's token for unregistered voters (or the vote itself once its account is gone). */
const voterKey = (creator: typeof pollVotes.creatorId | typeof pollAnswers.creatorId, token: typeof pollVotes.voterToken | typeof pollAnswers.voterToken, id: typeof pollVotes.id | typeof pollAnswers.id, prefix: string) =>
  sql`coalesce('u' || ${q(creator)}::text, 't' || ${q(token)}::text, ${prefix} || ${q(id)}::text)`;

function unregisteredBallots(rows: { voter: string; address: string | null }[]): PollContent['unregistered'] {
  const anonymous = rows.filter((r) => r.voter.startsWith('t'));
  return { ballots: new Set(anonymous.map((r) => r.voter)).size, addresses: new Set(anonymous.flatMap((r) => (r.address ? [r.address] : []))).size };
}

export async function loadPollContent(db: DbOrTx, pollId: number, userId: number | null): Promise<PollContent> {
  const questions = await db
    .select({
      id: pollQuestions.id,
      label: pollQuestions.label,
      helpText: pollQuestions.helpText,
      multipleChoice: pollQuestions.multipleChoice,
      isOpen: pollQuestions.isOpen,
      isConfidential: pollQuestions.isConfidential,
      image: pollQuestions.image,
      imageAltText: pollQuestions.imageAltText,
    })
    .from(pollQuestions)
    .where(eq(pollQuestions.pollId, pollId))
    .orderBy(asc(pollQuestions.weight), asc(pollQuestions.id));
  if (!questions.length) return { questions: [], totalParticipants: 0, unregistered: { ballots: 0, addresses: 0 }, hasUserVote: false };
  const ids = questions.map((x) => x.id);
  const [choices, votes, answers] = await Promise.all([
    db
      .select({ id: pollChoices.id, questionId: pollChoices.questionId, label: pollChoices.label, isOtherChoice: pollChoices.isOtherChoice })
      .from(pollChoices)
      .where(inArray(pollChoices.questionId, ids))
      .orderBy(asc(pollChoices.weight), asc(pollChoices.id)),
    db
      .select({ id: pollVotes.id, choiceId: pollVotes.choiceId, questionId: pollChoices.questionId, creatorId: pollVotes.creatorId, voter: voterKey(pollVotes.creatorId, pollVotes.voterToken, pollVotes.id, 'v').mapWith(String), address: pollVotes.voterAddress, otherChoiceAnswer: pollVotes.otherChoiceAnswer })
      .from(pollVotes)
      .innerJoin(pollChoices, eq(pollChoices.id, pollVotes.choiceId))
      .where(inArray(pollChoices.questionId, ids))
      .orderBy(asc(pollVotes.id)),
    db
      .select({ id: pollAnswers.id, questionId: pollAnswers.questionId, creatorId: pollAnswers.creatorId, voter: voterKey(pollAnswers.creatorId, pollAnswers.voterToken, pollAnswers.id, 'a').mapWith(String), address: pollAnswers.voterAddress, answer: pollAnswers.answer })
      .from(pollAnswers)
      .where(inArray(pollAnswers.questionId, ids))
      .orderBy(asc(pollAnswers.id)),
  ]);
  const participants = new Set([...votes.map((v) => v.voter), ...answers.map((a) => a.voter)]);
  const rows = questions.map((question): QuestionRow => {
    const own = votes.filter((v) => v.questionId === question.id);
    const ownAnswers = answers.filter((a) => a.questionId === question.id);
    const otherChoiceIds = new Set(choices.filter((c) => c.questionId === question.id && c.isOtherChoice).map((c) => c.id));
    const userAnswer = userId === null ? undefined : ownAnswers.find((a) => a.creatorId === userId);
    const userOther = userId === null ? undefined : own.find((v) => v.creatorId === userId && otherChoiceIds.has(v.choiceId));
    return {
      ...question,
      choices: choices.filter((c) => c.questionId === question.id).map((c) => ({ id: c.id, label: c.label, isOtherChoice: c.isOtherChoice, count: own.filter((v) => v.choiceId === c.id).length })),
      voterCount: new Set(own.map((v) => v.voter)).size,
      voteCount: own.length,
      answerCount: new Set(ownAnswers.map((a) => a.voter)).size,
      answers: ownAnswers.map((a) => ({ id: a.id, answer: a.answer, creatorId: a.creatorId })),
      otherAnswers: own.filter((v) => otherChoiceIds.has(v.choiceId) && v.otherChoiceAnswer !== null).map((v) => ({ voteId: v.id, answer: v.otherChoiceAnswer ?? '', creatorId: v.creatorId })),
      userChoices: userId === null ? [] : own.filter((v) => v.creatorId === userId).map((v) => v.choiceId),
      userAnswer: userAnswer ? { id: userAnswer.id, answer: userAnswer.answer } : null,
      userOtherVote: userOther ? { id: userOther.id, answer: userOther.otherChoiceAnswer ?? '' } : null,
    };
  });
  const hasUserVote = userId !== null && (votes.some((v) => v.creatorId === userId) || answers.some((a) => a.creatorId === userId));
  return { questions: rows, totalParticipants: participants.size, unregistered: unregisteredBallots([...votes, ...answers]), hasUserVote };
}

/** The questions and choices a ballot names (any poll, so that a wrong one answers as adhocracy4 does). */
export async function loadBallotTargets(db: DbOrTx, questionIds: number[], choiceIds: number[]): Promise<{ questions: Map<number, BallotQuestion>; choices: Map<number, BallotChoice> }> {
  const [questions, choices] = await Promise.all([
    questionIds.length
      ? db.select({ id: pollQuestions.id, pollId: pollQuestions.pollId, multipleChoice: pollQuestions.multipleChoice, isOpen: pollQuestions.isOpen }).from(pollQuestions).where(inArray(pollQuestions.id, questionIds))
      : [],
    choiceIds.length ? db.select({ id: pollChoices.id, questionId: pollChoices.questionId, isOtherChoice: pollChoices.isOtherChoice }).from(pollChoices).where(inArray(pollChoices.id, choiceIds)) : [],
  ]);
  return { questions: new Map(questions.map((x) => [x.id, x])), choices: new Map(choices.map((c) => [c.id, c])) };
}

/** The poll's questions as an edit changes them: type, choices and how many votes and answers each has. */
export async function loadStoredQuestions(db: DbOrTx, pollId: number): Promise<StoredQuestion[]> {
  const questions = await db
    .select({
      id: pollQuestions.id,
      label: pollQuestions.label,
      multipleChoice: pollQuestions.multipleChoice,
      isOpen: pollQuestions.isOpen,
      hasImage: sql<boolean>`${q(pollQuestions.image)} is not null`,
      answerCount: sql<number>`(select count(*) from ${pollAnswers} where ${q(pollAnswers.questionId)} = ${q(pollQuestions.id)})`.mapWith(Number),
    })
    .from(pollQuestions)
    .where(eq(pollQuestions.pollId, pollId))
    .orderBy(asc(pollQuestions.weight), asc(pollQuestions.id));
  if (!questions.length) return [];
  const choices = await db
    .select({
      id: pollChoices.id,
      questionId: pollChoices.questionId,
      label: pollChoices.label,
      isOtherChoice: pollChoices.isOtherChoice,
      voteCount: sql<number>`(select count(*) from ${pollVotes} where ${q(pollVotes.choiceId)} = ${q(pollChoices.id)})`.mapWith(Number),
    })
    .from(pollChoices)
    .where(inArray(
      pollChoices.questionId,
      questions.map((x) => x.id),
    ))
    .orderBy(asc(pollChoices.weight), asc(pollChoices.id));
  return questions.map((question) => ({ ...question, choices: choices.filter((c) => c.questionId === question.id).map(({ id, label, isOtherChoice, voteCount }) => ({ id, label, isOtherChoice, voteCount })) }));
}

/** The module and organisation of polls, by id (a poll's page is its module's): one statement. */
export function pollPlaces(db: DbOrTx, ids: number[]) {
  return db
    .select({ id: polls.id, moduleSlug: modules.slug, moduleName: modules.name, orgSlug: organisations.slug })
    .from(polls)
    .innerJoin(modules, eq(modules.id, polls.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(inArray(polls.id, ids));
}

/** Poll questions with their module page (a question is a part of its poll, which is its module's page): one statement. */
export function questionPlaces(db: DbOrTx, ids: number[]) {
  return db
    .select({ id: pollQuestions.id, label: pollQuestions.label, pollId: polls.id, moduleId: polls.moduleId, moduleSlug: modules.slug, orgSlug: organisations.slug })
    .from(pollQuestions)
    .innerJoin(polls, eq(polls.id, pollQuestions.pollId))
    .innerJoin(modules, eq(modules.id, polls.moduleId))
    .innerJoin(projects, eq(projects.id, modules.projectId))
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(inArray(pollQuestions.id, ids));
}

/** The poll questions of some modules, as `ContentTypeOfModule.inModules` reads them (a question has no author of its own). */
export const questionsInModules = (moduleIds: SQL): SQL =>
  sql`select ${pollQuestions.id}, ${polls.moduleId}, null::integer from ${pollQuestions} join ${polls} on ${polls.id} = ${pollQuestions.pollId} where ${polls.moduleId} in (${moduleIds})`;

/** The polls of some modules with their names (their modules'), as `ContentTypeOfModule.resultable.named` reads them. */
export const pollsNamed = (moduleIds: SQL): SQL => sql`select ${polls.id}, ${modules.name} from ${polls} join ${modules} on ${modules.id} = ${polls.moduleId} where ${polls.moduleId} in (${moduleIds})`;

/** The questions of the polls of some modules with their labels, as `ContentTypeOfModule.resultable.named` reads them. */
export const questionsNamed = (moduleIds: SQL): SQL =>
  sql`select ${pollQuestions.id}, ${pollQuestions.label} from ${pollQuestions} join ${polls} on ${polls.id} = ${pollQuestions.pollId} where ${polls.moduleId} in (${moduleIds})`;

/** The ballots of poll modules for their tiles (registry `TileCount.items`): each voter once (an account, or an unregistered ballot's token), with the account. */
export const ballotsInModules = (moduleIds: SQL): SQL => sql`
  select coalesce('u' || v.creator_id::text, 't' || v.voter_token::text, 'v' || v.id::text), p.module_id, v.creator_id
    from ${polls} p join ${pollQuestions} q on q.poll_id = p.id join ${pollChoices} c on c.question_id = q.id join ${pollVotes} v on v.choice_id = c.id
    where p.module_id in (${moduleIds})
  union
  select coalesce('u' || a.creator_id::text, 't' || a.voter_token::text, 'a' || a.id::text), p.module_id, a.creator_id
    from ${polls} p join ${pollQuestions} q on q.poll_id = p.id join ${pollAnswers} a on a.question_id = q.id
    where p.module_id in (${moduleIds})`;
