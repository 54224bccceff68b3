import { Type } from 'typebox';
import { organisationTextPath } from '../../core/legal/texts.js';
import type { OrganisationTerms } from '../../core/organisations/rules.js';
import type { PollContent, PollTarget, QuestionRow } from './queries.js';
import { guestCanVote, pollIsReadOnly, resultsHidden, votingEnded } from './rules.js';

/**
 * The poll's JSON as adhocracy+'s poll widget reads it (§5.3): exactly adhocracy4's fields, plus
 * the organisation terms and `total_participants`, `module_name`, `module_description`.
 */

const Choice = Type.Object({ id: Type.Integer(), label: Type.String(), count: Type.Integer(), is_other_choice: Type.Boolean() });
const Question = Type.Object({
  id: Type.Integer(),
  label: Type.String(),
  help_text: Type.String(),
  image_url: Type.Union([Type.String(), Type.Null()]),
  image_alt_text: Type.String(),
  image_help_text: Type.String(),
  multiple_choice: Type.Boolean(),
  is_open: Type.Boolean(),
  is_confidential: Type.Boolean(),
  isReadOnly: Type.Boolean(),
  authenticated: Type.Boolean(),
  choices: Type.Array(Choice),
  userChoices: Type.Array(Type.Integer()),
  answers: Type.Array(Type.Object({ id: Type.Integer(), answer: Type.String() })),
  userAnswer: Type.Union([Type.Integer(), Type.Literal('')]),
  other_choice_answers: Type.Array(Type.Object({ vote_id: Type.Integer(), answer: Type.String() })),
  other_choice_user_answer: Type.Union([Type.Integer(), Type.Literal('')]),
  totalVoteCount: Type.Integer(),
  totalVoteCountMulti: Type.Integer(),
  totalAnswerCount: Type.Integer(),
});

export const Poll = Type.Object(
  {
    id: Type.Integer(),
    questions: Type.Array(Question),
    has_user_vote: Type.Boolean(),
    allow_unregistered_users: Type.Boolean(),
    guest_can_vote: Type.Boolean(),
    voting_ended: Type.Boolean(),
    hide_results_until_finished: Type.Boolean(),
    use_org_terms_of_use: Type.Boolean(),
    user_has_agreed: Type.Boolean(),
    org_terms_url: Type.String(),
    total_participants: Type.Integer(),
    module_name: Type.String(),
    module_description: Type.String(),
  },
  { description: "A poll as adhocracy+'s poll widget reads it" },
);

/** What the serializer needs beyond the loaded rows: flags the route computed from the rules. */
interface PollSerializeContext {
  pollId: number;
  userId: number | null;
  allowUnregisteredUsers: boolean;
  hideResultsUntilFinished: boolean;
  /** Counts read 0 (hide results until the poll is over). */
  hidden: boolean;
  isReadOnly: boolean;
  guestCanVote: boolean;
  votingEnded: boolean;
  terms: { use: boolean; agreed: boolean; url: string };
  moduleName: string;
  moduleDescription: string;
  mediaUrl: (path: string) => string;
  imageHelpText: string;
}

function serializeQuestion(question: QuestionRow, c: PollSerializeContext) {
  const own = <R extends { creatorId: number | null }>(rows: R[]) => (question.isConfidential || c.hidden ? rows.filter((r) => c.userId !== null && r.creatorId === c.userId) : rows);
  const zero = c.hidden;
  return {
    id: question.id,
    label: question.label,
    help_text: question.helpText,
    image_url: question.image ? c.mediaUrl(question.image) : null,
    image_alt_text: question.imageAltText,
    image_help_text: c.imageHelpText,
    multiple_choice: question.multipleChoice,
    is_open: question.isOpen,
    is_confidential: question.isConfidential,
    isReadOnly: c.isReadOnly,
    authenticated: c.userId !== null,
    choices: question.choices.map((choice) => ({ id: choice.id, label: choice.label, count: question.isConfidential || zero ? 0 : choice.count, is_other_choice: choice.isOtherChoice })),
    userChoices: question.userChoices,
    answers: own(question.answers).map((a) => ({ id: a.id, answer: a.answer })),
    userAnswer: question.userAnswer?.id ?? ('' as const),
    other_choice_answers: own(question.otherAnswers).map((a) => ({ vote_id: a.voteId, answer: a.answer })),
    other_choice_user_answer: question.userOtherVote?.id ?? ('' as const),
    totalVoteCount: zero ? 0 : question.voterCount,
    totalVoteCountMulti: zero ? 0 : question.voteCount,
    totalAnswerCount: zero ? 0 : question.answerCount,
  };
}

export function serializePoll(content: PollContent, c: PollSerializeContext) {
  return {
    id: c.pollId,
    questions: content.questions.map((question) => serializeQuestion(question, c)),
    has_user_vote: content.hasUserVote,
    allow_unregistered_users: c.allowUnregisteredUsers,
    guest_can_vote: c.guestCanVote,
    voting_ended: c.votingEnded,
    hide_results_until_finished: c.hideResultsUntilFinished,
    use_org_terms_of_use: c.terms.use,
    user_has_agreed: c.terms.agreed,
    org_terms_url: c.terms.url,
    total_participants: c.hidden ? 0 : content.totalParticipants,
    module_name: c.moduleName,
    module_description: c.moduleDescription,
  };
}

/** The serializer's flags for a caller, from the rules over the loaded poll (pure). */
export function pollSerializeContext(
  target: PollTarget,
  terms: OrganisationTerms | null,
  extra: { mediaUrl: (path: string) => string; imageHelpText: string },
): PollSerializeContext {
  const { poll, rules } = target;
  const userId = rules.project.user?.id ?? null;
  return {
    pollId: poll.id,
    userId,
    allowUnregisteredUsers: poll.allowUnregisteredUsers,
    hideResultsUntilFinished: poll.hideResultsUntilFinished,
    hidden: resultsHidden(rules, poll),
    isReadOnly: pollIsReadOnly(rules, poll),
    guestCanVote: guestCanVote(rules, poll),
    votingEnded: votingEnded(rules),
    terms: { use: terms?.written ?? false, agreed: userId !== null && (terms?.agreed ?? false), url: organisationTextPath(target.organisationSlug, 'terms-of-use') },
    moduleName: target.module.name,
    moduleDescription: target.module.description,
    ...extra,
  };
}
