import { and, eq, gt, lt, type SQL, sql } from 'drizzle-orm';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { DbOrTx } from '../db/client.js';
import { browserSessions } from '../db/schema/index.js';

export const SESSION_COOKIE = 'sessionid';
/** A visitor's signed identity for anonymous likes (`pageVisitor`): no stored session behind it. */
const VISITOR_COOKIE = 'visitorid';
export const CSRF_COOKIE = 'csrftoken';
export const CSRF_HEADER = 'x-csrftoken';
const CSRF_FIELD = 'csrfmiddlewaretoken';
export const SESSION_LIFETIME_SECONDS = 14 * 24 * 3600;
/** The CSRF cookie outlives the browser session, as Django's (CSRF_COOKIE_AGE, 52 weeks). */
const CSRF_COOKIE_SECONDS = 52 * 7 * 24 * 3600;

const sessionId = (cookieValue: string) => createHash('sha256').update(cookieValue).digest('hex');

/** Opens a browser session for a user; returns the cookie value (only its hash is stored). */
export async function createBrowserSession(db: DbOrTx, userId: number | null, data: Record<string, unknown> = {}): Promise<string> {
  const cookieValue = randomBytes(32).toString('base64url');
  await db.insert(browserSessions).values({
    id: sessionId(cookieValue),
    userId,
    data,
    expiresAt: new Date(Date.now() + SESSION_LIFETIME_SECONDS * 1000),
  });
  return cookieValue;
}

/**
 * Where the browser session of a cookie is stored (its row id), or null for a value no session can
 * have: the caller reads the session with its user in one statement (http/auth.ts).
 */
export function browserSessionKey(cookieValue: string | undefined): string | null {
  return !cookieValue || cookieValue.length > 200 ? null : sessionId(cookieValue);
}

export async function destroyBrowserSession(db: DbOrTx, cookieValue: string | undefined): Promise<void> {
  if (cookieValue) await db.delete(browserSessions).where(eq(browserSessions.id, sessionId(cookieValue)));
}

export async function destroyUserSessions(db: DbOrTx, userId: number): Promise<void> {
  await db.delete(browserSessions).where(eq(browserSessions.userId, userId));
}

export async function purgeExpiredSessions(db: DbOrTx): Promise<void> {
  await db.delete(browserSessions).where(lt(browserSessions.expiresAt, new Date()));
}

/**
 * The stored key of a browser session while it lives, as a select field (`key`: the key a cookie
 * names, `browserSessionKey`; '' none): null when it is expired or unknown. For a statement that
 * reads it with what a request needs besides (the event page's, a like's).
 */
export const liveSessionField = (key: SQL) => sql<string | null>`(select s.id from ${browserSessions} s where s.id = ${key} and s.expires_at > now())`;

/** The stored key of a cookie's session while it lives (expired or unknown: null). */
async function liveSessionKey(db: DbOrTx, cookieValue: string | undefined): Promise<string | null> {
  const key = browserSessionKey(cookieValue);
  if (!key) return null;
  const [row] = await db.select({ id: browserSessions.id }).from(browserSessions).where(and(eq(browserSessions.id, key), gt(browserSessions.expiresAt, new Date())));
  return row?.id ?? null;
}

/** The stored key of the request's browser session, if it has a live one (reads only). */
async function existingSessionKey(db: DbOrTx, request: FastifyRequest): Promise<string | null> {
  return liveSessionKey(db, request.cookies[SESSION_COOKIE]);
}

/**
 * The visitor identity (issue 40): what a browser's anonymous writes (the likes of live questions)
 * are bound to when it has no live browser session, without a row per page view. A page that offers
 * them hands one out (`pageVisitor`): a random part, its expiry and their HMAC under SECRET_KEY, so
 * that only this server makes one and none lives longer than a browser session. Its key (what a like
 * is stored under) is derived from the random part; a signed-in user's or a live browser session's
 * key stays the session's (`likeSessionKey`), so their likes keep counting as theirs.
 */
const visitorSignature = (request: FastifyRequest, payload: string) => createHmac('sha256', request.server.ctx.config.secretKey).update(`visitor:${payload}`).digest('base64url');
const visitorKeyOf = (random: string) => `visitor:${createHash('sha256').update(random).digest('hex')}`;

/** The key of the request's visitor identity when its cookie is this server's and has not expired, else null. */
export function visitorKey(request: FastifyRequest): string | null {
  const match = /^([A-Za-z0-9_-]{24})\.(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(request.cookies[VISITOR_COOKIE] ?? '');
  if (!match || !sameText(match[3], visitorSignature(request, `${match[1]}.${match[2]}`))) return null;
  return Number(match[2]) * 1000 > Date.now() ? visitorKeyOf(match[1]) : null;
}

/**
 * The visitor identity of a page view: the request's own (`visitorKey`), or a new one, whose cookie
 * `issue` sets on the reply (call it only where the page uses it: no cookie is handed out for nothing).
 * Nothing is written.
 */
export function pageVisitor(request: FastifyRequest): { key: string; issue: (reply: FastifyReply) => void } {
  const key = visitorKey(request);
  if (key) return { key, issue: () => undefined };
  const random = randomBytes(18).toString('base64url');
  const payload = `${random}.${Math.floor(Date.now() / 1000) + SESSION_LIFETIME_SECONDS}`;
  const issue = (reply: FastifyReply) => {
    const value = `${payload}.${visitorSignature(request, payload)}`;
    reply.setCookie(VISITOR_COOKIE, value, sessionCookieOptions(request));
    request.cookies[VISITOR_COOKIE] = value;
  };
  return { key: visitorKeyOf(random), issue };
}

/** The key a browser's likes count under: its live browser session's, else its visitor identity's, else null (reads only). */
export async function likeSessionKey(db: DbOrTx, request: FastifyRequest): Promise<string | null> {
  return (await existingSessionKey(db, request)) ?? visitorKey(request);
}

/**
 * An anonymous write from a browser (its session or visitor cookie comes along) carries the CSRF
 * token as a signed-in one does; a client without cookies (an app) has nothing a forged request could use.
 */
export const anonymousWriteForged = (request: FastifyRequest): boolean =>
  (request.cookies[SESSION_COOKIE] !== undefined || request.cookies[VISITOR_COOKIE] !== undefined) && !request.headers.authorization && !csrfTokenValid(request);

function sessionCookieOptions(request: FastifyRequest) {
  return {
    path: '/',
    httpOnly: true,
    sameSite: 'lax' as const,
    secure: request.protocol === 'https',
    maxAge: SESSION_LIFETIME_SECONDS,
  };
}

export function setSessionCookie(request: FastifyRequest, reply: FastifyReply, cookieValue: string): void {
  reply.setCookie(SESSION_COOKIE, cookieValue, sessionCookieOptions(request));
}

/**
 * CSRF by double submit: a cookie whose value must come back in the X-CSRFToken header or the
 * csrfmiddlewaretoken form field on unsafe requests. The value is a random part and its HMAC under
 * SECRET_KEY, so a cookie made up elsewhere (a sibling subdomain can set one for the parent domain)
 * does not pass. Returns the token to put into forms.
 */
export function ensureCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const existing = request.cookies[CSRF_COOKIE];
  if (existing && signedTokenValid(request, existing)) return existing;
  return rotateCsrfToken(request, reply);
}

const csrfSignature = (request: FastifyRequest, random: string) => createHmac('sha256', request.server.ctx.config.secretKey).update(`csrftoken:${random}`).digest('base64url');
const sameText = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

function signedTokenValid(request: FastifyRequest, token: string): boolean {
  const match = /^([A-Za-z0-9_-]{24})\.([A-Za-z0-9_-]{43})$/.exec(token);
  return match !== null && sameText(match[2], csrfSignature(request, match[1]));
}

/** A new CSRF token (at login and logout, so a token seen before the login is worth nothing after it). */
export function rotateCsrfToken(request: FastifyRequest, reply: FastifyReply): string {
  const random = randomBytes(18).toString('base64url');
  const token = `${random}.${csrfSignature(request, random)}`;
  reply.setCookie(CSRF_COOKIE, token, { path: '/', sameSite: 'lax', secure: request.protocol === 'https', httpOnly: false, maxAge: CSRF_COOKIE_SECONDS });
  request.cookies[CSRF_COOKIE] = token;
  return token;
}

const originOf = (url: string): string | null => {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
};

/**
 * Django's origin check (4.0+): an unsafe request's `Origin`, where sent, must be the site's —
 * BASE_URL's origin, or the origin the request was addressed to (a page on another origin cannot
 * choose it: the browser sends the address it posts to); without `Origin`, an HTTPS request needs a
 * `Referer` of the same origin. The reason of a failure, or null.
 */
function originFailure(request: FastifyRequest): string | null {
  const trusted = [originOf(request.server.ctx.config.baseUrl), originOf(`${request.protocol}://${request.host}`)];
  const origin = request.headers.origin;
  if (origin !== undefined) return trusted.includes(origin) ? null : `Origin checking failed - ${origin} does not match any trusted origins.`;
  if (request.protocol !== 'https') return null;
  const referer = request.headers.referer;
  if (!referer) return 'Referer checking failed - no Referer.';
  return trusted.includes(originOf(referer)) ? null : 'Referer checking failed - Referer does not match any trusted origins.';
}

/** Why an unsafe request fails Django's CSRF check (origin first, then the signed double-submit token), or null when it passes. */
export function csrfFailure(request: FastifyRequest): string | null {
  const origin = originFailure(request);
  if (origin) return origin;
  const cookie = request.cookies[CSRF_COOKIE];
  const body = request.body as Record<string, unknown> | undefined;
  const sent = request.headers[CSRF_HEADER] ?? (body && typeof body === 'object' ? body[CSRF_FIELD] : undefined);
  if (typeof cookie !== 'string' || !signedTokenValid(request, cookie)) return 'CSRF cookie not set.';
  if (typeof sent !== 'string' || !sameText(cookie, sent)) return 'CSRF token missing or incorrect.';
  return null;
}

export const csrfTokenValid = (request: FastifyRequest): boolean => csrfFailure(request) === null;

export const isSafeMethod = (method: string) => method === 'GET' || method === 'HEAD' || method === 'OPTIONS';
