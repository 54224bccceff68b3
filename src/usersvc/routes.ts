import { type TypeBoxTypeProvider, TypeBoxValidatorCompiler } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { closeLoginThrottle, openLoginThrottle } from '../http/throttle.js';
import { databaseUnavailable } from '../http/errors.js';
import { authenticate } from './auth.js';
import {
  badRequest,
  parseAnyBodyAsJson,
  refuseOtherMethods,
  registerPlainErrors,
  registerPlainNotFound,
  routeNotFound,
  sendJson,
  sessionNotFound,
  unauthorized,
  userNotFound,
  type UsersvcError,
} from './errors.js';
import { proxyRoutes } from './proxy.js';
import { findActiveSession, findSession, findUser, listServiceIds, listUserIds } from './queries.js';
import { type Clearance, emailProblem, isAdmin, isAdminOrThatService, isAdminOrThatUser, isThatUser, parseUserId, userNameProblem, USERSVC_LIMITS } from './rules.js';
import {
  addLogin,
  checkLogin,
  closeSession,
  createService,
  createUser,
  deleteUser,
  ensureAdmin,
  openSession,
  purgeExpiredSessions,
  removeLogin,
  setUserEmail,
  setUserName,
} from './services.js';

const tags = ['user/session service'];
const reason = Type.String({ description: 'plain-text reason, e.g. "unauthorized"' });
const failures = { 400: reason, 401: reason, 403: reason, 404: reason };
const unit = Type.Array(Type.Unknown(), { maxItems: 0, description: 'always []' });
const empty = Type.Null({ description: 'no body' });
const UserIdParams = Type.Object({ userid: Type.String({ description: 'user id' }) });
/** Tokens and service ids never hold control characters (PostgreSQL refuses NUL): such a path names nothing, 404. */
const NO_CONTROL = '^[^\\u0000-\\u001f\\u007f]*$';
const TokenParams = Type.Object({ token: Type.String({ maxLength: 200, pattern: NO_CONTROL, description: 'session token' }) });
const LoginParams = Type.Object({
  token: Type.String({ maxLength: 200, pattern: NO_CONTROL, description: 'session token' }),
  sid: Type.String({ maxLength: 200, pattern: NO_CONTROL, description: 'service id' }),
});
const UserFormData = Type.Object({
  udName: Type.String({ maxLength: USERSVC_LIMITS.name }),
  udEmail: Type.String({ maxLength: USERSVC_LIMITS.email }),
  udPassword: Type.String({ minLength: 1, maxLength: USERSVC_LIMITS.password }),
});
const Name = Type.String({ maxLength: USERSVC_LIMITS.name, description: 'the user name' });
const Email = Type.String({ maxLength: USERSVC_LIMITS.email, description: 'the e-mail address' });

const clearanceOf = (app: FastifyInstance, request: FastifyRequest): Promise<Clearance> =>
  authenticate(app.ctx.db, request.headers, new Date(), { ctx: app.ctx, ip: request.ip });

/** A missing object is "not found" for an admin and 401 for everyone else, so ids cannot be probed. */
const missing = (who: Clearance, error: UsersvcError): UsersvcError => (isAdmin(who) ? error : unauthorized());

function userIdOf(raw: string): number {
  const id = parseUserId(raw);
  if (id === null) throw routeNotFound();
  return id;
}

function assertAcceptable(problem: string | null): void {
  if (problem) throw badRequest(problem);
}

/** The user `rawId` names, once the caller may act on her (admin or that user herself). */
async function userFor(app: FastifyInstance, request: FastifyRequest, rawId: string) {
  const id = userIdOf(rawId);
  const who = await clearanceOf(app, request);
  if (!isAdminOrThatUser(who, id)) throw unauthorized();
  const user = await findUser(app.ctx.db, id);
  if (!user) throw userNotFound();
  return user;
}

async function userRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  registerPlainNotFound(app);
  const db = app.ctx.db;

  app.post(
    '',
    { schema: { tags, summary: 'Create a user (admin)', body: UserFormData, response: { 201: Type.Integer(), ...failures } } },
    async (request, reply) => {
      if (!isAdmin(await clearanceOf(app, request))) throw unauthorized();
      const { udName, udEmail, udPassword } = request.body;
      assertAcceptable(userNameProblem(udName) ?? emailProblem(udEmail));
      const id = await db.transaction((tx) => createUser(tx, { name: udName, email: udEmail, password: udPassword }));
      return sendJson(reply, 201, id);
    },
  );
  app.get('', { schema: { tags, summary: 'List user ids (admin)', response: { 200: Type.Array(Type.Integer()), ...failures } } }, async (request, reply) => {
    if (!isAdmin(await clearanceOf(app, request))) throw unauthorized();
    return sendJson(reply, 200, await listUserIds(db));
  });
  refuseOtherMethods(app, '', ['GET', 'POST']);

  app.delete(
    '/:userid',
    { schema: { tags, summary: 'Delete a user (admin or that user)', params: UserIdParams, response: { 204: empty, ...failures } } },
    async (request, reply) => {
      const user = await userFor(app, request, request.params.userid);
      if (!(await db.transaction((tx) => deleteUser(tx, user.id)))) throw userNotFound();
      return reply.status(204).send(null);
    },
  );
  refuseOtherMethods(app, '/:userid', ['DELETE']);

  app.get(
    '/:userid/name',
    { schema: { tags, summary: "A user's name (admin or that user)", params: UserIdParams, response: { 200: Name, ...failures } } },
    async (request, reply) => sendJson(reply, 200, (await userFor(app, request, request.params.userid)).name),
  );
  app.put(
    '/:userid/name',
    { schema: { tags, summary: "Change a user's name (admin or that user)", params: UserIdParams, body: Name, response: { 200: unit, ...failures } } },
    async (request, reply) => {
      const user = await userFor(app, request, request.params.userid);
      assertAcceptable(userNameProblem(request.body));
      if (!(await db.transaction((tx) => setUserName(tx, user.id, request.body)))) throw userNotFound();
      return sendJson(reply, 200, []);
    },
  );
  refuseOtherMethods(app, '/:userid/name', ['GET', 'PUT']);

  app.get(
    '/:userid/email',
    { schema: { tags, summary: "A user's e-mail address (admin or that user)", params: UserIdParams, response: { 200: Email, ...failures } } },
    async (request, reply) => sendJson(reply, 200, (await userFor(app, request, request.params.userid)).email),
  );
  app.put(
    '/:userid/email',
    { schema: { tags, summary: "Change a user's e-mail address (admin or that user)", params: UserIdParams, body: Email, response: { 200: unit, ...failures } } },
    async (request, reply) => {
      const user = await userFor(app, request, request.params.userid);
      assertAcceptable(emailProblem(request.body));
      if (!(await db.transaction((tx) => setUserEmail(tx, user.id, request.body)))) throw userNotFound();
      return sendJson(reply, 200, []);
    },
  );
  refuseOtherMethods(app, '/:userid/email', ['GET', 'PUT']);
}

async function sessionRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  registerPlainNotFound(app);
  const { db, config } = app.ctx;

  app.post(
    '',
    {
      schema: {
        tags,
        summary: 'Open (or restart) the session of the calling user',
        body: Type.Integer({ description: 'the user id' }),
        response: { 201: Type.String({ description: 'the session token' }), ...failures },
      },
    },
    async (request, reply) => {
      const who = await clearanceOf(app, request);
      const user = await findUser(db, request.body);
      if (!isThatUser(who, request.body)) throw user ? unauthorized() : missing(who, userNotFound());
      if (!user) throw userNotFound();
      return sendJson(reply, 201, await openSession(db, user.id, config.usersvcSessionLifetimeSeconds, new Date()));
    },
  );
  refuseOtherMethods(app, '', ['POST']);

  app.get(
    '/:token',
    { schema: { tags, summary: 'Whether a session is active (does not extend it)', params: TokenParams, response: { 200: Type.Boolean(), ...failures } } },
    async (request, reply) => {
      await clearanceOf(app, request);
      return sendJson(reply, 200, (await findActiveSession(db, request.params.token, new Date())) !== null);
    },
  );
  app.delete(
    '/:token',
    { schema: { tags, summary: "End a session (admin or the session's user)", params: TokenParams, response: { 204: empty, ...failures } } },
    async (request, reply) => {
      const who = await clearanceOf(app, request);
      const session = await findSession(db, request.params.token);
      if (session ? !isAdminOrThatUser(who, session.userId) : !isAdmin(who)) throw unauthorized();
      if (session) await db.transaction((tx) => closeSession(tx, session.token));
      return reply.status(204).send(null);
    },
  );
  refuseOtherMethods(app, '/:token', ['GET', 'DELETE']);

  /** The active session `token`, which the caller (admin or the session's user) may change. */
  async function ownSession(request: FastifyRequest, token: string): Promise<Clearance> {
    const who = await clearanceOf(app, request);
    const session = await findActiveSession(db, token, new Date());
    if (!session) throw missing(who, sessionNotFound());
    if (!isAdminOrThatUser(who, session.userId)) throw unauthorized();
    return who;
  }

  app.post(
    '/:token/login/:sid',
    { schema: { tags, summary: 'Log the session in to a service (extends the session)', params: LoginParams, response: { 201: unit, ...failures } } },
    async (request, reply) => {
      const { token, sid } = request.params;
      const who = await ownSession(request, token);
      if (!(await addLogin(db, token, sid, new Date()))) throw missing(who, sessionNotFound());
      return sendJson(reply, 201, []);
    },
  );
  app.delete(
    '/:token/login/:sid',
    { schema: { tags, summary: 'Log the session out of a service (extends the session)', params: LoginParams, response: { 204: empty, ...failures } } },
    async (request, reply) => {
      const { token, sid } = request.params;
      const who = await ownSession(request, token);
      if (!(await removeLogin(db, token, sid, new Date()))) throw missing(who, sessionNotFound());
      return reply.status(204).send(null);
    },
  );
  app.get(
    '/:token/login/:sid',
    {
      schema: {
        tags,
        summary: 'Whether the session is logged in to the service (admin or the service itself)',
        params: LoginParams,
        response: { 200: Type.Boolean(), ...failures },
      },
    },
    async (request, reply) => {
      const { token, sid } = request.params;
      if (!isAdminOrThatService(await clearanceOf(app, request), sid)) throw unauthorized();
      return sendJson(reply, 200, await checkLogin(db, token, sid, new Date()));
    },
  );
  refuseOtherMethods(app, '/:token/login/:sid', ['GET', 'POST', 'DELETE']);
}

async function serviceRoutes(base: FastifyInstance): Promise<void> {
  const app = base.withTypeProvider<TypeBoxTypeProvider>();
  registerPlainNotFound(app);
  const db = app.ctx.db;

  app.post(
    '',
    {
      schema: {
        tags,
        summary: 'Create a service: answers [service id, service key]',
        response: { 201: Type.Tuple([Type.String(), Type.String()]), ...failures },
      },
    },
    async (request, reply) => {
      await clearanceOf(app, request);
      return sendJson(reply, 201, await db.transaction((tx) => createService(tx)));
    },
  );
  app.get('', { schema: { tags, summary: 'List service ids (admin)', response: { 200: Type.Array(Type.String()), ...failures } } }, async (request, reply) => {
    if (!isAdmin(await clearanceOf(app, request))) throw unauthorized();
    return sendJson(reply, 200, await listServiceIds(db));
  });
  refuseOtherMethods(app, '', ['GET', 'POST']);
}

/** Creates the configured first admin and clears expired sessions, once at start. */
async function prepare(app: FastifyInstance): Promise<void> {
  const { db, config } = app.ctx;
  await db.transaction((tx) => purgeExpiredSessions(tx, new Date()));
  const admin = config.usersvcAdmin;
  if (!admin) return;
  const outcome = await db.transaction((tx) => ensureAdmin(tx, admin));
  if (outcome === 'created') app.log.info({ name: admin.name }, 'user/session service: admin created');
  if (outcome === 'not-admin') app.log.warn({ name: admin.name }, 'user/session service: USERSVC_ADMIN_NAME names a user who is not an admin');
  if (outcome === 'email-taken') app.log.warn('user/session service: USERSVC_ADMIN_EMAIL is used by another user; admin not created');
}

/**
 * The user/session service (single sign-on): /user, /session, /service and /proxy-test, in its
 * own encapsulated context with plain-text errors and JSON bodies of any top-level type.
 */
export async function usersvcRoutes(app: FastifyInstance): Promise<void> {
  // A database that is away right now answers 503 per request; it does not stop the app from starting.
  await prepare(app).catch((error: unknown) => {
    if (!databaseUnavailable(error)) throw error;
    app.log.warn({ err: error }, 'user/session service: database unavailable at start; admin check and session purge skipped');
  });
  await openLoginThrottle(app.ctx, app.log);
  registerPlainErrors(app);
  parseAnyBodyAsJson(app);
  app.setValidatorCompiler(TypeBoxValidatorCompiler); // strict: a number is not a string here (no coercion)
  app.addHook('onRequest', async (request) => {
    // `/user/` would match `/user/:userid` with an empty id: no path segment may be empty.
    const params = request.params as Record<string, string> | undefined;
    if (params && Object.entries(params).some(([name, value]) => name !== '*' && value === '')) throw routeNotFound();
  });
  app.addHook('onClose', async () => closeLoginThrottle(app.ctx));
  await app.register(userRoutes, { prefix: '/user' });
  await app.register(sessionRoutes, { prefix: '/session' });
  await app.register(serviceRoutes, { prefix: '/service' });
  await app.register(proxyRoutes, { prefix: '/proxy-test' });
}
