import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Type } from 'typebox';
import { readMultipartFiles } from '../../http/bodies.js';
import { notFound } from '../../http/errors.js';
import { t } from '../../i18n/index.js';
import { ImageInvalid, ingestImage } from '../../media/images.js';
import { checkCsrf, FormBody, pageRoute } from '../../web/forms.js';
import { sendPage } from '../../web/render.js';
import { managedOrganisation } from '../../web/guards.js';
import { legalSettingsPath, organisationSettingsPath, projectListPath } from '../../web/paths.js';
import { loadOrganisationProfile } from '../../core/organisations/queries.js';
import { updateOrganisationLegal, updateOrganisationSettings } from '../../core/organisations/services.js';
import { HEADER_IMAGE_RULES, LOGO_RULES, readLegalForm, readSettingsForm } from './input.js';
import { LegalSettingsPage, OrganisationSettingsPage, settingsValues } from './views.js';

const OrgParams = Type.Object({ org: Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' }) });
const DoneQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })) });
/** `setup=1`: the legal texts as step 3 of the first-run setup (operate/setup), which leads on to the dashboard. */
const LegalQuery = Type.Object({ done: Type.Optional(Type.String({ maxLength: 40 })), setup: Type.Optional(Type.Literal('1')) });

declare module 'fastify' {
  interface FastifyRequest {
    organisationImages: Record<string, Buffer> | null;
  }
}

/** The organisation's settings and legal information in its dashboard (§B3; initiators and superusers, §B1). */
export async function organisationSettingsRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = app.ctx;
  const { media } = app.ctx;
  app.decorateRequest('organisationImages', null);
  /** The settings form comes as multipart (logo and header image); its fields become the body before validation. */
  const readImages = async (request: FastifyRequest) => {
    request.organisationImages = request.isMultipart() ? await readMultipartFiles(request, ['logo', 'image']) : {};
  };

  const managed = async (request: FastifyRequest, reply: Parameters<typeof managedOrganisation>[1], slug: string) => {
    const m = await managedOrganisation(request, reply, slug);
    if (!m) return null;
    const profile = await loadOrganisationProfile(db, m.organisation.slug);
    if (!profile) throw notFound();
    return { page: m.page, profile };
  };

  app.get('/:org/dashboard/settings/', pageRoute({ params: OrgParams, querystring: DoneQuery }), async (request, reply) => {
    const m = await managed(request, reply, request.params.org);
    if (!m) return reply;
    return sendPage(reply, OrganisationSettingsPage({ page: m.page, organisation: m.profile, values: settingsValues(m.profile), errors: {}, saved: request.query.done === 'saved' }));
  });

  app.post('/:org/dashboard/settings/', { ...pageRoute({ params: OrgParams, body: FormBody }), preValidation: readImages }, async (request, reply) => {
    checkCsrf(request);
    const m = await managed(request, reply, request.params.org);
    if (!m) return reply;
    const { page, profile } = m;
    const { values, errors: keys, input } = readSettingsForm(request.body);
    const errors = Object.fromEntries(Object.entries(keys).map(([name, list]) => [name, list.map(([key, vars]) => t(page.lang, key, vars))]));
    const ingested: { logo?: Awaited<ReturnType<typeof ingestImage>>; image?: Awaited<ReturnType<typeof ingestImage>> } = {};
    for (const [name, rules] of [['logo', LOGO_RULES], ['image', HEADER_IMAGE_RULES]] as const) {
      const upload = request.organisationImages?.[name];
      if (!upload?.length) continue;
      try {
        ingested[name] = await ingestImage(upload, rules);
      } catch (error) {
        if (!(error instanceof ImageInvalid)) throw error;
        errors[name] = [t(page.lang, error.message)];
      }
    }
    if (!input || Object.keys(errors).length) return sendPage(reply, OrganisationSettingsPage({ page, organisation: profile, values, errors, saved: false }), 400);
    const images: { logo?: string | null; image?: string | null } = {};
    for (const name of ['logo', 'image'] as const) {
      const fresh = ingested[name];
      if (fresh) images[name] = await media.put('organisations', fresh);
      else if (values[`delete_${name}`] === 'on') images[name] = null;
    }
    await db.transaction((tx) => updateOrganisationSettings(tx, profile.id, input, images));
    for (const name of ['logo', 'image'] as const) if (images[name] !== undefined) await media.remove(profile[name]);
    return reply.redirect(`${organisationSettingsPath(profile.slug)}?done=saved`, 302);
  });

  app.get('/:org/dashboard/settings/legal-information/', pageRoute({ params: OrgParams, querystring: LegalQuery }), async (request, reply) => {
    const m = await managed(request, reply, request.params.org);
    if (!m) return reply;
    const setup = request.query.setup === '1';
    return sendPage(reply, LegalSettingsPage({ page: m.page, organisation: m.profile, values: settingsValues(m.profile), errors: {}, saved: request.query.done === 'saved', setup }));
  });

  app.post('/:org/dashboard/settings/legal-information/', pageRoute({ params: OrgParams, body: Type.Record(Type.String(), Type.String({ maxLength: 200_000 }), { maxProperties: 10 }) }), async (request, reply) => {
    checkCsrf(request);
    const m = await managed(request, reply, request.params.org);
    if (!m) return reply;
    const { page, profile } = m;
    const { values, errors: keys, input } = readLegalForm(request.body);
    if (!input) {
      const errors = Object.fromEntries(Object.entries(keys).map(([name, list]) => [name, list.map(([key, vars]) => t(page.lang, key, vars))]));
      return sendPage(reply, LegalSettingsPage({ page, organisation: profile, values, errors, saved: false, setup: request.body.setup === '1' }), 400);
    }
    await db.transaction((tx) => updateOrganisationLegal(tx, profile.id, input));
    if (request.body.setup === '1') return reply.redirect(`${projectListPath(profile.slug)}?done=legal_saved`, 302);
    return reply.redirect(`${legalSettingsPath(profile.slug)}?done=saved`, 302);
  });
}
