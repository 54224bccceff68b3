import { count, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Db, Tx } from '../../db/client.js';
import * as s from '../../db/schema/index.js';
import { openMedia } from '../../media/store.js';
import { AplusImportError, stageDump } from './dump.js';
import { MediaImport, type MediaResult } from './media.js';
import { openMediaSource } from './media-source.js';
import { NO_HOME_YET, reasonOf, SKIPPED_ON_PURPOSE } from './models.js';
import { importActivity, importComments, importItems, importOrganisations, importParticipation, importPlaces, importProjects, importUsers } from './phases.js';
import { CMS_MODELS, importContentPages } from './cms.js';
import { importAliases, importCustomFields, importModeratorRemarks, importNotifications, importOfflineEvents, importSummaries, importSummaryFeedback } from './features.js';
import { ImportRun, type ModelResult } from './run.js';

export { AplusImportError };

interface ImportOptions {
  dump: string;
  media: string;
  dryRun?: boolean;
  /** Where the media go (MEDIA_STORE, DATA_DIR). */
  store: Pick<Config, 'mediaStore' | 'dataDir'>;
  progress?: Progress;
}

/** Progress per phase (a bar on a terminal; nothing in CI). */
export interface Progress {
  start(phase: string, total: number): void;
  tick(): void;
  stop(): void;
}

export interface ImportReport {
  dump: string;
  media: string;
  dryRun: boolean;
  started: string;
  finished: string;
  /** Every model of the dump, lower-case `app_label.modelname`, with what became of its rows. */
  models: Record<string, ModelResult>;
  media_files: MediaResult;
  warnings: string[];
}

/** The phases, in the order their rows reference each other, with the a+ models each reads. */
const PHASES: { name: string; models: string[]; run: typeof importUsers }[] = [
  { name: 'users', models: ['a4_candy_users.user', 'a4_candy_notifications.notificationsettings', 'socialaccount.socialaccount', 'authtoken.token', 'guest_user.guest'], run: importUsers },
  {
    name: 'organisations',
    models: ['a4_candy_organisations.organisation', 'a4_candy_organisations.organisationtranslation', 'a4_candy_organisations.member', 'a4_candy_organisations.organisationtermsofuse'],
    run: importOrganisations,
  },
  { name: 'districts, map presets', models: ['a4administrative_districts.administrativedistrict', 'a4_candy_maps.mappresetcategory', 'a4_candy_maps.mappreset'], run: importPlaces },
  { name: 'projects', models: ['a4projects.project', 'a4modules.module', 'a4phases.phase', 'a4categories.category', 'a4labels.label'], run: importProjects },
  {
    name: 'items',
    models: [
      'a4_candy_ideas.idea',
      'a4_candy_mapideas.mapidea',
      'a4_candy_budgeting.proposal',
      'a4polls.poll',
      'a4polls.question',
      'a4polls.choice',
      'a4polls.vote',
      'a4polls.answer',
      'a4_candy_documents.chapter',
      'a4_candy_documents.paragraph',
      'a4_candy_debate.subject',
      'a4_candy_topicprio.topic',
      'a4_candy_interactive_events.livequestion',
      'a4_candy_interactive_events.like',
      'a4_candy_interactive_events.extrafieldsinteractiveevent',
    ],
    run: importItems,
  },
  { name: 'comments', models: ['a4comments.comment', 'a4_candy_moderatorfeedback.moderatorcommentfeedback'], run: importComments },
  { name: 'ratings, reports, follows', models: ['a4ratings.rating', 'a4reports.report', 'a4follows.follow'], run: importParticipation },
  { name: 'offline events', models: ['a4_candy_offlineevents.offlineevent'], run: importOfflineEvents },
  {
    name: 'activity, newsletters, invitations',
    models: ['a4actions.action', 'a4_candy_newsletters.newsletter', 'a4_candy_projects.participantinvite', 'a4_candy_projects.moderatorinvite'],
    run: importActivity,
  },
  { name: 'moderator remarks', models: ['a4_candy_moderatorremark.moderatorremark'], run: importModeratorRemarks },
  { name: 'notifications', models: ['a4_candy_notifications.notification'], run: importNotifications },
  {
    name: 'custom fields',
    models: ['a4_candy_customfields.customfieldsettings', 'a4_candy_customfields.customfield', 'a4_candy_customfields.customfieldchoice', 'a4_candy_customfields.customfieldanswer'],
    run: importCustomFields,
  },
  { name: 'category and label aliases', models: ['a4categories.categoryalias', 'a4labels.labelalias'], run: importAliases },
  { name: 'project summaries', models: ['a4_candy_summarization.projectsummary'], run: importSummaries },
  { name: 'summary feedback', models: ['a4_candy_summarization.summaryfeedback'], run: importSummaryFeedback },
  { name: 'content pages', models: CMS_MODELS, run: importContentPages },
];

/** Every model an importer reads (the others are skipped on purpose, have no home yet, or are unknown). */
export const IMPORTED_MODELS = new Set(PHASES.flatMap((phase) => phase.models));

const ID_TABLES = [
  'users',
  'organisations',
  'administrative_districts',
  'map_preset_categories',
  'map_presets',
  'projects',
  'modules',
  'phases',
  'categories',
  'labels',
  'ideas',
  'map_ideas',
  'proposals',
  'polls',
  'poll_questions',
  'poll_choices',
  'poll_votes',
  'poll_answers',
  'chapters',
  'paragraphs',
  'subjects',
  'topics',
  'live_questions',
  'live_question_likes',
  'comments',
  'comment_feedback',
  'ratings',
  'reports',
  'follows',
  'actions',
  'newsletters',
  'project_invites',
  'social_accounts',
  'offline_events',
  'moderator_remarks',
  'notifications',
  'custom_fields',
  'custom_field_choices',
  'summaries',
  'summary_feedback',
  'content_pages',
];

class DryRunDone extends Error {}

/** The database must be empty: the import keeps a+'s ids, and a second run must never duplicate. */
async function requireEmpty(db: Db) {
  const [users] = await db.select({ n: count() }).from(s.users);
  const [organisations] = await db.select({ n: count() }).from(s.organisations);
  if (users.n || organisations.n) {
    throw new AplusImportError(
      `the database is not empty (${users.n} users, ${organisations.n} organisations): import-aplus fills an empty Allmende only, so a second run changes nothing`,
    );
  }
}

/** The statistics of each project (§B17), counted from the imported ideas, comments, ratings and votes. */
async function countInsights(tx: Tx) {
  await tx.execute(sql`
    with items as (
      select m.project_id, i.id, i.creator_id, i.created, 'idea' as kind from ideas i join modules m on m.id = i.module_id
      union all select m.project_id, i.id, i.creator_id, i.created, 'mapidea' from map_ideas i join modules m on m.id = i.module_id
      union all select m.project_id, i.id, i.creator_id, i.created, 'proposal' from proposals i join modules m on m.id = i.module_id),
    contributions as (
      select project_id, creator_id, created, 'ideas' as kind from items
      union all select c.project_id, c.creator_id, c.created, 'comments' from comments c where c.project_id is not null
      union all select coalesce(i.project_id, c.project_id), r.creator_id, r.created, 'ratings' from ratings r
        left join items i on i.kind = r.content_type and i.id = r.object_pk
        left join comments c on r.content_type = 'comment' and c.id = r.object_pk
        where coalesce(i.project_id, c.project_id) is not null
      union all select m.project_id, v.creator_id, min(v.created), 'votes' from poll_votes v
        join poll_choices ch on ch.id = v.choice_id join poll_questions q on q.id = ch.question_id
        join polls p on p.id = q.poll_id join modules m on m.id = p.module_id
        where v.creator_id is not null group by m.project_id, p.id, v.creator_id),
    firsts as (select project_id, creator_id, min(created) as first from contributions group by project_id, creator_id),
    members as (insert into project_insight_participants (project_id, user_id) select project_id, creator_id from firsts on conflict do nothing)
    insert into project_insight_days (project_id, day, ideas, comments, ratings, votes, participants)
    select d.project_id, d.day, d.ideas, d.comments, d.ratings, d.votes, coalesce(p.n, 0) from (
      select project_id, (created at time zone 'UTC')::date as day,
        count(*) filter (where kind = 'ideas') as ideas, count(*) filter (where kind = 'comments') as comments,
        count(*) filter (where kind = 'ratings') as ratings, count(*) filter (where kind = 'votes') as votes
      from contributions group by 1, 2) d
    left join (select project_id, (first at time zone 'UTC')::date as day, count(*) as n from firsts group by 1, 2) p
      on p.project_id = d.project_id and p.day = d.day`);
}

/**
 * Imports a whole adhocracy+ installation (a `dumpdata` file and its media folder) into an empty
 * Allmende, in one transaction: a failed import leaves the database as it was. A dry run does all
 * the work and then rolls back (and copies no media).
 */
export async function importAplus(db: Db, options: ImportOptions): Promise<ImportReport> {
  const started = new Date();
  await requireEmpty(db);
  const source = await openMediaSource(options.media);
  const progress = options.progress;
  let report: ImportReport | null = null;
  try {
    await db.transaction(async (tx) => {
      progress?.start('reading the dump', 100);
      let last = 0;
      const found = await stageDump(tx, options.dump, (read, total) => {
        const percent = Math.floor((read / Math.max(total, 1)) * 100);
        for (; last < percent; last++) progress?.tick();
      });
      progress?.stop();
      const run = new ImportRun(tx, found, () => progress?.tick());
      for (const row of (
        (await tx.execute(sql`SELECT pk, fields FROM aplus_rows WHERE model = 'contenttypes.contenttype'`)) as unknown as { rows: { pk: string; fields: { app_label: string; model: string } }[] }
      ).rows) {
        run.contentTypes.set(Number(row.pk), `${row.fields.app_label}.${row.fields.model}`.toLowerCase());
      }
      const media = new MediaImport(source, options.dryRun ? null : openMedia(options.store.mediaStore, { dataDir: options.store.dataDir, db: tx }));
      for (const phase of PHASES) {
        progress?.start(phase.name, phase.models.reduce((n, model) => n + (found.get(model) ?? 0), 0));
        await phase.run({ run, media });
        progress?.stop();
      }
      progress?.start('files linked from texts', 1);
      await media.embedded(tx);
      progress?.stop();
      await run.syncSequences(ID_TABLES);
      await countInsights(tx);
      report = buildReport(options, started, run, media.result);
      if (options.dryRun) throw new DryRunDone();
    });
  } catch (error) {
    if (!(error instanceof DryRunDone)) throw error;
  } finally {
    progress?.stop();
    await source.close();
  }
  if (!report) throw new AplusImportError('the import ended without a report');
  // The footer's content pages and platform settings are new: this process's pages show them at once.
  return report;
}

function buildReport(options: ImportOptions, started: Date, run: ImportRun, media: MediaResult): ImportReport {
  const models: Record<string, ModelResult> = {};
  for (const [model, n] of [...run.found.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const result = run.results.get(model);
    if (result && IMPORTED_MODELS.has(model)) {
      models[model] = result;
      continue;
    }
    const onPurpose = reasonOf(SKIPPED_ON_PURPOSE, model);
    const noHome = reasonOf(NO_HOME_YET, model);
    const skipped = onPurpose
      ? { kind: 'on purpose' as const, reason: onPurpose }
      : noHome
        ? { kind: 'no home yet' as const, reason: noHome }
        : { kind: 'unknown model' as const, reason: 'not a model of adhocracy+ c898b40 that the import knows (a newer version, or a plug-in)' };
    models[model] = { found: n, imported: 0, cannotPlace: skipped.kind === 'on purpose' ? {} : { [`${skipped.kind}: ${skipped.reason}`]: n }, skipped, ...(result?.fieldsLost ? { fieldsLost: result.fieldsLost } : {}) };
  }
  return { dump: options.dump, media: options.media, dryRun: Boolean(options.dryRun), started: started.toISOString(), finished: new Date().toISOString(), models, media_files: media, warnings: run.warnings };
}

/** The report as the operator reads it: one line per a+ model, then the models without a home, media and warnings. */
export function summary(report: ImportReport): string {
  const lines: string[] = [];
  lines.push(`${report.dryRun ? 'Dry run (nothing written)' : 'Imported'}: ${report.dump} with media ${report.media}`);
  lines.push('');
  lines.push(`${'a+ model'.padEnd(58)} ${'found'.padStart(7)} ${(report.dryRun ? 'would import' : 'imported').padStart(12)} ${'cannot place'.padStart(12)}`);
  const entries = Object.entries(report.models);
  for (const [model, r] of entries.filter(([, r]) => r.skipped?.kind !== 'on purpose')) {
    const cannot = Object.values(r.cannotPlace).reduce((a, b) => a + b, 0);
    lines.push(`${model.padEnd(58)} ${String(r.found).padStart(7)} ${String(r.imported).padStart(12)} ${String(cannot).padStart(12)}`);
    for (const [reason, n] of Object.entries(r.cannotPlace)) lines.push(`    cannot place ${n}: ${reason}`);
    for (const [field, n] of Object.entries(r.fieldsLost ?? {})) lines.push(`    not kept in ${n} rows: ${field}`);
  }
  const onPurpose = entries.filter(([, r]) => r.skipped?.kind === 'on purpose');
  if (onPurpose.length) {
    lines.push('');
    lines.push('Skipped on purpose (only adhocracy+’s frameworks need them):');
    for (const [model, r] of onPurpose) lines.push(`  ${model} (${r.found}): ${r.skipped?.reason}`);
  }
  const noHome = entries.filter(([, r]) => r.skipped?.kind === 'no home yet');
  if (noHome.length) {
    lines.push('');
    lines.push('Cannot place: no home yet (each with its reason):');
    for (const [model, r] of noHome) lines.push(`  ${model} (${r.found}): ${r.skipped?.reason}`);
  }
  lines.push('');
  lines.push(`Media: ${report.dryRun ? 'checked' : `${report.media_files.copied} files copied`}, ${report.media_files.missing.length} missing in MEDIA, ${report.media_files.notImages.length} not images.`);
  for (const missing of report.media_files.missing) lines.push(`  missing: ${missing.path} (${missing.model} pk ${missing.pk}; imported without it)`);
  for (const notKept of report.media_files.notKept ?? []) lines.push(`  not kept: ${notKept.path} (linked from ${notKept.model} pk ${notKept.pk}; its name is none the media store takes: copy it by hand or change the link)`);
  for (const warning of report.warnings) lines.push(`Note: ${warning}`);
  return lines.join('\n');
}
