import * as floor from '../../db/schema/index.js';
import * as budgetingTables from '../../features/budgeting/schema.js';
import * as debateTables from '../../features/debate/schema.js';
import * as documentTables from '../../features/documents/schema.js';
import * as ideaTables from '../../features/ideas/schema.js';
import * as interactiveEventTables from '../../features/interactiveevents/schema.js';
import * as mapIdeaTables from '../../features/mapideas/schema.js';
import * as placeTables from '../../features/places/schema.js';
import * as pollTables from '../../features/polls/schema.js';
import * as topicprioTables from '../../features/topicprio/schema.js';
import { ACTION_VERBS, type ActionVerb, CONTENT_KINDS, type ContentKind, type NewsletterTargetGroup } from '../../db/schema/index.js';
import { isLang } from '../../i18n/index.js';
import { isReservedSlug } from '../../core/slugs.js';
import { parseArea } from '../../features/places/rules.js';
import type { DumpRow } from './dump.js';
import { importInAppSettings, kindsTurnedOff } from './features.js';
import type { MediaImport } from './media.js';
import { bool, CONTENT_KIND_OF, copiedFromDump, date, type ImportRun, text } from './run.js';

/**
 * The floor's tables and the module types' own (each in its folder's schema.ts). GAP (issue 33):
 * the a+ import maps every a+ model onto its table here; each module type should declare its part
 * of the import (a contract hook), as loaddata's fixture kinds do.
 */
const s = { ...floor, ...ideaTables, ...mapIdeaTables, ...placeTables, ...budgetingTables, ...pollTables, ...documentTables, ...debateTables, ...topicprioTables, ...interactiveEventTables };

type Ctx = { run: ImportRun; media: MediaImport };

/** The slug a+ gave an item (its old address), as the old-address look-up finds it. */
const legacySlug = (value: unknown) => (typeof value === 'string' && value ? value.toLowerCase() : null);
const lang = (value: unknown) => (isLang(value) ? value : 'de');

/**
 * A Django password hash as Allmende checks it: pbkdf2_sha256 as it is (any iteration count,
 * upgraded to argon2id at the first login), Django's argon2 (`argon2$argon2id$…`) as the PHC
 * string it wraps; anything else (an unusable password `!…`, old md5/sha1/bcrypt hashes) cannot be
 * checked: the account signs in by "forgot password" or its social account.
 */
export function djangoHash(encoded: unknown): { password: string; usable: boolean } {
  const value = typeof encoded === 'string' ? encoded : '';
  if (/^pbkdf2_sha256\$\d+\$[^$]+\$[A-Za-z0-9+/=]+$/.test(value)) return { password: value, usable: true };
  if (/^argon2\$argon2(id|i|d)\$/.test(value)) return { password: value.slice('argon2'.length), usable: true };
  return { password: '', usable: false };
}

/** `SRID=4326;POINT (lng lat)` (a4's PointField in a dump) or a GeoJSON point, as lat/lng. */
function projectPoint(value: unknown): { lat: number; lng: number } | null {
  if (typeof value !== 'string' || !value) return null;
  const wkt = /POINT\s*\(\s*(-?[\d.eE+-]+)\s+(-?[\d.eE+-]+)\s*\)/i.exec(value);
  if (wkt) return { lng: Number(wkt[1]), lat: Number(wkt[2]) };
  try {
    const geo = JSON.parse(value) as { geometry?: { coordinates?: number[] }; coordinates?: number[] };
    const c = geo.geometry?.coordinates ?? geo.coordinates;
    return c && c.length >= 2 ? { lng: Number(c[0]), lat: Number(c[1]) } : null;
  } catch {
    return null;
  }
}

const json = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return null;
  }
};

export async function importUsers({ run, media }: Ctx) {
  const verified = new Map<string, boolean>();
  for await (const row of run.rows('account.emailaddress')) {
    if (!bool(row.fields.primary) && verified.has(JSON.stringify(row.fields.user))) continue;
    verified.set(JSON.stringify(row.fields.user), bool(row.fields.verified));
  }
  // a+'s guests (django-guest-user): their users are marked as Allmende's guests (issue 34.4).
  const guests = new Set<string>();
  for await (const row of run.rows('guest_user.guest')) {
    guests.add(JSON.stringify(row.fields.user));
    run.imported(row.model);
  }
  const model = 'a4_candy_users.user';
  const batch = run.batcher(model, s.users);
  let unusable = 0;
  for await (const row of run.rows(model)) {
    const f = row.fields;
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    const hash = djangoHash(f.password);
    if (!hash.usable) unusable++;
    const username = text(f.username);
    if (!isLang(f.language)) run.lost(model, `language ${text(f.language)} (set to de)`, f.language);
    await batch.add(row, {
      id,
      username,
      email: text(f.email),
      password: hash.password,
      isSuperuser: bool(f.is_superuser),
      isStaff: bool(f.is_staff),
      isGuest: guests.has(JSON.stringify([username])) || guests.has(JSON.stringify(id)),
      isActive: f.is_active !== false,
      emailVerified: verified.get(JSON.stringify([username])) ?? verified.get(JSON.stringify(id)) ?? false,
      language: lang(f.language),
      avatar: await media.file(f._avatar ?? f.avatar, row, 'avatar'),
      bio: text(f.bio),
      homepage: text(f.homepage, 200),
      twitterHandle: text(f.twitter_handle, 100),
      facebookHandle: text(f.facebook_handle, 100),
      getNewsletters: bool(f.get_newsletters),
      dateJoined: date(f.date_joined) ?? new Date(),
      lastLogin: date(f.last_login),
    });
    run.usernames.set(username, id);
    run.ids('user').add(id);
  }
  await batch.flush();
  if (unusable) run.warnings.push(`${unusable} users have no password hash Allmende can check (unusable or of an old kind): they sign in with "forgot password" or their social account`);

  for await (const row of run.rows('a4_candy_notifications.notificationsettings')) {
    const userId = run.requireUser(row, 'user');
    const kinds = kindsTurnedOff(row, 'email');
    // One a+ row becomes several opt-outs, by e-mail and in the app (or none); it counts as imported once.
    await run.insert(row.model, s.notificationOptouts, kinds.map((kind) => ({ row, values: { userId, kind } })), false);
    await importInAppSettings(run, row, userId);
    run.imported(row.model);
  }

  const social = run.batcher('socialaccount.socialaccount', s.socialAccounts);
  for await (const row of run.rows('socialaccount.socialaccount')) {
    // extra_data is the provider's copy of its profile (name, picture), which allauth refreshes at every sign-in: nothing of the user's own is in it.
    await social.add(row, { userId: run.requireUser(row, 'user'), provider: text(row.fields.provider), subject: text(row.fields.uid), created: date(row.fields.date_joined) ?? new Date() });
  }
  await social.flush();

  const tokens = run.batcher('authtoken.token', s.apiTokens);
  for await (const row of run.rows('authtoken.token')) {
    await tokens.add(row, { key: row.pk, userId: run.requireUser(row, 'user'), created: date(row.fields.created) ?? new Date() });
  }
  await tokens.flush();
}

function freeSlug(run: ImportRun, row: DumpRow) {
  const slug = text(row.fields.slug);
  if (isReservedSlug(slug)) run.fail(row, `slug "${slug}" is a path of Allmende and cannot be a slug; rename it in a+ before the dump`);
  return slug;
}

export async function importOrganisations({ run, media }: Ctx) {
  const model = 'a4_candy_organisations.organisation';
  const initiators: { row: DumpRow; values: Record<string, unknown> }[] = [];
  for await (const row of run.rows(model)) {
    const f = row.fields;
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    // Newer a+: its AI summaries per organisation; Allmende's are on for every project once the operator names a model.
    run.lost(model, 'enable_ai_summarisation (summaries are on for every organisation once the operator configures them)', f.enable_ai_summarisation);
    await run.insert(model, s.organisations, [
      {
        row,
        values: {
          id,
          slug: freeSlug(run, row),
          name: text(f.name),
          title: text(f.title),
          logo: await media.file(f.logo, row),
          image: await media.file(f.image, row),
          imageCopyright: text(f.image_copyright),
          url: text(f.url),
          twitterHandle: text(f.twitter_handle),
          facebookHandle: text(f.facebook_handle),
          instagramHandle: text(f.instagram_handle),
          imprint: text(f.imprint),
          termsOfUse: text(f.terms_of_use),
          dataProtection: text(f.data_protection),
          netiquette: text(f.netiquette),
          enableGeolocation: bool(f.enable_geolocation),
          isSupporting: bool(f.is_supporting),
          language: lang(f.language),
        },
      },
    ]);
    run.ids('organisation').add(id);
    for (const user of (f.initiators as unknown[] | undefined) ?? []) {
      const userId = run.user(user);
      if (userId === null || userId === undefined) run.fail(row, `initiator ${JSON.stringify(user)} is not a user of the dump`);
      initiators.push({ row, values: { organisationId: id, userId } });
    }
  }
  await run.insert(model, s.organisationInitiators, initiators, false);

  const translations = run.batcher('a4_candy_organisations.organisationtranslation', s.organisationTranslations);
  for await (const row of run.rows('a4_candy_organisations.organisationtranslation')) {
    const f = row.fields;
    await translations.add(row, { organisationId: run.require(row, 'master', 'organisation'), language: text(f.language_code), description: text(f.description), slogan: text(f.slogan), information: text(f.information) });
  }
  await translations.flush();

  const members = run.batcher('a4_candy_organisations.member', s.organisationMembers);
  for await (const row of run.rows('a4_candy_organisations.member')) {
    await members.add(row, {
      organisationId: run.require(row, 'organisation', 'organisation'),
      userId: run.requireUser(row, 'member'),
      memberNumber: text(row.fields.member_number),
      additionalInfo: additionalInfo(json(row.fields.additional_info)),
    });
  }
  await members.flush();

  const terms = run.batcher('a4_candy_organisations.organisationtermsofuse', s.organisationTermsAgreements);
  for await (const row of run.rows('a4_candy_organisations.organisationtermsofuse')) {
    if (!bool(row.fields.has_agreed)) {
      run.cannotPlace(row.model, 'has_agreed is false: Allmende records agreements only');
      continue;
    }
    await terms.add(row, { organisationId: run.require(row, 'organisation', 'organisation'), userId: run.requireUser(row, 'user') });
  }
  await terms.flush();
}

/** a+'s Member.additional_info (any JSON) as label → text; a value that is no object is kept under "info". */
function additionalInfo(value: unknown): Record<string, string> {
  if (value === null || value === undefined || value === '') return {};
  if (typeof value !== 'object' || Array.isArray(value)) return { info: typeof value === 'string' ? value : JSON.stringify(value) };
  return Object.fromEntries(Object.entries(value).map(([key, v]) => [key, typeof v === 'string' ? v : JSON.stringify(v)]));
}

const ACCESS: Record<string, 'PUBLIC' | 'SEMIPUBLIC' | 'PRIVATE'> = { 1: 'PUBLIC', 2: 'SEMIPUBLIC', 3: 'PRIVATE', PUBLIC: 'PUBLIC', SEMIPUBLIC: 'SEMIPUBLIC', PRIVATE: 'PRIVATE' };

/**
 * The operator's places: a4's administrative districts (name, short code; a4 keeps no area) and
 * a+'s map presets with their categories (a preset whose polygon is no valid area cannot be placed).
 */
export async function importPlaces({ run }: Ctx) {
  const districts: { row: DumpRow; values: Record<string, unknown> }[] = [];
  for await (const row of run.rows('a4administrative_districts.administrativedistrict')) {
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    districts.push({ row, values: { id, name: text(row.fields.name, 128), shortCode: text(row.fields.short_code, 2) } });
    run.ids('district').add(id);
  }
  await run.insert('a4administrative_districts.administrativedistrict', s.administrativeDistricts, districts);
  const categories: { row: DumpRow; values: Record<string, unknown> }[] = [];
  for await (const row of run.rows('a4_candy_maps.mappresetcategory')) {
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    categories.push({ row, values: { id, name: text(row.fields.name, 128) } });
    run.ids('presetcategory').add(id);
  }
  await run.insert('a4_candy_maps.mappresetcategory', s.mapPresetCategories, categories);
  const model = 'a4_candy_maps.mappreset';
  const presets: { row: DumpRow; values: Record<string, unknown> }[] = [];
  for await (const row of run.rows(model)) {
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    const area = parseArea(json(row.fields.polygon));
    if ('error' in area) {
      run.cannotPlace(model, 'its polygon is not a valid area');
      continue;
    }
    const category = run.fk(row.fields.category);
    if (category !== null && !run.has('presetcategory', category)) run.fail(row, `category ${JSON.stringify(row.fields.category)} is not a map preset category of the dump`);
    presets.push({ row, values: { id, name: text(row.fields.name, 128), categoryId: category, area: area.area } });
  }
  await run.insert(model, s.mapPresets, presets);
}

export async function importProjects({ run, media }: Ctx) {
  const showInsights = new Map<number, boolean>();
  for await (const row of run.rows('a4_candy_projects.projectinsight')) {
    const project = run.fk(row.fields.project);
    if (project !== null) showInsights.set(project, bool(row.fields.display));
  }
  const topicCodes = new Map<string, string>();
  for await (const row of run.rows('a4projects.topic')) topicCodes.set(row.pk, text(row.fields.code));
  const model = 'a4projects.project';
  const roles: { moderators: { row: DumpRow; values: Record<string, unknown> }[]; participants: { row: DumpRow; values: Record<string, unknown> }[] } = { moderators: [], participants: [] };
  const batch = run.batcher(model, s.projects, 100);
  for await (const row of run.rows(model)) {
    const f = row.fields;
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    const access = ACCESS[String(f.access)];
    if (!access) run.fail(row, `access ${JSON.stringify(f.access)} is none of 1 (public), 2 (semi-public), 3 (private)`);
    const point = projectPoint(f.point);
    const district = run.fk(f.administrative_district);
    if (district !== null && !run.has('district', district)) run.fail(row, `administrative_district ${JSON.stringify(f.administrative_district)} is not a district of the dump`);
    await batch.add(row, {
      id,
      slug: freeSlug(run, row),
      name: text(f.name),
      organisationId: run.require(row, 'organisation', 'organisation'),
      description: text(f.description),
      information: text(f.information),
      result: text(f.result),
      access,
      isDraft: bool(f.is_draft),
      isArchived: bool(f.is_archived),
      isAppAccessible: bool(f.is_app_accessible),
      image: await media.file(f.image, row),
      imageCopyright: text(f.image_copyright),
      imageAltText: text(f.image_alt_text),
      tileImage: await media.file(f.tile_image, row),
      tileImageCopyright: text(f.tile_image_copyright),
      tileImageAltText: text(f.tile_image_alt_text),
      showInsights: showInsights.get(id) ?? false,
      pointLat: point?.lat ?? null,
      pointLng: point?.lng ?? null,
      streetName: f.street_name ?? null,
      houseNumber: f.house_number ?? null,
      zipCode: f.zip_code ?? null,
      contactName: text(f.contact_name),
      contactAddressText: text(f.contact_address_text),
      contactEmail: text(f.contact_email),
      contactPhone: text(f.contact_phone),
      contactUrl: text(f.contact_url),
      administrativeDistrictId: district,
      topics: ((f.topics as unknown[] | undefined) ?? []).map((topic) => (Array.isArray(topic) ? String(topic[0]) : (topicCodes.get(String(topic)) ?? String(topic)))),
      created: date(f.created) ?? new Date(),
      modified: date(f.modified),
    });
    run.ids('project').add(id);
    for (const role of ['moderators', 'participants'] as const) {
      for (const user of (f[role] as unknown[] | undefined) ?? []) {
        const userId = run.user(user);
        if (userId === null || userId === undefined) run.fail(row, `${role.slice(0, -1)} ${JSON.stringify(user)} is not a user of the dump`);
        roles[role].push({ row, values: { projectId: id, userId } });
      }
    }
  }
  await batch.flush();
  await run.insert(model, s.projectModerators, roles.moderators, false);
  await run.insert(model, s.projectParticipants, roles.participants, false);

  const areas = new Map<number, unknown>();
  for await (const row of run.rows('a4maps.areasettings')) {
    const module = run.fk(row.fields.module);
    const polygon = json(row.fields.polygon);
    if (module === null || polygon === null || polygon === '') continue;
    const area = parseArea(polygon);
    if ('error' in area) run.fail(row, `polygon: ${area.error}`);
    else areas.set(module, area.area);
  }
  const modules = run.batcher('a4modules.module', s.modules, 200);
  for await (const row of run.rows('a4modules.module')) {
    const f = row.fields;
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    await modules.add(row, {
      id,
      slug: freeSlug(run, row),
      projectId: run.require(row, 'project', 'project'),
      name: text(f.name),
      description: f.description === null || f.description === undefined ? null : text(f.description),
      weight: Number(f.weight ?? 0),
      blueprintType: text(f.blueprint_type) || 'BS',
      isDraft: bool(f.is_draft),
      area: areas.get(id) ?? null,
    });
    run.ids('module').add(id);
  }
  await modules.flush();

  const phases = run.batcher('a4phases.phase', s.phases);
  for await (const row of run.rows('a4phases.phase')) {
    const f = row.fields;
    const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
    const start = date(f.start_date);
    const end = date(f.end_date);
    if ((start === null) !== (end === null)) run.fail(row, 'has a start date or an end date, not both (Allmende needs both or neither)');
    if (start && end && end < start) run.fail(row, 'ends before it starts');
    await phases.add(row, { id, moduleId: run.require(row, 'module', 'module'), type: text(f.type), name: text(f.name), description: text(f.description), startDate: start, endDate: end, weight: Number(f.weight ?? 0) });
    run.ids('phase').add(id);
  }
  await phases.flush();

  for (const [model, kind, table] of [
    ['a4categories.category', 'category', s.categories],
    ['a4labels.label', 'label', s.labels],
  ] as const) {
    const batch = run.batcher(model, table);
    for await (const row of run.rows(model)) {
      const id = run.fk(row.pk) ?? run.fail(row, 'pk is not a number');
      await batch.add(row, { id, moduleId: run.require(row, 'module', 'module'), name: text(row.fields.name), ...(kind === 'category' ? { icon: text(row.fields.icon) } : {}) });
      run.ids(kind).add(id);
    }
    await batch.flush();
  }
}

type Item = { moduleId: number; creatorId: number; created: Date; modified: Date | null };

/** a4modules.Item: the base every item shares (module, creator, dates); its pk is the item's pk and reference number. */
async function loadItems(run: ImportRun): Promise<Map<string, Item>> {
  const items = new Map<string, Item>();
  for await (const row of run.rows('a4modules.item')) {
    items.set(row.pk, {
      moduleId: run.require(row, 'module', 'module'),
      creatorId: run.requireUser(row, 'creator'),
      created: date(row.fields.created) ?? new Date(),
      modified: date(row.fields.modified),
    });
  }
  return items;
}

export async function importItems({ run, media }: Ctx) {
  const items = await loadItems(run);
  const item = (row: DumpRow) => items.get(row.pk) ?? run.fail(row, 'has no a4modules.item row of the same pk (module, creator, dates)');
  const feedback = new Map<string, { moderatorFeedbackText: string; moderatorFeedbackCreatorId: number | null; moderatorFeedbackDate: Date | null }>();
  for await (const row of run.rows('a4_candy_moderatorfeedback.moderatorfeedback')) {
    const f = row.fields;
    feedback.set(row.pk, { moderatorFeedbackText: text(f.feedback_text), moderatorFeedbackCreatorId: run.user(f.creator) ?? null, moderatorFeedbackDate: date(f.modified) ?? date(f.created) });
  }
  const category = (row: DumpRow) => {
    const id = run.fk(row.fields.category);
    if (id !== null && !run.has('category', id)) run.fail(row, `category ${id} is not a category of the dump`);
    return id;
  };

  const ideaKinds = [
    { model: 'a4_candy_ideas.idea', kind: 'idea', table: s.ideas, labels: s.ideaLabels, labelColumn: 'ideaId' },
    { model: 'a4_candy_mapideas.mapidea', kind: 'mapidea', table: s.mapIdeas, labels: s.mapIdeaLabels, labelColumn: 'ideaId' },
    { model: 'a4_candy_budgeting.proposal', kind: 'proposal', table: s.proposals, labels: s.proposalLabels, labelColumn: 'ideaId' },
  ] as const;
  for (const k of ideaKinds) {
    const batch = run.batcher(k.model, k.table, 200);
    const labels: { row: DumpRow; values: Record<string, unknown> }[] = [];
    for await (const row of run.rows(k.model)) {
      const f = row.fields;
      const base = item(row);
      const id = Number(row.pk);
      const place = k.kind === 'idea' ? {} : { point: json(f.point) ?? run.fail(row, 'point is not GeoJSON'), pointLabel: text(f.point_label) };
      const budget = k.kind === 'proposal' ? { budget: Number(f.budget ?? 0), isArchived: bool(f.is_archived) } : {};
      const feedbackId = f.moderator_feedback_text === null || f.moderator_feedback_text === undefined ? null : String(run.fk(f.moderator_feedback_text));
      await batch.add(row, {
        id,
        ...base,
        name: text(f.name),
        description: text(f.description),
        image: await media.file(f.image, row),
        categoryId: category(row),
        moderatorStatus: f.moderator_status ? text(f.moderator_status) : null,
        ...(feedbackId === null ? {} : feedback.get(feedbackId)),
        creatorEmail: text(f.creator_email, 254),
        creatorPhone: text(f.creator_phone, 64),
        creatorContactConsent: bool(f.creator_contact_consent),
        legacySlug: legacySlug(f.slug),
        ...place,
        ...budget,
      });
      run.ids(k.kind).add(id);
      for (const label of (f.labels as unknown[] | undefined) ?? []) {
        const labelId = run.fk(label);
        if (!run.has('label', labelId)) run.fail(row, `label ${JSON.stringify(label)} is not a label of the dump`);
        labels.push({ row, values: { ideaId: id, labelId } });
      }
    }
    await batch.flush();
    await run.insert(k.model, k.labels, labels, false);
  }

  const polls = run.batcher('a4polls.poll', s.polls);
  for await (const row of run.rows('a4polls.poll')) {
    await polls.add(row, { id: Number(row.pk), ...item(row), allowUnregisteredUsers: bool(row.fields.allow_unregistered_users) });
    run.ids('poll').add(Number(row.pk));
  }
  await polls.flush();
  const questions = run.batcher('a4polls.question', s.pollQuestions);
  for await (const row of run.rows('a4polls.question')) {
    const f = row.fields;
    await questions.add(row, {
      id: Number(row.pk),
      pollId: run.require(row, 'poll', 'poll'),
      label: text(f.label),
      helpText: text(f.help_text),
      weight: Number(f.weight ?? 0),
      multipleChoice: bool(f.multiple_choice),
      isOpen: bool(f.is_open),
      isConfidential: bool(f.is_confidential),
      image: await media.file(f.image, row),
    });
    run.ids('question').add(Number(row.pk));
  }
  await questions.flush();
  const choices = run.batcher('a4polls.choice', s.pollChoices);
  for await (const row of run.rows('a4polls.choice')) {
    await choices.add(row, { id: Number(row.pk), questionId: run.require(row, 'question', 'question'), label: text(row.fields.label), isOtherChoice: bool(row.fields.is_other_choice), weight: Number(row.fields.weight ?? 0) });
    run.ids('choice').add(Number(row.pk));
  }
  await choices.flush();
  const otherAnswers = new Map<string, string>();
  for await (const row of run.rows('a4polls.othervote')) otherAnswers.set(String(run.fk(row.fields.vote) ?? row.pk), text(row.fields.answer));
  const votes = run.batcher('a4polls.vote', s.pollVotes);
  for await (const row of run.rows('a4polls.vote')) {
    const f = row.fields;
    const creatorId = run.user(f.creator);
    if (creatorId === undefined) run.fail(row, `creator ${JSON.stringify(f.creator)} is not a user of the dump`);
    await votes.add(row, { id: Number(row.pk), choiceId: run.require(row, 'choice', 'choice'), creatorId, voterToken: f.content_id ?? null, otherChoiceAnswer: otherAnswers.get(row.pk) ?? null, created: date(f.created) ?? new Date(), modified: date(f.modified) });
  }
  await votes.flush();
  const answers = run.batcher('a4polls.answer', s.pollAnswers);
  for await (const row of run.rows('a4polls.answer')) {
    const f = row.fields;
    const creatorId = run.user(f.creator);
    if (creatorId === undefined) run.fail(row, `creator ${JSON.stringify(f.creator)} is not a user of the dump`);
    await answers.add(row, { id: Number(row.pk), questionId: run.require(row, 'question', 'question'), creatorId, voterToken: f.content_id ?? null, answer: text(f.answer), created: date(f.created) ?? new Date(), modified: date(f.modified) });
  }
  await answers.flush();

  const chapters = run.batcher('a4_candy_documents.chapter', s.chapters);
  for await (const row of run.rows('a4_candy_documents.chapter')) {
    await chapters.add(row, { id: Number(row.pk), ...item(row), name: text(row.fields.name), weight: Number(row.fields.weight ?? 0) });
    run.ids('chapter').add(Number(row.pk));
  }
  await chapters.flush();
  const paragraphs = run.batcher('a4_candy_documents.paragraph', s.paragraphs);
  for await (const row of run.rows('a4_candy_documents.paragraph')) {
    const f = row.fields;
    await paragraphs.add(row, { id: Number(row.pk), chapterId: run.require(row, 'chapter', 'chapter'), name: text(f.name), text: text(f.text), weight: Number(f.weight ?? 0), created: date(f.created) ?? new Date(), modified: date(f.modified) });
    run.ids('paragraph').add(Number(row.pk));
  }
  await paragraphs.flush();

  const subjects = run.batcher('a4_candy_debate.subject', s.subjects);
  for await (const row of run.rows('a4_candy_debate.subject')) {
    await subjects.add(row, { id: Number(row.pk), ...item(row), name: text(row.fields.name), description: text(row.fields.description), legacySlug: legacySlug(row.fields.slug) });
    run.ids('subject').add(Number(row.pk));
  }
  await subjects.flush();
  const topics = run.batcher('a4_candy_topicprio.topic', s.topics);
  const topicLabels: { row: DumpRow; values: Record<string, unknown> }[] = [];
  for await (const row of run.rows('a4_candy_topicprio.topic')) {
    const id = Number(row.pk);
    await topics.add(row, { id, ...item(row), name: text(row.fields.name), description: text(row.fields.description), image: await media.file(row.fields.image, row), categoryId: category(row), legacySlug: legacySlug(row.fields.slug) });
    run.ids('topic').add(id);
    for (const label of (row.fields.labels as unknown[] | undefined) ?? []) {
      const labelId = run.fk(label);
      if (!run.has('label', labelId)) run.fail(row, `label ${JSON.stringify(label)} is not a label of the dump`);
      topicLabels.push({ row, values: { topicId: id, labelId } });
    }
  }
  await topics.flush();
  await run.insert('a4_candy_topicprio.topic', s.topicLabels, topicLabels, false);

  const questionsLive = run.batcher('a4_candy_interactive_events.livequestion', s.liveQuestions);
  for await (const row of run.rows('a4_candy_interactive_events.livequestion')) {
    const f = row.fields;
    await questionsLive.add(row, {
      id: Number(row.pk),
      moduleId: run.require(row, 'module', 'module'),
      text: text(f.text),
      categoryId: category(row),
      isAnswered: bool(f.is_answered),
      isOnShortlist: bool(f.is_on_shortlist),
      isHidden: bool(f.is_hidden),
      isLive: bool(f.is_live),
      created: date(f.created) ?? new Date(),
      modified: date(f.modified),
    });
    run.ids('livequestion').add(Number(row.pk));
  }
  await questionsLive.flush();
  const likes = run.batcher('a4_candy_interactive_events.like', s.liveQuestionLikes);
  for await (const row of run.rows('a4_candy_interactive_events.like')) {
    await likes.add(row, { id: Number(row.pk), liveQuestionId: run.require(row, 'livequestion', 'livequestion'), session: text(row.fields.session), created: date(row.fields.created) ?? new Date() });
  }
  await likes.flush();
  for await (const row of run.rows('a4_candy_interactive_events.extrafieldsinteractiveevent')) {
    const base = item(row);
    await run.insert(row.model, s.liveEventMedia, [{ row, values: { moduleId: base.moduleId, liveStream: text(row.fields.live_stream), eventImage: await media.file(row.fields.event_image, row), modified: base.modified ?? base.created } }]);
  }
}

/** The Allmende kind of a generic relation's target, or the reason it cannot be placed. */
function target(run: ImportRun, row: DumpRow, typeField: string, idField: string): { kind: ContentKind; id: number } | { reason: string } {
  const type = run.contentType(row.fields[typeField]);
  const kind = type ? CONTENT_KIND_OF[type] : undefined;
  if (!kind || !CONTENT_KINDS.includes(kind)) return { reason: `points at a ${type ?? 'unknown content type'}, which has no home in Allmende yet` };
  const id = run.fk(row.fields[idField]);
  if (!run.has(kind, id)) return { reason: `its ${kind} is not in the dump or was not placed` };
  return { kind, id };
}

const flag = (field: string) => `coalesce((r.fields->>'${field}')::boolean, false)`;
const createdModified = { created: "coalesce((r.fields->>'created')::timestamptz, now())", modified: "(r.fields->>'modified')::timestamptz" };

/**
 * Rows per statement for the largest models: more than the 1,000 rows above which the page-change
 * trigger (migration 0051, page_change) logs one change per project instead of working out the
 * module and item of every row, which made comments and ratings ≈ 4× slower.
 */
const LARGE_BATCH = 2000;

/** Comments (the largest model): the import resolves creator and target; text, states and dates are copied in the database. */
const insertComments = copiedFromDump(
  'comments',
  { id: 'int', creator_id: 'int', content_type: 'text', object_pk: 'int', project_id: 'int' },
  {
    comment: "coalesce(r.fields->>'comment', '')",
    comment_categories: "coalesce(r.fields->>'comment_categories', '')",
    is_removed: flag('is_removed'),
    is_censored: flag('is_censored'),
    is_blocked: flag('is_blocked'),
    is_moderator_marked: flag('is_moderator_marked'),
    is_reviewed: flag('is_reviewed'),
    last_discussed: "(r.fields->>'last_discussed')::timestamptz",
    ...createdModified,
  },
);

export async function importComments({ run }: Ctx) {
  const model = 'a4comments.comment';
  const batch = run.batcher(model, insertComments, LARGE_BATCH);
  for await (const row of run.rows(model, ['creator', 'content_type', 'object_pk', 'project'])) {
    const f = row.fields;
    const on = target(run, row, 'content_type', 'object_pk');
    if ('reason' in on) {
      run.cannotPlace(model, `comment ${on.reason}`);
      continue;
    }
    // A reply comes after its parent (dumpdata writes by pk): its parent is placed by then.
    const id = Number(row.pk);
    const project = run.fk(f.project);
    await batch.add(row, { seq: row.seq, id, creator_id: run.requireUser(row, 'creator'), content_type: on.kind, object_pk: on.id, project_id: run.has('project', project) ? project : null });
    run.ids('comment').add(id);
  }
  await batch.flush();
  const feedback = run.batcher('a4_candy_moderatorfeedback.moderatorcommentfeedback', s.commentFeedback);
  for await (const row of run.rows('a4_candy_moderatorfeedback.moderatorcommentfeedback')) {
    const comment = run.fk(row.fields.comment);
    if (!run.has('comment', comment)) {
      run.cannotPlace(row.model, 'its comment was not placed');
      continue;
    }
    const id = Number(row.pk);
    await feedback.add(row, { id, commentId: comment, creatorId: run.requireUser(row, 'creator'), feedbackText: text(row.fields.feedback_text), created: date(row.fields.created) ?? new Date(), modified: date(row.fields.modified) });
    run.ids('moderatorcommentfeedback').add(id);
  }
  await feedback.flush();
}

/** Ratings: the import resolves creator and target; value and dates are copied in the database (the value's range is the table's check). */
const insertRatings = copiedFromDump(
  'ratings',
  { id: 'int', creator_id: 'int', content_type: 'text', object_pk: 'int' },
  { value: "(r.fields->>'value')::smallint", ...createdModified },
);

export async function importParticipation({ run }: Ctx) {
  const ratings = run.batcher('a4ratings.rating', insertRatings, LARGE_BATCH);
  for await (const row of run.rows('a4ratings.rating', ['creator', 'content_type', 'object_pk'])) {
    const on = target(run, row, 'content_type', 'object_pk');
    if ('reason' in on) {
      run.cannotPlace(row.model, `rating ${on.reason}`);
      continue;
    }
    await ratings.add(row, { seq: row.seq, id: Number(row.pk), creator_id: run.requireUser(row, 'creator'), content_type: on.kind, object_pk: on.id });
    run.ids('rating').add(Number(row.pk));
  }
  await ratings.flush();

  const reports = run.batcher('a4reports.report', s.reports);
  const openReports = new Set<string>();
  for await (const row of run.rows('a4reports.report')) {
    const on = target(run, row, 'content_type', 'object_pk');
    if ('reason' in on) {
      run.cannotPlace(row.model, `report ${on.reason}`);
      continue;
    }
    const creatorId = run.requireUser(row, 'creator');
    const key = `${creatorId}:${on.kind}:${on.id}`;
    // Allmende keeps one open report per user and object; a repeated a+ report is kept as handled.
    const repeated = openReports.has(key);
    openReports.add(key);
    await reports.add(row, { id: Number(row.pk), creatorId, contentType: on.kind, objectPk: on.id, description: text(row.fields.description), created: date(row.fields.created) ?? new Date(), modified: date(row.fields.modified), handledAt: repeated ? (date(row.fields.created) ?? new Date()) : null });
    run.ids('report').add(Number(row.pk));
  }
  await reports.flush();

  const follows = run.batcher('a4follows.follow', s.follows);
  const followed = new Set<string>();
  for await (const row of run.rows('a4follows.follow')) {
    const creatorId = run.requireUser(row, 'creator');
    const projectId = run.require(row, 'project', 'project');
    if (followed.has(`${projectId}:${creatorId}`)) {
      run.cannotPlace(row.model, 'a second follow of the same project by the same user');
      continue;
    }
    followed.add(`${projectId}:${creatorId}`);
    await follows.add(row, { id: Number(row.pk), creatorId, projectId, enabled: row.fields.enabled !== false, created: date(row.fields.created) ?? new Date(), modified: date(row.fields.modified) });
  }
  await follows.flush();
}

/** a+'s Newsletter.receivers. */
const TARGET_GROUP: Record<string, NewsletterTargetGroup> = { 0: 'platform', 1: 'organisation', 2: 'project', 3: 'initiators' };

export async function importActivity({ run }: Ctx) {
  const actions = run.batcher('a4actions.action', s.actions);
  for await (const row of run.rows('a4actions.action')) {
    const f = row.fields;
    const verb = text(f.verb);
    if (!ACTION_VERBS.includes(verb as ActionVerb)) {
      run.cannotPlace(row.model, `verb "${verb}" has no home in Allmende`);
      continue;
    }
    const obj = target(run, row, 'obj_content_type', 'obj_object_id');
    if ('reason' in obj) {
      run.cannotPlace(row.model, `action ${obj.reason}`);
      continue;
    }
    let targetKind: ContentKind | null = null;
    let targetId: number | null = null;
    if (f.target_content_type !== null && f.target_content_type !== undefined) {
      const on = target(run, row, 'target_content_type', 'target_object_id');
      if ('reason' in on) {
        run.cannotPlace(row.model, `action target ${on.reason}`);
        continue;
      }
      targetKind = on.kind;
      targetId = on.id;
    }
    const optionalUser = (field: string) => run.user(f[field]) ?? null;
    const project = run.fk(f.project);
    await actions.add(row, {
      id: Number(row.pk),
      actorId: optionalUser('actor'),
      verb,
      objType: obj.kind,
      objId: obj.id,
      targetType: targetKind,
      targetId,
      targetCreatorId: optionalUser('target_creator'),
      objCommentCreatorId: optionalUser('obj_comment_creator'),
      projectId: run.has('project', project) ? project : null,
      timestamp: date(f.timestamp) ?? new Date(),
      public: f.public !== false,
      description: f.description === null || f.description === undefined ? null : text(f.description),
    });
  }
  await actions.flush();

  const newsletters = run.batcher('a4_candy_newsletters.newsletter', s.newsletters);
  for await (const row of run.rows('a4_candy_newsletters.newsletter')) {
    const f = row.fields;
    const targetGroup = TARGET_GROUP[String(f.receivers)];
    if (!targetGroup) run.fail(row, `receivers ${JSON.stringify(f.receivers)} is none of 0 (platform), 1 (organisation), 2 (project), 3 (initiators)`);
    const project = run.fk(f.project);
    await newsletters.add(row, {
      id: Number(row.pk),
      organisationId: run.require(row, 'organisation', 'organisation'),
      projectId: run.has('project', project) ? project : null,
      creatorId: run.user(f.creator) ?? null,
      senderName: text(f.sender_name),
      senderEmail: text(f.sender),
      subject: text(f.subject),
      body: text(f.body),
      targetGroup,
      isDraft: !f.sent,
      created: date(f.sent) ?? date(f.created) ?? new Date(),
    });
  }
  await newsletters.flush();

  const invited = new Set<string>();
  for (const [model, role] of [
    ['a4_candy_projects.participantinvite', 'participant'],
    ['a4_candy_projects.moderatorinvite', 'moderator'],
  ] as const) {
    const invites = run.batcher(model, s.projectInvites);
    for await (const row of run.rows(model)) {
      const f = row.fields;
      const projectId = run.require(row, 'project', 'project');
      const key = `${projectId}:${role}:${text(f.email).toLowerCase()}`;
      if (invited.has(key)) {
        run.cannotPlace(model, 'a second invitation of the same address to the same project');
        continue;
      }
      invited.add(key);
      await invites.add(row, { token: text(f.token), projectId, role, email: text(f.email), creatorId: run.user(f.creator) ?? null, created: date(f.created) ?? new Date() });
    }
    await invites.flush();
  }
}
