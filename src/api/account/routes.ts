import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type, type Static } from 'typebox';
import { type AuthUser, requireUser } from '../../http/auth.js';
import { checkFormMediaType, readMultipartBody } from '../../http/bodies.js';
import { fieldErrors } from '../../http/errors.js';
import { requestLanguage } from '../../http/i18n.js';
import { errorResponses, rejectOtherMethods } from '../../http/responses.js';
import { absoluteUrl } from '../../http/urls.js';
import { t } from '../../i18n/index.js';
import { ImageInvalid } from '../../media/images.js';
import { removeAvatar, storeAvatar } from '../../core/users/avatars.js';
import { USERNAME_MAX_LENGTH, usernameError } from '../../core/users/rules.js';
import { isUniqueViolation, updateAccountProfile, usernameTaken } from '../../core/users/services.js';
import { serializeAccount } from './serialize.js';

const Account = Type.Object({
  pk: Type.Integer(),
  username: Type.String(),
  user_image: Type.Union([Type.String(), Type.Null()]),
  user_image_fallback: Type.String(),
  language: Type.String(),
});

const Language = Type.Union([Type.Literal('en'), Type.Literal('de')]);
const AccountPut = Type.Object({ username: Type.String({ minLength: 1, maxLength: USERNAME_MAX_LENGTH }), language: Type.Optional(Language) });
const AccountPatch = Type.Partial(AccountPut);
type AccountChanges = Static<typeof AccountPatch>;

const responses = { 200: Account, ...errorResponses(400, 401, 403, 404, 413, 415, 429) };

/** The signed-in user's account (the reference's AccountViewSet): GET, and PUT/PATCH with an optional avatar upload. */
export async function accountApiRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, db } = app.ctx;
  const { media } = app.ctx;
  const show = (request: FastifyRequest, user: AuthUser) => serializeAccount(user, (path) => absoluteUrl(config.baseUrl, path));

  app.get('/api/account/', { schema: { summary: 'The signed-in user', tags: ['account'], response: responses } }, async (request) =>
    show(request, await requireUser(request)),
  );

  app.decorateRequest('upload', null);
  /** 401 comes before any body problem; a multipart body's fields become the body the schema checks, its avatar waits on the request. */
  async function readBody(request: FastifyRequest) {
    await requireUser(request);
    checkFormMediaType(request);
    if (request.isMultipart()) request.upload = await readMultipartBody(request, 'user_image');
  }

  async function save(request: FastifyRequest, changes: AccountChanges) {
    const user = await requireUser(request);
    const lang = requestLanguage(request, user);
    const username = changes.username?.trim();
    const invalid = username === undefined ? null : usernameError(username, user.username);
    if (invalid) throw fieldErrors({ username: [t(lang, invalid)] });
    if (username !== undefined && (await usernameTaken(db, username, user.id))) throw fieldErrors({ username: [t(lang, 'A user with that username already exists.')] });
    let avatar: string | undefined;
    if (request.upload) {
      try {
        avatar = await storeAvatar(media, request.upload);
      } catch (error) {
        if (error instanceof ImageInvalid) throw fieldErrors({ user_image: [t(lang, error.message)] });
        throw error;
      }
    }
    const update = { ...(username !== undefined ? { username } : {}), ...(changes.language ? { language: changes.language } : {}), ...(avatar ? { avatar } : {}) };
    try {
      const { replacedAvatar } = await db.transaction((tx) => updateAccountProfile(tx, user.id, update));
      if (replacedAvatar) await removeAvatar(media, replacedAvatar);
    } catch (error) {
      if (avatar) await removeAvatar(media, avatar);
      if (isUniqueViolation(error)) throw fieldErrors({ username: [t(lang, 'A user with that username already exists.')] });
      throw error;
    }
    return show(request, { ...user, ...update });
  }

  const description = 'JSON, form-encoded, or multipart with the avatar as the file `user_image` (png, jpeg or gif, at least 200×200, at most 5 MB).';
  app.put(
    '/api/account/',
    { preValidation: readBody, schema: { summary: 'Change the signed-in user', description, tags: ['account'], body: AccountPut, response: responses } },
    (request) => save(request, request.body),
  );
  app.patch(
    '/api/account/',
    { preValidation: readBody, schema: { summary: 'Change some of the signed-in user', description, tags: ['account'], body: AccountPatch, response: responses } },
    (request) => save(request, request.body ?? {}),
  );
  rejectOtherMethods(app, '/api/account/', ['GET', 'PUT', 'PATCH']);
}
