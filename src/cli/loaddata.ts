import { and, eq, sql } from 'drizzle-orm';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Value } from 'typebox/value';
import type { Db, DbOrTx, Tx } from '../db/client.js';
import * as s from '../db/schema/index.js';
import { storeAvatar } from '../core/users/avatars.js';
import { isValidEmail } from '../core/users/rules.js';
import { hashPassword, isValidPasswordHash } from '../core/users/passwords.js';
import { createComment } from '../features/comments/services.js';
import { addRating, RatingExists, setRating } from '../features/ratings/services.js';
import { addCommentFeedback } from '../features/comments/feedback-services.js';
import { addModerator, addParticipant } from '../core/members/services.js';
import { isReservedSlug } from '../core/slugs.js';
import { type Fixture, fixtureSchema } from './fixture-schema.js';
import { moduleFixtureFields, moduleFixtureKinds } from '../features/moduletypes/contract.js';
import { FixtureError, requireRow } from '../features/moduletypes/fixtures.js';
import { contentTypeOfModule } from '../core/modules/registry.js';
import type { ContentKind } from '../db/schema/index.js';
import type { Config } from '../config.js';
import { ImageInvalid } from '../media/images.js';
import { type Media, openMedia } from '../media/store.js';
import { cleanRichText } from '../text/html.js';
import { isSameOriginPath } from '../http/urls.js';
import { createOfflineEvent } from '../features/offlineevents/services.js';
import { saveRemark } from '../features/moderatorremarks/services.js';
import { createCustomField, saveAnswers } from '../features/customfields/services.js';
import { customFieldChoices, customFields } from '../features/customfields/schema.js';
import { mapPresetCategories } from '../features/places/schema.js';
import { compactProjectInsights } from '../core/insights/services.js';
import { checkContentPage, checkFigure, checkPlatformSettings, checkStartPage } from '../core/legal/rules.js';
import { addContentPage, saveFigure, savePlatformSettings, saveStartPage } from '../core/legal/services.js';
import { checkPlace } from '../features/places/rules.js';
import { createPresetCategory, saveDistrict, savePreset } from '../features/places/services.js';

export { FixtureError };

/** A slug that would hide one of the platform's own paths (`create`, `module`, `api`, …) is refused. */
function requireFreeSlug(slug: string | undefined, where: string) {
  if (slug !== undefined && isReservedSlug(slug)) throw new FixtureError(`${where}.slug: "${slug}" is a path of the platform and cannot be a slug; choose another`);
}

interface LoadOptions {
  /** Folder that avatar paths are relative to (the fixture file's folder). */
  baseDir: string;
  /** Where uploaded media go (MEDIA_STORE and DATA_DIR); without it, nothing can be stored. */
  media?: Pick<Config, 'mediaStore' | 'dataDir'>;
  onProgress?: (done: number, total: number) => void;
}

function pathName(instancePath: string): string {
  return instancePath
    .split('/')
    .filter(Boolean)
    .map((part, i) => (/^\d+$/.test(part) ? `[${part}]` : i === 0 ? part : `.${part}`))
    .join('');
}

/** Checks the fixture's shape; the first problem is reported with its record path. */
function validateFixture(data: unknown): Fixture {
  if (typeof data !== 'object' || data === null || Array.isArray(data)) throw new FixtureError('the fixture must be one JSON object');
  for (const error of Value.Errors(fixtureSchema(), data)) {
    if (error.keyword === 'boolean' || error.keyword === 'anyOf' || error.keyword === 'oneOf') continue;
    const params = error.params as Record<string, unknown>;
    const extra = Array.isArray(params.additionalProperties) ? params.additionalProperties : null;
    const missing = Array.isArray(params.requiredProperties) ? params.requiredProperties : null;
    const where = pathName(error.instancePath) || 'fixture';
    if (extra) throw new FixtureError(`${where}: unknown field ${extra.join(', ')}`);
    if (missing) throw new FixtureError(`${where}: missing ${missing.join(', ')}`);
    throw new FixtureError(`${where}: ${error.message}`);
  }
  return data as Fixture;
}

const date = (value: string | null | undefined) => (value ? new Date(value) : value === null ? null : undefined);

type Ctx = { tx: Tx; options: LoadOptions; media: Media };


async function loadUsers({ tx, options, media }: Ctx, records: Fixture['users'] = []) {
  for (const [i, u] of records.entries()) {
    const where = `users[${i}]`;
    if (!isValidEmail(u.email)) throw new FixtureError(`${where}.email: "${u.email}" is not an e-mail address signup would accept`);
    if (u.password_hash && !isValidPasswordHash(u.password_hash)) throw new FixtureError(`${where}.password_hash: not an argon2 or pbkdf2_sha256 hash`);
    let avatar: string | null = null;
    if (u.avatar) {
      try {
        avatar = await storeAvatar(media, readFileSync(resolve(options.baseDir, u.avatar)));
      } catch (error) {
        throw new FixtureError(`${where}.avatar: ${error instanceof ImageInvalid ? error.message : `cannot read ${u.avatar}`}`);
      }
    }
    const clash = await tx
      .select({ id: s.users.id })
      .from(s.users)
      .where(sql`lower(${s.users.username}) = lower(${u.username}) or lower(${s.users.email}) = lower(${u.email}) or ${s.users.id} = ${u.id}`);
    if (clash.length) throw new FixtureError(`${where}: a user with id ${u.id}, username "${u.username}" or e-mail "${u.email}" exists already`);
    await tx.insert(s.users).values({
      id: u.id,
      username: u.username,
      email: u.email,
      password: u.password_hash ?? (u.password ? await hashPassword(u.password) : ''),
      isSuperuser: u.is_superuser ?? false,
      isGuest: u.is_guest ?? false,
      isStaff: u.is_staff ?? false,
      isActive: u.is_active ?? true,
      emailVerified: u.email_verified ?? true,
      language: u.language ?? 'de',
      avatar,
      ...(u.date_joined ? { dateJoined: new Date(u.date_joined) } : {}),
    });
  }
}

async function loadOrganisations({ tx }: Ctx, records: Fixture['organisations'] = []) {
  for (const [i, o] of records.entries()) {
    const where = `organisations[${i}]`;
    requireFreeSlug(o.slug, where);
    await tx.insert(s.organisations).values({ id: o.id, slug: o.slug, name: o.name, title: o.title ?? '', enableGeolocation: o.enable_geolocation ?? false });
    for (const [j, userId] of (o.initiators ?? []).entries()) {
      await requireRow(tx, s.users, userId, `${where}.initiators[${j}]`, 'user');
      await tx.insert(s.organisationInitiators).values({ organisationId: o.id, userId }).onConflictDoNothing();
    }
    for (const [j, userId] of (o.members ?? []).entries()) {
      await requireRow(tx, s.users, userId, `${where}.members[${j}]`, 'user');
      await tx.insert(s.organisationMembers).values({ organisationId: o.id, userId }).onConflictDoNothing();
    }
  }
}

async function loadProjects({ tx }: Ctx, records: Fixture['projects'] = []) {
  for (const [i, p] of records.entries()) {
    const where = `projects[${i}]`;
    requireFreeSlug(p.slug, where);
    await requireRow(tx, s.organisations, p.organisation, `${where}.organisation`, 'organisation');
    if (p.administrative_district) await requireRow(tx, s.administrativeDistricts, p.administrative_district, `${where}.administrative_district`, 'administrative district');
    await tx.insert(s.projects).values({
      id: p.id,
      slug: p.slug,
      name: p.name,
      organisationId: p.organisation,
      description: p.description ?? '',
      information: p.information ?? '',
      result: p.result ?? '',
      access: p.access ?? 'PUBLIC',
      isDraft: p.is_draft ?? false,
      isArchived: p.is_archived ?? false,
      isAppAccessible: p.is_app_accessible ?? false,
      allowGuests: p.allow_guests ?? false,
      pointLat: p.point?.lat ?? null,
      pointLng: p.point?.lng ?? null,
      streetName: p.street_name ?? null,
      houseNumber: p.house_number ?? null,
      zipCode: p.zip_code ?? null,
      contactName: p.contact_name ?? '',
      contactAddressText: p.contact_address_text ?? '',
      contactEmail: p.contact_email ?? '',
      contactPhone: p.contact_phone ?? '',
      contactUrl: p.contact_url ?? '',
      topics: p.topics ?? [],
      administrativeDistrictId: p.administrative_district ?? null,
      ...(p.created ? { created: new Date(p.created) } : {}),
    });
    for (const [j, userId] of (p.moderators ?? []).entries()) {
      await requireRow(tx, s.users, userId, `${where}.moderators[${j}]`, 'user');
      await addModerator(tx, p.id, userId);
    }
    for (const [j, userId] of (p.participants ?? []).entries()) {
      await requireRow(tx, s.users, userId, `${where}.participants[${j}]`, 'user');
      await addParticipant(tx, p.id, userId);
    }
  }
}

/** The operator's districts and area presets (features/places): checked and saved by its rules and services. */
async function loadPlaces({ tx }: Ctx, data: Fixture) {
  const checked = (record: { name: string; short_code?: string; area?: unknown }, where: string, areaRequired: boolean) => {
    const area = record.area === undefined || record.area === null ? '' : JSON.stringify(record.area);
    const result = checkPlace({ name: record.name, shortCode: record.short_code, area }, { areaRequired });
    if (result.errors) throw new FixtureError(`${where}: ${Object.entries(result.errors).map(([field, errors]) => `${field}: ${errors.join(' ')}`).join('; ')}`);
    return result.place;
  };
  for (const [i, d] of (data.administrative_districts ?? []).entries()) await saveDistrict(tx, { create: true, id: d.id }, checked(d, `administrative_districts[${i}]`, false));
  for (const c of data.map_preset_categories ?? []) await createPresetCategory(tx, c.name, c.id);
  for (const [i, p] of (data.map_presets ?? []).entries()) {
    const where = `map_presets[${i}]`;
    if (p.category) await requireRow(tx, mapPresetCategories, p.category, `${where}.category`, 'preset category');
    const place = checked(p, where, true);
    if (place.area) await savePreset(tx, { create: true, id: p.id }, { ...place, area: place.area, categoryId: p.category ?? null });
  }
}

async function loadModules({ tx }: Ctx, records: Fixture['modules'] = []) {
  for (const [i, m] of records.entries()) {
    const where = `modules[${i}]`;
    requireFreeSlug(m.slug, where);
    await requireRow(tx, s.projects, m.project, `${where}.project`, 'project');
    // Fields the module types add (a map module's area) set their columns.
    const typeColumns = Object.assign({}, ...moduleFixtureFields().map((fields) => fields.columns(m, where)));
    await tx.insert(s.modules).values({
      id: m.id,
      slug: m.slug ?? `module-${m.id}`,
      projectId: m.project,
      name: m.name,
      description: m.description ?? null,
      blueprintType: m.blueprint_type ?? 'BS',
      isDraft: m.is_draft ?? false,
      weight: m.weight ?? 0,
      categoryAlias: m.category_alias ?? '',
      categoryAliasHelp: m.category_alias_help ?? '',
      labelAlias: m.label_alias ?? '',
      labelAliasHelp: m.label_alias_help ?? '',
      ...typeColumns,
    });
    for (const [j, ph] of m.phases.entries()) {
      const start = date(ph.start_date) ?? null;
      const end = date(ph.end_date) ?? null;
      if ((start === null) !== (end === null)) throw new FixtureError(`${where}.phases[${j}]: give both start_date and end_date, or neither`);
      if (start && end && end < start) throw new FixtureError(`${where}.phases[${j}].end_date: before start_date`);
      await tx.insert(s.phases).values({
        ...(ph.id ? { id: ph.id } : {}),
        moduleId: m.id,
        type: ph.type,
        name: ph.name ?? '',
        description: ph.description ?? '',
        startDate: start,
        endDate: end,
        weight: ph.weight ?? j,
      });
    }
    for (const c of m.categories ?? []) await tx.insert(s.categories).values({ id: c.id, moduleId: m.id, name: c.name });
    for (const l of m.labels ?? []) await tx.insert(s.labels).values({ id: l.id, moduleId: m.id, name: l.name });
  }
}

/** A comment, rating or report target: a comment, or content of a registered module type that exists. */
async function requireTarget(tx: Tx, target: { type: string; id: number }, where: string): Promise<{ type: ContentKind; id: number }> {
  if (target.type === 'comment') {
    await requireRow(tx, s.comments, target.id, `${where}.target`, 'comment');
    return { type: 'comment', id: target.id };
  }
  const contentType = contentTypeOfModule(target.type as ContentKind);
  if (!contentType) throw new FixtureError(`${where}.target.type: no content type "${target.type}"`);
  if (!(await contentType.target(tx, target.id))) throw new FixtureError(`${where}.target: no ${target.type} ${target.id}`);
  return { type: contentType.kind, id: target.id };
}

async function loadComments({ tx }: Ctx, records: Fixture['comments'] = []) {
  for (const [i, c] of records.entries()) {
    const where = `comments[${i}]`;
    await requireRow(tx, s.users, c.creator, `${where}.creator`, 'user');
    const target = await requireTarget(tx, c.target, where);
    await createComment(tx, {
      id: c.id,
      creatorId: c.creator,
      target,
      comment: c.comment,
      created: date(c.created) ?? undefined,
      modified: date(c.modified) ?? null,
      isBlocked: c.is_blocked,
      isRemoved: c.is_removed,
      isCensored: c.is_censored,
      isModeratorMarked: c.is_moderator_marked,
      isReviewed: c.is_reviewed,
    });
  }
}

async function loadRatingsAndReports({ tx }: Ctx, data: Fixture) {
  for (const [i, r] of (data.ratings ?? []).entries()) {
    const where = `ratings[${i}]`;
    await requireRow(tx, s.users, r.creator, `${where}.creator`, 'user');
    const target = await requireTarget(tx, r.target, where);
    try {
      await addRating(tx, r.creator, target, r.value);
    } catch (error) {
      if (!(error instanceof RatingExists)) throw error;
      await setRating(tx, error.ratingId, r.value);
    }
  }
  for (const [i, r] of (data.reports ?? []).entries()) {
    const where = `reports[${i}]`;
    await requireRow(tx, s.users, r.creator, `${where}.creator`, 'user');
    const target = await requireTarget(tx, r.target, where);
    await tx.insert(s.reports).values({
      creatorId: r.creator,
      contentType: target.type,
      objectPk: target.id,
      description: r.description ?? '',
      ...(r.created ? { created: new Date(r.created) } : {}),
    });
  }
}

async function loadFeedbackAndFollows({ tx }: Ctx, data: Fixture) {
  for (const [i, f] of (data.comment_feedback ?? []).entries()) {
    const where = `comment_feedback[${i}]`;
    await requireRow(tx, s.comments, f.comment, `${where}.comment`, 'comment');
    await requireRow(tx, s.users, f.creator, `${where}.creator`, 'user');
    const [existing] = await tx.select({ id: s.commentFeedback.id }).from(s.commentFeedback).where(eq(s.commentFeedback.commentId, f.comment));
    if (existing) throw new FixtureError(`${where}.comment: comment ${f.comment} has feedback already`);
    await addCommentFeedback(tx, {
      id: f.id,
      commentId: f.comment,
      creatorId: f.creator,
      feedbackText: f.feedback_text,
      created: date(f.created) ?? undefined,
      modified: date(f.modified) ?? null,
    });
  }
  for (const [i, f] of (data.follows ?? []).entries()) {
    const where = `follows[${i}]`;
    await requireRow(tx, s.users, f.creator, `${where}.creator`, 'user');
    await requireRow(tx, s.projects, f.project, `${where}.project`, 'project');
    const enabled = f.enabled ?? true;
    await tx
      .insert(s.follows)
      .values({ creatorId: f.creator, projectId: f.project, enabled })
      .onConflictDoUpdate({ target: [s.follows.projectId, s.follows.creatorId], set: { enabled } });
  }
}

/** In-app notifications as they stand (read or not); a target that is no path on this site is dropped. */
async function loadNotifications({ tx }: Ctx, records: Fixture['notifications'] = []) {
  for (const [i, n] of records.entries()) {
    const where = `notifications[${i}]`;
    await requireRow(tx, s.users, n.recipient, `${where}.recipient`, 'user');
    if (n.project) await requireRow(tx, s.projects, n.project, `${where}.project`, 'project');
    const read = n.read ?? false;
    await tx.insert(s.notifications).values({
      ...(n.id ? { id: n.id } : {}),
      recipientId: n.recipient,
      kind: n.kind,
      message: n.message,
      context: n.context ?? {},
      targetUrl: isSameOriginPath(n.target_url) ? n.target_url : '',
      projectId: n.project ?? null,
      read,
      readAt: read ? (date(n.read_at) ?? date(n.created) ?? new Date()) : null,
      ...(n.created ? { created: new Date(n.created) } : {}),
    });
  }
}

/** Offline events and moderator remarks (a+ `offlineevents`, `moderatorremark`), through their services. */
async function loadEventsAndRemarks({ tx }: Ctx, data: Fixture) {
  for (const [i, e] of (data.offline_events ?? []).entries()) {
    const where = `offline_events[${i}]`;
    await requireRow(tx, s.projects, e.project, `${where}.project`, 'project');
    if (e.creator) await requireRow(tx, s.users, e.creator, `${where}.creator`, 'user');
    await createOfflineEvent(tx, { id: e.id, projectId: e.project, creatorId: e.creator ?? null, slug: e.slug, name: e.name, eventType: e.event_type, date: new Date(e.date), description: e.description, created: date(e.created) ?? undefined });
  }
  for (const [i, r] of (data.moderator_remarks ?? []).entries()) {
    const where = `moderator_remarks[${i}]`;
    const target = await requireTarget(tx, r.target, where);
    if (!contentTypeOfModule(target.type)?.remarkable) throw new FixtureError(`${where}.target.type: a ${target.type} takes no moderator remark`);
    if (r.creator) await requireRow(tx, s.users, r.creator, `${where}.creator`, 'user');
    await saveRemark(tx, { kind: target.type, pk: target.id, remark: r.remark, actorId: r.creator ?? null, created: date(r.created) ?? undefined });
  }
}

/** A module's own questions and the items' answers (features/customfields), through its services. */
async function loadCustomFields({ tx }: Ctx, data: Fixture) {
  for (const [i, f] of (data.custom_fields ?? []).entries()) {
    await requireRow(tx, s.modules, f.module, `custom_fields[${i}].module`, 'module');
    await createCustomField(tx, { id: f.id, moduleId: f.module, label: f.label, helpText: f.help_text, kind: f.kind, required: f.required, weight: f.weight, choices: f.choices });
  }
  for (const [i, a] of (data.custom_field_answers ?? []).entries()) {
    const where = `custom_field_answers[${i}]`;
    const [field] = await tx.select().from(customFields).where(eq(customFields.id, a.field));
    if (!field) throw new FixtureError(`${where}.field: no custom field ${a.field}`);
    const target = await requireTarget(tx, a.target, where);
    const item = target.type === 'comment' ? null : await contentTypeOfModule(target.type)?.target(tx, target.id);
    if (item?.moduleId !== field.moduleId) throw new FixtureError(`${where}.target: not an item of the field's module ${field.moduleId}`);
    if (a.choice !== undefined) {
      const [choice] = await tx.select().from(customFieldChoices).where(and(eq(customFieldChoices.id, a.choice), eq(customFieldChoices.fieldId, field.id)));
      if (!choice) throw new FixtureError(`${where}.choice: no choice ${a.choice} of custom field ${field.id}`);
    }
    await saveAnswers(tx, target.id, [{ fieldId: field.id, value: a.choice === undefined ? (a.value ?? '') : '', choiceId: a.choice ?? null }]);
  }
}

async function loadPlatformPages({ tx }: Ctx, records: Fixture['platform_pages'] = []) {
  for (const page of records) {
    const body = cleanRichText(page.body);
    await tx
      .insert(s.platformPages)
      .values({ key: page.key, language: page.language, body })
      .onConflictDoUpdate({ target: [s.platformPages.key, s.platformPages.language], set: { body } });
  }
}

/** The platform's content pages, checked by the back-office's rule (slug free, a title, texts within their limits) and stored by its service. */
async function loadContentPages({ tx }: Ctx, records: Fixture['content_pages'] = []) {
  const taken = new Set((await tx.select({ slug: s.contentPages.slug }).from(s.contentPages)).map((row) => row.slug));
  for (const [i, page] of records.entries()) {
    const input = { slug: page.slug, title: { en: page.title_en ?? '', de: page.title_de ?? '' }, body: { en: page.body_en ?? '', de: page.body_de ?? '' }, placement: page.placement ?? 'footer', weight: String(page.weight ?? 0) };
    const { values, errors } = checkContentPage(input, (slug) => taken.has(slug));
    if (!values) {
      const [field, messages] = Object.entries(errors)[0] ?? ['slug', ['not a valid content page']];
      throw new FixtureError(`content_pages[${i}].${field}: ${messages[0]}`);
    }
    taken.add(values.slug);
    await addContentPage(tx, values, page.id);
  }
}

/** The platform's footer settings, checked by the back-office's rule and stored by its service. */
async function loadPlatformSettings({ tx }: Ctx, records: Fixture['platform_settings'] = []) {
  for (const [i, r] of records.entries()) {
    const input = { name: r.name ?? '', address: r.address ?? '', contacts: r.contacts ?? '', facebook: r.facebook ?? '', twitter: r.twitter ?? '', github: r.github ?? '', shareDescription: { en: r.share_description_en ?? '', de: r.share_description_de ?? '' } };
    const [field, messages] = Object.entries(checkPlatformSettings(input))[0] ?? [];
    if (field) throw new FixtureError(`platform_settings[${i}].${field}: ${messages[0]}`);
    await savePlatformSettings(tx, input);
  }
}

/** The start page's heading and introduction, checked by the back-office's rule and stored by its service (an image stays, with its description). */
async function loadStartPage({ tx }: Ctx, records: Fixture['start_page'] = []) {
  const [stored] = await tx.select({ image: s.startPage.image, en: s.startPage.imageAltEn, de: s.startPage.imageAltDe }).from(s.startPage);
  for (const [i, r] of records.entries()) {
    const texts = { heading: { en: r.heading_en ?? '', de: r.heading_de ?? '' }, intro: { en: r.intro_en ?? '', de: r.intro_de ?? '' }, imageAlt: { en: stored?.en ?? '', de: stored?.de ?? '' } };
    const [field, messages] = Object.entries(checkStartPage(texts, Boolean(stored?.image)))[0] ?? [];
    if (field) throw new FixtureError(`start_page[${i}].${field}: ${messages[0]}`);
    await saveStartPage(tx, texts);
  }
}

/** The start page's figures, checked by the back-office's rule and stored by its service. */
async function loadFigures({ tx }: Ctx, records: Fixture['start_page_figures'] = []) {
  for (const [i, r] of records.entries()) {
    const per = (name: 'figure' | 'caption' | 'quote' | 'person_description') => ({ en: r[`${name}_en`] ?? '', de: r[`${name}_de`] ?? '' });
    const input = { kind: r.kind, weight: String(r.weight ?? 0), figure: per('figure'), caption: per('caption'), quote: per('quote'), personName: r.person_name ?? '', personDescription: per('person_description'), imageAlt: { en: '', de: '' } };
    const { values, errors } = checkFigure(input, false);
    const [field, messages] = Object.entries(errors)[0] ?? ['kind', ['not a valid figure']];
    if (!values) throw new FixtureError(`start_page_figures[${i}].${field}: ${messages[0]}`);
    await saveFigure(tx, null, values);
  }
}

const SERIAL_TABLES = ['users', 'organisations', 'projects', 'modules', 'phases', 'categories', 'labels', 'comments', 'ratings', 'reports', 'comment_feedback', 'follows', 'actions', 'notifications', 'offline_events', 'moderator_remarks', 'custom_fields', 'custom_field_choices', 'content_pages', 'start_page_figures', 'administrative_districts', 'map_preset_categories', 'map_presets'];

/** Moves every id sequence past the largest id, so that ids given in fixtures are never handed out again. */
export async function syncSequences(db: DbOrTx): Promise<void> {
  for (const table of [...SERIAL_TABLES, ...moduleFixtureKinds().flatMap((kind) => kind.tables)]) {
    await db.execute(
      sql.raw(
        `SELECT setval(pg_get_serial_sequence('${table}', 'id'), COALESCE((SELECT max(id) FROM "${table}"), 0) + 1, false)`,
      ),
    );
  }
}

/** Maps a database error on a record to a fixture error (duplicates, values out of range). */
function explain(error: unknown, stage: string): Error {
  if (error instanceof FixtureError) return error;
  const pgError = error as { code?: string; detail?: string; message?: string; cause?: { code?: string; detail?: string; message?: string } };
  const cause = pgError.cause ?? pgError;
  if (cause.code === '23505') return new FixtureError(`${stage}: duplicate record (${cause.detail ?? cause.message})`);
  if (cause.code?.startsWith('23') || cause.code?.startsWith('22')) return new FixtureError(`${stage}: ${cause.detail ?? cause.message}`);
  return error instanceof Error ? error : new Error(String(error));
}

/** Loads a fixture all-or-nothing: on any invalid record nothing is stored. Returns counts per kind. */
export async function loadFixture(db: Db, data: unknown, options: LoadOptions): Promise<Record<string, number>> {
  const fixture = validateFixture(data);
  const typeStages = moduleFixtureKinds().map((kind): [string[], (ctx: Ctx) => Promise<void>] => [
    [kind.name],
    ({ tx, media }) => kind.load({ tx, baseDir: options.baseDir, media }, (fixture[kind.name] ?? []) as never[]),
  ]);
  const stages: [string[], (ctx: Ctx) => Promise<void>][] = [
    [['users'], (c) => loadUsers(c, fixture.users)],
    [['administrative_districts', 'map_preset_categories', 'map_presets'], (c) => loadPlaces(c, fixture)],
    [['organisations'], (c) => loadOrganisations(c, fixture.organisations)],
    [['projects'], (c) => loadProjects(c, fixture.projects)],
    [['modules'], (c) => loadModules(c, fixture.modules)],
    ...typeStages,
    [['comments'], (c) => loadComments(c, fixture.comments)],
    [['ratings', 'reports'], (c) => loadRatingsAndReports(c, fixture)],
    [['comment_feedback', 'follows'], (c) => loadFeedbackAndFollows(c, fixture)],
    [['notifications'], (c) => loadNotifications(c, fixture.notifications)],
    [['offline_events', 'moderator_remarks'], (c) => loadEventsAndRemarks(c, fixture)],
    [['custom_fields', 'custom_field_answers'], (c) => loadCustomFields(c, fixture)],
    [['platform_pages'], (c) => loadPlatformPages(c, fixture.platform_pages)],
    [['content_pages'], (c) => loadContentPages(c, fixture.content_pages)],
    [['platform_settings'], (c) => loadPlatformSettings(c, fixture.platform_settings)],
    [['start_page', 'start_page_figures'], async (c) => {
      await loadStartPage(c, fixture.start_page);
      await loadFigures(c, fixture.start_page_figures);
    }],
  ];
  const kinds = stages.flatMap(([names]) => names);
  const total = kinds.reduce((n, kind) => n + (fixture[kind]?.length ?? 0), 0);
  let done = 0;
  await db.transaction(async (tx) => {
    // Inside the transaction: in the database store a fixture's files come and go with its rows.
    const media = openMedia(options.media?.mediaStore ?? 'directory', { dataDir: options.media?.dataDir ?? '', db: tx });
    for (const [names, load] of stages) {
      try {
        await load({ tx, options, media });
      } catch (error) {
        throw explain(error, names.join(', '));
      }
      done += names.reduce((n, kind) => n + (fixture[kind]?.length ?? 0), 0);
      options.onProgress?.(done, total);
    }
    await syncSequences(tx);
    await compactProjectInsights(tx);
  });
  return Object.fromEntries(kinds.map((kind) => [kind, fixture[kind]?.length ?? 0]));
}

export function readFixtureFile(file: string): { data: unknown; baseDir: string } {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch {
    throw new FixtureError(`cannot read ${file}`);
  }
  try {
    return { data: JSON.parse(text), baseDir: dirname(resolve(file)) };
  } catch (error) {
    throw new FixtureError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}
