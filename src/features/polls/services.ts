import { and, eq, inArray, notInArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx, Tx } from '../../db/client.js';
import { pollAnswers, pollChoices, pollQuestions, polls, pollVotes } from './schema.js';
import { createHmac } from 'node:crypto';
import type { Config } from '../../config.js';
import { CHALLENGE_FIELDS, challengePassed, honeypotFilled } from '../../http/challenge.js';
import { ApiError } from '../../http/errors.js';
import { takeRateLimited } from '../../http/throttle.js';
import { autoFollow } from '../../core/follows/services.js';
import { countContribution } from '../../core/insights/services.js';
import { loadOrganisationTerms } from '../../core/organisations/queries.js';
import { recordTermsAgreement } from '../../core/organisations/services.js';
import { loadBallotTargets } from './queries.js';
import { BALLOT_LIMIT_WINDOW_SECONDS, ballotChoiceIds, ballotQuestionIds, BallotRefused, checkBallot, type CheckedVote, type QuestionInput, SUM_BALLOTS_PER_ADDRESS, TOO_MANY_BALLOTS, voteTermsError } from './rules.js';

const CAPTCHA_MISSING = 'Please complete the captcha.';
const CAPTCHA_FAILED = 'Captcha verification failed. Please try again.';

/**
 * Who casts a ballot: an account, or an unregistered voter's token (one per browser, kept in a
 * cookie) with the keyed hash of the client address it came from (voterAddressHash).
 */
export type Voter = { userId: number; token?: undefined; address?: undefined } | { userId?: undefined; token: string; address?: string };

/**
 * An unregistered ballot's client address as stored: an HMAC with a key derived from SECRET_KEY,
 * over the poll and the address, so that ballots of one poll can be grouped by address without
 * the address being kept, nor linked across polls.
 */
export function voterAddressHash(secretKey: string, pollId: number, address: string): string {
  const key = createHmac('sha256', secretKey).update('allmende.poll-voter-address').digest();
  return createHmac('sha256', key).update(`${pollId}\u0000${address}`).digest('base64url').slice(0, 32);
}

const votesOf = (voter: Voter) => (voter.userId !== undefined ? eq(pollVotes.creatorId, voter.userId) : eq(pollVotes.voterToken, voter.token));
const answersOf = (voter: Voter) => (voter.userId !== undefined ? eq(pollAnswers.creatorId, voter.userId) : eq(pollAnswers.voterToken, voter.token));

/**
 * Ballots of one voter in one poll take turns: two at once (a double click) replace each other
 * instead of colliding, and the first one is the one the statistics count. The lock is the voter's
 * (a transaction-scoped advisory lock on poll and voter), not the poll's row: different voters of
 * one poll never wait on each other (issue 23.2; a rare hash collision only makes two voters take turns).
 */
async function takeVotersTurn(tx: DbOrTx, pollId: number, voter: Voter): Promise<void> {
  const key = voter.userId !== undefined ? `user:${voter.userId}` : `token:${voter.token}`;
  await tx.execute(sql`select pg_advisory_xact_lock(${pollId}::integer, hashtext(${key}))`);
}

/**
 * Saves a checked ballot in the caller's transaction: per question the voter's earlier votes (or
 * open answer) are replaced, so re-voting never counts twice; an empty list clears the question.
 * A registered voter follows the project (adhocracy+'s auto-follow on votes). Only the voter's own
 * ballot is waited for (takeVotersTurn), never another voter's.
 */
export async function castBallot(tx: Tx, input: { pollId: number; voter: Voter; votes: CheckedVote[]; projectId: number }): Promise<void> {
  const { voter } = input;
  await takeVotersTurn(tx, input.pollId, voter);
  // A share lock on the poll: ballots never wait on each other, but an edit of the poll (an UPDATE of its row) waits for the ballots under way, and they for it.
  await tx.select({ id: polls.id }).from(polls).where(eq(polls.id, input.pollId)).for('share');
  const creatorId = voter.userId ?? null;
  const voterToken = voter.token ?? null;
  const voterAddress = voter.address ?? null;
  const questionIds = input.votes.map((v) => v.question.id);
  const votedBefore =
    creatorId !== null && questionIds.length
      ? (await tx.select({ id: pollVotes.id }).from(pollVotes).innerJoin(pollChoices, eq(pollChoices.id, pollVotes.choiceId)).innerJoin(pollQuestions, eq(pollQuestions.id, pollChoices.questionId)).where(and(eq(pollQuestions.pollId, input.pollId), votesOf(voter))).limit(1)).length +
          (await tx.select({ id: pollAnswers.id }).from(pollAnswers).innerJoin(pollQuestions, eq(pollQuestions.id, pollAnswers.questionId)).where(and(eq(pollQuestions.pollId, input.pollId), answersOf(voter))).limit(1)).length >
        0
      : true;
  for (const vote of input.votes) {
    if (vote.question.isOpen) {
      await tx.delete(pollAnswers).where(and(eq(pollAnswers.questionId, vote.question.id), answersOf(voter)));
      if (vote.openAnswer) await tx.insert(pollAnswers).values({ questionId: vote.question.id, creatorId, voterToken, voterAddress, answer: vote.openAnswer });
      continue;
    }
    const questionChoices = tx.select({ id: pollChoices.id }).from(pollChoices).where(eq(pollChoices.questionId, vote.question.id));
    await tx.delete(pollVotes).where(and(inArray(pollVotes.choiceId, questionChoices), votesOf(voter)));
    if (vote.choices.length) {
      await tx.insert(pollVotes).values(vote.choices.map((choice) => ({ choiceId: choice.id, creatorId, voterToken, voterAddress, otherChoiceAnswer: choice.isOtherChoice ? vote.otherChoiceAnswer : null })));
    }
  }
  if (creatorId !== null) await autoFollow(tx, creatorId, input.projectId);
  // The statistics count a registered voter's first ballot in the poll (with the voter as an active participant).
  if (creatorId !== null && !votedBefore) await countContribution(tx, input.projectId, creatorId, 'votes', new Date());
}

/** The module's poll, created on first use (adhocracy4 creates it when the dashboard's poll page opens). */
export async function ensurePoll(tx: Tx, moduleId: number, creatorId: number): Promise<number> {
  const [found] = await tx.select({ id: polls.id }).from(polls).where(eq(polls.moduleId, moduleId)).orderBy(polls.id).limit(1);
  if (found) return found.id;
  const [created] = await tx.insert(polls).values({ moduleId, creatorId }).returning({ id: polls.id });
  return created.id;
}

/**
 * Replaces the poll's settings and questions with the edit (checked before with `checkPollEdit`):
 * the list is authoritative, as in adhocracy4 — questions and choices not in it are deleted, the
 * order becomes the weight, those without id are added. Returns the images no longer used.
 */
export async function savePoll(
  tx: Tx,
  pollId: number,
  input: { allowUnregisteredUsers: boolean; hideResultsUntilFinished?: boolean; questions?: QuestionInput[] },
): Promise<string[]> {
  await tx
    .update(polls)
    .set({ allowUnregisteredUsers: input.allowUnregisteredUsers, ...(input.hideResultsUntilFinished === undefined ? {} : { hideResultsUntilFinished: input.hideResultsUntilFinished }), modified: sql`now()` })
    .where(eq(polls.id, pollId));
  if (!input.questions) return [];
  const before = await tx.select({ id: pollQuestions.id, image: pollQuestions.image }).from(pollQuestions).where(eq(pollQuestions.pollId, pollId));
  const keep = input.questions.flatMap((q) => (q.id === undefined ? [] : [q.id]));
  const unused: string[] = before.filter((q) => q.image && !keep.includes(q.id)).map((q) => q.image ?? '');
  await tx.delete(pollQuestions).where(and(eq(pollQuestions.pollId, pollId), keep.length ? notInArray(pollQuestions.id, keep) : undefined));
  for (const [weight, question] of input.questions.entries()) {
    const old = before.find((q) => q.id === question.id);
    const values = {
      label: question.label.trim(),
      helpText: question.helpText.trim(),
      weight,
      multipleChoice: question.multipleChoice,
      isOpen: question.isOpen,
      isConfidential: question.isConfidential,
      imageAltText: question.image === null ? '' : question.imageAltText.trim(),
      ...(question.image === undefined ? {} : { image: question.image }),
    };
    if (question.image !== undefined && old?.image && old.image !== question.image) unused.push(old.image);
    let questionId: number;
    if (old) {
      await tx.update(pollQuestions).set(values).where(eq(pollQuestions.id, old.id));
      questionId = old.id;
    } else {
      const [created] = await tx.insert(pollQuestions).values({ pollId, ...values }).returning({ id: pollQuestions.id });
      questionId = created.id;
    }
    const keepChoices = question.choices.flatMap((c) => (c.id === undefined ? [] : [c.id]));
    await tx.delete(pollChoices).where(and(eq(pollChoices.questionId, questionId), keepChoices.length ? notInArray(pollChoices.id, keepChoices) : undefined));
    // The "other" flag moves in two steps, so that the one-other-per-question index never sees two.
    await tx.update(pollChoices).set({ isOtherChoice: false }).where(eq(pollChoices.questionId, questionId));
    for (const [choiceWeight, choice] of question.choices.entries()) {
      const choiceValues = { label: choice.label.trim(), isOtherChoice: choice.isOtherChoice, weight: choiceWeight };
      if (choice.id !== undefined) await tx.update(pollChoices).set(choiceValues).where(and(eq(pollChoices.id, choice.id), eq(pollChoices.questionId, questionId)));
      else await tx.insert(pollChoices).values({ questionId, ...choiceValues });
    }
  }
  return unused;
}

/** What a ballot (the API's vote, the module page's form) brings besides its votes. */
interface BallotSubmission {
  pollId: number;
  organisationId: number;
  projectId: number;
  voter: Voter;
  /** The client address (request.ip): unregistered ballots are limited per address and poll. */
  address: string;
  votes: Record<string, unknown>;
  agreedTermsOfUse: boolean;
  /** The unregistered voter's challenge fields (the API's `captcha` as the widget's field; a form's widget or sum); ignored for registered voters. */
  challenge: (name: string) => string;
}

/** The API's `captcha` field as the challenge's fields: it carries the widget's solved payload. */
export const captchaFields = (captcha: string) => (name: string) => (name === CHALLENGE_FIELDS.proofOfWork ? captcha : '');

/**
 * Counts an unregistered ballot against its client address in this poll, in the throttle store
 * shared through Redis: POLL_BALLOT_LIMIT_PER_IP an hour, of which SUM_BALLOTS_PER_ADDRESS by the
 * no-script sum (weaker than the proof of work). Over either: BallotRefused 429.
 */
async function takeBallotSlot(ctx: { config: Config }, pollId: number, address: string, bySum: boolean): Promise<void> {
  try {
    if (bySum) await takeRateLimited(ctx, `poll-sum:${pollId}:${address}`, SUM_BALLOTS_PER_ADDRESS, BALLOT_LIMIT_WINDOW_SECONDS);
    await takeRateLimited(ctx, `poll-ballot:${pollId}:${address}`, ctx.config.pollBallotLimitPerIp, BALLOT_LIMIT_WINDOW_SECONDS);
  } catch (error) {
    if (error instanceof ApiError && error.statusCode === 429) throw new BallotRefused(429, error.body, TOO_MANY_BALLOTS, error.headers);
    throw error;
  }
}

/**
 * The one ballot command of the API and the module page: an unregistered voter's honeypot (a
 * robot that fills it is answered as usual and nothing is stored) and challenge (spent once,
 * verified here, never by an outside service), then the organisation's terms, then every question
 * (adhocracy4's checks and answers), then the unregistered ballot's address limit, and only then
 * the whole ballot in one transaction. Throws BallotRefused with adhocracy4's status and body.
 */
export async function submitBallot(ctx: { db: Db; config: Config }, input: BallotSubmission): Promise<void> {
  const { db, config } = ctx;
  const unregistered = input.voter.userId === undefined;
  if (unregistered) {
    if (honeypotFilled(input.challenge)) return;
    const given = input.challenge(CHALLENGE_FIELDS.proofOfWork) || input.challenge(CHALLENGE_FIELDS.questionToken);
    if (!given) throw new BallotRefused(400, [CAPTCHA_MISSING]);
    const passed = await challengePassed(db, config.secretKey, input.challenge);
    if (!passed) throw new BallotRefused(400, [CAPTCHA_FAILED]);
  }
  const terms = await loadOrganisationTerms(db, input.organisationId, input.voter.userId ?? null);
  const termsError = voteTermsError(terms, input.agreedTermsOfUse);
  if (termsError) throw new BallotRefused(400, [termsError]);
  const targets = await loadBallotTargets(db, ballotQuestionIds(input.votes), ballotChoiceIds(input.votes));
  const votes = checkBallot(input.pollId, input.votes, targets.questions, targets.choices);
  const voter: Voter = input.voter.userId === undefined ? { token: input.voter.token, address: voterAddressHash(config.secretKey, input.pollId, input.address) } : input.voter;
  if (unregistered) await takeBallotSlot(ctx, input.pollId, input.address, !input.challenge(CHALLENGE_FIELDS.proofOfWork));
  await db.transaction(async (tx) => {
    if (voter.userId !== undefined) await recordTermsAgreement(tx, { userId: voter.userId, organisationId: input.organisationId, terms });
    await castBallot(tx, { pollId: input.pollId, voter, votes, projectId: input.projectId });
  });
}
