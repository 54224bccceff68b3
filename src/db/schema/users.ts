import { sql } from 'drizzle-orm';
import { boolean, index, integer, jsonb, pgTable, primaryKey, serial, text, timestamp, uniqueIndex, varchar } from 'drizzle-orm/pg-core';

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    username: varchar('username', { length: 60 }).notNull(),
    email: varchar('email', { length: 254 }).notNull(),
    password: text('password').notNull().default(''),
    isSuperuser: boolean('is_superuser').notNull().default(false),
    isStaff: boolean('is_staff').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    emailVerified: boolean('email_verified').notNull().default(false),
    /** A new address asked for in the settings; it replaces `email` only once its link is used (issue 21, finding 2). */
    pendingEmail: varchar('pending_email', { length: 254 }),
    language: varchar('language', { length: 4 }).notNull().default('de'),
    avatar: text('avatar'),
    bio: varchar('bio', { length: 255 }).notNull().default(''),
    /** Links on the public profile (adhocracy+'s homepage, twitter_handle, facebook_handle). */
    homepage: varchar('homepage', { length: 200 }).notNull().default(''),
    twitterHandle: varchar('twitter_handle', { length: 100 }).notNull().default(''),
    facebookHandle: varchar('facebook_handle', { length: 100 }).notNull().default(''),
    getNotifications: boolean('get_notifications').notNull().default(true),
    getNewsletters: boolean('get_newsletters').notNull().default(false),
    dateJoined: timestamp('date_joined', { withTimezone: true }).notNull().defaultNow(),
    lastLogin: timestamp('last_login', { withTimezone: true }),
    /** Credentials issued before this instant (tokens, sessions) no longer count. */
    credentialsValidAfter: timestamp('credentials_valid_after', { withTimezone: true }),
    /** A guest (issue 34.4, a+ `guest_user`): made by "take part as a guest", kept in one browser's session, no password, no mail; registering turns it into an account. */
    isGuest: boolean('is_guest').notNull().default(false),
  },
  (t) => [
    uniqueIndex('users_username_lower_key').on(sql`lower(${t.username})`),
    /** Unique after NFKC folding and case, as Django normalises usernames (issue 21, finding 12: no full-width look-alikes). */
    uniqueIndex('users_username_folded_key').on(sql`lower(normalize(${t.username}, NFKC))`),
    uniqueIndex('users_email_lower_key').on(sql`lower(${t.email})`),
  ],
);

/** A required reference to a user that goes with the user (ON DELETE CASCADE). */
export const userRef = (column = 'user_id') => integer(column).notNull().references(() => users.id, { onDelete: 'cascade' });

/**
 * The author of content that others answer or build on (ideas, comments, polls, chapters, moderator
 * feedback). Deleting an account hands such content over first (core/users/deletion.ts); a bare
 * DELETE of the user is refused rather than taking other users' replies with it.
 */
export const authorRef = (column = 'creator_id') => integer(column).notNull().references(() => users.id, { onDelete: 'restrict' });

/** DRF-style persistent API key, one per user. */
export const apiTokens = pgTable('api_tokens', {
  key: varchar('key', { length: 40 }).primaryKey(),
  userId: userRef().unique(),
  created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
});

/** Refresh tokens that were rotated or revoked (simplejwt's blacklist). */
export const jwtBlacklist = pgTable(
  'jwt_blacklist',
  {
    jti: varchar('jti', { length: 64 }).primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    blacklistedAt: timestamp('blacklisted_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('jwt_blacklist_expires_idx').on(t.expiresAt)],
);

/** Browser sessions, kept in the database so that every instance shares them. `id` is a hash of the cookie value. */
export const browserSessions = pgTable(
  'browser_sessions',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    data: jsonb('data').$type<Record<string, unknown>>().notNull().default({}),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('browser_sessions_user_idx').on(t.userId), index('browser_sessions_expires_idx').on(t.expiresAt)],
);

/** Accounts at external OpenID Connect providers linked to a user. */
export const socialAccounts = pgTable(
  'social_accounts',
  {
    id: serial('id').primaryKey(),
    userId: userRef(),
    provider: varchar('provider', { length: 64 }).notNull(),
    subject: varchar('subject', { length: 255 }).notNull(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('social_accounts_provider_subject_key').on(t.provider, t.subject)],
);

/** Outgoing e-mail: always recorded here; sent by SMTP when SMTP_URL is set. */
export const outbox = pgTable(
  'outbox',
  {
    id: serial('id').primaryKey(),
    recipient: varchar('recipient', { length: 254 }).notNull(),
    subject: text('subject').notNull(),
    body: text('body').notNull(),
    html: text('html'),
    kind: varchar('kind', { length: 64 }).notNull().default(''),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
    sentAt: timestamp('sent_at', { withTimezone: true }),
    error: text('error'),
    /** Failed sends so far; a temporary failure is tried again at nextAttemptAt. */
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true }),
    /** The newsletter this mail belongs to (its delivery count); no foreign key, newsletters are never deleted. */
    newsletterId: integer('newsletter_id'),
    /** Shown as the sender's name and answered to (newsletters, §B18.1); empty: the platform's MAIL_FROM. */
    senderName: varchar('sender_name', { length: 254 }).notNull().default(''),
    replyTo: varchar('reply_to', { length: 254 }).notNull().default(''),
    /** One-click unsubscribe address (RFC 8058 List-Unsubscribe), set on newsletters. */
    unsubscribeUrl: text('unsubscribe_url'),
  },
  (t) => [
    index('outbox_recipient_idx').on(t.recipient, t.id),
    index('outbox_pending_idx').on(t.id).where(sql`${t.sentAt} IS NULL`),
    index('outbox_newsletter_idx').on(t.newsletterId).where(sql`${t.newsletterId} IS NOT NULL`),
  ],
);

export const organisations = pgTable('organisations', {
  id: serial('id').primaryKey(),
  slug: varchar('slug', { length: 512 }).notNull().unique(),
  name: varchar('name', { length: 512 }).notNull(),
  title: varchar('title', { length: 100 }).notNull().default(''),
  description: varchar('description', { length: 800 }).notNull().default(''),
  logo: text('logo'),
  /** Header image of the landing page (§B3.1). */
  image: text('image'),
  imageCopyright: varchar('image_copyright', { length: 200 }).notNull().default(''),
  url: varchar('url', { length: 200 }).notNull().default(''),
  twitterHandle: varchar('twitter_handle', { length: 100 }).notNull().default(''),
  facebookHandle: varchar('facebook_handle', { length: 100 }).notNull().default(''),
  instagramHandle: varchar('instagram_handle', { length: 100 }).notNull().default(''),
  /** Legal texts (§B3.2), rich text; empty means the organisation has none. */
  imprint: text('imprint').notNull().default(''),
  termsOfUse: text('terms_of_use').notNull().default(''),
  dataProtection: text('data_protection').notNull().default(''),
  netiquette: text('netiquette').notNull().default(''),
  enableGeolocation: boolean('enable_geolocation').notNull().default(false),
  /** A supporting organisation (adhocracy+'s is_supporting: it pays for the platform), marked on its page. */
  isSupporting: boolean('is_supporting').notNull().default(false),
  /** Language of e-mails to addresses without an account (invitations). */
  language: varchar('language', { length: 4 }).notNull().default('de'),
  created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
});

export const organisationInitiators = pgTable(
  'organisation_initiators',
  {
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: userRef(),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.userId] }), index('organisation_initiators_user_idx').on(t.userId)],
);

export const organisationMembers = pgTable(
  'organisation_members',
  {
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    userId: userRef(),
    memberNumber: varchar('member_number', { length: 64 }).notNull().default(''),
    /** What the member told when joining (adhocracy+'s Member.additional_info, e.g. a birth date or district): label → value, shown in the members list. */
    additionalInfo: jsonb('additional_info').$type<Record<string, string>>().notNull().default({}),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.userId] }), index('organisation_members_user_idx').on(t.userId)],
);

/** An organisation's texts in one language (§B3.1): landing-page description, slogan, "About" information. */
export const organisationTranslations = pgTable(
  'organisation_translations',
  {
    organisationId: integer('organisation_id')
      .notNull()
      .references(() => organisations.id, { onDelete: 'cascade' }),
    language: varchar('language', { length: 4 }).notNull(),
    description: varchar('description', { length: 800 }).notNull().default(''),
    slogan: varchar('slogan', { length: 200 }).notNull().default(''),
    information: text('information').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.organisationId, t.language] })],
);

/**
 * A kind of notification e-mail (mail/notices.ts NOTIFICATION_KINDS) the user turned off in the
 * account settings; kept with the moment it was withdrawn (consent withdrawal is recorded).
 */
export const notificationOptouts = pgTable(
  'notification_optouts',
  {
    userId: userRef(),
    kind: varchar('kind', { length: 64 }).notNull(),
    created: timestamp('created', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.kind] })],
);

/** Spam challenges (src/http/challenge.ts) already answered: each counts once, until it expires. */
export const usedChallenges = pgTable(
  'used_challenges',
  {
    id: varchar('id', { length: 64 }).primaryKey(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('used_challenges_expires_idx').on(t.expiresAt)],
);
