import { createChallenge, type Challenge, verifySolution } from 'altcha-lib';
import { deriveKey } from 'altcha-lib/algorithms/sha';
import { lt, sql } from 'drizzle-orm';
import { createHmac, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import type { Db } from '../db/client.js';
import { usedChallenges } from '../db/schema/index.js';

/**
 * The spam check of forms that anybody may send (sign-up now, the unregistered poll vote later),
 * in one place: a proof-of-work challenge (ALTCHA, self-hosted) that the browser solves while the
 * form is filled in, and — for a browser without JavaScript — a small arithmetic question. Both
 * are signed with a key derived from SECRET_KEY, expire, and count once (`used_challenges`).
 * Nothing here asks an outside service. See docs/decisions.md.
 */

/** The widget's form field (its `name`), and the no-script question's two fields. */
export const CHALLENGE_FIELDS = { proofOfWork: 'altcha', questionToken: 'challenge_token', answer: 'challenge_answer' } as const;

const ALGORITHM = 'SHA-256';
/** A solved challenge is good for this long: time to fill in the form, with a pause. */
const CHALLENGE_LIFETIME_SECONDS = 30 * 60;

interface ChallengeSettings {
  secretKey: string;
  /** SHA-256 rounds per attempt; about 256 attempts find a solution (CHALLENGE_COST). */
  challengeCost: number;
}

/** Not SECRET_KEY itself: a key of its own, derived from it for this one use. */
const challengeKey = (secretKey: string) => createHmac('sha256', secretKey).update('allmende.challenge').digest('hex');

/** A fresh proof-of-work challenge for the widget (GET /challenge/). */
export function issueChallenge(settings: ChallengeSettings, now = Date.now()): Promise<Challenge> {
  return createChallenge({
    algorithm: ALGORITHM,
    cost: settings.challengeCost,
    keyPrefix: '00',
    deriveKey,
    expiresAt: Math.floor(now / 1000) + CHALLENGE_LIFETIME_SECONDS,
    hmacSignatureSecret: challengeKey(settings.secretKey),
  });
}

interface DecodedPayload {
  challenge: Challenge;
  solution: { counter: number; derivedKey: string };
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The widget's field: base64 of {challenge, solution}; null when it is not that shape. */
function decodePayload(field: string): DecodedPayload | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(field, 'base64').toString('utf8'));
    if (!isRecord(value) || !isRecord(value.challenge) || !isRecord(value.challenge.parameters) || !isRecord(value.solution)) return null;
    const { parameters, signature } = value.challenge;
    const { counter, derivedKey } = value.solution;
    if (typeof signature !== 'string' || typeof counter !== 'number' || typeof derivedKey !== 'string') return null;
    if (typeof parameters.nonce !== 'string' || typeof parameters.expiresAt !== 'number' || parameters.algorithm !== ALGORITHM) return null;
    return value as unknown as DecodedPayload;
  } catch {
    return null;
  }
}

/** Marks a challenge as answered; false when it was answered before (a replayed solution). */
async function spend(db: Db, id: string, expiresAt: Date): Promise<boolean> {
  await db.delete(usedChallenges).where(lt(usedChallenges.expiresAt, sql`now()`));
  const inserted = await db.insert(usedChallenges).values({ id, expiresAt }).onConflictDoNothing().returning({ id: usedChallenges.id });
  return inserted.length === 1;
}

async function proofOfWorkPassed(db: Db, secretKey: string, field: string): Promise<boolean> {
  const payload = decodePayload(field);
  if (!payload) return false;
  const result = await verifySolution({ challenge: payload.challenge, solution: payload.solution, deriveKey, hmacSignatureSecret: challengeKey(secretKey) }).catch(() => null);
  if (!result?.verified) return false;
  const { nonce, expiresAt } = payload.challenge.parameters;
  return spend(db, `pow:${nonce}`.slice(0, 64), new Date((expiresAt ?? 0) * 1000));
}

/** The no-script question: two small numbers to add, and a signed token that carries them. */
export interface ChallengeQuestion {
  a: number;
  b: number;
  token: string;
}

const questionMac = (secretKey: string, data: string) => createHmac('sha256', challengeKey(secretKey)).update(`question.${data}`).digest('base64url');

export function issueQuestion(secretKey: string, now = Date.now()): ChallengeQuestion {
  const a = randomInt(2, 10);
  const b = randomInt(2, 10);
  const data = `${randomBytes(12).toString('base64url')}.${Math.floor(now / 1000) + CHALLENGE_LIFETIME_SECONDS}`;
  // The sum is inside the MAC only: the token does not give the answer away.
  return { a, b, token: `${data}.${questionMac(secretKey, `${data}.${a + b}`)}` };
}

/**
 * Stands for the no-script question in a page kept for many visitors (web/page-keeping.ts): each
 * answer gets a fresh question in its place (fillQuestion), as it gets its own form token. The two
 * numbers are ten digits long, apart by one, so neither is part of the other nor of a real sum.
 */
const placeholderA = randomInt(1_000_000_000, 2_000_000_000);
export const QUESTION_PLACEHOLDER: ChallengeQuestion = { a: placeholderA, b: placeholderA + 1, token: `question${randomBytes(18).toString('hex')}` };

/** The page with a fresh question (issued by `issue`) in place of QUESTION_PLACEHOLDER; unchanged when it asks none. */
export function fillQuestion(html: string, issue: () => ChallengeQuestion): string {
  if (!html.includes(QUESTION_PLACEHOLDER.token)) return html;
  const question = issue();
  return html
    .replaceAll(QUESTION_PLACEHOLDER.token, question.token)
    .replaceAll(String(QUESTION_PLACEHOLDER.a), String(question.a))
    .replaceAll(String(QUESTION_PLACEHOLDER.b), String(question.b));
}

async function questionAnswered(db: Db, secretKey: string, token: string, answer: string, now: number): Promise<boolean> {
  const [nonce, expires, mac] = token.split('.');
  if (!nonce || !expires || !mac || !/^\d{1,3}$/.test(answer) || !/^\d+$/.test(expires)) return false;
  if (Number(expires) * 1000 < now) return false;
  const expected = Buffer.from(questionMac(secretKey, `${nonce}.${expires}.${Number(answer)}`));
  const given = Buffer.from(mac);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return false;
  return spend(db, `question:${nonce}`.slice(0, 64), new Date(Number(expires) * 1000));
}

/**
 * Whether a form post carries a valid, unused answer: the widget's solved challenge or, without
 * JavaScript, the right sum. Spends it, so call it once per post, after the cheap checks.
 */
export async function challengePassed(db: Db, secretKey: string, fields: (name: string) => string, now = Date.now()): Promise<boolean> {
  const proof = fields(CHALLENGE_FIELDS.proofOfWork);
  if (proof) return proofOfWorkPassed(db, secretKey, proof);
  const token = fields(CHALLENGE_FIELDS.questionToken);
  return Boolean(token) && questionAnswered(db, secretKey, token, fields(CHALLENGE_FIELDS.answer).trim(), now);
}

/** The honeypot: a field people never see nor reach, which form-filling robots fill in. */
export const HONEYPOT_FIELD = 'website';

export const honeypotFilled = (fields: (name: string) => string): boolean => fields(HONEYPOT_FIELD) !== '';
