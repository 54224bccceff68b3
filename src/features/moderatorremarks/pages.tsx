import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { denied } from '../../http/auth.js';
import { notFound } from '../../http/errors.js';
import { PathId } from '../../http/responses.js';
import { t } from '../../i18n/index.js';
import { loadObjectContext } from '../../core/contenttypes/context.js';
import { contentTypeOfModule, remarkableContentTypes } from '../../core/modules/registry.js';
import { textLimitError } from '../../text/limits.js';
import { pageContext } from '../../web/context.js';
import { redirectWithMessage } from '../../web/flash.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { contextUser } from '../../web/guards.js';
import { loginRedirectUrl, safeNext, sendPage } from '../../web/render.js';
import { loadRemark, remarkPath } from './queries.js';
import { canChangeRemark, REMARK_LIMIT } from './rules.js';
import { saveRemark } from './services.js';
import { RemarkPage } from './views.js';

const ObjectParams = Type.Object({ ct: PathId, pk: PathId });
const NextQuery = Type.Object({ next: Type.Optional(Type.String({ maxLength: 2000 })) });

/** The remark pages: the form of one item's remark, and its save (moderators and initiators of the item's project only). */
export async function moderatorRemarkPages(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  /** The item and its place, for a viewer who may keep its remark; login for visitors, 403 for others, 404 for what is no remarkable item. */
  async function remarkable(request: FastifyRequest, reply: FastifyReply, params: { ct: number; pk: number }) {
    const page = await pageContext(request, reply);
    if (!page.user) {
      await reply.redirect(loginRedirectUrl(request.url), 302);
      return null;
    }
    const context = await loadObjectContext(db, params.ct, params.pk, contextUser(page), remarkableContentTypes().map((c) => c.kind));
    if (!canChangeRemark(context.project)) throw denied(page.user);
    const item = (await contentTypeOfModule(context.target.kind)?.pages?.(db, [context.target.id]))?.get(context.target.id);
    if (!item) throw notFound();
    return { page, kind: context.target.kind, pk: context.target.id, item };
  }

  app.get('/moderatorremarks/:ct/:pk/', pageRoute({ params: ObjectParams, querystring: NextQuery }), async (request, reply) => {
    const found = await remarkable(request, reply, request.params);
    if (!found) return reply;
    const { page, kind, pk, item } = found;
    const row = await loadRemark(db, kind, pk);
    return sendPage(reply, <RemarkPage page={page} item={item} action={remarkPath(kind, pk)} next={safeNext(request.query.next, item.path)} remark={row?.remark ?? ''} errors={{}} />);
  });

  app.post('/moderatorremarks/:ct/:pk/', pageRoute({ params: ObjectParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const found = await remarkable(request, reply, request.params);
    if (!found) return reply;
    const { page, kind, pk, item } = found;
    const remark = field(request.body, 'remark', false);
    const next = safeNext(request.body.next, item.path);
    const error = textLimitError(remark, REMARK_LIMIT);
    if (error) return sendPage(reply, <RemarkPage page={page} item={item} action={remarkPath(kind, pk)} next={next} remark={remark} errors={{ remark: [t(page.lang, error[0], error[1])] }} />, 400);
    const userId = page.user?.id ?? null;
    await db.transaction((tx) => saveRemark(tx, { kind, pk, remark, actorId: userId }));
    return redirectWithMessage(request, reply, next, 'The remark has been saved.');
  });
}
