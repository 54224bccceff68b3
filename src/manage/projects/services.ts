import { and, eq, inArray, like, max, or, type SQLWrapper, sql } from 'drizzle-orm';
import type { DbOrTx, Tx } from '../../db/client.js';
import { categories, comments, labels, moderatorRemarks, modules, phases, projectModerators, projects, ratings, reports } from '../../db/schema/index.js';
import { type Lang, t } from '../../i18n/index.js';
import type { ModuleTypeCore } from '../../core/modules/registry.js';
import { initiatorIds, organisationBrand } from '../../core/organisations/queries.js';
import { organisationLanguage } from '../../core/organisations/rules.js';
import { PROJECT_FIELDS } from './input.js';
import type { TermChange } from './module-input.js';
import { addModerator } from '../../core/members/services.js';
import { hasFinished, moduleMissing, publishCheck, type PublishCheck } from './completeness.js';
import { unwrittenPlatformPages } from '../../core/legal/queries.js';
import { mailUsers } from '../../core/projects/mails.js';
import { recordNotifications } from '../../core/notifications/services.js';
import { projectListPath } from '../../web/paths.js';
import { freeSlug, slugify } from '../../core/slugs.js';
import type { Actor } from '../../core/organisations/rules.js';
import { type DashboardModule, loadDashboardProject, loadModules } from './queries.js';
import { appModuleType, registeredModuleTypes } from '../../features/moduletypes/contract.js';
import { projectResultImages } from '../../features/results/queries.js';
import { resultLinks } from '../../features/results/schema.js';

/** A refused change, with the reason for the user (a catalogue key). */
/** `files`: media files that went with a deletion, for the caller to remove once the transaction has committed. */
type Outcome = { ok: true; files?: string[] } | { ok: false; reason: string };
const refused = (reason: string): Outcome => ({ ok: false, reason });
const OK: Outcome = { ok: true };

const dashboardPath = (orgSlug: string, projectSlug: string) => `/${orgSlug}/dashboard/projects/${projectSlug}/`;

/** The slug, or the slug with the smallest free number appended (never a reserved path segment). */
async function uniqueSlug(tx: DbOrTx, table: typeof projects | typeof modules, base: string): Promise<string> {
  const clashes = await tx.select({ slug: table.slug }).from(table).where(or(eq(table.slug, base), like(table.slug, `${base}-%`)));
  return freeSlug(base, clashes.map((r) => r.slug));
}

interface Organisation {
  id: number;
  slug: string;
  name: string;
  language: string;
}

async function tellInitiators(tx: Tx, organisation: Organisation, project: { id: number; name: string; slug: string }, actor: Actor) {
  const others = (await initiatorIds(tx, organisation.id)).filter((id) => id !== actor.id);
  const url = `${actor.origin}${dashboardPath(organisation.slug, project.slug)}`;
  const brand = await organisationBrand(tx, organisation.slug, actor.origin);
  const context = { project: project.name, organisation: organisation.name, actor: actor.username };
  await mailUsers(tx, 'new_project', others, { ...context, url, brand }, { notifications: true });
  await recordNotifications(tx, { kind: 'new_project', recipientIds: others, actorId: actor.id, projectId: project.id, context, url });
}

/** §B5: a draft without modules; the creator moderates it; the other initiators are told (§C10). */
export async function createProject(
  tx: Tx,
  organisation: Organisation,
  values: { name: string; description: string; access: 'PUBLIC' | 'SEMIPUBLIC' | 'PRIVATE' },
  actor: Actor,
): Promise<{ id: number; slug: string }> {
  const slug = await uniqueSlug(tx, projects, slugify(values.name, 'project'));
  const [created] = await tx
    .insert(projects)
    .values({ ...values, slug, organisationId: organisation.id, isDraft: true })
    .returning({ id: projects.id, slug: projects.slug });
  await addModerator(tx, created.id, actor.id, 'implied');
  await tellInitiators(tx, organisation, { id: created.id, name: values.name, slug }, actor);
  return created;
}

export async function updateProject(tx: Tx, projectId: number, patch: Partial<typeof projects.$inferInsert>): Promise<void> {
  await tx
    .update(projects)
    .set({ ...patch, modified: new Date() })
    .where(eq(projects.id, projectId));
}

/**
 * §B15.9: a draft copy with a new slug, its moderators, modules (same draft flags) and phases (with
 * their dates); not its participants, categories, labels or contributions. Its images are the
 * original's stored files: a file is removed only when no row names it any more, so removing or
 * replacing the copy's leaves the original's (issue 21, finding 14; media/references.ts).
 */
export async function duplicateProject(
  tx: Tx,
  organisation: Organisation,
  projectId: number,
  actor: Actor,
): Promise<{ id: number; slug: string }> {
  const [source] = await tx.select().from(projects).where(eq(projects.id, projectId));
  const { id: _id, slug: oldSlug, created: _c, modified: _m, ...rest } = source;
  const slug = await uniqueSlug(tx, projects, oldSlug.replace(/-\d+$/, ''));
  const name = t(organisationLanguage(organisation), 'Copy of %(name)s', { name: source.name }).slice(0, PROJECT_FIELDS.name.max);
  const [copy] = await tx
    .insert(projects)
    .values({ ...rest, name, slug, isDraft: true, isArchived: false })
    .returning({ id: projects.id, slug: projects.slug });
  const moderators = await tx.select({ userId: projectModerators.userId, implied: projectModerators.implied }).from(projectModerators).where(eq(projectModerators.projectId, projectId));
  for (const m of moderators) await addModerator(tx, copy.id, m.userId, m.implied ? 'implied' : 'explicit');
  const rows = new Map((await tx.select().from(modules).where(eq(modules.projectId, projectId))).map((row) => [row.id, row]));
  for (const module of await loadModules(tx, { projectId })) {
    const row = rows.get(module.id);
    if (!row) continue;
    // The module's own columns (its area among them), as the project's above.
    const { id: _mid, slug: _s, projectId: _pid, created: _mc, modified: _mm, ...moduleRest } = row;
    const [newModule] = await tx
      .insert(modules)
      .values({ ...moduleRest, slug: await uniqueSlug(tx, modules, module.slug.replace(/-\d+$/, '')), projectId: copy.id })
      .returning({ id: modules.id });
    if (module.phases.length) {
      await tx.insert(phases).values(module.phases.map(({ id: _p, ...phase }) => ({ ...phase, moduleId: newModule.id })));
    }
    // Settings its type keeps in tables of its own (a budget's rules, an event's media): issue 36.10.
    await appModuleType(module.blueprintType)?.copySettings?.(tx, module.id, newModule.id);
  }
  await tellInitiators(tx, organisation, { id: copy.id, name, slug }, actor);
  return copy;
}

/**
 * §B15.8: deletes the project with everything in it (its modules and their content by cascade, the
 * comments, ratings, reports and remarks on them by `deleteGenericRelations`), in the caller's
 * transaction; all initiators are told (§C11). Returns the
 * media files that went with it (header and tile image, idea images), for the caller to remove
 * once the transaction has committed (issue 21, finding 15: they must not stay served).
 */
export async function deleteProject(tx: Tx, organisation: Organisation, project: { id: number; name: string }, actor: Actor): Promise<string[]> {
  const vars = { project: project.name, organisation: organisation.name, actor: actor.username, url: '', brand: await organisationBrand(tx, organisation.slug, actor.origin) };
  const initiators = await initiatorIds(tx, organisation.id);
  await mailUsers(tx, 'project_deleted', initiators, vars, { notifications: true });
  // Not tied to the project (that goes now): it leads to the organisation's project list.
  const context = { project: project.name, organisation: organisation.name, actor: actor.username };
  await recordNotifications(tx, { kind: 'project_deleted', recipientIds: initiators, actorId: actor.id, projectId: null, context, url: projectListPath(organisation.slug) });
  const moduleIds = (await tx.select({ id: modules.id }).from(modules).where(eq(modules.projectId, project.id))).map((m) => m.id);
  const contentImages = await moduleContentImages(tx, moduleIds);
  // The results' timeline images (results belong to the project, not to a module type).
  contentImages.push(...(await projectResultImages(tx, project.id)));
  await deleteGenericRelations(tx, { projectId: project.id });
  const [deleted] = await tx.delete(projects).where(eq(projects.id, project.id)).returning({ image: projects.image, tileImage: projects.tileImage });
  return [...new Set([deleted?.image, deleted?.tileImage, ...contentImages].filter((path): path is string => Boolean(path)))];
}

/** The images of some modules' content, as each module type names them (the contract's `mediaPaths`). */
async function moduleContentImages(tx: Tx, moduleIds: number[]): Promise<string[]> {
  const hooks = new Set(registeredModuleTypes().flatMap((type) => (type.mediaPaths ? [type.mediaPaths] : [])));
  const images: string[] = [];
  for (const paths of hooks) images.push(...(await paths(tx, moduleIds)));
  return images;
}

/** The tables that point at content by kind and id (a generic relation, no foreign key to cascade along). */
const ON_CONTENT = [ratings, reports, moderatorRemarks, resultLinks] as const;

/**
 * What hangs on a project's content (or on one module's) by a generic relation, which the
 * project's (or the module's) row cannot take along by cascade: the ratings, reports, moderator
 * remarks and result links on it and on its comments (`page_project_of` and `page_module_of`, the
 * SQL functions the page-change triggers read, know the project and module of every content kind),
 * then its comments with their replies (every comment carries its project; their moderator feedback
 * goes with them by cascade). Runs before the row goes: the functions find a comment's or an item's
 * project and module only while it is there. One statement per table, in the caller's transaction.
 */
async function deleteGenericRelations(tx: Tx, scope: { projectId: number; moduleId?: number }): Promise<void> {
  const within = (kind: SQLWrapper, pk: SQLWrapper) =>
    scope.moduleId === undefined ? sql`page_project_of(${kind}, ${pk}) = ${scope.projectId}` : sql`page_module_of(${kind}, ${pk}) = ${scope.moduleId}`;
  for (const table of ON_CONTENT) await tx.delete(table).where(within(table.contentType, table.objectPk));
  await tx.delete(comments).where(scope.moduleId === undefined ? eq(comments.projectId, scope.projectId) : and(eq(comments.projectId, scope.projectId), within(comments.contentType, comments.objectPk)));
}

/**
 * Takes the project row's lock for the rest of the transaction. Every change of the project's
 * publication state or of its modules' takes it first and then reads what it checks, so that
 * e.g. *Publish* and *Hide module* sent together cannot leave a published project without an
 * added module (issue 21, finding 16): the second waits and sees the first's result.
 */
async function lockProject(tx: Tx, projectId: number): Promise<void> {
  await tx.select({ id: projects.id }).from(projects).where(eq(projects.id, projectId)).for('update');
}

async function projectAndModules(tx: Tx, projectId: number) {
  await lockProject(tx, projectId);
  const project = await loadDashboardProject(tx, { id: projectId });
  if (!project) throw new Error(`project ${projectId} vanished`);
  return { project, modules: await loadModules(tx, { projectId }) };
}

/** §B15.5: publishes when complete; otherwise says what is missing and changes nothing. */
export async function publishProject(tx: Tx, projectId: number): Promise<PublishCheck> {
  const { project, modules: list } = await projectAndModules(tx, projectId);
  const check = publishCheck(project, list, await unwrittenPlatformPages(tx));
  if (check.ok) await updateProject(tx, projectId, { isDraft: false });
  return check;
}

/** §B15.6 and §B15.7: unpublish always; archive only a finished project; unarchive always. */
export async function setProjectState(tx: Tx, projectId: number, action: 'unpublish' | 'archive' | 'unarchive', now = new Date()): Promise<Outcome> {
  await lockProject(tx, projectId);
  if (action === 'unpublish') await updateProject(tx, projectId, { isDraft: true });
  if (action === 'unarchive') await updateProject(tx, projectId, { isArchived: false });
  if (action === 'archive') {
    const { modules: list } = await projectAndModules(tx, projectId);
    if (!hasFinished(list, now)) return refused('A project can only be archived when its last phase has ended.');
    await updateProject(tx, projectId, { isArchived: true });
  }
  return OK;
}

/** §B7: a draft module of a blueprint, weight after the last, with the blueprint's phases (names in the initiator's language, no dates). */
export async function addModule(tx: Tx, projectId: number, blueprint: ModuleTypeCore, lang: Lang): Promise<{ id: number; slug: string }> {
  const [last] = await tx.select({ weight: max(modules.weight) }).from(modules).where(eq(modules.projectId, projectId));
  const name = blueprint.title[lang];
  const [module] = await tx
    .insert(modules)
    .values({
      slug: await uniqueSlug(tx, modules, slugify(name, 'module')),
      projectId,
      name,
      description: '',
      weight: last?.weight === null || last?.weight === undefined ? 1 : last.weight + 1,
      blueprintType: blueprint.blueprintType,
      isDraft: true,
    })
    .returning({ id: modules.id, slug: modules.slug });
  await tx.insert(phases).values(
    blueprint.phases.map((phase, weight) => ({ moduleId: module.id, type: phase.type, name: phase.name[lang], description: phase.description[lang], weight })),
  );
  return module;
}

export async function updateModule(tx: Tx, moduleId: number, values: { name: string; description: string }): Promise<void> {
  await tx
    .update(modules)
    .set({ ...values, modified: new Date() })
    .where(eq(modules.id, moduleId));
}

/** Stores checked phases (the count and types are the blueprint's; only these fields change). */
export async function savePhases(tx: Tx, moduleId: number, list: { id: number; name: string; description: string; startDate: Date | null; endDate: Date | null }[]): Promise<void> {
  for (const { id, ...values } of list) await tx.update(phases).set(values).where(and(eq(phases.id, id), eq(phases.moduleId, moduleId)));
}

/** §B12: renames, removes (ideas lose the category; labels leave their ideas) and adds categories or labels, and sets the module's word for them; one transaction. */
export async function saveTerms(
  tx: Tx,
  kind: 'categories' | 'labels',
  moduleId: number,
  change: TermChange,
): Promise<void> {
  const table = kind === 'categories' ? categories : labels;
  const alias = kind === 'categories' ? { categoryAlias: change.alias.word, categoryAliasHelp: change.alias.help } : { labelAlias: change.alias.word, labelAliasHelp: change.alias.help };
  await tx.update(modules).set(alias).where(eq(modules.id, moduleId));
  if (change.remove.length) await tx.delete(table).where(and(eq(table.moduleId, moduleId), inArray(table.id, change.remove)));
  for (const { id, name } of change.rename) await tx.update(table).set({ name }).where(and(eq(table.id, id), eq(table.moduleId, moduleId)));
  if (change.add.length) await tx.insert(table).values(change.add.map((name) => ({ moduleId, name })));
}

/** §B15.2–4: add a complete module to the project; hide one only while the project is a draft; delete only draft modules. */
export async function changeModule(tx: Tx, loaded: DashboardModule, action: 'add' | 'hide' | 'delete'): Promise<Outcome> {
  // The module as it is once the project is locked (a request sent at the same time may have changed it).
  const { project, modules: list } = await projectAndModules(tx, loaded.projectId);
  const module = list.find((m) => m.id === loaded.id);
  if (!module) return refused('Module cannot be changed. It was deleted meanwhile.');
  if (action === 'add') {
    if (moduleMissing(module).length) return refused('Module cannot be added. Required fields are missing.');
    await tx.update(modules).set({ isDraft: false }).where(eq(modules.id, module.id));
  } else if (action === 'hide') {
    if (!project.isDraft) return refused('Module cannot be removed from a published project.');
    await tx.update(modules).set({ isDraft: true }).where(eq(modules.id, module.id));
  } else {
    if (!module.isDraft) return refused('Module cannot be deleted. It has to be removed from the project first.');
    // Its content goes by cascade; what hangs on it by a generic relation, and its files, as with a project.
    const files = await moduleContentImages(tx, [module.id]);
    await deleteGenericRelations(tx, { projectId: module.projectId, moduleId: module.id });
    await tx.delete(modules).where(eq(modules.id, module.id));
    return { ok: true, files };
  }
  return OK;
}
