import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { authenticationFailed, badRequest, fieldErrors } from '../../http/errors.js';
import { errorResponses } from '../../http/responses.js';
import { closeLoginThrottle, openLoginThrottle } from '../../http/throttle.js';
import { apiTokenFor, throttledLogin } from '../../core/users/auth.js';
import { BEARER_CHALLENGE, issueTokenPair, rotateRefreshToken, verifyToken } from '../../core/users/jwt-tokens.js';

const Credentials = Type.Object({
  username: Type.String({ minLength: 1, maxLength: 254 }),
  password: Type.String({ minLength: 1, maxLength: 4096 }),
});
const TokenPair = Type.Object({ refresh: Type.String(), access: Type.String() });

/** DRF trims CharFields (but never passwords): a username of blanks is blank. */
function requireUsername(username: string): string {
  const trimmed = username.trim();
  if (!trimmed) throw fieldErrors({ username: ['This field may not be blank.'] });
  if (trimmed.includes('\0')) throw fieldErrors({ username: ['Null characters are not allowed.'] });
  return trimmed;
}

/** Multipart forms carry their fields as parts; the routes read them like a urlencoded form. */
async function readMultipartFields(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts()) {
      if (part.type === 'field') fields[part.fieldname] = String(part.value);
      else part.file.resume();
    }
  } catch (error) {
    const status = (error as { statusCode?: unknown }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) throw error;
    throw badRequest(`Multipart form parse error - ${error instanceof Error ? error.message : 'invalid body'}`);
  }
  request.body = fields;
}

/** An absent body is an empty form, so that missing fields get field errors. */
async function defaultBody(request: FastifyRequest): Promise<void> {
  await readMultipartFields(request);
  request.body ??= {};
}

export async function authRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  await openLoginThrottle(app.ctx, app.log); // with REDIS_URL: Redis must answer at start
  app.addHook('onClose', async () => closeLoginThrottle(app.ctx));

  app.post(
    '/api/token/',
    {
      preValidation: defaultBody,
      schema: {
        summary: 'Obtain a JWT pair (access and refresh) with username or e-mail and password',
        tags: ['authentication'],
        security: [],
        body: Credentials,
        response: { 200: TokenPair, ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const login = await throttledLogin(app.ctx, request.ip, requireUsername(request.body.username), request.body.password);
      if (!login.ok) throw authenticationFailed('No active account found with the given credentials', {}, BEARER_CHALLENGE);
      return issueTokenPair(app.ctx.config, login.user);
    },
  );

  app.post(
    '/api/token/refresh/',
    {
      preValidation: defaultBody,
      schema: {
        summary: 'Exchange a refresh token for a new pair; the old refresh token is blacklisted',
        tags: ['authentication'],
        security: [],
        body: Type.Object({ refresh: Type.String({ minLength: 1 }) }),
        response: { 200: Type.Object({ access: Type.String(), refresh: Type.String() }), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      const { access, refresh } = await rotateRefreshToken(app.ctx.db, app.ctx.config, request.body.refresh);
      return { access, refresh };
    },
  );

  app.post(
    '/api/token/verify/',
    {
      preValidation: defaultBody,
      schema: {
        summary: 'Check that a token (access or refresh) is valid',
        tags: ['authentication'],
        security: [],
        body: Type.Object({ token: Type.String({ minLength: 1 }) }),
        response: { 200: Type.Object({}), ...errorResponses(400, 401, 403, 404, 429) },
      },
    },
    async (request) => {
      await verifyToken(app.ctx.db, app.ctx.config, request.body.token);
      return {};
    },
  );

  const loginOptions = {
    preValidation: defaultBody,
    schema: {
      summary: 'Obtain the persistent API key for `Authorization: Token <key>`',
      tags: ['authentication'],
      security: [],
      body: Credentials,
      response: { 200: Type.Object({ token: Type.String() }), ...errorResponses(400, 401, 403, 404, 429) },
    },
  };
  for (const url of ['/api/login/', '/api/login']) {
    app.post(url, { ...loginOptions, schema: { ...loginOptions.schema, hide: url === '/api/login' } }, async (request) => {
      await request.auth(); // DRF authenticates every view of this kind: bad credentials in a header are a 401
      const login = await throttledLogin(app.ctx, request.ip, requireUsername(request.body.username), request.body.password);
      if (!login.ok) throw fieldErrors({ non_field_errors: ['Unable to log in with provided credentials.'] });
      return { token: await apiTokenFor(app.ctx.db, login.user.id) };
    });
  }
}
