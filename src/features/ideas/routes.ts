import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { type AuthUser, denied } from '../../http/auth.js';
import { fieldErrors, notFound } from '../../http/errors.js';
import { requestLanguage } from '../../http/i18n.js';
import { errorResponses, notModified, optionalAuth, PathId, rejectOtherMethods } from '../../http/responses.js';
import { checkFormMediaType, readMultipartBody } from '../../http/bodies.js';
import { absoluteUrl } from '../../http/urls.js';
import { ImageInvalid } from '../../media/images.js';
import { removeIdeaImage, storeIdeaImage } from '../idealike/images.js';
import { IdeaBody, ideaBodyContent, IdeaPatchBody, type IdeaInput, parseIdeaInput } from '../idealike/input.js';
import { type IdeaModule, type IdeaRow, callerIdeaModuleLoader, loadIdeas } from '../idealike/queries.js';
import { canAddIdea, canChangeIdea, canDeleteIdea, canViewIdeas } from '../idealike/rules.js';
import { Idea, serializeIdea } from './serialize.js';
import { IDEA_KIND } from './idea-kind.js';
import { createIdeaRow, deleteIdea, updateIdea } from '../idealike/services.js';
import { saveAnswers } from '../customfields/services.js';
import { unanswered } from '../customfields/rules.js';

/** What the permission hook found for a request, for its handler. */
interface IdeaAccess {
  user: AuthUser | null;
  target: IdeaModule;
  idea: IdeaRow | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the idea API's preValidation hooks (checkCreate, checkChange); null where they found no valid path. */
    ideaAccess: IdeaAccess | null;
  }
}

/** A path id as the route schema will accept it; null for anything else (the schema then answers 404). */
function pathId(value: unknown): number | null {
  const id = typeof value === 'string' && /^\d{1,10}$/.test(value) ? Number(value) : NaN;
  return id >= 1 && id <= 2147483647 ? id : null;
}

/** The checked body; a request without one counts as an empty object. */
const bodyOf = (request: FastifyRequest): IdeaPatchBody => (typeof request.body === 'object' && request.body !== null ? (request.body as IdeaPatchBody) : {});

const IdeaParams = Type.Object({ moduleId: PathId });
const IdeaDetailParams = Type.Object({ moduleId: PathId, pk: PathId });

/** The idea API: /api/modules/{moduleId}/ideas/ and /api/modules/{moduleId}/ideas/{pk}/. */
export async function ideaRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { config, db } = app.ctx;
  const { media } = app.ctx;
  const loadIdeaModule = callerIdeaModuleLoader(db);
  app.decorateRequest('ideaAccess', null);
  app.decorateRequest('upload', null);

  async function moduleOr404(request: FastifyRequest, moduleId: number) {
    // The caller (an app's token too) with the module in one statement.
    const { user, target } = await loadIdeaModule(request, moduleId);
    if (!target) throw notFound();
    return { user, target };
  }

  async function ideaOr404(target: IdeaModule, ideaId: number, user: AuthUser | null): Promise<IdeaRow> {
    const [idea] = await loadIdeas(db, { moduleId: target.module.id, ideaId }, user?.id ?? null, IDEA_KIND);
    if (!idea) throw notFound();
    return idea;
  }

  function serializer(request: FastifyRequest, user: AuthUser | null, target: IdeaModule) {
    const ctx = {
      lang: requestLanguage(request, user),
      timeZone: config.timeZone,
      rules: target.rules,
      mediaUrl: (path: string) => absoluteUrl(config.baseUrl, `/media/${path}`),
    };
    return (idea: IdeaRow) => serializeIdea(idea, ctx);
  }

  /** Runs before body validation, so that 404, 401 and 403 come before 400 (as in DRF). */
  async function checkCreate(request: FastifyRequest) {
    const moduleId = pathId((request.params as Record<string, unknown>).moduleId);
    if (moduleId === null) return;
    const { user, target } = await moduleOr404(request, moduleId);
    if (!canAddIdea(target.rules, IDEA_KIND.kind)) throw denied(user);
    await readBody(request);
    request.ideaAccess = { user, target, idea: null };
  }

  async function checkChange(request: FastifyRequest) {
    const params = request.params as Record<string, unknown>;
    const [moduleId, ideaId] = [pathId(params.moduleId), pathId(params.pk)];
    if (moduleId === null || ideaId === null) return;
    const { user, target } = await moduleOr404(request, moduleId);
    const idea = await ideaOr404(target, ideaId, user);
    const allowed = request.method === 'DELETE' ? canDeleteIdea(target.rules, idea, IDEA_KIND.kind) : canChangeIdea(target.rules, idea, IDEA_KIND.kind);
    if (!allowed) throw denied(user);
    await readBody(request);
    request.ideaAccess = { user, target, idea };
  }

  /** A multipart body's fields become the body the schema checks; its image waits on the request. */
  async function readBody(request: FastifyRequest) {
    checkFormMediaType(request);
    if (request.isMultipart()) request.upload = await readMultipartBody(request, 'image');
  }

  function checked(request: FastifyRequest): IdeaAccess & { user: AuthUser; upload: Buffer | null } {
    const found = request.ideaAccess;
    if (!found) throw notFound();
    if (!found.user) throw denied(null);
    return { ...found, user: found.user, upload: request.upload };
  }

  async function storeUpload(upload: Buffer | null): Promise<string | null> {
    if (!upload) return null;
    try {
      return await storeIdeaImage(media, upload);
    } catch (error) {
      if (error instanceof ImageInvalid) throw fieldErrors({ image: [error.message] });
      throw error;
    }
  }

  /** A write that fails leaves no stored upload behind. */
  async function removingImageOnFailure<T>(image: string | null, write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (error) {
      await removeIdeaImage(media, image);
      throw error;
    }
  }

  const tags = ['Ideas'];

  app.get(
    '/api/modules/:moduleId/ideas/',
    {
      config: { etag: true },
      schema: {
        tags,
        summary: 'Ideas of a module, newest first',
        security: optionalAuth,
        params: IdeaParams,
        response: { 200: Type.Array(Idea), ...notModified, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { user, target } = await moduleOr404(request, request.params.moduleId);
      if (!canViewIdeas(target.rules)) throw denied(user);
      const ideas = await loadIdeas(db, { moduleId: target.module.id }, user?.id ?? null, IDEA_KIND);
      return ideas.map(serializer(request, user, target));
    },
  );

  app.post(
    '/api/modules/:moduleId/ideas/',
    {
      preValidation: checkCreate,
      schema: {
        tags,
        summary: 'Add an idea',
        description: 'JSON, form-encoded, or multipart with an image. Creating an idea records its action and makes the creator follow the project.',
        params: IdeaParams,
        body: ideaBodyContent(IdeaBody),
        response: { 201: Idea, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const { user, target, upload } = checked(request);
      const input = parseIdeaInput(bodyOf(request), target.module, target.customFields, 'create');
      const image = await storeUpload(upload);
      const newIdea = {
        moduleId: target.module.id,
        creatorId: user.id,
        name: input.name ?? '',
        description: input.description ?? '',
        categoryId: input.categoryId ?? null,
        labelIds: input.labelIds ?? [],
        image,
      };
      const answered = input.answers.some((a) => a.value !== '' || a.choiceId !== null);
      // Without answers one statement (atomic on its own, answering with the new idea): no transaction round trips, no second read.
      const idea = await removingImageOnFailure(image, () =>
        answered
          ? db.transaction(async (tx) => {
              const created = await createIdeaRow(tx, newIdea, IDEA_KIND);
              await saveAnswers(tx, created.id, input.answers);
              return created;
            })
          : createIdeaRow(db, newIdea, IDEA_KIND),
      );
      reply.status(201);
      return serializer(request, user, target)(answered ? await ideaOr404(target, idea.id, user) : { ...idea, answers: unanswered(target.customFields) });
    },
  );

  app.get(
    '/api/modules/:moduleId/ideas/:pk/',
    {
      schema: {
        tags,
        summary: 'One idea',
        security: optionalAuth,
        params: IdeaDetailParams,
        response: { 200: Idea, ...errorResponses(401, 403, 404) },
      },
    },
    async (request) => {
      const { user, target } = await moduleOr404(request, request.params.moduleId);
      if (!canViewIdeas(target.rules)) throw denied(user);
      return serializer(request, user, target)(await ideaOr404(target, request.params.pk, user));
    },
  );

  async function change(request: FastifyRequest, body: IdeaPatchBody, mode: 'put' | 'patch') {
    const { user, target, idea, upload } = checked(request);
    if (!idea) throw notFound();
    const input: IdeaInput = parseIdeaInput(body, target.module, target.customFields, mode, idea.category?.id ?? null);
    const image = await storeUpload(upload);
    const replacesImage = image !== null || input.imageDeleted;
    await removingImageOnFailure(image, () =>
      db.transaction((tx) =>
        updateIdea(tx, idea.id, {
          name: input.name,
          description: input.description,
          categoryId: input.categoryId,
          labelIds: input.labelIds,
          ...(replacesImage ? { image } : {}),
        }, IDEA_KIND).then(() => saveAnswers(tx, idea.id, input.answers)),
      ),
    );
    if (replacesImage) await removeIdeaImage(media, idea.image);
    return serializer(request, user, target)(await ideaOr404(target, idea.id, user));
  }

  for (const [method, mode, body] of [
    ['PUT', 'put', IdeaBody],
    ['PATCH', 'patch', IdeaPatchBody],
  ] as const) {
    app.route({
      method,
      url: '/api/modules/:moduleId/ideas/:pk/',
      preValidation: checkChange,
      schema: {
        tags,
        summary: mode === 'put' ? 'Replace an idea' : 'Change some fields of an idea',
        description: 'The creator during a phase that allows adding ideas; moderators and initiators at any time. image_deleted=true removes the image.',
        params: IdeaDetailParams,
        body: ideaBodyContent(body),
        response: { 200: Idea, ...errorResponses(400, 401, 403, 404, 413, 415) },
      },
      handler: async (request) => change(request, bodyOf(request), mode),
    });
  }

  app.delete(
    '/api/modules/:moduleId/ideas/:pk/',
    {
      preValidation: checkChange,
      schema: {
        tags,
        summary: 'Delete an idea',
        params: IdeaDetailParams,
        response: { 204: Type.Null({ description: 'Deleted' }), ...errorResponses(401, 403, 404) },
      },
    },
    async (request, reply) => {
      const { idea } = checked(request);
      if (!idea) throw notFound();
      await db.transaction((tx) => deleteIdea(tx, idea.id, IDEA_KIND));
      await removeIdeaImage(media, idea.image);
      return reply.status(204).send(null);
    },
  );

  rejectOtherMethods(app, '/api/modules/:moduleId/ideas/', ['GET', 'POST']);
  rejectOtherMethods(app, '/api/modules/:moduleId/ideas/:pk/', ['GET', 'PUT', 'PATCH', 'DELETE']);
}
