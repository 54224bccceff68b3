import { and, eq, gt, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { fromJson, preparedPer, qualified as q } from '../db/sql.js';
import { apiTokens, browserSessions, notifications, organisationInitiators, organisations, projectModerators, users } from '../db/schema/index.js';
import { ApiError, authenticationFailed, notAuthenticated, permissionDenied } from './errors.js';
import { JwtInvalid, verifyJwt } from './jwt.js';
import { browserSessionKey, csrfFailure, isSafeMethod, SESSION_COOKIE } from './session.js';

/** The signed-in user as every feature sees it. */
export interface AuthUser {
  id: number;
  username: string;
  email: string;
  isSuperuser: boolean;
  isStaff: boolean;
  /** A guest (issue 34.4): takes part only where a project allows guests; no password, no mail. */
  isGuest: boolean;
  language: string;
  avatar: string | null;
  dateJoined: Date;
  /** Browser sessions only: where the page header leads staff (issue 22, item 13). */
  staff?: StaffPlaces;
  /** Browser sessions only: what the header's bell shows (issue 34, item 3). */
  bell?: Bell;
}

/**
 * The unread notifications (counted up to BELL_MAX; more shows as "99+") and where the live channel
 * stood when they were counted: the bell's stream starts there, so nothing between the page and its
 * stream is missed (the count and the position come from one statement's snapshot).
 */
export interface Bell {
  unread: number;
  livePosition: string;
}

export const BELL_MAX = 100;

/** The initiator's organisation (the first by name; its dashboard) and whether the user moderates a project. */
interface StaffPlaces {
  initiatorOf: string | null;
  moderates: boolean;
}

type AuthScheme = 'token' | 'session' | 'jwt';

const userColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  isSuperuser: users.isSuperuser,
  isStaff: users.isStaff,
  isGuest: users.isGuest,
  language: users.language,
  avatar: users.avatar,
  dateJoined: users.dateJoined,
  isActive: users.isActive,
  credentialsValidAfter: users.credentialsValidAfter,
};

type LoadedUser = AuthUser & { isActive: boolean; credentialsValidAfter: Date | null };

const toAuthUser = ({ isActive: _a, credentialsValidAfter: _c, ...user }: LoadedUser): AuthUser => user;

/** Credentials issued at `issued` still count if the user has not changed password or been deactivated since. */
export const issuedInTime = (user: Pick<LoadedUser, 'credentialsValidAfter'>, issued: Date) => !user.credentialsValidAfter || issued >= user.credentialsValidAfter;

export async function loadActiveUser(db: Db, id: number): Promise<LoadedUser | null> {
  const [user] = await db.select(userColumns).from(users).where(and(eq(users.id, id), eq(users.isActive, true)));
  return user ?? null;
}

/** The user of an API token with their state: the statement of nearly every app request, so it is prepared once per database (db/client.ts). */
const prepareTokenLookup = (db: Db) =>
  db.select(userColumns).from(apiTokens).innerJoin(users, eq(users.id, apiTokens.userId)).where(eq(apiTokens.key, sql.placeholder('key'))).prepare('auth_token');
type TokenLookup = ReturnType<typeof prepareTokenLookup>;

async function byToken(tokenLookup: TokenLookup, key: string): Promise<AuthUser> {
  const [row] = await tokenLookup.execute({ key });
  if (!row) throw authenticationFailed('Invalid token.');
  if (!row.isActive) throw authenticationFailed('User inactive or deleted.');
  return toAuthUser(row);
}

async function byJwt(db: Db, secret: string, token: string): Promise<AuthUser> {
  const fail = (message: string) =>
    authenticationFailed('Given token not valid for any token type', { code: 'token_not_valid', messages: [{ token_class: 'AccessToken', token_type: 'access', message }] }, 'Bearer realm="api"');
  let claims;
  try {
    claims = await verifyJwt(secret, token, 'access');
  } catch (error) {
    throw fail(error instanceof JwtInvalid ? error.message : 'Token is invalid');
  }
  const user = await loadActiveUser(db, claims.user_id);
  if (!user) throw authenticationFailed('User not found', { code: 'user_not_found' }, 'Bearer realm="api"');
  if (!issuedInTime(user, new Date(claims.iat * 1000))) throw fail('Token is invalid');
  return toAuthUser(user);
}

/**
 * The browser session's user (an unexpired session of an active user) with the staff places the
 * page header links, the bell's count and when the session began, in one statement (no extra query per page).
 */
const sessionUserStatement = preparedPer((db) =>
  db
    .select({
      ...userColumns,
      sessionCreated: browserSessions.created,
      initiatorOf: sql<string | null>`(select o.slug from ${organisationInitiators} i join ${organisations} o on o.id = i.organisation_id where i.user_id = ${users.id} order by o.name, o.id limit 1)`,
      moderates: sql<boolean>`exists (select 1 from ${projectModerators} m where m.user_id = ${users.id})`,
      unread: sql<number>`(select count(*) from (select 1 from ${notifications} n where n.recipient_id = ${users.id} and not n.read limit ${sql.raw(String(BELL_MAX))}) u)`.mapWith(Number),
      livePosition: sql<string>`pg_current_snapshot()::text`,
    })
    .from(browserSessions)
    .innerJoin(users, eq(users.id, browserSessions.userId))
    .where(and(eq(browserSessions.id, sql.placeholder('key')), gt(browserSessions.expiresAt, sql.placeholder('now')), eq(users.isActive, true)))
    .prepare('auth_session'),
);

async function loadSessionUser(db: Db, key: string) {
  const [row] = await sessionUserStatement(db).execute({ key, now: new Date() });
  return row ?? null;
}

async function bySession(db: Db, request: FastifyRequest): Promise<AuthUser | null> {
  const key = browserSessionKey(request.cookies[SESSION_COOKIE]);
  const row = key && (await loadSessionUser(db, key));
  if (!row || !issuedInTime(row, row.sessionCreated)) return null;
  const { initiatorOf, moderates, unread, livePosition, sessionCreated: _, ...user } = row;
  return { ...toAuthUser(user), staff: { initiatorOf, moderates: Boolean(moderates) }, bell: { unread, livePosition } };
}

export interface Authentication {
  user: AuthUser | null;
  scheme: AuthScheme | null;
}

/**
 * DRF's order: `Authorization: Token <key>`, then the session cookie (with CSRF on unsafe
 * methods), then `Authorization: Bearer <access>`. A malformed or invalid Authorization header,
 * or one of another scheme, is a 401 even where anonymous access would be allowed.
 */
async function authenticate(db: Db, secret: string, tokenLookup: TokenLookup, request: FastifyRequest): Promise<Authentication> {
  const header = request.headers.authorization;
  const [scheme, credential, ...rest] = (header ?? '').trim().split(/\s+/);
  if (header && /^token$/i.test(scheme)) {
    if (!credential || rest.length) throw authenticationFailed('Invalid token header. Token string should not contain spaces.');
    return { user: await byToken(tokenLookup, credential), scheme: 'token' };
  }
  const sessionUser = await bySession(db, request);
  if (sessionUser) {
    const failure = isSafeMethod(request.method) ? null : csrfFailure(request);
    if (failure) throw new ApiError(403, { detail: `CSRF Failed: ${failure}` });
    return { user: sessionUser, scheme: 'session' };
  }
  if (header && /^bearer$/i.test(scheme)) {
    if (!credential || rest.length) {
      throw authenticationFailed('Authorization header must contain two space-delimited values', { code: 'bad_authorization_header' }, 'Bearer realm="api"');
    }
    return { user: await byJwt(db, secret, credential), scheme: 'jwt' };
  }
  // Credentials in a scheme we do not speak (Basic, Digest, a bare word) are refused, never ignored.
  if (header !== undefined) throw authenticationFailed('Invalid authorization header. Use "Token <key>" or "Bearer <access token>".');
  return { user: null, scheme: null };
}

/** A request's authentication once it was asked for (or settled by `settleToken`). */
type AuthMemo = { _auth?: Promise<Authentication> };

/** Authentication against `db` (see authenticate), with its statements prepared once, memoised per request (`request.auth()`). */
export function authenticator(db: Db, secret: string): (this: FastifyRequest) => Promise<Authentication> {
  const tokenLookup = prepareTokenLookup(db);
  return function (this: FastifyRequest & AuthMemo) {
    this._auth ??= authenticate(db, secret, tokenLookup, this);
    return this._auth;
  };
}

const TOKEN_HEADER = /^\s*token\s+(\S+)\s*$/i;

/**
 * The key of the request's `Authorization: Token <key>` header while the request is not yet
 * authenticated, else null. A route whose first statement reads the caller's context may resolve
 * the key in that statement (`tokenUid`, `tokenUserField`, placeholder `token`) and settle the
 * authentication with the row (`settleToken`): the token costs no round trip of its own.
 */
export function pendingTokenKey(request: FastifyRequest): string | null {
  if ((request as FastifyRequest & AuthMemo)._auth) return null;
  return TOKEN_HEADER.exec(request.headers.authorization ?? '')?.[1] ?? null;
}

const tokenUserJoin = sql`${apiTokens} join ${users} on ${q(users.id)} = ${q(apiTokens.userId)} where ${q(apiTokens.key)} = ${sql.placeholder('token')}`;

/** The id of the active user of the token in the placeholder `token` (null: none), as SQL for a statement's own user. */
export const tokenUid = sql<number | null>`(select ${q(users.id)} from ${tokenUserJoin} and ${q(users.isActive)})`;

/** The user of the token in the placeholder `token` as JSON (null: no such token), for `settleToken`. */
export const tokenUserField = sql<unknown>`(select json_build_object('id', ${q(users.id)}, 'username', ${q(users.username)}, 'email', ${q(users.email)},
  'isSuperuser', ${q(users.isSuperuser)}, 'isStaff', ${q(users.isStaff)}, 'language', ${q(users.language)}, 'avatar', ${q(users.avatar)},
  'dateJoined', ${q(users.dateJoined)}, 'isActive', ${q(users.isActive)}) from ${tokenUserJoin})`;

/** Settles a request's token authentication with what `tokenUserField` read: its user, or the 401 the token lookup answers. */
export function settleToken(request: FastifyRequest, raw: unknown): AuthUser {
  const row = raw === null || raw === undefined ? null : fromJson(raw as (Omit<LoadedUser, 'dateJoined' | 'credentialsValidAfter'> & { dateJoined: string }) | string);
  if (!row) throw authenticationFailed('Invalid token.');
  if (!row.isActive) throw authenticationFailed('User inactive or deleted.');
  const user = toAuthUser({ ...row, dateJoined: new Date(row.dateJoined), credentialsValidAfter: null });
  (request as FastifyRequest & AuthMemo)._auth = Promise.resolve({ user, scheme: 'token' });
  return user;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Memoised authentication of this request (see authenticate). */
    auth(): Promise<Authentication>;
  }
}

/** The request's user, or null for an anonymous request; throws 401 for bad credentials. */
export async function currentUser(request: FastifyRequest): Promise<AuthUser | null> {
  return (await request.auth()).user;
}

/** The request's user; 401 with WWW-Authenticate when none came. */
export async function requireUser(request: FastifyRequest): Promise<AuthUser> {
  const user = await currentUser(request);
  if (!user) throw notAuthenticated();
  return user;
}

/** 401 for anonymous callers, 403 for signed-in users who lack the permission (decision D5). */
export function denied(user: AuthUser | null): ApiError {
  return user ? permissionDenied() : notAuthenticated();
}
