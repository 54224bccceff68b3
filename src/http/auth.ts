import { and, eq, type SQL, sql } from 'drizzle-orm';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/client.js';
import { fromJson, preparedStatement, qualified as q } from '../db/sql.js';
import { apiTokens, browserSessions, notifications, organisationInitiators, organisations, projectModerators, users } from '../db/schema/index.js';
import { ApiError, authenticationFailed, notAuthenticated, permissionDenied } from './errors.js';
import { JwtInvalid, verifyJwt } from './jwt.js';
import { livePositionField } from './live.js';
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

/** The user in `users` as one JSON object (every column qualified: it is read inside other statements), for `fromUserJson`. */
const userJson = (more: Record<string, SQL> = {}) => {
  const fields: [string, SQL][] = [...Object.entries(userColumns).map(([name, column]): [string, SQL] => [name, q(column)]), ...Object.entries(more)];
  return sql`json_build_object(${sql.join(
    fields.map(([name, value]) => sql`${sql.raw(`'${name}'`)}, ${value}`),
    sql`, `,
  )})`;
};

type UserJson = Omit<LoadedUser, 'dateJoined' | 'credentialsValidAfter'> & { dateJoined: string; credentialsValidAfter: string | null };
const fromUserJson = <T extends UserJson>(raw: T | string) => {
  const row = fromJson(raw);
  return { ...row, dateJoined: new Date(row.dateJoined), credentialsValidAfter: row.credentialsValidAfter === null ? null : new Date(row.credentialsValidAfter) };
};

/**
 * What a browser session's user brings beside the user: the staff places the page header links, the
 * bell's count, and where the live channel stood (the count and the position from one snapshot).
 */
const sessionUserExtras = {
  initiatorOf: sql`(select o.slug from ${organisationInitiators} i join ${organisations} o on o.id = i.organisation_id where i.user_id = ${q(users.id)} order by o.name, o.id limit 1)`,
  moderates: sql`exists (select 1 from ${projectModerators} m where m.user_id = ${q(users.id)})`,
  unread: sql`(select count(*) from (select 1 from ${notifications} n where n.recipient_id = ${q(users.id)} and not n.read limit ${sql.raw(String(BELL_MAX))}) u)`,
  livePosition: livePositionField,
};

/**
 * The browser session named by the placeholder `session` while it lasts (placeholder `sessionAt`,
 * the request's time), joined with its active user whose credentials it still holds (a session
 * begun before a password change or a deactivation no longer counts, as `issuedInTime`).
 */
const sessionUserJoin = sql`${browserSessions} join ${users} on ${q(users.id)} = ${q(browserSessions.userId)}
  where ${q(browserSessions.id)} = ${sql.placeholder('session')} and ${q(browserSessions.expiresAt)} > ${sql.placeholder('sessionAt')} and ${q(users.isActive)}
    and (${q(users.credentialsValidAfter)} is null or ${q(browserSessions.created)} >= ${q(users.credentialsValidAfter)})`;

/** The id of the browser session's user (null: none), as SQL for a statement's own user. */
const sessionUid = sql<number | null>`(select ${q(users.id)} from ${sessionUserJoin})`;

/** The browser session's user with the staff places and the bell as JSON (null: no such session), for `sessionUserOf`. */
const sessionUserField = sql<unknown>`(select ${userJson(sessionUserExtras)} from ${sessionUserJoin})`;

type SessionUserJson = UserJson & { initiatorOf: string | null; moderates: boolean; unread: number | string; livePosition: string };

/** The user `sessionUserField` read (null: none). */
function sessionUserOf(raw: unknown): AuthUser | null {
  if (raw === null || raw === undefined) return null;
  const { initiatorOf, moderates, unread, livePosition, ...user } = fromUserJson(raw as SessionUserJson | string);
  return { ...toAuthUser(user), staff: { initiatorOf, moderates: Boolean(moderates) }, bell: { unread: Number(unread), livePosition } };
}

/** The browser session's user on its own: the first statement of a signed-in page (one statement, no extra query per page). */
const sessionUserStatement = preparedStatement<{ user: unknown }, { session: string; sessionAt: Date }>('auth_session', () => sql`select ${sessionUserField} as "user"`);

async function bySession(db: Db, request: FastifyRequest): Promise<AuthUser | null> {
  const session = browserSessionKey(request.cookies[SESSION_COOKIE]);
  if (!session) return null;
  const [row] = await sessionUserStatement(db, { session, sessionAt: new Date() });
  return sessionUserOf(row?.user);
}

/** A session's user as the request's authentication, once the CSRF check of an unsafe method passed (else 403). */
function sessionAuthentication(request: FastifyRequest, user: AuthUser): Authentication {
  const failure = isSafeMethod(request.method) ? null : csrfFailure(request);
  if (failure) throw new ApiError(403, { detail: `CSRF Failed: ${failure}` });
  return { user, scheme: 'session' };
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
  if (sessionUser) return sessionAuthentication(request, sessionUser);
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
 * The credentials of a request not yet authenticated that a statement may read itself: an app's
 * `Authorization: Token <key>`, or (no Authorization header) the browser session's key — the values
 * of the placeholders `token`, `session` and `sessionAt` of `callerUid` and `callerFields`. Null when
 * the request is authenticated already, sent neither, or another scheme (`currentUser` reads those).
 */
interface PendingCaller {
  token: string;
  session: string;
  sessionAt: Date;
}

/**
 * The request's pending credentials (see PendingCaller), else null. A route whose first statement
 * reads the caller's context resolves them in that statement (`callerUid`, `callerFields`) and
 * settles the authentication with what it read (`settleCaller`): the caller costs no round trip
 * of its own.
 */
export function pendingCaller(request: FastifyRequest): PendingCaller | null {
  if ((request as FastifyRequest & AuthMemo)._auth) return null;
  const header = request.headers.authorization;
  if (header !== undefined) {
    const token = TOKEN_HEADER.exec(header)?.[1];
    return token ? { token, session: '', sessionAt: new Date() } : null;
  }
  const session = browserSessionKey(request.cookies[SESSION_COOKIE]);
  return session ? { token: '', session, sessionAt: new Date() } : null;
}

const tokenUserJoin = sql`${apiTokens} join ${users} on ${q(users.id)} = ${q(apiTokens.userId)} where ${q(apiTokens.key)} = ${sql.placeholder('token')}`;

/** The id of the active user of the token in the placeholder `token` (null: none). */
const tokenUid = sql<number | null>`(select ${q(users.id)} from ${tokenUserJoin} and ${q(users.isActive)})`;

/** The id of a pending caller's user (null: none, or nothing pending), as SQL for a statement's own user. */
export const callerUid = sql<number | null>`coalesce(${tokenUid}, ${sessionUid})`;

/** The pending caller's user as JSON fields of a statement, for `settleCaller`: the token's user (null: no such token) and the session's (null: none). */
export const callerFields = {
  tokenUser: sql<unknown>`(select ${userJson()} from ${tokenUserJoin})`,
  sessionUser: sessionUserField,
};

/**
 * Settles a request's pending authentication with what `callerFields` read: the token's user, or
 * the 401 the token lookup answers; the session's user after the CSRF check of an unsafe method
 * (403 as `authenticate`), or anonymous when the session is gone.
 */
export function settleCaller(request: FastifyRequest, pending: PendingCaller, read: { tokenUser: unknown; sessionUser: unknown }): AuthUser | null {
  let authentication: Authentication;
  if (pending.token) {
    const row = read.tokenUser === null || read.tokenUser === undefined ? null : fromUserJson(read.tokenUser as UserJson | string);
    if (!row) throw authenticationFailed('Invalid token.');
    if (!row.isActive) throw authenticationFailed('User inactive or deleted.');
    authentication = { user: toAuthUser(row), scheme: 'token' };
  } else {
    const user = sessionUserOf(read.sessionUser);
    authentication = user ? sessionAuthentication(request, user) : { user: null, scheme: null };
  }
  (request as FastifyRequest & AuthMemo)._auth = Promise.resolve(authentication);
  return authentication.user;
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
