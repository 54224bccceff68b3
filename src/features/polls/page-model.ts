import type { ChallengeQuestion } from '../../http/challenge.js';
import { organisationTermsAsked, type OrganisationTerms } from '../../core/organisations/rules.js';
import { modulePath } from '../../core/urls.js';
import type { PollContent, PollTarget } from './queries.js';
import { canChangePoll, canVote, pollIsReadOnly, resultsHidden, votesUnregistered, voteTermsError } from './rules.js';
import type { PollView } from './views.js';

/** The path the module page's poll form posts to. */
const pollFormPath = (orgSlug: string, moduleSlug: string) => `${modulePath(orgSlug, moduleSlug)}poll/`;

/** The module page's poll as the caller sees it (pure: rules over loaded rows). */
export function pollView(target: PollTarget, content: PollContent, terms: OrganisationTerms | null, challenge: ChallengeQuestion, loginUrl: string): PollView {
  const { rules, poll } = target;
  const userId = rules.project.user?.id ?? null;
  const hidden = resultsHidden(rules, poll);
  const mayVote = canVote(rules, poll);
  const own = <R extends { creatorId: number | null }>(rows: R[], confidential: boolean) => (confidential || hidden ? rows.filter((r) => userId !== null && r.creatorId === userId) : rows);
  return {
    pollId: poll.id,
    action: pollFormPath(target.organisationSlug, target.module.slug),
    questions: content.questions.map((q) => ({
      id: q.id,
      label: q.label,
      helpText: q.helpText,
      multipleChoice: q.multipleChoice,
      isOpen: q.isOpen,
      isConfidential: q.isConfidential,
      image: q.image ? { url: `/media/${q.image}`, alt: q.imageAltText } : null,
      choices: q.choices.map((c) => {
        const count = q.isConfidential || hidden ? 0 : c.count;
        return { id: c.id, label: c.label, isOther: c.isOtherChoice, count, percent: q.voterCount && count ? Math.round((count / q.voterCount) * 100) : 0 };
      }),
      userChoices: q.userChoices,
      userOther: q.userOtherVote?.answer ?? '',
      userAnswer: q.userAnswer?.answer ?? '',
      answers: own(q.answers, q.isConfidential).map((a) => a.answer),
      otherAnswers: own(q.otherAnswers, q.isConfidential).map((a) => a.answer),
      voters: hidden ? 0 : q.isOpen ? q.answerCount : q.voterCount,
    })),
    participants: hidden ? 0 : content.totalParticipants,
    unregistered: canChangePoll(rules) && content.unregistered.ballots > 0 ? content.unregistered : null,
    mode: mayVote ? 'vote' : !userId && !pollIsReadOnly(rules, poll) ? 'login' : 'closed',
    hidden,
    hasUserVote: content.hasUserVote,
    terms: { asked: userId === null ? voteTermsError(terms, false) !== null : organisationTermsAsked(terms), slug: target.organisationSlug },
    challenge: mayVote && votesUnregistered(rules) ? challenge : null,
    loginUrl,
  };
}
