import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { notFound } from '../../http/errors.js';
import { PathId } from '../../http/responses.js';
import { LANGUAGES, type Lang } from '../../i18n/index.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { type Figure, listFigures, loadFigure } from '../../core/legal/content.js';
import { checkFigure } from '../../core/legal/rules.js';
import { deleteFigure, saveFigure } from '../../core/legal/services.js';
import { operator } from './access.js';
import { FigureForm, FiguresPage } from './figure-views.js';
import { readImageUpload, storeFormImage } from './site-pages.js';

/* The back-office's figures of the start page (a+ landingpage.StatisticsItem): superusers only. */

const FigureBody = Type.Record(Type.String(), Type.String({ maxLength: 10_000 }), { maxProperties: 30 });
const IdParams = Type.Object({ id: PathId });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const NOTICES: Record<string, string> = { saved: 'Your changes have been saved.', deleted: 'The figure has been deleted.' };
const LIST = '/backoffice/start-page/figures/';

const TEXTS = [
  ['figure', 'figure'],
  ['caption', 'caption'],
  ['quote', 'quote'],
  ['personDescription', 'person_description'],
  ['imageAlt', 'image_alt'],
] as const;

const formOf = (f: Figure): Record<string, string> => ({
  id: String(f.id),
  kind: f.kind,
  weight: String(f.weight),
  person_name: f.personName,
  ...Object.fromEntries(TEXTS.flatMap(([key, name]) => LANGUAGES.map((l) => [`${name}_${l}`, f[key][l]]))),
});

const inputOf = (body: FormBody) => {
  const byLanguage = (name: string) => Object.fromEntries(LANGUAGES.map((l) => [l, field(body, `${name}_${l}`, false)])) as Record<Lang, string>;
  return {
    kind: field(body, 'kind'),
    weight: field(body, 'weight'),
    personName: field(body, 'person_name', false),
    ...(Object.fromEntries(TEXTS.map(([key, name]) => [key, byLanguage(name)])) as Record<(typeof TEXTS)[number][0], Record<Lang, string>>),
  };
};

export async function figureRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, media } = app.ctx;
  if (!app.hasRequestDecorator('upload')) app.decorateRequest('upload', null);

  app.get(LIST, pageRoute({ querystring: DoneQuery }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return sendPage(reply, FiguresPage({ page, figures: await listFigures(db), notice: NOTICES[request.query.done ?? ''] ?? null }));
  });

  app.get(`${LIST}create/`, pageRoute(), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return sendPage(reply, FigureForm({ page, action: request.url, values: { kind: 'number', weight: '0' }, image: null, errors: {} }));
  });

  async function existing(id: number) {
    const found = await loadFigure(db, id);
    if (!found) throw notFound();
    return found;
  }

  app.get(`${LIST}:id/`, pageRoute({ params: IdParams }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    const figure = await existing(request.params.id);
    return sendPage(reply, FigureForm({ page, action: request.url, values: formOf(figure), image: figure.image, errors: {} }));
  });

  /** Checks and saves the posted figure (new: `stored` null); with errors the form again (400), nothing saved. */
  async function save(request: FastifyRequest, reply: FastifyReply, body: FormBody, id: number | null) {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const stored = id === null ? null : await existing(id);
    const upload = request.upload?.length ? request.upload : null;
    const removing = field(body, 'image_deleted') === 'on';
    const { values, errors } = checkFigure(inputOf(body), upload !== null || (Boolean(stored?.image) && !removing));
    const image = await storeFormImage(media, upload, errors, 'site/figures', { minWidth: 80, minHeight: 80 });
    if (!values || Object.keys(errors).length) {
      const shown = { ...(id ? { id: String(id) } : {}), ...Object.fromEntries(Object.keys(body).map((k) => [k, field(body, k, false)])) };
      return sendPage(reply, FigureForm({ page, action: request.url, values: shown, image: stored?.image ?? null, errors }), 400);
    }
    await db.transaction((tx) => saveFigure(tx, id, values, upload ? image : removing ? null : undefined));
    if ((upload || removing) && stored?.image) await media.remove(stored.image);
    return reply.redirect(`${LIST}?done=saved`, 302);
  }

  app.post(`${LIST}create/`, { ...pageRoute({ body: FigureBody }), preValidation: readImageUpload }, (request, reply) => save(request, reply, request.body, null));
  app.post(`${LIST}:id/`, { ...pageRoute({ params: IdParams, body: FigureBody }), preValidation: readImageUpload }, (request, reply) => save(request, reply, request.body, request.params.id));

  app.post(`${LIST}:id/delete/`, pageRoute({ params: IdParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const figure = await existing(request.params.id);
    await db.transaction((tx) => deleteFigure(tx, figure.id));
    if (figure.image) await media.remove(figure.image);
    return reply.redirect(`${LIST}?done=deleted`, 302);
  });
}
