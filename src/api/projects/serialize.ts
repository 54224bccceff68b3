import { Type, type Static } from 'typebox';
import { projectPath } from '../../core/urls.js';
import type { Lang } from '../../i18n/index.js';
import { moduleRunningProgress, moduleSpan, participationTimeDisplay, runningModuleEndsNext, type SpannedModule } from '../../core/modules/timeline.js';
import type { AppProjectModule, AppProjectRow } from '../../core/projects/queries.js';
import { moduleTypeOf } from '../../core/modules/registry.js';

const NullableString = Type.Union([Type.String(), Type.Null()]);

/** The AppProjectSerializer's fields, in its order. */
export const AppProject = Type.Object({
  pk: Type.Integer(),
  slug: Type.String(),
  point: Type.Union([
    Type.Object({
      type: Type.Literal('Feature'),
      geometry: Type.Object({ type: Type.Literal('Point'), coordinates: Type.Array(Type.Number(), { description: '[lng, lat]' }) }),
      properties: Type.Object({ strname: NullableString, hsnr: NullableString, plz: NullableString }),
    }),
    Type.Null(),
  ]),
  name: Type.String(),
  url: Type.String({ description: 'Relative URL of the project page' }),
  description: Type.String(),
  information: Type.String({ description: 'HTML' }),
  result: Type.String({ description: 'HTML' }),
  organisation: Type.String(),
  organisation_logo: NullableString,
  published_modules: Type.Array(Type.Integer()),
  access: Type.Union([Type.Literal('PUBLIC'), Type.Literal('SEMIPUBLIC'), Type.Literal('PRIVATE')]),
  image: NullableString,
  single_idea_collection_module: Type.Union([Type.Integer(), Type.Literal(false)]),
  single_poll_module: Type.Union([Type.Integer(), Type.Literal(false)]),
  participation_time_display: Type.String(),
  module_running_progress: Type.Union([Type.Integer(), Type.Null()]),
  has_contact_info: Type.Boolean(),
  contact_name: Type.String(),
  contact_address_text: Type.String(),
  contact_phone: Type.String(),
  contact_email: Type.String(),
  contact_url: Type.String(),
});
export type AppProject = Static<typeof AppProject>;

export interface SerializeContext {
  lang: Lang;
  timeZone: string;
  now: Date;
  /** Turns a media-relative path into an absolute URL. */
  mediaUrl: (path: string) => string;
}

/** A project's only module, when its type answers to that app API field (the registry's `appProjectField`). */
const singleModuleOf = (modules: (SpannedModule & { blueprintType: string })[], field: string): number | false =>
  modules.length === 1 && moduleTypeOf(modules[0].blueprintType)?.appProjectField === field ? modules[0].id : false;

export function serializeAppProject(project: AppProjectRow, publishedModules: AppProjectModule[], ctx: SerializeContext): AppProject {
  const modules = publishedModules.map((m) => ({ ...m, span: moduleSpan(m.phases) }));
  const running = runningModuleEndsNext(modules, ctx.now);
  const contact = {
    contact_name: project.contactName,
    contact_address_text: project.contactAddressText,
    contact_phone: project.contactPhone,
    contact_email: project.contactEmail,
    contact_url: project.contactUrl,
  };
  return {
    pk: project.id,
    slug: project.slug,
    point:
      project.pointLat === null || project.pointLng === null
        ? null
        : {
            type: 'Feature',
            geometry: { type: 'Point', coordinates: [project.pointLng, project.pointLat] },
            properties: { strname: project.streetName, hsnr: project.houseNumber, plz: project.zipCode },
          },
    name: project.name,
    url: projectPath(project.organisationSlug, project.slug),
    description: project.description,
    information: project.information.trim(),
    result: project.result.trim(),
    organisation: project.organisationTitle || project.organisationName,
    organisation_logo: project.organisationLogo ? `/media/${project.organisationLogo}` : null,
    published_modules: modules.map((m) => m.id),
    access: project.access,
    image: project.image ? ctx.mediaUrl(project.image) : null,
    single_idea_collection_module: singleModuleOf(modules, 'single_idea_collection_module'),
    single_poll_module: singleModuleOf(modules, 'single_poll_module'),
    participation_time_display: participationTimeDisplay(modules, ctx),
    module_running_progress: running ? moduleRunningProgress(running.span, ctx.now) : null,
    has_contact_info: Object.values(contact).some(Boolean),
    ...contact,
  };
}
