import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, primaryKey, serial, smallint, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';
import { projects } from './projects.js';
import { organisations, users } from './users.js';

/** The platform's own legal pages (imprint, privacy, terms, netiquette), one row per page and language. */
export const platformPages = pgTable(
  'platform_pages',
  {
    key: varchar('key', { length: 32 }).notNull(),
    language: varchar('language', { length: 4 }).notNull(),
    body: text('body').notNull().default(''),
    modified: timestamp('modified', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.key, t.language] })],
);

/**
 * The platform's content pages (a+ CMS: help, FAQ, about, contact texts): written by the operator in
 * the back-office in English and German, shown at `/pages/<slug>/`, linked in the footer or the menu.
 */
export const contentPages = pgTable(
  'content_pages',
  {
    id: serial('id').primaryKey(),
    slug: varchar('slug', { length: 100 }).notNull().unique(),
    titleEn: varchar('title_en', { length: 200 }).notNull().default(''),
    titleDe: varchar('title_de', { length: 200 }).notNull().default(''),
    bodyEn: text('body_en').notNull().default(''),
    bodyDe: text('body_de').notNull().default(''),
    /** Where the page is linked: the footer, the header's menu, or nowhere (reached by its address). */
    placement: varchar('placement', { length: 10 }).$type<'footer' | 'menu' | 'none'>().notNull().default('footer'),
    weight: smallint('weight').notNull().default(0),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    modified: timestamp('modified', { withTimezone: true }),
  },
  (t) => [check('content_pages_placement_check', sql`${t.placement} IN ('footer', 'menu', 'none')`)],
);

/**
 * Old addresses that answer 301 with their new one: the adhocracy+ import's CMS page paths (e.g.
 * `/info/faq/` → `/pages/faq/`, cli/aplus/cms.ts). Asked only for a GET that found nothing.
 */
export const pageRedirects = pgTable('page_redirects', {
  oldPath: varchar('old_path', { length: 1000 }).primaryKey(),
  newPath: varchar('new_path', { length: 1000 }).notNull(),
});

/** The start page's own texts and image (a+ CMS home page): one row, id 1. */
export const startPage = pgTable('start_page', {
  id: integer('id').primaryKey(),
  headingEn: varchar('heading_en', { length: 200 }).notNull().default(''),
  headingDe: varchar('heading_de', { length: 200 }).notNull().default(''),
  introEn: text('intro_en').notNull().default(''),
  introDe: text('intro_de').notNull().default(''),
  image: text('image'),
  imageAltEn: varchar('image_alt_en', { length: 200 }).notNull().default(''),
  imageAltDe: varchar('image_alt_de', { length: 200 }).notNull().default(''),
  modified: timestamp('modified', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * A figure of the start page (a+ `landingpage.StatisticsItem`): a number with its caption, a
 * testimonial (a quote, who said it, their portrait) or a picture; shown in order of `weight`.
 */
export const startPageFigures = pgTable(
  'start_page_figures',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 12 }).$type<'number' | 'testimonial' | 'picture'>().notNull(),
    weight: smallint('weight').notNull().default(0),
    figureEn: varchar('figure_en', { length: 200 }).notNull().default(''),
    figureDe: varchar('figure_de', { length: 200 }).notNull().default(''),
    captionEn: varchar('caption_en', { length: 300 }).notNull().default(''),
    captionDe: varchar('caption_de', { length: 300 }).notNull().default(''),
    quoteEn: text('quote_en').notNull().default(''),
    quoteDe: text('quote_de').notNull().default(''),
    personName: varchar('person_name', { length: 100 }).notNull().default(''),
    personDescriptionEn: varchar('person_description_en', { length: 200 }).notNull().default(''),
    personDescriptionDe: varchar('person_description_de', { length: 200 }).notNull().default(''),
    /** The picture, or the testimonial's portrait. */
    image: text('image'),
    imageAltEn: varchar('image_alt_en', { length: 200 }).notNull().default(''),
    imageAltDe: varchar('image_alt_de', { length: 200 }).notNull().default(''),
  },
  (t) => [check('start_page_figures_kind_check', sql`${t.kind} IN ('number', 'testimonial', 'picture')`)],
);

/**
 * The platform's operator as a+'s footer shows it (a+ `OrganisationSettings`, `SocialMedia`): one
 * row, id 1. The name labels the footer's platform links; address and contacts are rich text.
 */
export const platformSettings = pgTable('platform_settings', {
  id: integer('id').primaryKey(),
  name: varchar('name', { length: 50 }).notNull().default(''),
  address: text('address').notNull().default(''),
  contacts: text('contacts').notNull().default(''),
  facebook: varchar('facebook', { length: 500 }).notNull().default(''),
  twitter: varchar('twitter', { length: 500 }).notNull().default(''),
  github: varchar('github', { length: 500 }).notNull().default(''),
  /** The picture and text that links to the platform show when shared (og:image, og:description). */
  shareImage: text('share_image'),
  shareDescriptionEn: varchar('share_description_en', { length: 300 }).notNull().default(''),
  shareDescriptionDe: varchar('share_description_de', { length: 300 }).notNull().default(''),
  modified: timestamp('modified', { withTimezone: true }).notNull().defaultNow(),
});

/** The receivers of an adhocracy+ newsletter (its `receivers`: 2, 1, 3, 0). */
export const NEWSLETTER_TARGET_GROUPS = ['project', 'organisation', 'initiators', 'platform'] as const;
export type NewsletterTargetGroup = (typeof NEWSLETTER_TARGET_GROUPS)[number];

/** A newsletter sent from the dashboard to a project's opted-in followers (§B18). */
export const newsletters = pgTable(
  'newsletters',
  {
    id: serial('id').primaryKey(),
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    projectId: integer('project_id').references(() => projects.id, { onDelete: 'set null' }),
    creatorId: integer('creator_id').references(() => users.id, { onDelete: 'set null' }),
    senderName: varchar('sender_name', { length: 254 }).notNull(),
    senderEmail: varchar('sender_email', { length: 254 }).notNull().default(''),
    subject: varchar('subject', { length: 254 }).notNull(),
    body: text('body').notNull(),
    receivers: integer('receivers').notNull().default(0),
    /**
     * Whom it was written for: a project's followers (what the dashboard sends), or, in
     * newsletters from adhocracy+, the organisation's followers, its initiators or every user.
     */
    targetGroup: varchar('target_group', { length: 16, enum: NEWSLETTER_TARGET_GROUPS }).notNull().default('project'),
    /** Never sent (a draft kept from adhocracy+): listed as a draft, and its text can start a new newsletter. */
    isDraft: boolean('is_draft').notNull().default(false),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    /** When its sender was sent the delivery report (§B18.3); set by the one claim that sends it. */
    reportedAt: timestamp('reported_at', { withTimezone: true }),
  },
  (t) => [index('newsletters_organisation_idx').on(t.organisationId, t.created)],
);

/** A user's decision about an organisation, made at `created` (both go with the user or the organisation). */
const userAndOrganisation = () => ({
  userId: integer('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  organisationId: integer('organisation_id')
    .notNull()
    .references(() => organisations.id, { onDelete: 'cascade' }),
  created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * An organisation whose newsletters the user no longer wants (unsubscribe link or account
 * settings), with the moment consent was withdrawn; newsletterReceivers leaves the user out.
 */
export const newsletterOptouts = pgTable(
  'newsletter_optouts',
  userAndOrganisation(),
  (t) => [primaryKey({ columns: [t.userId, t.organisationId] })],
);

/**
 * A system notice that was sent (C7 phase started, C8 phase ends soon): the unique key is the claim
 * that makes each notice go out exactly once, also with several instances running the job at once.
 */
export const systemNotices = pgTable(
  'system_notices',
  {
    id: serial('id').primaryKey(),
    kind: varchar('kind', { length: 32 }).notNull(),
    objectId: integer('object_id').notNull(),
    /** The date the notice is about (phase start or end): a moved date is a new notice. */
    at: timestamp('at', { withTimezone: true }).notNull(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('system_notices_key').on(t.kind, t.objectId, t.at)],
);

/** A user's agreement to an organisation's terms of use (participation-facts §A11.7, §A13). */
export const organisationTermsAgreements = pgTable(
  'organisation_terms_agreements',
  userAndOrganisation(),
  (t) => [primaryKey({ columns: [t.userId, t.organisationId] })],
);
