import { and, eq, inArray, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../../db/client.js';
import { pageVersionField } from '../../db/versions.js';
import { modules, organisationInitiators, organisationMembers, phases, projectModerators, projectParticipants, projects, users } from '../../db/schema/index.js';
import { fromJson, preparedPer, qualified as q } from '../../db/sql.js';
import type { FastifyRequest } from 'fastify';
import { type AuthUser, callerFields, callerUid, currentUser, pendingCaller, settleCaller } from '../../http/auth.js';
import { canViewProject, type ModuleContext, type PhaseDates, type ProjectContext, type ProjectItemContext, type RuleUser } from './rules.js';

/**
 * The one place that loads what the permission rules look at, one statement per request (or per
 * list): the project's access, draft and archived state, the user's organisation roles (initiator,
 * member) and project roles (moderator, participant), and for a module its draft state and phases.
 * Every column of the correlated subqueries is table-qualified (see db/sql.ts, finding F1).
 */

export type LoadedProjectContext = ProjectContext & { projectId: number; organisationId: number };
export type LoadedModuleContext = ModuleContext & { project: LoadedProjectContext };
export type LoadedProjectItemContext = ProjectItemContext & { project: LoadedProjectContext };

/** The user's id in the statements below (0 for anonymous), a placeholder for it in a prepared statement, or a column of users. */
export type Uid = number | Placeholder<'uid'> | SQL;
export const uidOf = (user: RuleUser): number => user?.id ?? 0;

const roleExists = (table: typeof projectModerators | typeof projectParticipants, uid: Uid) =>
  sql<boolean>`exists (select 1 from ${table} where ${q(table.projectId)} = ${q(projects.id)} and ${q(table.userId)} = ${uid})`;
const orgRoleExists = (table: typeof organisationInitiators | typeof organisationMembers, uid: Uid) =>
  sql<boolean>`exists (select 1 from ${table} where ${q(table.organisationId)} = ${q(projects.organisationId)} and ${q(table.userId)} = ${uid})`;

/** The project's state and the user's roles in it, as select fields (over `projects`). */
export function projectFields(uid: Uid) {
  return {
    projectId: projects.id,
    organisationId: projects.organisationId,
    access: projects.access,
    isDraft: projects.isDraft,
    isArchived: projects.isArchived,
    allowsGuests: projects.allowGuests,
    moderator: roleExists(projectModerators, uid),
    participant: roleExists(projectParticipants, uid),
    initiator: orgRoleExists(organisationInitiators, uid),
    orgMember: orgRoleExists(organisationMembers, uid),
  };
}

export interface ProjectRow {
  projectId: number;
  organisationId: number;
  access: ProjectContext['access'];
  isDraft: boolean;
  isArchived: boolean;
  allowsGuests: boolean;
  moderator: boolean;
  participant: boolean;
  initiator: boolean;
  orgMember: boolean;
}

export const toProjectContext = (row: ProjectRow, user: RuleUser): LoadedProjectContext => ({
  projectId: row.projectId,
  organisationId: row.organisationId,
  access: row.access,
  isDraft: row.isDraft,
  isArchived: row.isArchived,
  allowsGuests: row.allowsGuests,
  user,
  roles: { moderator: row.moderator, participant: row.participant, initiator: row.initiator, orgMember: row.orgMember },
});

/** The context of a project's own content (a result: no module), in the statement of `loadProjectContext`; null when the project does not exist. */
export async function loadProjectItemContext(db: DbOrTx, projectId: number, user: RuleUser, now = new Date()): Promise<LoadedProjectItemContext | null> {
  const project = await loadProjectContext(db, projectId, user);
  return project && { project, module: null, now };
}

/** A project and the user's roles in it; null when the project does not exist. */
export async function loadProjectContext(db: DbOrTx, projectId: number, user: RuleUser): Promise<LoadedProjectContext | null> {
  return (await loadProjectContexts(db, [projectId], user)).get(projectId) ?? null;
}

const versionedContextStatement = preparedPer((db) =>
  db
    .select({ ...projectFields(sql.placeholder('uid')), pageVersion: pageVersionField(q(projects.id)) })
    .from(projects)
    .where(eq(projects.id, sql.placeholder('id')))
    .prepare('project_context_version'),
);

/** A project's context with the version of its pages (db/versions.ts), in one statement: what an answer kept under the version checks first. */
export async function loadVersionedProjectContext(db: DbOrTx, projectId: number, user: RuleUser): Promise<{ context: LoadedProjectContext; pageVersion: string } | null> {
  const [row] = await versionedContextStatement(db).execute({ id: projectId, uid: uidOf(user) });
  return row ? { context: toProjectContext(row, user), pageVersion: row.pageVersion } : null;
}

/** The same for many projects in one statement, by project id. */
export async function loadProjectContexts(db: DbOrTx, projectIds: number[], user: RuleUser): Promise<Map<number, LoadedProjectContext>> {
  if (!projectIds.length) return new Map();
  const rows = await db
    .select(projectFields(uidOf(user)))
    .from(projects)
    .where(inArray(projects.id, [...new Set(projectIds)]));
  return new Map(rows.map((row) => [row.projectId, toProjectContext(row, user)]));
}

/**
 * Those of the given users who may see the project now (`canViewProject`), in one statement: the
 * one filter for every mail about a project (newsletters, phase mails, notices; issue 21, finding
 * 6), so that e.g. a removed participant of a private project hears nothing more of it.
 */
export async function projectViewers(db: DbOrTx, projectId: number, userIds: number[]): Promise<Set<number>> {
  if (!userIds.length) return new Set();
  const rows = await db
    .select({ ...projectFields(q(users.id)), userId: users.id, isSuperuser: users.isSuperuser })
    .from(users)
    .innerJoin(projects, eq(projects.id, projectId))
    .where(and(inArray(users.id, [...new Set(userIds)]), eq(users.isActive, true)));
  return new Set(rows.filter((row) => canViewProject(toProjectContext(row, { id: row.userId, isSuperuser: row.isSuperuser }))).map((row) => row.userId));
}

/**
 * The project's context for each of the given viewers (0: anonymous) as they are now, in at most
 * two statements: for a stream's re-check (http/live.ts, `LiveGuard`). An inactive or missing
 * account, or a missing project, has no entry.
 */
export async function projectContextsOfViewers(db: DbOrTx, projectId: number, viewers: number[]): Promise<Map<number, LoadedProjectContext>> {
  const contexts = new Map<number, LoadedProjectContext>();
  const ids = [...new Set(viewers.filter((id) => id > 0))];
  if (viewers.includes(0)) {
    const anonymous = await loadProjectContext(db, projectId, null);
    if (anonymous) contexts.set(0, anonymous);
  }
  if (!ids.length) return contexts;
  const rows = await db
    .select({ ...projectFields(q(users.id)), userId: users.id, isSuperuser: users.isSuperuser })
    .from(users)
    .innerJoin(projects, eq(projects.id, projectId))
    .where(and(inArray(users.id, ids), eq(users.isActive, true)));
  for (const row of rows) contexts.set(row.userId, toProjectContext(row, { id: row.userId, isSuperuser: row.isSuperuser }));
  return contexts;
}

/** A module's phases as one JSON array (so that the module context stays one statement). */
const phasesJson = sql<RawPhase[] | string>`(select coalesce(json_agg(json_build_object(
    'id', ${q(phases.id)}, 'type', ${q(phases.type)}, 'startDate', ${q(phases.startDate)}, 'endDate', ${q(phases.endDate)}, 'weight', ${q(phases.weight)}
  ) order by ${q(phases.weight)}, ${q(phases.id)}), '[]'::json) from ${phases} where ${q(phases.moduleId)} = ${q(modules.id)})`;

interface RawPhase {
  id: number;
  type: string;
  startDate: string | null;
  endDate: string | null;
  weight: number;
}

const toPhases = (raw: RawPhase[] | string): PhaseDates[] =>
  fromJson(raw).map((p) => ({
    id: Number(p.id),
    type: p.type,
    startDate: p.startDate === null ? null : new Date(p.startDate),
    endDate: p.endDate === null ? null : new Date(p.endDate),
    weight: Number(p.weight),
  }));

/** More select fields over a module's row, loaded in the context's statement (e.g. its categories). */
type ModuleExtras = Record<string, SQL<unknown>>;
export type ExtraValues<E extends ModuleExtras> = { [K in keyof E]: E[K] extends SQL<infer T> ? T : never };

/** The module context's statement over `modules`, before its where clause. */
const moduleContextSelect = <E extends ModuleExtras>(db: DbOrTx, uid: Uid, extras: E) =>
  db
    .select({ ...projectFields(uid), moduleId: modules.id, moduleIsDraft: modules.isDraft, blueprintType: modules.blueprintType, phases: phasesJson, extras })
    .from(modules)
    .innerJoin(projects, eq(projects.id, modules.projectId));

type ModuleContextRow = ProjectRow & { moduleId: number; moduleIsDraft: boolean; blueprintType: string; phases: RawPhase[] | string; extras: unknown };

function toModuleContext<E extends ModuleExtras>(row: ModuleContextRow, user: RuleUser, now: Date) {
  const module = { id: row.moduleId, isDraft: row.moduleIsDraft, blueprintType: row.blueprintType };
  const context: LoadedModuleContext = { project: toProjectContext(row, user), module, phases: toPhases(row.phases), now };
  return { context, extras: row.extras as ExtraValues<E> };
}

/** Module contexts (module, phases, project, roles) for some modules in one statement, by module id. */
export async function loadModuleContexts(db: DbOrTx, moduleIds: number[], user: RuleUser, now = new Date()): Promise<Map<number, LoadedModuleContext>> {
  if (!moduleIds.length) return new Map();
  const rows = await moduleContextSelect(db, uidOf(user), {}).where(inArray(modules.id, [...new Set(moduleIds)]));
  return new Map(rows.map((row) => [row.moduleId, toModuleContext(row, user, now).context]));
}

/**
 * One module's context together with more fields of the module (`extras`, select fields over
 * `modules`), in one statement prepared once for `db` under `name` (its SQL is built once per
 * process and parsed once per connection, see db/client.ts): for the routes that load it on every
 * request. The loader answers null when the module does not exist. Not for a transaction's `tx`.
 */
export function prepareModuleContextWith<E extends ModuleExtras>(db: Db, name: string, extras: E) {
  const load = prepareModuleContextOf(db, name, sql`${sql.placeholder('moduleId')}`, extras);
  return (moduleId: number, user: RuleUser, now = new Date()) => load({ moduleId }, user, now);
}

/**
 * The same with the module named by `moduleOf` (SQL with placeholders, e.g. the module of a
 * question by the question's id), the placeholders' values given to the loader.
 */
export function prepareModuleContextOf<E extends ModuleExtras>(db: Db, name: string, moduleOf: SQL, extras: E) {
  const statement = moduleContextSelect(db, sql.placeholder('uid'), extras).where(eq(modules.id, moduleOf)).prepare(name);
  return async (values: Record<string, unknown>, user: RuleUser, now = new Date()): Promise<{ context: LoadedModuleContext; extras: ExtraValues<E> } | null> => {
    const [row] = await statement.execute({ ...values, uid: uidOf(user) });
    return row ? toModuleContext<E>(row, user, now) : null;
  };
}

/** A module's context for a request's caller, with the caller (null: anonymous) and the extras. */
interface CallerModuleContext<E extends ModuleExtras> {
  user: AuthUser | null;
  context: LoadedModuleContext;
  extras: ExtraValues<E>;
}

/**
 * The same for a request's caller, in one statement with the caller: an app's `Authorization:
 * Token` or the browser session not yet authenticated is resolved in the context's statement
 * (http/auth.ts, `pendingCaller`), so that the request sends no statement of its own for it.
 * `extras` are made over the caller's id as SQL. The loader answers null when the module does not
 * exist (the credentials then cost their own lookup, so that a bad token still answers 401, and a
 * session's form without its CSRF token 403, before the 404).
 */
export function prepareCallerModuleContextOf<E extends ModuleExtras>(db: Db, name: string, moduleOf: SQL, extras: (uid: SQL) => E) {
  const uid = sql`coalesce(${callerUid}, ${sql.placeholder('uid')})`;
  const statement = moduleContextSelect(db, uid, { ...extras(uid), ...callerFields }).where(eq(modules.id, moduleOf)).prepare(name);
  return async (request: FastifyRequest, values: Record<string, unknown>, now = new Date()): Promise<CallerModuleContext<E> | null> => {
    const pending = pendingCaller(request);
    const known = pending === null ? await currentUser(request) : null;
    const [row] = await statement.execute({ ...values, token: pending?.token ?? '', session: pending?.session ?? '', sessionAt: pending?.sessionAt ?? now, uid: uidOf(known) });
    if (!row) {
      if (pending !== null) await currentUser(request);
      return null;
    }
    const user = pending === null ? known : settleCaller(request, pending, row.extras as { tokenUser: unknown; sessionUser: unknown });
    return { user, ...toModuleContext<E>(row, user, now) };
  };
}

/** One module's context with the version of its project's pages (db/versions.ts), in one statement; null when the module does not exist. */
export async function loadVersionedModuleContext(db: DbOrTx, moduleId: number, user: RuleUser, now = new Date()): Promise<{ context: LoadedModuleContext; pageVersion: string } | null> {
  const [row] = await moduleContextSelect(db, uidOf(user), { pageVersion: pageVersionField(q(projects.id)) }).where(eq(modules.id, moduleId));
  if (!row) return null;
  const { context, extras } = toModuleContext<{ pageVersion: SQL<string> }>(row, user, now);
  return { context, pageVersion: String(extras.pageVersion) };
}

/** A module's context for each of the given viewers (0: anonymous) as they are now, in at most two statements (see `projectContextsOfViewers`). */
export async function moduleContextsOfViewers(db: DbOrTx, moduleId: number, viewers: number[], now = new Date()): Promise<Map<number, LoadedModuleContext>> {
  const contexts = new Map<number, LoadedModuleContext>();
  const ids = [...new Set(viewers.filter((id) => id > 0))];
  if (viewers.includes(0)) {
    const anonymous = await loadModuleContext(db, moduleId, null, now);
    if (anonymous) contexts.set(0, anonymous);
  }
  if (!ids.length) return contexts;
  const extras = { userId: sql<number>`${q(users.id)}`, isSuperuser: sql<boolean>`${q(users.isSuperuser)}` };
  const rows = await moduleContextSelect(db, q(users.id), extras)
    .innerJoin(users, and(inArray(users.id, ids), eq(users.isActive, true)))
    .where(eq(modules.id, moduleId));
  for (const row of rows) {
    const { userId, isSuperuser } = row.extras as { userId: number; isSuperuser: boolean };
    contexts.set(Number(userId), toModuleContext(row, { id: Number(userId), isSuperuser }, now).context);
  }
  return contexts;
}

/** One module's context; null when the module does not exist. */
export async function loadModuleContext(db: DbOrTx, moduleId: number, user: RuleUser, now = new Date()): Promise<LoadedModuleContext | null> {
  return (await loadModuleContexts(db, [moduleId], user, now)).get(moduleId) ?? null;
}
