import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { qualified as q } from '../../db/sql.js';
import { follows, modules, organisations, phases, projects } from '../../db/schema/index.js';
import type { Uid } from './context.js';

// The permission context loader moved to ./context.ts; re-exported for code written before.
export { loadProjectContext, loadProjectContexts, type LoadedProjectContext } from './context.js';

/** A project of the app list with what its serializer shows. */
export interface AppProjectRow {
  id: number;
  slug: string;
  name: string;
  description: string;
  information: string;
  result: string;
  access: 'PUBLIC' | 'SEMIPUBLIC' | 'PRIVATE';
  image: string | null;
  pointLat: number | null;
  pointLng: number | null;
  streetName: string | null;
  houseNumber: string | null;
  zipCode: string | null;
  contactName: string;
  contactAddressText: string;
  contactEmail: string;
  contactPhone: string;
  contactUrl: string;
  organisationSlug: string;
  organisationName: string;
  organisationTitle: string;
  organisationLogo: string | null;
}

/** A published module of a listed project with its phases' dates. */
export interface AppProjectModule {
  id: number;
  projectId: number;
  blueprintType: string;
  phases: { startDate: Date | null; endDate: Date | null }[];
}

/** A project's own texts, as every project query selects them. */
export const projectTextColumns = {
  id: projects.id,
  slug: projects.slug,
  name: projects.name,
  description: projects.description,
  information: projects.information,
  result: projects.result,
  access: projects.access,
};

/** A project's location: its point and address. */
export const locationColumns = {
  pointLat: projects.pointLat,
  pointLng: projects.pointLng,
  streetName: projects.streetName,
  houseNumber: projects.houseNumber,
  zipCode: projects.zipCode,
};

/** A project's contact fields, as every project query selects them. */
export const contactColumns = {
  contactName: projects.contactName,
  contactAddressText: projects.contactAddressText,
  contactEmail: projects.contactEmail,
  contactPhone: projects.contactPhone,
  contactUrl: projects.contactUrl,
};

interface ModuleJson {
  id: number;
  blueprintType: string;
  phases: { startDate: string | null; endDate: string | null }[];
}

const toDates = (phase: ModuleJson['phases'][number]) => ({
  startDate: phase.startDate ? new Date(phase.startDate) : null,
  endDate: phase.endDate ? new Date(phase.endDate) : null,
});

/**
 * Decision D1: public or semi-public, not draft, not archived, organisation with geolocation, and
 * at least one phase of a published module that ends after now. Each project once, newest first;
 * one statement.
 */
export async function loadAppProjects(
  db: DbOrTx,
  now: Date,
  slug?: string,
): Promise<{ projects: AppProjectRow[]; modules: Map<number, AppProjectModule[]> }> {
  const runningOrFuture = sql`exists (select 1 from ${modules} inner join ${phases} on ${phases.moduleId} = ${modules.id}
    where ${modules.projectId} = ${projects.id} and not ${modules.isDraft} and ${phases.endDate} > ${now.toISOString()}::timestamptz)`;
  const rows = await db
    .select({
      ...projectTextColumns,
      image: projects.image,
      ...locationColumns,
      ...contactColumns,
      organisationSlug: organisations.slug,
      organisationName: organisations.name,
      organisationTitle: organisations.title,
      organisationLogo: organisations.logo,
      // The published modules with their phases' dates, in (weight, id) order, built by the database.
      modules: sql<ModuleJson[] | null>`(select json_agg(json_build_object('id', m.id, 'blueprintType', m.blueprint_type,
          'phases', (select coalesce(json_agg(json_build_object('startDate', ph.start_date, 'endDate', ph.end_date) order by ph.weight, ph.id), '[]')
                     from ${phases} ph where ph.module_id = m.id)) order by m.weight, m.id)
        from ${modules} m where m.project_id = ${projects}.id and not m.is_draft)`,
    })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(
      and(
        inArray(projects.access, ['PUBLIC', 'SEMIPUBLIC']),
        eq(projects.isDraft, false),
        eq(projects.isArchived, false),
        eq(organisations.enableGeolocation, true),
        runningOrFuture,
        slug === undefined ? undefined : eq(projects.slug, slug),
      ),
    )
    .orderBy(desc(projects.created), desc(projects.id));
  const byProject = new Map<number, AppProjectModule[]>();
  const projectRows = rows.map(({ modules: published, ...project }) => {
    byProject.set(project.id, (published ?? []).map((m) => ({ ...m, projectId: project.id, phases: m.phases.map(toDates) })));
    return project;
  });
  return { projects: projectRows, modules: byProject };
}

/** Whether the user (0: nobody) follows the project (an enabled follow), as a select field over `projects` for a page's own statement. */
export const followingField = (uid: Uid) => sql<boolean>`exists (select 1 from ${follows} f where f.project_id = ${q(projects.id)} and f.creator_id = ${uid} and f.enabled)`;
