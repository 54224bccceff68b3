import { and, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { countedPageVersionFields } from '../../db/versions.js';
import { preparedPer, qualified as q } from '../../db/sql.js';
import { administrativeDistricts, offlineEvents, organisations, projects } from '../../db/schema/index.js';
import { projectFields, toProjectContext, uidOf } from '../projects/context.js';
import { contactColumns, followingField, projectTextColumns } from '../projects/queries.js';
import type { RuleUser } from '../projects/rules.js';

// The project page's head lives beside the modules: its kept page's figures are its modules' tile counts (./figures.ts).

/**
 * A project of an organisation by both slugs, with what its page shows, the viewer's rule context
 * and whether the viewer follows it, in one statement; null when there is none.
 */
const projectPageStatement = preparedPer((db) => {
  const uid = sql.placeholder('uid');
  return db
    .select({
      ...projectFields(uid),
      following: followingField(uid),
      // The Follow/Unfollow button is the viewer's own: their kept page changes with their follow, nobody else's.
      ...countedPageVersionFields(q(projects.id), undefined, followingField(uid)),
      ...projectTextColumns,
      showInsights: projects.showInsights,
      isDraft: projects.isDraft,
      isArchived: projects.isArchived,
      image: projects.image,
      topics: projects.topics,
      // The project's administrative district (features/places), by name; null: none.
      districtName: sql<string | null>`(select d.name from ${administrativeDistricts} d where d.id = ${q(projects.administrativeDistrictId)})`,
      ...contactColumns,
      organisationSlug: organisations.slug,
      organisationName: organisations.name,
      // The project's offline events (features/offlineevents) for the timeline, by date, in the page's one statement.
      events: sql<TimelineEventJson[] | null>`(select json_agg(json_build_object('slug', e.slug, 'name', e.name, 'eventType', e.event_type, 'date', e.date) order by e.date, e.id)
        from ${offlineEvents} e where e.project_id = ${q(projects.id)})`,
    })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(and(eq(organisations.slug, sql.placeholder('org')), eq(projects.slug, sql.placeholder('slug'))))
    .prepare('project_page');
});

type TimelineEventJson = { slug: string; name: string; eventType: string; date: string };
/** An offline event as the project page's timeline shows it. */
export type TimelineEvent = { slug: string; name: string; eventType: string; date: Date };

/**
 * The project page's head, with its version (`pageVersion`, a web/page-keeping.ts `KeptPageVersion`:
 * its figures, its modules' tiles and the items of a module in place, are filled in at sending).
 */
export async function loadProjectPage(db: DbOrTx, orgSlug: string, projectSlug: string, user: RuleUser) {
  const [row] = await projectPageStatement(db).execute({ org: orgSlug, slug: projectSlug, uid: uidOf(user) });
  if (!row) return null;
  const { projectId: _p, organisationId: _o, moderator: _m, participant: _pa, initiator: _i, orgMember: _om, following, pageVersion, threadVersion, events, ...project } = row;
  const timeline: TimelineEvent[] = (events ?? []).map((e) => ({ ...e, date: new Date(e.date) }));
  return { project: { ...project, events: timeline }, context: toProjectContext(row, user), following: Boolean(following), pageVersion: { pageVersion, threadVersion } };
}

export type ProjectPageRow = NonNullable<Awaited<ReturnType<typeof loadProjectPage>>>['project'];
