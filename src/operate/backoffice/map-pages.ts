import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { type Static, Type } from 'typebox';
import { readMultipartBody } from '../../http/bodies.js';
import { foreignKeyViolated, notFound } from '../../http/errors.js';
import { PathId } from '../../http/responses.js';
import { checkCsrf, field, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { listDistricts, listPresetCategories, listPresets, loadDistrict, loadPreset, loadPresetCategory } from '../../features/places/queries.js';
import { AREA_TEXT_MAX, categoryNameError, checkPlace } from '../../features/places/rules.js';
import { deleteDistrict, deletePreset, deletePresetCategory, saveDistrict, savePreset, createPresetCategory, renamePresetCategory } from '../../features/places/services.js';
import { operator } from './access.js';
import { CategoryForm, MapsPage, PLACE_KINDS, PlaceForm, type PlaceKind } from './map-views.js';

/** A place's form: a name, a short field, and an area of up to AREA_TEXT_MAX characters (pasted; an upload comes as a file). */
const PlaceBody = Type.Object(
  {
    csrfmiddlewaretoken: Type.Optional(Type.String({ maxLength: 200 })),
    name: Type.Optional(Type.String({ maxLength: 1000 })),
    category: Type.Optional(Type.String({ maxLength: 20 })),
    short_code: Type.Optional(Type.String({ maxLength: 100 })),
    area: Type.Optional(Type.String({ maxLength: AREA_TEXT_MAX + 1 })),
  },
  { additionalProperties: false },
);
const IdParams = Type.Object({ id: PathId });
const KindParams = Type.Object({ kind: Type.Union([Type.Literal('presets'), Type.Literal('districts')]) });
const KindIdParams = Type.Object({ kind: KindParams.properties.kind, id: PathId });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
const NOTICES: Record<string, string> = { saved: 'Your changes have been saved.', deleted: 'It has been deleted.' };

const kindOf = (segment: 'presets' | 'districts'): PlaceKind => (segment === 'presets' ? 'preset' : 'district');

/**
 * The back-office's map places (issue 34.6, 37.11): area presets with their categories (a+
 * MapPreset, MapPresetCategory) and administrative districts (a4 AdministrativeDistrict). Superusers
 * only (`operator`); the rules are features/places/rules.ts (`checkPlace`).
 */
export async function mapPlaceRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;

  async function listPage(request: FastifyRequest, reply: FastifyReply, form: { category?: { name: string; errors?: string[] }; notice?: string | null; status?: number }) {
    const page = await operator(request, reply);
    if (!page) return reply;
    const [presets, categories, districts] = [await listPresets(db), await listPresetCategories(db), await listDistricts(db)];
    return sendPage(reply, MapsPage({ page, presets, categories, districts, category: form.category ?? { name: '' }, notice: form.notice ?? null }), form.status ?? 200);
  }

  app.get('/backoffice/maps/', pageRoute({ querystring: DoneQuery }), async (request, reply) => listPage(request, reply, { notice: NOTICES[request.query.done ?? ''] ?? null }));

  app.post('/backoffice/maps/categories/', pageRoute({ body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    if (!(await operator(request, reply))) return reply;
    const name = field(request.body, 'name');
    const error = categoryNameError(name);
    if (error) return listPage(request, reply, { category: { name, errors: [error] }, status: 400 });
    await db.transaction((tx) => createPresetCategory(tx, name));
    return reply.redirect('/backoffice/maps/?done=saved', 302);
  });

  /** The category to rename; 404 when there is none. */
  async function category(id: number) {
    const found = await loadPresetCategory(db, id);
    if (!found) throw notFound();
    return found;
  }

  app.get('/backoffice/maps/categories/:id/', pageRoute({ params: IdParams }), async (request, reply) => {
    const page = await operator(request, reply);
    if (!page) return reply;
    const { id, name } = await category(request.params.id);
    return sendPage(reply, CategoryForm({ page, id, name }));
  });

  app.post('/backoffice/maps/categories/:id/', pageRoute({ params: IdParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    const page = await operator(request, reply);
    if (!page) return reply;
    const { id } = await category(request.params.id);
    const name = field(request.body, 'name');
    const error = categoryNameError(name);
    if (error) return sendPage(reply, CategoryForm({ page, id, name, errors: [error] }), 400);
    await db.transaction((tx) => renamePresetCategory(tx, id, name));
    return reply.redirect('/backoffice/maps/?done=saved', 302);
  });

  app.post('/backoffice/maps/categories/:id/delete/', pageRoute({ params: IdParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    if (!(await operator(request, reply))) return reply;
    await category(request.params.id);
    await db.transaction((tx) => deletePresetCategory(tx, request.params.id));
    return reply.redirect('/backoffice/maps/?done=deleted', 302);
  });

  /** The stored place as form values; 404 when there is none. */
  async function stored(kind: PlaceKind, id: number): Promise<Record<string, string>> {
    if (kind === 'preset') {
      const preset = await loadPreset(db, id);
      if (!preset) throw notFound();
      return { name: preset.name, category: preset.categoryId === null ? '' : String(preset.categoryId), area: JSON.stringify(preset.area, null, 1) };
    }
    const district = await loadDistrict(db, id);
    if (!district) throw notFound();
    return { name: district.name, short_code: district.shortCode, area: district.area ? JSON.stringify(district.area, null, 1) : '' };
  }

  async function formPage(request: FastifyRequest, reply: FastifyReply, kind: PlaceKind, id: number | null, values: Record<string, string>, errors: Record<string, string[]> = {}) {
    const page = await operator(request, reply);
    if (!page) return reply;
    const action = `${PLACE_KINDS[kind].path}${id === null ? 'create' : id}/`;
    const form = PlaceForm({ page, kind, action, editing: id !== null, values, errors, categories: await listPresetCategories(db) });
    return sendPage(reply, form, Object.keys(errors).length ? 400 : 200);
  }

  app.get('/backoffice/maps/:kind/create/', pageRoute({ params: KindParams }), async (request, reply) => formPage(request, reply, kindOf(request.params.kind), null, {}));

  app.get('/backoffice/maps/:kind/:id/', pageRoute({ params: KindIdParams }), async (request, reply) => {
    const kind = kindOf(request.params.kind);
    if (!(await operator(request, reply))) return reply;
    return formPage(request, reply, kind, request.params.id, await stored(kind, request.params.id));
  });

  if (!app.hasRequestDecorator('upload')) app.decorateRequest('upload', null);
  const readUpload = async (request: FastifyRequest) => {
    if (request.isMultipart()) request.upload = await readMultipartBody(request, 'area_file');
  };

  /** Checks and saves a posted place (new: id null); with errors the form again, nothing saved. */
  async function save(request: FastifyRequest, reply: FastifyReply, body: Static<typeof PlaceBody>, kind: PlaceKind, id: number | null) {
    checkCsrf(request);
    if (!(await operator(request, reply))) return reply;
    if (id !== null) await stored(kind, id);
    const upload = request.upload?.toString('utf8') ?? null;
    const values = { name: body.name ?? '', category: body.category ?? '', short_code: body.short_code ?? '', area: upload !== null && upload.length <= AREA_TEXT_MAX ? upload : (body.area ?? '') };
    const categoryIds = (await listPresetCategories(db)).map((c) => c.id);
    const checked = checkPlace({ name: values.name, area: upload ?? values.area, shortCode: kind === 'district' ? values.short_code : undefined, category: kind === 'preset' ? values.category : undefined }, { areaRequired: kind === 'preset', categoryIds });
    if (checked.errors) {
      const errors = { ...checked.errors };
      // An upload's error is shown beside the file field.
      if (upload !== null && errors.area) [errors.area_file, errors.area] = [errors.area, []];
      return formPage(request, reply, kind, id, values, errors);
    }
    const place = checked.place;
    const target = id === null ? { create: true as const } : { create: false as const, id };
    try {
      await db.transaction(async (tx) => {
        if (kind === 'district') await saveDistrict(tx, target, place);
        else if (place.area) await savePreset(tx, target, { ...place, area: place.area });
      });
    } catch (error) {
      // A preset points at its category only: deleted since the check above.
      if (!foreignKeyViolated(error)) throw error;
      return formPage(request, reply, kind, id, values, { category: ['Select a valid choice.'] });
    }
    return reply.redirect('/backoffice/maps/?done=saved', 302);
  }

  app.post('/backoffice/maps/:kind/create/', { ...pageRoute({ params: KindParams, body: PlaceBody }), preValidation: readUpload }, async (request, reply) => save(request, reply, request.body, kindOf(request.params.kind), null));
  app.post('/backoffice/maps/:kind/:id/', { ...pageRoute({ params: KindIdParams, body: PlaceBody }), preValidation: readUpload }, async (request, reply) => save(request, reply, request.body, kindOf(request.params.kind), request.params.id));

  app.post('/backoffice/maps/:kind/:id/delete/', pageRoute({ params: KindIdParams, body: FormBody }), async (request, reply) => {
    checkCsrf(request);
    if (!(await operator(request, reply))) return reply;
    const kind = kindOf(request.params.kind);
    await stored(kind, request.params.id);
    await db.transaction((tx) => (kind === 'preset' ? deletePreset(tx, request.params.id) : deleteDistrict(tx, request.params.id)));
    return reply.redirect('/backoffice/maps/?done=deleted', 302);
  });
}
