import { sql } from 'drizzle-orm';
import { boolean, check, doublePrecision, index, integer, jsonb, pgEnum, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { type AreaFeatureCollection, timestamps } from './common.js';
import { organisations, userRef, users } from './users.js';

export const projectAccess = pgEnum('project_access', ['PUBLIC', 'SEMIPUBLIC', 'PRIVATE']);
export type ProjectAccess = (typeof projectAccess.enumValues)[number];

/**
 * An administrative district (adhocracy4's `AdministrativeDistrict`): a part of the city a project
 * belongs to, kept by the operator in the back-office; the start page filters projects by it. The
 * area is optional (a+ keeps none; an operator may draw or upload it).
 */
export const administrativeDistricts = pgTable('administrative_districts', {
  id: serial('id').primaryKey(),
  name: varchar('name', { length: 128 }).notNull(),
  shortCode: varchar('short_code', { length: 2 }).notNull().default(''),
  area: jsonb('area').$type<AreaFeatureCollection>(),
});

export const projects = pgTable(
  'projects',
  {
    id: serial('id').primaryKey(),
    slug: varchar('slug', { length: 512 }).notNull().unique(),
    name: varchar('name', { length: 120 }).notNull(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    description: varchar('description', { length: 250 }).notNull().default(''),
    information: text('information').notNull().default(''),
    result: text('result').notNull().default(''),
    access: projectAccess('access').notNull().default('PUBLIC'),
    isDraft: boolean('is_draft').notNull().default(true),
    isArchived: boolean('is_archived').notNull().default(false),
    isAppAccessible: boolean('is_app_accessible').notNull().default(false),
    /** The project's modules take contributions from guests, people without an account (issue 34.4, a4 `guest_may_participate`). */
    allowGuests: boolean('allow_guests').notNull().default(false),
    image: text('image'),
    imageCopyright: varchar('image_copyright', { length: 120 }).notNull().default(''),
    imageAltText: varchar('image_alt_text', { length: 80 }).notNull().default(''),
    tileImage: text('tile_image'),
    tileImageCopyright: varchar('tile_image_copyright', { length: 120 }).notNull().default(''),
    tileImageAltText: varchar('tile_image_alt_text', { length: 80 }).notNull().default(''),
    /** Statistics on the public result page (§B17.3). */
    showInsights: boolean('show_insights').notNull().default(false),
    pointLat: doublePrecision('point_lat'),
    pointLng: doublePrecision('point_lng'),
    streetName: varchar('street_name', { length: 200 }),
    houseNumber: varchar('house_number', { length: 10 }),
    zipCode: varchar('zip_code', { length: 20 }),
    contactName: varchar('contact_name', { length: 120 }).notNull().default(''),
    contactAddressText: text('contact_address_text').notNull().default(''),
    contactEmail: varchar('contact_email', { length: 254 }).notNull().default(''),
    contactPhone: varchar('contact_phone', { length: 20 }).notNull().default(''),
    contactUrl: varchar('contact_url', { length: 200 }).notNull().default(''),
    /** Topic codes from the fixed list in features/projects/topics.ts (§B8 basic settings). */
    topics: varchar('topics', { length: 8 }).array().notNull().default(sql`'{}'::varchar[]`),
    administrativeDistrictId: integer('administrative_district_id').references(() => administrativeDistricts.id, { onDelete: 'set null' }),
    ...timestamps,
  },
  (t) => [
    index('projects_organisation_idx').on(t.organisationId),
    index('projects_listing_idx').on(t.created).where(sql`NOT ${t.isDraft} AND NOT ${t.isArchived}`),
    check('projects_point_both_or_neither', sql`(${t.pointLat} IS NULL) = (${t.pointLng} IS NULL)`),
  ],
);

/** A set of users with a role in a project (moderators, participants). */
const projectRole = (name: string) =>
  pgTable(
    name,
    {
      projectId: integer('project_id')
        .notNull()
        .references(() => projects.id, { onDelete: 'cascade' }),
      userId: userRef(),
      /**
       * The role came with another one and ends with it (issue 21, finding 5): the initiator who
       * creates a project moderates it while they are an initiator. An explicit grant (invitation,
       * fixture) is false and outlives the organisation role.
       */
      implied: boolean('implied').notNull().default(false),
    },
    (t) => [primaryKey({ columns: [t.projectId, t.userId] }), index(`${name}_user_idx`).on(t.userId)],
  );

export const projectModerators = projectRole('project_moderators');
export const projectParticipants = projectRole('project_participants');

export const modules = pgTable(
  'modules',
  {
    id: serial('id').primaryKey(),
    slug: varchar('slug', { length: 512 }).notNull().unique(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 512 }).notNull(),
    description: varchar('description', { length: 512 }),
    weight: integer('weight').notNull().default(0),
    blueprintType: varchar('blueprint_type', { length: 8 }).notNull().default('BS'),
    isDraft: boolean('is_draft').notNull().default(false),
    /** The area of a map module (MBS, MIC, PB): a GeoJSON FeatureCollection of (multi)polygons; null until the initiator sets it. */
    area: jsonb('area').$type<AreaFeatureCollection>(),
    /**
     * The module's own words for "Category" and "Label" and the help texts of its form (a4's
     * CategoryAlias and LabelAlias: e.g. "District"); '' keeps the platform's words
     * (core/modules/terms.ts).
     */
    categoryAlias: varchar('category_alias', { length: 25 }).notNull().default(''),
    categoryAliasHelp: varchar('category_alias_help', { length: 300 }).notNull().default(''),
    labelAlias: varchar('label_alias', { length: 25 }).notNull().default(''),
    labelAliasHelp: varchar('label_alias_help', { length: 300 }).notNull().default(''),
    ...timestamps,
  },
  (t) => [index('modules_project_idx').on(t.projectId, t.weight)],
);

export const phases = pgTable(
  'phases',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    type: varchar('type', { length: 128 }).notNull(),
    name: varchar('name', { length: 80 }).notNull().default(''),
    description: varchar('description', { length: 300 }).notNull().default(''),
    startDate: timestamp('start_date', { withTimezone: true }),
    endDate: timestamp('end_date', { withTimezone: true }),
    weight: integer('weight').notNull().default(0),
  },
  (t) => [
    index('phases_module_idx').on(t.moduleId, t.weight, t.id),
    index('phases_end_idx').on(t.endDate),
    check('phases_dates_both_or_neither', sql`(${t.startDate} IS NULL) = (${t.endDate} IS NULL)`),
    check('phases_end_after_start', sql`${t.endDate} >= ${t.startDate}`),
  ],
);

export const categories = pgTable(
  'categories',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 120 }).notNull(),
    icon: varchar('icon', { length: 254 }).notNull().default(''),
  },
  (t) => [index('categories_module_idx').on(t.moduleId)],
);

export const labels = pgTable(
  'labels',
  {
    id: serial('id').primaryKey(),
    moduleId: integer('module_id')
      .notNull()
      .references(() => modules.id, { onDelete: 'cascade' }),
    name: varchar('name', { length: 120 }).notNull(),
  },
  (t) => [index('labels_module_idx').on(t.moduleId)],
);

export const follows = pgTable(
  'follows',
  {
    id: serial('id').primaryKey(),
    creatorId: userRef('creator_id'),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    enabled: boolean('enabled').notNull().default(true),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('follows_project_creator_key').on(t.projectId, t.creatorId),
    index('follows_creator_idx').on(t.creatorId, t.enabled),
  ],
);

/**
 * An offline event of a project (a+ `offlineevents.OfflineEvent`): a meeting on site shown in the
 * project's timeline among its participation entries, with a page of its own at
 * `/<org>/offlineevents/<slug>/` (slugs unique across the platform, as a+'s). `document` is an
 * optional PDF in the media store.
 */
export const offlineEvents = pgTable(
  'offline_events',
  {
    id: serial('id').primaryKey(),
    projectId: integer('project_id')
      .notNull()
      .references(() => projects.id, { onDelete: 'cascade' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    slug: varchar('slug', { length: 255 }).notNull().unique(),
    name: varchar('name', { length: 120 }).notNull(),
    eventType: varchar('event_type', { length: 30 }).notNull(),
    date: timestamp('date', { withTimezone: true }).notNull(),
    description: text('description').notNull().default(''),
    document: varchar('document', { length: 500 }),
    ...timestamps,
  },
  (t) => [index('offline_events_project_idx').on(t.projectId, t.date), index('offline_events_date_idx').on(t.date)],
);
