import '../../module-types.js';
import { sql } from 'drizzle-orm';
import * as floor from '../../db/schema/index.js';
import { remarkableContentTypes } from '../../core/modules/registry.js';
import { customFieldAnswers, customFieldChoices, customFields } from '../../features/customfields/schema.js';
import { OFFLINE_EVENT_LIMITS } from '../../features/offlineevents/rules.js';
import { summaries, summaryFeedback } from '../../features/summaries/schema.js';
import type { NotificationKind } from '../../mail/notices.js';
import { cleanRichText } from '../../text/html.js';
import type { DumpRow } from './dump.js';
import type { MediaImport } from './media.js';
import { bool, CONTENT_KIND_OF, date, type ImportRun, text } from './run.js';

/*
 * The a+ models of the features Allmende built for them (issue 34): offline events, moderator
 * remarks, in-app notifications, custom fields, the modules' words for category and label, and
 * project summaries. Each runs inside the import's one transaction, after the items and comments
 * they point at.
 */

type Ctx = { run: ImportRun; media: MediaImport };
const s = { ...floor, customFields, customFieldChoices, customFieldAnswers, summaries, summaryFeedback };

/** A text within a column's size: a longer one is cut, and the report says in how many rows. */
function within(run: ImportRun, row: DumpRow, field: string, max: number): string {
  const value = text(row.fields[field]);
  if (value.length > max) run.lost(row.model, `${field} beyond ${max} characters (cut)`, true);
  return value.slice(0, max);
}

export async function importOfflineEvents({ run, media }: Ctx) {
  const model = 'a4_candy_offlineevents.offlineevent';
  const batch = run.batcher(model, s.offlineEvents);
  for await (const row of run.rows(model)) {
    const f = row.fields;
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    const when = date(f.date) ?? run.fail(row, `date ${JSON.stringify(f.date)} is not a date and time`);
    const slug = text(f.slug);
    if (!slug) run.fail(row, 'has no slug (its address /<organisation>/offlineevents/<slug>/)');
    const creator = run.user(f.creator);
    await batch.add(row, {
      id,
      projectId: run.require(row, 'project', 'project'),
      creatorId: creator ?? null,
      slug,
      name: within(run, row, 'name', OFFLINE_EVENT_LIMITS.name.maxChars),
      eventType: within(run, row, 'event_type', OFFLINE_EVENT_LIMITS.event_type.maxChars),
      date: when,
      description: cleanRichText(text(f.description)),
      // a+ c898b40 has no document; older and forked versions kept one beside the event.
      document: await media.file(f.document, row),
      created: date(f.created) ?? new Date(),
      modified: date(f.modified),
    });
    // Actions (a+ 'add' of an event, where a version records one) come in the next phase and point here.
    run.ids('offlineevent').add(id);
  }
  await batch.flush();
}

export async function importModeratorRemarks({ run }: Ctx) {
  const model = 'a4_candy_moderatorremark.moderatorremark';
  const remarkable = new Set<string>(remarkableContentTypes().map((c) => c.kind));
  const batch = run.batcher(model, s.moderatorRemarks);
  for await (const row of run.rows(model)) {
    const type = run.contentType(row.fields.item_content_type);
    const kind = type ? CONTENT_KIND_OF[type] : undefined;
    const id = run.fk(row.fields.item_object_id);
    if (!kind || !remarkable.has(kind)) {
      run.cannotPlace(model, `a remark on a ${type ?? 'unknown content type'}: Allmende keeps remarks on ideas, map ideas and proposals`);
      continue;
    }
    if (!run.has(kind, id)) {
      run.cannotPlace(model, `its ${kind} is not in the dump or was not placed`);
      continue;
    }
    const creator = run.user(row.fields.creator);
    await batch.add(row, { id: run.fk(row.pk) ?? run.fail(row, 'pk is not a number'), contentType: kind, objectPk: id, creatorId: creator ?? null, remark: text(row.fields.remark), created: date(row.fields.created) ?? new Date(), modified: date(row.fields.modified) });
  }
  await batch.flush();
}

/**
 * a+'s notification categories (NotificationSettings has an `email_<category>` and a
 * `notify_<category>` switch for each) and the kinds of Allmende's notifications each covers. a+'s
 * messages and invitations have no such kind in Allmende (invitations always arrive).
 */
const KINDS_OF_CATEGORY: Record<string, NotificationKind[]> = {
  project_updates: ['phase_started', 'phase_ending', 'new_project', 'project_deleted'],
  project_events: ['event_soon', 'event_added', 'event_update', 'event_cancelled'],
  user_engagement: ['comment_on_content', 'reply_to_comment'],
  moderation: ['idea_feedback', 'comment_feedback', 'comment_blocked'],
  warnings: ['report_to_moderators'],
};

/** The kinds a user's a+ settings row turned off by e-mail (`email_*`) or in the app (`notify_*`). */
export const kindsTurnedOff = (row: DumpRow, channel: 'email' | 'notify') => Object.entries(KINDS_OF_CATEGORY).flatMap(([category, kinds]) => (row.fields[`${channel}_${category}`] === false ? kinds : []));

/** The in-app half of a user's a+ notification settings: one opt-out per kind a switch turned off. */
export async function importInAppSettings(run: ImportRun, row: DumpRow, userId: number) {
  for (const field of ['notify_messages', 'notify_invitations', 'track_project_updates', 'track_project_events', 'track_user_engagement']) {
    run.lost(row.model, `${field} (no such switch in Allmende)`, row.fields[field] === false);
  }
  await run.insert(row.model, s.notificationInappOptouts, kindsTurnedOff(row, 'notify').map((kind) => ({ row, values: { userId, kind } })), false);
}

/** a+'s message template (`{project}`, Python's format) in Allmende's catalogue form (`%(project)s`). */
const messageOf = (template: string) => template.replace(/\{(\w+)\}/g, '%($1)s');

function parseJson(value: string): unknown {
  try {
    return JSON.parse(value) as unknown;
  } catch {
    return undefined;
  }
}

/** A link of a+ as a path on this site (a+ kept some as absolute addresses of the old host). */
function sitePath(value: unknown): string {
  const link = text(value);
  if (!link) return '';
  if (link.startsWith('/') && !link.startsWith('//')) return link;
  try {
    const url = new URL(link);
    return `${url.pathname}${url.search}${url.hash}`;
  } catch {
    return '';
  }
}

export async function importNotifications({ run }: Ctx) {
  const model = 'a4_candy_notifications.notification';
  const batch = run.batcher(model, s.notifications, 1000);
  for await (const row of run.rows(model)) {
    const f = row.fields;
    const raw = typeof f.context === 'string' ? (parseJson(f.context) ?? run.fail(row, 'context is not JSON')) : f.context;
    const context = Object.fromEntries(
      Object.entries(raw && typeof raw === 'object' ? raw : {}).map(([key, value]) => [key, typeof value === 'string' ? value : JSON.stringify(value ?? '')]),
    );
    // a+ links most notifications through their context (project_url, content_url, …).
    const contextLink = Object.entries(context).find(([key]) => key.endsWith('_url'))?.[1];
    const message = messageOf(text(f.message_template));
    if (!message) run.fail(row, 'has no message_template');
    if (message.length > 255) run.fail(row, 'message_template is longer than 255 characters');
    const project = run.fk(f.project);
    await batch.add(row, {
      id: run.fk(row.pk) ?? run.fail(row, 'pk is not a number'),
      recipientId: run.requireUser(row, 'recipient'),
      kind: text(f.notification_type, 64),
      message,
      context,
      targetUrl: sitePath(f.target_url) || sitePath(contextLink),
      projectId: run.has('project', project) ? project : null,
      read: bool(f.read),
      readAt: date(f.read_at),
      created: date(f.created) ?? new Date(),
    });
  }
  await batch.flush();
}

/**
 * Custom fields (a+ 2026, `a4_candy_customfields`): a module's settings row names the module; its
 * fields, their choices, and the ideas' answers (a choice's answer is the choice's pk as text).
 */
export async function importCustomFields(ctx: Ctx) {
  // Typed here, so that run.fail (never) narrows what it checks.
  const run: ImportRun = ctx.run;
  const moduleOfSettings = new Map<number, number>();
  for await (const row of run.rows('a4_candy_customfields.customfieldsettings')) {
    moduleOfSettings.set(run.fk(row.pk) ?? run.fail(row, 'pk is not a number'), run.require(row, 'module', 'module'));
    run.imported(row.model);
  }
  const fieldKind = new Map<number, { kind: 'text' | 'choice'; moduleId: number }>();
  const fields = run.batcher('a4_candy_customfields.customfield', s.customFields);
  for await (const row of run.rows('a4_candy_customfields.customfield')) {
    const f = row.fields;
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    const moduleId = moduleOfSettings.get(run.fk(f.settings) ?? 0) ?? run.fail(row, `settings ${JSON.stringify(f.settings)} is not a custom field settings row of the dump`);
    const kind = f.type === 'open' ? 'text' : f.type === 'choice' ? 'choice' : run.fail(row, `type ${JSON.stringify(f.type)} is neither "open" nor "choice"`);
    await fields.add(row, { id, moduleId, label: within(run, row, 'label', 200), kind, required: bool(f.required), weight: Math.min(Number(f.weight ?? 0), 32767) });
    fieldKind.set(id, { kind, moduleId });
  }
  await fields.flush();
  const choiceField = new Map<number, number>();
  const choices = run.batcher('a4_candy_customfields.customfieldchoice', s.customFieldChoices);
  for await (const row of run.rows('a4_candy_customfields.customfieldchoice')) {
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    const fieldId = run.fk(row.fields.field);
    if (fieldId === null || fieldKind.get(fieldId)?.kind !== 'choice') run.fail(row, `field ${JSON.stringify(row.fields.field)} is not a choice question of the dump`);
    await choices.add(row, { id, fieldId, label: within(run, row, 'label', 120), weight: Math.min(Number(row.fields.weight ?? 0), 32767) });
    choiceField.set(id, fieldId);
  }
  await choices.flush();

  const ideaModules = new Map(((await run.tx.execute(sql`SELECT id, module_id FROM ideas`)) as unknown as { rows: { id: number; module_id: number }[] }).rows.map((r) => [Number(r.id), Number(r.module_id)]));
  const answers = run.batcher('a4_candy_customfields.customfieldanswer', s.customFieldAnswers);
  for await (const row of run.rows('a4_candy_customfields.customfieldanswer')) {
    const f = row.fields;
    const fieldId = run.fk(f.field);
    const field = fieldId === null ? undefined : fieldKind.get(fieldId);
    if (fieldId === null || !field) run.fail(row, `field ${JSON.stringify(f.field)} is not a custom field of the dump`);
    const ideaId = run.fk(f.idea);
    if (!run.has('idea', ideaId)) {
      run.cannotPlace(row.model, 'its idea is not in the dump or was not placed');
      continue;
    }
    if (ideaModules.get(ideaId) !== field.moduleId) run.fail(row, `idea ${ideaId} is not in the module of field ${fieldId}`);
    const value = text(f.value);
    if (field.kind === 'choice' && value) {
      const choiceId = run.fk(value);
      if (choiceId === null || choiceField.get(choiceId) !== fieldId) run.fail(row, `value ${JSON.stringify(value)} is not a choice of field ${fieldId}`);
      await answers.add(row, { fieldId, objectPk: ideaId, value: '', choiceId });
    } else await answers.add(row, { fieldId, objectPk: ideaId, value, choiceId: null });
  }
  await answers.flush();
}

/** a4's CategoryAlias and LabelAlias: a module's own word for "category" or "label" and its help text. */
export async function importAliases({ run }: Ctx) {
  for (const [model, word, help] of [
    ['a4categories.categoryalias', 'category_alias', 'category_alias_help'],
    ['a4labels.labelalias', 'label_alias', 'label_alias_help'],
  ] as const) {
    for await (const row of run.rows(model)) {
      const moduleId = run.require(row, 'module', 'module');
      await run.tx.execute(sql`UPDATE modules SET ${sql.raw(word)} = ${within(run, row, 'title', 25)}, ${sql.raw(help)} = ${within(run, row, 'description', 300)} WHERE id = ${moduleId}`);
      run.imported(model);
    }
  }
}

/** a+'s SummaryResponse (its summary items and module items) as the plain paragraphs Allmende shows. */
function summaryText(data: unknown): string | null {
  const parsed = typeof data === 'string' ? parseJson(data) : data;
  if (parsed === undefined) return null;
  const response = parsed as { summary_items?: Record<string, unknown>[]; module_items?: Record<string, unknown>[] } | null;
  const paragraphs: string[] = [];
  for (const item of [...(response?.summary_items ?? []), ...(response?.module_items ?? [])]) {
    const heading = text(item.title ?? item.module_name).trim();
    if (heading) paragraphs.push(heading);
    if (text(item.summary).trim()) paragraphs.push(text(item.summary).trim());
    const points = Array.isArray(item.key_points) ? item.key_points.map((p) => `– ${text(p).trim()}`).join('\n') : '';
    if (points) paragraphs.push(points);
  }
  return paragraphs.join('\n\n');
}

/**
 * a+'s project summaries: Allmende keeps one per project, so the latest of each project is
 * imported (unpublished: an initiator decides to show it); the older ones are counted.
 */
export async function importSummaries({ run }: Ctx) {
  const model = 'a4_candy_summarization.projectsummary';
  const latest = new Map<number, DumpRow>();
  for await (const row of run.rows(model)) {
    const project = run.require(row, 'project', 'project');
    const kept = latest.get(project);
    if (kept && (date(kept.fields.created_at)?.getTime() ?? 0) >= (date(row.fields.created_at)?.getTime() ?? 0)) {
      run.cannotPlace(model, 'an older summary of a project (Allmende keeps the latest)');
      continue;
    }
    if (kept) run.cannotPlace(model, 'an older summary of a project (Allmende keeps the latest)');
    latest.set(project, row);
  }
  const batch = run.batcher(model, s.summaries);
  for (const [projectId, row] of latest) {
    const body = summaryText(row.fields.response_data) ?? run.fail(row, 'response_data is not JSON');
    if (!body) run.fail(row, 'response_data holds no summary');
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    run.ids('summary').add(id);
    await batch.add(row, { id, projectId, moduleId: null, text: body, model: 'adhocracy+', inputHash: text(row.fields.input_text_hash, 64), contributions: 0, createdById: null, created: date(row.fields.created_at) ?? new Date(), published: null });
  }
  await batch.flush();
}

/**
 * Readers' thumbs up or down on a summary: kept for the summary Allmende keeps (the latest of its
 * project); a signed-in reader's once, a browser session's (no user) as given.
 */
export async function importSummaryFeedback({ run }: Ctx) {
  const model = 'a4_candy_summarization.summaryfeedback';
  const batch = run.batcher(model, s.summaryFeedback);
  const given = new Set<string>();
  for await (const row of run.rows(model)) {
    const f = row.fields;
    const summaryId = run.fk(f.summary);
    if (!run.has('summary', summaryId)) {
      run.cannotPlace(model, 'feedback on an older summary of a project (Allmende keeps the latest)');
      continue;
    }
    if (f.feedback !== 'positive' && f.feedback !== 'negative') run.fail(row, `feedback ${JSON.stringify(f.feedback)} is neither "positive" nor "negative"`);
    const userId = f.user === null || f.user === undefined ? null : run.requireUser(row, 'user');
    if (userId !== null && given.has(`${summaryId}:${userId}`)) run.fail(row, 'a second feedback of the same user on the same summary');
    if (userId !== null) given.add(`${summaryId}:${userId}`);
    await batch.add(row, { summaryId, userId, positive: f.feedback === 'positive', created: date(f.created_at) ?? new Date() });
  }
  await batch.flush();
}
