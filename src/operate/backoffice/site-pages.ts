import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { readMultipartBody } from '../../http/bodies.js';
import { notFound } from '../../http/errors.js';
import { PathId } from '../../http/responses.js';
import { LANGUAGES, type Lang } from '../../i18n/index.js';
import { ImageInvalid, type ImageRules } from '../../media/images.js';
import type { Media } from '../../media/store.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { type ContentPage, contentSlugTaken, listContentPages, loadContentPage, loadPlatformSettings, loadStartPage, type PlatformSettings } from '../../core/legal/content.js';
import { checkContentPage, checkPlatformSettings, checkStartPage } from '../../core/legal/rules.js';
import { deleteContentPage, saveContentPage, savePlatformSettings, saveStartPage } from '../../core/legal/services.js';
import { operator } from './access.js';
import { ContentPageForm, ContentPagesPage, PlatformSettingsForm, StartPageForm } from './site-views.js';

/** The content pages' form body: two rich texts of up to 100 KB and a few short fields. */
const ContentBody = Type.Record(Type.String(), Type.String({ maxLength: 250_000 }), { maxProperties: 20 });
const IdParams = Type.Object({ id: PathId });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const NOTICES: Record<string, string> = { saved: 'Your changes have been saved.', deleted: 'The page has been deleted.' };

const byLanguage = (body: FormBody, prefix: string) => Object.fromEntries(LANGUAGES.map((l) => [l, field(body, `${prefix}_${l}`, false)])) as Record<Lang, string>;
const formOf = (p: ContentPage): Record<string, string> => ({
  id: String(p.id),
  slug: p.slug,
  placement: p.placement,
  weight: String(p.weight),
  ...Object.fromEntries(LANGUAGES.flatMap((l) => [
    [`title_${l}`, p.title[l]],
    [`body_${l}`, p.body[l]],
  ])),
});

const platformValues = (p: PlatformSettings): Record<string, string> => ({
  name: p.name,
  address: p.address,
  contacts: p.contacts,
  facebook: p.facebook,
  twitter: p.twitter,
  github: p.github,
  ...Object.fromEntries(LANGUAGES.map((l) => [`share_description_${l}`, p.shareDescription[l]])),
});

type Errors = Record<string, string[]>;

/** A route's preValidation for a form with one picture (`image`): its file in `request.upload`, its fields the body. */
export const readImageUpload = async (request: FastifyRequest) => {
  if (request.isMultipart()) request.upload = await readMultipartBody(request, 'image');
};

/** Stores an uploaded picture when the form has no other error; a refused picture becomes the form's `image` error. */
export async function storeFormImage(media: Media, upload: Buffer | null, errors: Errors, folder: string, rules: ImageRules): Promise<string | null> {
  if (!upload || Object.keys(errors).length) return null;
  try {
    return await media.storeImage(folder, upload, rules);
  } catch (error) {
    if (!(error instanceof ImageInvalid)) throw error;
    errors.image = [error.message];
    return null;
  }
}

/** The back-office's content pages and start page (a+ CMS): superusers only (`operator`). */
export async function siteContentRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db, media } = app.ctx;

  app.get('/backoffice/content/', pageRoute({ querystring: DoneQuery }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return sendPage(reply, ContentPagesPage({ page, pages: await listContentPages(db), notice: NOTICES[request.query.done ?? ''] ?? null }));
  });

  app.get('/backoffice/content/create/', pageRoute(), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return sendPage(reply, ContentPageForm({ page, action: request.url, values: { weight: '0', placement: 'footer' }, errors: {} }));
  });

  async function existing(id: number) {
    const found = await loadContentPage(db, { id });
    if (!found) throw notFound();
    return found;
  }

  app.get('/backoffice/content/:id/', pageRoute({ params: IdParams }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    return sendPage(reply, ContentPageForm({ page, action: request.url, values: formOf(await existing(request.params.id)), errors: {} }));
  });

  /** Checks and saves the posted page (new: id null); with errors the form again, nothing saved. */
  async function save(body: FormBody, id: number | null) {
    const input = { slug: field(body, 'slug'), title: byLanguage(body, 'title'), body: byLanguage(body, 'body'), placement: field(body, 'placement'), weight: field(body, 'weight') };
    const slug = input.slug.toLowerCase();
    const taken = await contentSlugTaken(db, slug, id);
    const { values, errors } = checkContentPage(input, () => taken);
    const shown = { ...(id ? { id: String(id) } : {}), slug: input.slug, placement: input.placement, weight: input.weight, ...Object.fromEntries(LANGUAGES.flatMap((l) => [[`title_${l}`, input.title[l]], [`body_${l}`, input.body[l]]])) };
    if (!values) return { shown, errors };
    await db.transaction((tx) => saveContentPage(tx, id, values));
    return null;
  }

  app.post('/backoffice/content/create/', pageRoute({ body: ContentBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const refused = await save(request.body, null);
    if (refused) return sendPage(reply, ContentPageForm({ page, action: request.url, values: refused.shown, errors: refused.errors }), 400);
    return reply.redirect('/backoffice/content/?done=saved', 302);
  });

  app.post('/backoffice/content/:id/', pageRoute({ params: IdParams, body: ContentBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    await existing(request.params.id);
    const refused = await save(request.body, request.params.id);
    if (refused) return sendPage(reply, ContentPageForm({ page, action: request.url, values: refused.shown, errors: refused.errors }), 400);
    return reply.redirect('/backoffice/content/?done=saved', 302);
  });

  app.post('/backoffice/content/:id/delete/', pageRoute({ params: IdParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    await existing(request.params.id);
    await db.transaction((tx) => deleteContentPage(tx, request.params.id));
    return reply.redirect('/backoffice/content/?done=deleted', 302);
  });

  const startValues = async () => {
    const start = await loadStartPage(db);
    const values = Object.fromEntries(LANGUAGES.flatMap((l) => [[`heading_${l}`, start.heading[l]], [`intro_${l}`, start.intro[l]], [`image_alt_${l}`, start.imageAlt[l]]]));
    return { values, image: start.image };
  };

  app.get('/backoffice/start-page/', pageRoute(), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    const { values, image } = await startValues();
    return sendPage(reply, StartPageForm({ page, values, image, errors: {} }));
  });

  if (!app.hasRequestDecorator('upload')) app.decorateRequest('upload', null);
  const storeUpload = (upload: Buffer | null, errors: Errors, folder: string, rules: ImageRules) => storeFormImage(media, upload, errors, folder, rules);

  app.post('/backoffice/start-page/', { ...pageRoute({ body: ContentBody }), preValidation: readImageUpload }, async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const body = request.body;
    const stored = await startValues();
    const texts = { heading: byLanguage(body, 'heading'), intro: byLanguage(body, 'intro'), imageAlt: byLanguage(body, 'image_alt') };
    const upload = request.upload?.length ? request.upload : null;
    const removing = field(body, 'image_deleted') === 'on';
    const errors = checkStartPage(texts, upload !== null || (stored.image !== null && !removing));
    const image = await storeUpload(upload, errors, 'site/images', { minWidth: 600, minHeight: 200 });
    if (Object.keys(errors).length) {
      const values = { ...Object.fromEntries(Object.keys(body).map((k) => [k, field(body, k, false)])) };
      return sendPage(reply, StartPageForm({ page, values, image: stored.image, errors }), 400);
    }
    await db.transaction((tx) => saveStartPage(tx, texts, upload ? image : removing ? null : undefined));
    if ((upload || removing) && stored.image) await media.remove(stored.image);
    return reply.redirect('/backoffice/content/?done=saved', 302);
  });

  app.get('/backoffice/platform/', pageRoute(), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    const settings = await loadPlatformSettings(db);
    return sendPage(reply, PlatformSettingsForm({ page, values: platformValues(settings), image: settings.shareImage, errors: {} }));
  });

  app.post('/backoffice/platform/', { ...pageRoute({ body: ContentBody }), preValidation: readImageUpload }, async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const body = request.body;
    const stored = await loadPlatformSettings(db);
    const input = {
      name: field(body, 'name', false),
      address: field(body, 'address', false),
      contacts: field(body, 'contacts', false),
      facebook: field(body, 'facebook', false),
      twitter: field(body, 'twitter', false),
      github: field(body, 'github', false),
      shareDescription: byLanguage(body, 'share_description'),
    };
    const errors = checkPlatformSettings(input);
    const upload = request.upload?.length ? request.upload : null;
    const removing = field(body, 'image_deleted') === 'on';
    const image = await storeUpload(upload, errors, 'site/images', { minWidth: 200, minHeight: 200 });
    if (Object.keys(errors).length) {
      const values = Object.fromEntries(Object.keys(body).map((k) => [k, field(body, k, false)]));
      return sendPage(reply, PlatformSettingsForm({ page, values, image: stored.shareImage, errors }), 400);
    }
    await db.transaction((tx) => savePlatformSettings(tx, input, upload ? image : removing ? null : undefined));
    if ((upload || removing) && stored.shareImage) await media.remove(stored.shareImage);
    return reply.redirect('/backoffice/content/?done=saved', 302);
  });
}
