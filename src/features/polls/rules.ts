import { canViewModule, type ModuleContext, participatesIn, phaseAllowsFor } from '../../core/modules/rules.js';
import { phaseIsPast } from '../../core/modules/phases.js';
import type { OrganisationTerms } from '../../core/organisations/rules.js';
import { ORGANISATION_TERMS_REQUIRED } from '../../core/organisations/rules.js';
import { asSignedInUser, canManageProject, canModerate } from '../../core/projects/rules.js';

/**
 * The poll's rules (adhocracy4 a4polls: view_poll, change_poll, add_vote, comment_poll) and the
 * checks of a ballot and of an edit of the questions, as pure functions. The API, the module
 * page's form, the dashboard editor and loaddata all ask these.
 */

type PollRuleContext = ModuleContext;

/** The poll's own settings the rules read. */
interface PollSettings {
  allowUnregisteredUsers: boolean;
  hideResultsUntilFinished: boolean;
}

/** a4polls.view_poll: who may see the module. */
export const canViewPoll = (c: PollRuleContext) => canViewModule(c);

/** a4polls.change_poll (questions, settings, export): superusers and the organisation's initiators; not moderators (§5.2). */
export const canChangePoll = (c: PollRuleContext) => canManageProject(c.project);

const votingRuns = (c: PollRuleContext) => phaseAllowsFor(c, 'vote', 'poll');

/** "Unregistered allowed": the poll allows it, in a live, public, not archived project, in a published module. */
const unregisteredAllowed = (c: PollRuleContext, poll: PollSettings) =>
  poll.allowUnregisteredUsers && c.project.access === 'PUBLIC' && !c.project.isDraft && !c.project.isArchived && !c.module.isDraft;

/**
 * a4polls.add_vote: moderators at any time; members, and anybody where unregistered voting is
 * allowed, while the voting phase runs.
 */
export const canVote = (c: PollRuleContext, poll: PollSettings) =>
  canModerate(c.project) || ((participatesIn(c) || (c.project.user === null && unregisteredAllowed(c, poll))) && votingRuns(c));

/** The vote would be an unregistered one (no account): it needs the spam challenge. */
export const votesUnregistered = (c: PollRuleContext) => c.project.user === null;

/** guest_can_vote: an unregistered visitor may vote now. */
export const guestCanVote = (c: PollRuleContext, poll: PollSettings) => unregisteredAllowed(c, poll) && votingRuns(c);

/** isReadOnly: the caller may not vote, and would not be allowed either after logging in. */
export const pollIsReadOnly = (c: PollRuleContext, poll: PollSettings) => !canVote(c, poll) && !canVote({ ...c, project: asSignedInUser(c.project) }, poll);

/** voting_ended: a phase of the module is over. */
export const votingEnded = (c: PollRuleContext) => c.phases.some((phase) => phaseIsPast(phase, c.now));

/** With "hide results until the poll is over", counts read 0 for everyone who may not edit the poll until a phase has ended. */
export const resultsHidden = (c: PollRuleContext, poll: PollSettings) => poll.hideResultsUntilFinished && !votingEnded(c) && !canChangePoll(c);

/** The organisation's terms: asked of every voter (also unregistered ones, as adhocracy+) until a signed-in voter has agreed once. */
export const voteTermsError = (terms: OrganisationTerms | null, ticked: boolean): string | null =>
  terms && terms.written && !terms.agreed && !ticked ? ORGANISATION_TERMS_REQUIRED : null;

// The ballot (POST /api/polls/<pk>/vote/), checked before anything is written.

const OTHER_ANSWER_MAX = 250;
const OPEN_ANSWER_MAX = 750;

/** A question of the ballot as loaded: its poll and choices. */
export interface BallotQuestion {
  id: number;
  pollId: number;
  multipleChoice: boolean;
  isOpen: boolean;
}

/** A choice as loaded, whatever question it belongs to. */
export interface BallotChoice {
  id: number;
  questionId: number;
  isOtherChoice: boolean;
}

/** One question's part of a checked ballot. */
export interface CheckedVote {
  question: BallotQuestion;
  choices: BallotChoice[];
  otherChoiceAnswer: string;
  openAnswer: string;
}

/** Why a ballot is refused: the status and the body adhocracy4 answers with. */
/** Unregistered ballots are counted per client address and poll over this window (services.takeBallotSlot). */
export const BALLOT_LIMIT_WINDOW_SECONDS = 3600;
/** Of them, so many may be answered by the no-script sum, which a script reads more easily than it does the proof of work. */
export const SUM_BALLOTS_PER_ADDRESS = 3;
export const TOO_MANY_BALLOTS = 'Too many ballots from your address. Please try again later.';

export class BallotRefused extends Error {
  constructor(
    readonly status: 400 | 404 | 429,
    readonly body: unknown,
    /** What the module page's form says instead of the body's first message. */
    readonly pageMessage?: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body === 'string' ? body : JSON.stringify(body));
  }
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const INVALID = ['Invalid input.'];

/** The question ids a ballot names (its keys), as numbers; a key that is no id names no question. */
export const ballotQuestionIds = (votes: Record<string, unknown>): number[] =>
  Object.keys(votes)
    .filter((key) => /^\d{1,9}$/.test(key))
    .map(Number);

/** The choice ids a ballot names, wherever they are. */
export const ballotChoiceIds = (votes: Record<string, unknown>): number[] =>
  Object.values(votes).flatMap((vote) => (isRecord(vote) && Array.isArray(vote.choices) ? vote.choices.filter((id): id is number => Number.isInteger(id) && id > 0 && id <= 2147483647) : []));

/**
 * Checks a ballot question by question, in adhocracy4's order and with its answers: an unknown
 * question or choice is a 404, a question of another poll, a missing key, duplicate choices,
 * several choices on a single-choice question, a choice of another question and an "other"
 * choice without text are 400s. Nothing is written before all of it passed (one transaction).
 */
export function checkBallot(pollId: number, votes: Record<string, unknown>, questions: Map<number, BallotQuestion>, choices: Map<number, BallotChoice>): CheckedVote[] {
  const checked: CheckedVote[] = [];
  for (const [key, vote] of Object.entries(votes)) {
    const question = /^\d{1,9}$/.test(key) ? questions.get(Number(key)) : undefined;
    if (!question) throw new BallotRefused(404, { detail: 'Not found.' });
    if (question.pollId !== pollId) throw new BallotRefused(400, { question: ['Question has to belong to the poll set in the url.'] });
    if (!isRecord(vote)) throw new BallotRefused(400, INVALID);
    if (!('choices' in vote)) throw new BallotRefused(400, { detail: "Key error for 'choices'" });
    if (!Array.isArray(vote.choices)) throw new BallotRefused(400, INVALID);
    const picked: BallotChoice[] = [];
    for (const id of vote.choices) {
      const choice = Number.isInteger(id) ? choices.get(id as number) : undefined;
      if (!choice) throw new BallotRefused(404, { detail: 'Choice not found.' });
      picked.push(choice);
    }
    for (const field of ['other_choice_answer', 'open_answer'] as const) {
      if (!(field in vote)) throw new BallotRefused(400, { detail: `Key error for '${field}'` });
      if (typeof vote[field] !== 'string') throw new BallotRefused(400, { [field]: ['Not a valid string.'] });
    }
    const otherChoiceAnswer = (vote.other_choice_answer as string).trim();
    const openAnswer = (vote.open_answer as string).trim();
    if (otherChoiceAnswer.length > OTHER_ANSWER_MAX) throw new BallotRefused(400, { other_choice_answer: [`Ensure this field has no more than ${OTHER_ANSWER_MAX} characters.`] });
    if (openAnswer.length > OPEN_ANSWER_MAX) throw new BallotRefused(400, { open_answer: [`Ensure this field has no more than ${OPEN_ANSWER_MAX} characters.`] });
    if (!question.isOpen) {
      if (new Set(picked.map((c) => c.id)).size < picked.length) throw new BallotRefused(400, ['Duplicate choices detected.']);
      if (picked.length > 1 && !question.multipleChoice) throw new BallotRefused(400, ['Multiple choice disabled for question.']);
      if (picked.some((c) => c.questionId !== question.id)) throw new BallotRefused(400, { choice: ['Choice has to belong to the question set in the url.'] });
      if (picked.some((c) => c.isOtherChoice) && !otherChoiceAnswer) throw new BallotRefused(400, { choice: 'Please specify your answer.' });
    }
    checked.push({ question, choices: question.isOpen ? [] : picked, otherChoiceAnswer, openAnswer: question.isOpen ? openAnswer : '' });
  }
  return checked;
}

// An edit of the questions (PUT/PATCH /api/polls/<pk>/, the dashboard editor).

const LABEL_MAX = 255;
const HELP_TEXT_MAX = 250;
const ALT_TEXT_MAX = 80;

/** A question as an edit asks for it (order = weight). */
export interface QuestionInput {
  id?: number;
  label: string;
  helpText: string;
  multipleChoice: boolean;
  isOpen: boolean;
  isConfidential: boolean;
  imageAltText: string;
  /** The image after the edit: unchanged (undefined), removed (null) or replaced (new file). */
  image?: string | null;
  choices: { id?: number; label: string; isOtherChoice: boolean }[];
}

/** What the edit changes, as stored now: each question's type and choices, with how many votes each has. */
export interface StoredQuestion {
  id: number;
  label: string;
  multipleChoice: boolean;
  isOpen: boolean;
  hasImage: boolean;
  answerCount: number;
  choices: { id: number; label: string; isOtherChoice: boolean; voteCount: number }[];
}

/** A refused field of an edit: where (`questions[1].choices[0].label`), and the message with its placeholders. */
export interface EditProblem {
  path: (string | number)[];
  message: string;
  vars?: Record<string, string | number>;
}

/**
 * A question that shows an image after the edit needs its alternative text (`storedImages`: the
 * ids of the questions with an image now); the API and the dashboard's editor ask this alike.
 */
export function imageAltTextProblems(questions: readonly QuestionInput[], storedImages: ReadonlySet<number>): EditProblem[] {
  return questions.flatMap((q, i) => {
    const hasImage = q.image === undefined ? q.id !== undefined && storedImages.has(q.id) : q.image !== null;
    return hasImage && !q.imageAltText.trim() ? [{ path: ['questions', i, 'image_alt_text'], message: 'Please add an alternative text for the image.' }] : [];
  });
}

const tooLong = (path: (string | number)[], max: number): EditProblem => ({ path, message: 'Ensure this field has no more than %(max)s characters.', vars: { max } });

/**
 * Checks an edit of the questions against adhocracy4's model rules, and refuses what would falsify
 * results after votes exist (adhocracy4 issue #1801): switching a question with votes between single
 * and multiple choice or to open, and removing a choice or question that has votes or answers. The
 * messages name the votes concerned. Relabelling stays allowed. The dashboard may delete with votes
 * after the initiator confirmed the loss it was told (`deleteWithVotes`); the API never does.
 */
export function checkPollEdit(questions: QuestionInput[], stored: StoredQuestion[], options: { deleteWithVotes?: boolean } = {}): EditProblem[] {
  const problems: EditProblem[] = [];
  const byId = new Map(stored.map((q) => [q.id, q]));
  const kept = new Set<number>();
  questions.forEach((q, i) => {
    const at = (...rest: (string | number)[]) => ['questions', i, ...rest];
    if (!q.label.trim()) problems.push({ path: at('label'), message: 'This field is required.' });
    if (q.label.length > LABEL_MAX) problems.push(tooLong(at('label'), LABEL_MAX));
    if (q.helpText.length > HELP_TEXT_MAX) problems.push(tooLong(at('help_text'), HELP_TEXT_MAX));
    if (q.imageAltText.length > ALT_TEXT_MAX) problems.push(tooLong(at('image_alt_text'), ALT_TEXT_MAX));
    const before = q.id === undefined ? undefined : byId.get(q.id);
    if (q.id !== undefined && !before) problems.push({ path: at('id'), message: 'This question does not belong to the poll.' });
    if (before) kept.add(before.id);
    const hasImage = q.image === undefined ? Boolean(before?.hasImage) : q.image !== null;
    if (hasImage && !q.imageAltText.trim()) problems.push({ path: at('image_alt_text'), message: 'Please add an alternative text for the image.' });
    if (q.isOpen && q.multipleChoice) problems.push({ path: at('is_open'), message: 'Questions with open answers cannot have multiple choices.' });
    if (q.isOpen && q.choices.length) problems.push({ path: at('is_open'), message: 'Open questions cannot have choices.' });
    const others = q.choices.filter((c) => c.isOtherChoice).length;
    if (others > 1) problems.push({ path: at('choices'), message: 'Question already has "other" choice.' });
    if (others && q.choices.length === others) problems.push({ path: at('choices'), message: '"Other" cannot be the only choice. Use open question or add more choices.' });
    const beforeChoices = new Map((before?.choices ?? []).map((c) => [c.id, c]));
    const keptChoices = new Set<number>();
    q.choices.forEach((c, j) => {
      if (!c.label.trim()) problems.push({ path: at('choices', j, 'label'), message: 'This field is required.' });
      if (c.label.length > LABEL_MAX) problems.push(tooLong(at('choices', j, 'label'), LABEL_MAX));
      if (c.id !== undefined && !beforeChoices.has(c.id)) problems.push({ path: at('choices', j, 'id'), message: 'This choice does not belong to the question.' });
      if (c.id !== undefined) keptChoices.add(c.id);
    });
    if (!before) return;
    const votes = before.choices.reduce((sum, c) => sum + c.voteCount, 0);
    if (votes && before.multipleChoice !== q.multipleChoice) {
      problems.push({ path: at('multiple_choice'), message: 'The question "%(label)s" has votes (%(n)s): switching between single and multiple choice would make its results wrong.', vars: { label: before.label, n: votes } });
    }
    if ((votes || before.answerCount) && before.isOpen !== q.isOpen) {
      problems.push({ path: at('is_open'), message: 'The question "%(label)s" has votes (%(n)s): it cannot change between open and choice question.', vars: { label: before.label, n: votes + before.answerCount } });
    }
    for (const choice of before.choices) {
      if (!keptChoices.has(choice.id) && choice.voteCount && !options.deleteWithVotes) {
        problems.push({ path: at('choices'), message: 'The choice "%(label)s" has votes (%(n)s): deleting it would lose them.', vars: { label: choice.label, n: choice.voteCount } });
      }
    }
  });
  for (const question of stored) {
    const votes = question.choices.reduce((sum, c) => sum + c.voteCount, 0) + question.answerCount;
    if (!kept.has(question.id) && votes && !options.deleteWithVotes) {
      problems.push({ path: ['questions'], message: 'The question "%(label)s" has votes (%(n)s): deleting it would lose them.', vars: { label: question.label, n: votes } });
    }
  }
  return problems;
}
