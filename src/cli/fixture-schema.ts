import { type Static, type TObject, type TSchema, Type } from 'typebox';
import { FixtureDateTime, FixtureId, strictRecord } from '../features/moduletypes/fixtures.js';
import { moduleFixtureFields, moduleFixtureKinds } from '../features/moduletypes/contract.js';
import type { Lang } from '../i18n/index.js';
import type { PlatformPageKey } from '../core/legal/texts.js';
import { MAX_PROJECT_TOPICS, PROJECT_TOPICS, type ProjectTopic } from '../core/projects/topics.js';

/** The loaddata fixture format: an interface other tools depend on, so keep it exactly. */
const Id = FixtureId;
const Ids = Type.Array(Id);
const DateTime = FixtureDateTime;
const OptText = Type.Optional(Type.String());
/** A comment, rating or report target: a comment, or content of a module type (loaddata checks the type against the registry). */
const Target = Type.Object({ type: Type.String({ minLength: 1, maxLength: 64 }), id: Id }, strictRecord);
const strict = strictRecord;

const FixtureUser = Type.Object(
  {
    id: Id,
    username: Type.String({ minLength: 1, maxLength: 60, pattern: '^[\\w][ \\w.@+-]*$' }),
    /** Checked by loaddata with signup's rule (`isValidEmail` in features/accounts/rules.ts). */
    email: Type.String(),
    password: Type.Optional(Type.String({ minLength: 1 })),
    password_hash: Type.Optional(Type.String({ minLength: 1 })),
    is_superuser: Type.Optional(Type.Boolean()),
    is_guest: Type.Optional(Type.Boolean()),
    is_staff: Type.Optional(Type.Boolean()),
    is_active: Type.Optional(Type.Boolean()),
    email_verified: Type.Optional(Type.Boolean()),
    language: Type.Optional(Type.Union([Type.Literal('en'), Type.Literal('de')])),
    date_joined: Type.Optional(DateTime),
    avatar: Type.Optional(Type.String({ minLength: 1 })),
  },
  strict,
);

const FixtureOrganisation = Type.Object(
  {
    id: Id,
    slug: Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' }),
    name: Type.String({ minLength: 1, maxLength: 512 }),
    title: Type.Optional(Type.String({ maxLength: 100 })),
    enable_geolocation: Type.Optional(Type.Boolean()),
    initiators: Type.Optional(Ids),
    members: Type.Optional(Ids),
  },
  strict,
);

const FixtureProject = Type.Object(
  {
    id: Id,
    slug: Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' }),
    name: Type.String({ minLength: 1, maxLength: 120 }),
    organisation: Id,
    description: Type.Optional(Type.String({ maxLength: 250 })),
    information: OptText,
    result: OptText,
    access: Type.Optional(Type.Union([Type.Literal('PUBLIC'), Type.Literal('SEMIPUBLIC'), Type.Literal('PRIVATE')])),
    is_draft: Type.Optional(Type.Boolean()),
    is_archived: Type.Optional(Type.Boolean()),
    is_app_accessible: Type.Optional(Type.Boolean()),
    allow_guests: Type.Optional(Type.Boolean()),
    moderators: Type.Optional(Ids),
    participants: Type.Optional(Ids),
    point: Type.Optional(
      Type.Union([Type.Null(), Type.Object({ lat: Type.Number({ minimum: -90, maximum: 90 }), lng: Type.Number({ minimum: -180, maximum: 180 }) }, strict)]),
    ),
    street_name: Type.Optional(Type.Union([Type.String({ maxLength: 200 }), Type.Null()])),
    house_number: Type.Optional(Type.Union([Type.String({ maxLength: 10 }), Type.Null()])),
    zip_code: Type.Optional(Type.Union([Type.String({ maxLength: 20 }), Type.Null()])),
    contact_name: Type.Optional(Type.String({ maxLength: 120 })),
    contact_address_text: OptText,
    contact_email: Type.Optional(Type.String({ maxLength: 254 })),
    contact_phone: Type.Optional(Type.String({ maxLength: 20 })),
    contact_url: Type.Optional(Type.String({ maxLength: 200 })),
    /** Topic codes of features/projects/topics.ts, each once, at most MAX_PROJECT_TOPICS. */
    topics: Type.Optional(Type.Array(Type.Unsafe<ProjectTopic>(Type.String({ enum: Object.keys(PROJECT_TOPICS) })), { maxItems: MAX_PROJECT_TOPICS, uniqueItems: true })),
    /** One of the fixture's (or the platform's) `administrative_districts`. */
    administrative_district: Type.Optional(Type.Union([Id, Type.Null()])),
    created: Type.Optional(DateTime),
  },
  strict,
);

const NullableDate = Type.Union([DateTime, Type.Null()]);

const FixtureModule = Type.Object(
  {
    id: Id,
    slug: Type.Optional(Type.String({ minLength: 1, maxLength: 512, pattern: '^[-\\w]+$' })),
    project: Id,
    name: Type.String({ minLength: 1, maxLength: 512 }),
    description: Type.Optional(Type.String({ maxLength: 512 })),
    blueprint_type: Type.Optional(Type.String({ minLength: 1, maxLength: 8 })),
    is_draft: Type.Optional(Type.Boolean()),
    weight: Type.Optional(Type.Integer({ minimum: 0 })),
    phases: Type.Array(
      Type.Object(
        {
          id: Type.Optional(Id),
          type: Type.String({ minLength: 1, maxLength: 128 }),
          name: Type.Optional(Type.String({ maxLength: 80 })),
          description: Type.Optional(Type.String({ maxLength: 300 })),
          start_date: NullableDate,
          end_date: NullableDate,
          weight: Type.Optional(Type.Integer()),
        },
        strict,
      ),
    ),
    categories: Type.Optional(Type.Array(Type.Object({ id: Id, name: Type.String({ minLength: 1, maxLength: 120 }) }, strict))),
    labels: Type.Optional(Type.Array(Type.Object({ id: Id, name: Type.String({ minLength: 1, maxLength: 120 }) }, strict))),
    /** The module's own words for category and label and their help texts (a4 CategoryAlias, LabelAlias: title, description). */
    category_alias: Type.Optional(Type.String({ maxLength: 25 })),
    category_alias_help: Type.Optional(Type.String({ maxLength: 300 })),
    label_alias: Type.Optional(Type.String({ maxLength: 25 })),
    label_alias_help: Type.Optional(Type.String({ maxLength: 300 })),
  },
  strict,
);

const FixtureComment = Type.Object(
  {
    id: Id,
    creator: Id,
    target: Target,
    comment: Type.String({ maxLength: 4000 }),
    created: Type.Optional(DateTime),
    modified: Type.Optional(Type.Union([DateTime, Type.Null()])),
    is_blocked: Type.Optional(Type.Boolean()),
    is_removed: Type.Optional(Type.Boolean()),
    is_censored: Type.Optional(Type.Boolean()),
    is_moderator_marked: Type.Optional(Type.Boolean()),
    is_reviewed: Type.Optional(Type.Boolean()),
  },
  strict,
);

const FixtureRating = Type.Object({ creator: Id, target: Target, value: Type.Integer() }, strict);
const FixtureReport = Type.Object(
  { creator: Id, target: Target, description: Type.Optional(Type.String({ maxLength: 1024 })), created: Type.Optional(DateTime) },
  strict,
);
const FixtureCommentFeedback = Type.Object(
  {
    id: Type.Optional(Id),
    comment: Id,
    creator: Id,
    feedback_text: Type.String(),
    created: Type.Optional(DateTime),
    modified: Type.Optional(Type.Union([DateTime, Type.Null()])),
  },
  strict,
);
/** One of the platform's legal pages in one language (publishing needs the imprint, data protection and terms written). */
const FixturePlatformPage = Type.Object(
  {
    key: Type.Union([Type.Literal('imprint'), Type.Literal('privacy'), Type.Literal('terms'), Type.Literal('netiquette')]),
    language: Type.Union([Type.Literal('en'), Type.Literal('de')]),
    body: Type.String({ maxLength: 100_000 }),
  },
  strict,
);
// The literals above are the platform's page keys and languages; these fail to compile when one is added.
type Exactly<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const platformPageKeysMatch: Exactly<Static<typeof FixturePlatformPage>['key'], PlatformPageKey> & Exactly<Static<typeof FixturePlatformPage>['language'], Lang> = true;
void platformPageKeysMatch;
/** One of the platform's content pages (a+ CMS pages: help, FAQ, news), checked as the back-office checks it (core/legal/rules.ts). */
const FixtureContentPage = Type.Object(
  {
    id: Type.Optional(Id),
    slug: Type.String(),
    title_en: Type.Optional(Type.String()),
    title_de: Type.Optional(Type.String()),
    body_en: Type.Optional(Type.String()),
    body_de: Type.Optional(Type.String()),
    placement: Type.Optional(Type.Union([Type.Literal('footer'), Type.Literal('menu'), Type.Literal('none')])),
    weight: Type.Optional(Type.Integer({ minimum: -9999, maximum: 9999 })),
  },
  strict,
);
/** The platform's operator and links shown in the footer (a+ `OrganisationSettings`, `SocialMedia`); at most one record. */
const FixturePlatformSettings = Type.Object(
  {
    name: Type.Optional(Type.String()),
    address: Type.Optional(Type.String()),
    contacts: Type.Optional(Type.String()),
    facebook: Type.Optional(Type.String()),
    twitter: Type.Optional(Type.String()),
    github: Type.Optional(Type.String()),
    share_description_en: Type.Optional(Type.String()),
    share_description_de: Type.Optional(Type.String()),
  },
  strict,
);
/** The start page's heading and introduction (a+'s CMS home page), without its image; at most one record. */
const FixtureStartPage = Type.Object(
  {
    heading_en: Type.Optional(Type.String()),
    heading_de: Type.Optional(Type.String()),
    intro_en: Type.Optional(Type.String()),
    intro_de: Type.Optional(Type.String()),
  },
  strict,
);
/** A figure of the start page (a+ `landingpage.StatisticsItem`), without its picture: a number or a testimonial. */
const FixtureStartPageFigure = Type.Object(
  {
    kind: Type.Union([Type.Literal('number'), Type.Literal('testimonial')]),
    weight: Type.Optional(Type.Integer({ minimum: -9999, maximum: 9999 })),
    figure_en: Type.Optional(Type.String()),
    figure_de: Type.Optional(Type.String()),
    caption_en: Type.Optional(Type.String()),
    caption_de: Type.Optional(Type.String()),
    quote_en: Type.Optional(Type.String()),
    quote_de: Type.Optional(Type.String()),
    person_name: Type.Optional(Type.String()),
    person_description_en: Type.Optional(Type.String()),
    person_description_de: Type.Optional(Type.String()),
  },
  strict,
);
const FixtureFollow = Type.Object({ creator: Id, project: Id, enabled: Type.Optional(Type.Boolean()) }, strict);
/** An offline event of a project (a+ `offlineevents.OfflineEvent`); its a+ slug is kept (made from the name when absent). */
const FixtureOfflineEvent = Type.Object(
  {
    id: Type.Optional(Id),
    project: Id,
    creator: Type.Optional(Type.Union([Id, Type.Null()])),
    slug: Type.Optional(Type.String({ minLength: 1, maxLength: 255, pattern: '^[-\\w]+$' })),
    name: Type.String({ minLength: 1, maxLength: 120 }),
    event_type: Type.String({ minLength: 1, maxLength: 30 }),
    date: DateTime,
    description: Type.String({ maxLength: 100_000 }),
    created: Type.Optional(DateTime),
  },
  strict,
);
/** A moderator's remark on an item of a `remarkable` content type (a+ `moderatorremark.ModeratorRemark`). */
const FixtureModeratorRemark = Type.Object({ target: Target, creator: Type.Optional(Type.Union([Id, Type.Null()])), remark: Type.String({ maxLength: 4000 }), created: Type.Optional(DateTime) }, strict);

/**
 * An in-app notification (a+ `notifications.Notification`): `message` is the English text with
 * `%(name)s` places that `context` fills (a+'s `{name}` places become `%(name)s`), `target_url` a
 * path on this site.
 */
const FixtureNotification = Type.Object(
  {
    id: Type.Optional(Id),
    recipient: Id,
    kind: Type.String({ minLength: 1, maxLength: 64 }),
    message: Type.String({ minLength: 1, maxLength: 255 }),
    context: Type.Optional(Type.Record(Type.String(), Type.String({ maxLength: 2000 }))),
    target_url: Type.Optional(Type.String({ maxLength: 2000 })),
    project: Type.Optional(Type.Union([Id, Type.Null()])),
    read: Type.Optional(Type.Boolean()),
    read_at: Type.Optional(NullableDate),
    created: Type.Optional(DateTime),
  },
  strict,
);
/** A module's own question on its idea form (features/customfields; a+ 2026 custom fields). */
const FixtureCustomField = Type.Object(
  {
    id: Type.Optional(Id),
    module: Id,
    label: Type.String({ minLength: 1, maxLength: 200 }),
    help_text: Type.Optional(Type.String({ maxLength: 300 })),
    kind: Type.Union([Type.Literal('text'), Type.Literal('choice')]),
    required: Type.Optional(Type.Boolean()),
    weight: Type.Optional(Type.Integer({ minimum: -9999, maximum: 9999 })),
    choices: Type.Optional(Type.Array(Type.Object({ id: Type.Optional(Id), label: Type.String({ minLength: 1, maxLength: 120 }) }, strict), { maxItems: 20 })),
  },
  strict,
);
/** An item's answer to its module's question: a text, or one of the question's choices. */
const FixtureCustomFieldAnswer = Type.Object({ field: Id, target: Target, value: Type.Optional(Type.String({ maxLength: 1000 })), choice: Type.Optional(Id) }, strict);

/** A GeoJSON FeatureCollection of polygons (checked by features/mapideas `checkPlace`). */
const Area = Type.Unknown();
const FixtureDistrict = Type.Object({ id: Id, name: Type.String({ minLength: 1, maxLength: 128 }), short_code: Type.Optional(Type.String({ maxLength: 2 })), area: Type.Optional(Type.Union([Type.Null(), Area])) }, strict);
const FixturePresetCategory = Type.Object({ id: Id, name: Type.String({ minLength: 1, maxLength: 128 }) }, strict);
const FixturePreset = Type.Object({ id: Id, name: Type.String({ minLength: 1, maxLength: 128 }), category: Type.Optional(Type.Union([Id, Type.Null()])), area: Area }, strict);

/** The platform's own kinds; the module types add theirs (their `fixtures`). */
const coreKinds = {
  users: Type.Optional(Type.Array(FixtureUser)),
  administrative_districts: Type.Optional(Type.Array(FixtureDistrict)),
  map_preset_categories: Type.Optional(Type.Array(FixturePresetCategory)),
  map_presets: Type.Optional(Type.Array(FixturePreset)),
  organisations: Type.Optional(Type.Array(FixtureOrganisation)),
  projects: Type.Optional(Type.Array(FixtureProject)),
  modules: Type.Optional(Type.Array(FixtureModule)),
  comments: Type.Optional(Type.Array(FixtureComment)),
  ratings: Type.Optional(Type.Array(FixtureRating)),
  reports: Type.Optional(Type.Array(FixtureReport)),
  comment_feedback: Type.Optional(Type.Array(FixtureCommentFeedback)),
  follows: Type.Optional(Type.Array(FixtureFollow)),
  notifications: Type.Optional(Type.Array(FixtureNotification)),
  offline_events: Type.Optional(Type.Array(FixtureOfflineEvent)),
  moderator_remarks: Type.Optional(Type.Array(FixtureModeratorRemark)),
  custom_fields: Type.Optional(Type.Array(FixtureCustomField)),
  custom_field_answers: Type.Optional(Type.Array(FixtureCustomFieldAnswer)),
  platform_pages: Type.Optional(Type.Array(FixturePlatformPage)),
  content_pages: Type.Optional(Type.Array(FixtureContentPage)),
  platform_settings: Type.Optional(Type.Array(FixturePlatformSettings, { maxItems: 1 })),
  start_page: Type.Optional(Type.Array(FixtureStartPage, { maxItems: 1 })),
  start_page_figures: Type.Optional(Type.Array(FixtureStartPageFigure)),
};
/** A `modules` record: the platform's fields, typed, and the fields the module types add (a map module's `area`). */
type FixtureModuleRecord = Static<typeof FixtureModule> & { [field: string]: unknown };
/** A fixture: the platform's kinds, typed, and the registered module types' kinds by their names. */
export type Fixture = Omit<Static<TObject<typeof coreKinds>>, 'modules'> & { modules?: FixtureModuleRecord[] } & { [kind: string]: unknown[] | undefined };

/** The whole fixture schema: the platform's kinds (modules with the fields the types add) and every registered module type's kinds (built when asked). */
export function fixtureSchema(): TSchema {
  const kinds = moduleFixtureKinds();
  const module = Type.Object({ ...FixtureModule.properties, ...Object.assign({}, ...moduleFixtureFields().map((f) => f.fields)) }, strict);
  return Type.Object({ ...coreKinds, modules: Type.Optional(Type.Array(module)), ...Object.fromEntries(kinds.map((kind) => [kind.name, Type.Optional(Type.Array(kind.record))])) }, strict);
}
