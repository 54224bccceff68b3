import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance } from 'fastify';
import { Type } from 'typebox';
import { denied, requireUser } from '../../http/auth.js';
import { fieldErrors, notFound } from '../../http/errors.js';
import { apiErrors, PathId } from '../../http/responses.js';
import { loadObjectContext } from '../../core/contenttypes/context.js';
import { contentTypeId } from '../../core/contenttypes/registry.js';
import { remarkableContentTypes } from '../../core/modules/registry.js';
import { textLimitMessage } from '../../text/limits.js';
import { loadRemark, type RemarkRow } from './queries.js';
import { canChangeRemark, canSeeRemarks, REMARK_LIMIT } from './rules.js';
import { saveRemark } from './services.js';

const ObjectParams = Type.Object({ ct: PathId, pk: PathId });
const DetailParams = Type.Object({ ct: PathId, pk: PathId, id: PathId });
const RemarkBody = Type.Object({ remark: Type.String({ maxLength: 100_000, description: `at most ${REMARK_LIMIT.maxChars} characters; an empty remark deletes it` }) });
const RemarkSchema = Type.Object(
  {
    id: Type.Integer(),
    remark: Type.String(),
    item_content_type: Type.Integer(),
    item_object_id: Type.Integer(),
    creator: Type.Union([Type.Integer(), Type.Null()]),
    created: Type.String({ format: 'date-time' }),
    modified: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  },
  { description: 'A moderator remark (a+ `moderatorremark`): only the project’s moderators and initiators see it' },
);
const RemarkList = Type.Array(RemarkSchema);

const serializeRemark = (row: RemarkRow) => ({
  id: row.id,
  remark: row.remark,
  item_content_type: contentTypeId(row.contentType),
  item_object_id: row.objectPk,
  creator: row.creatorId,
  created: row.created.toISOString(),
  modified: row.modified?.toISOString() ?? null,
});

/**
 * a+'s moderator remark API (`/api/contenttypes/<ct>/objects/<pk>/moderatorremarks/`): the remark of
 * an item for its project's moderators and initiators; everybody else is refused (401 anonymous, 403
 * signed in), and no other answer of the API carries a remark.
 */
export async function moderatorRemarkRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;
  const remarkable = () => remarkableContentTypes().map((c) => c.kind);

  async function moderated(params: { ct: number; pk: number }, user: Awaited<ReturnType<typeof requireUser>>) {
    const context = await loadObjectContext(db, params.ct, params.pk, user, remarkable());
    if (!canSeeRemarks(context.project)) throw denied(user);
    return context;
  }

  const checked = (remark: string) => {
    const message = textLimitMessage(remark, REMARK_LIMIT);
    if (message) throw fieldErrors({ remark: [message] });
    return remark;
  };

  app.get('/api/contenttypes/:ct/objects/:pk/moderatorremarks/', { schema: { tags: ['moderatorremarks'], params: ObjectParams, response: { 200: RemarkList, ...apiErrors } } }, async (request) => {
    const user = await requireUser(request);
    const context = await moderated(request.params, user);
    const row = await loadRemark(db, context.target.kind, context.target.id);
    return row ? [serializeRemark(row)] : [];
  });

  app.post('/api/contenttypes/:ct/objects/:pk/moderatorremarks/', { schema: { tags: ['moderatorremarks'], params: ObjectParams, body: RemarkBody, response: { 201: RemarkSchema, ...apiErrors } } }, async (request, reply) => {
    const user = await requireUser(request);
    const context = await moderated(request.params, user);
    if (!canChangeRemark(context.project)) throw denied(user);
    const remark = checked(request.body.remark);
    if (!remark.trim()) throw fieldErrors({ remark: ['This field may not be blank.'] });
    await db.transaction((tx) => saveRemark(tx, { kind: context.target.kind, pk: context.target.id, remark, actorId: user.id }));
    const row = await loadRemark(db, context.target.kind, context.target.id);
    if (!row) throw notFound();
    return reply.status(201).send(serializeRemark(row));
  });

  for (const method of ['PUT', 'PATCH'] as const) {
    app.route({
      method,
      url: '/api/contenttypes/:ct/objects/:pk/moderatorremarks/:id/',
      schema: { tags: ['moderatorremarks'], params: DetailParams, body: RemarkBody, response: { 200: RemarkSchema, 204: Type.Null(), ...apiErrors } },
      handler: async (request, reply) => {
        const user = await requireUser(request);
        const context = await moderated(request.params, user);
        if (!canChangeRemark(context.project)) throw denied(user);
        const existing = await loadRemark(db, context.target.kind, context.target.id);
        // The remark must belong to the item the address names (a+ checks `remark.item`).
        if (!existing || existing.id !== request.params.id) throw notFound();
        const remark = checked(request.body.remark);
        await db.transaction((tx) => saveRemark(tx, { kind: context.target.kind, pk: context.target.id, remark, actorId: user.id }));
        const row = await loadRemark(db, context.target.kind, context.target.id);
        if (!row) return reply.status(204).send(null);
        return serializeRemark(row);
      },
    });
  }
}
