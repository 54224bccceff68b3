import { asc, eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisationInitiators, organisationMembers, organisations, organisationTermsAgreements, organisationTranslations } from '../../db/schema/index.js';
import { writtenTexts } from '../legal/texts.js';
import { fromJson, qualified as q } from '../../db/sql.js';
import { type MailBrand, PLATFORM_BRAND } from '../../mail/html.js';
import type { OrganisationContext, OrganisationTerms } from './rules.js';

interface LoadedOrganisation {
  id: number;
  slug: string;
  name: string;
  title: string;
  language: string;
  enableGeolocation: boolean;
}

const organisationColumns = {
  id: organisations.id,
  slug: organisations.slug,
  name: organisations.name,
  title: organisations.title,
  language: organisations.language,
  enableGeolocation: organisations.enableGeolocation,
};

/** An organisation by slug with the user's roles in it, in one statement; null when there is none. */
export async function loadOrganisationContext(
  db: DbOrTx,
  slug: string,
  user: OrganisationContext['user'],
): Promise<{ organisation: LoadedOrganisation; context: OrganisationContext } | null> {
  const uid = user?.id ?? 0;
  const [row] = await db
    .select({
      ...organisationColumns,
      // Qualified columns: bare names in a single-table select bind to the innermost table (finding F1).
      initiator: sql<boolean>`exists (select 1 from ${organisationInitiators} where ${q(organisationInitiators.organisationId)} = ${q(organisations.id)} and ${q(organisationInitiators.userId)} = ${uid})`,
      member: sql<boolean>`exists (select 1 from ${organisationMembers} where ${q(organisationMembers.organisationId)} = ${q(organisations.id)} and ${q(organisationMembers.userId)} = ${uid})`,
    })
    .from(organisations)
    .where(eq(organisations.slug, slug));
  if (!row) return null;
  const { initiator, member, ...organisation } = row;
  return { organisation, context: { organisationId: row.id, user, roles: { initiator, member } } };
}

/** The ids of an organisation's initiators. */
export async function initiatorIds(db: DbOrTx, organisationId: number): Promise<number[]> {
  const rows = await db.select({ id: organisationInitiators.userId }).from(organisationInitiators).where(eq(organisationInitiators.organisationId, organisationId));
  return rows.map((r) => r.id);
}

/** Everything the settings forms, the landing page and the footer show of an organisation, with its texts per language. */
export async function loadOrganisationProfile(db: DbOrTx, slug: string) {
  const [row] = await db.select().from(organisations).where(eq(organisations.slug, slug));
  if (!row) return null;
  const translations = await db.select().from(organisationTranslations).where(eq(organisationTranslations.organisationId, row.id));
  return { ...row, translations, legal: writtenTexts(row) };
}
export type OrganisationProfile = NonNullable<Awaited<ReturnType<typeof loadOrganisationProfile>>>;

/** A text in the reader's language, else in another language, else the organisation's own description. */
export function translated(profile: OrganisationProfile, field: 'description' | 'slogan' | 'information', lang: string): string {
  const own = profile.translations.find((tr) => tr.language === lang)?.[field];
  return own || profile.translations.map((tr) => tr[field]).find(Boolean) || (field === 'description' ? profile.description : '');
}

/**
 * Whether the organisation has written terms of use and whether the user has agreed to them, as
 * select fields over `organisations` (a page adds them to its own statement; `toOrganisationTerms` reads them back).
 */
export const organisationTermsFields = (userId: number | null | Placeholder<'uid'> | SQL) => ({
  slug: organisations.slug,
  written: sql<boolean>`btrim(${q(organisations.termsOfUse)}) <> ''`,
  agreed: sql<boolean>`exists (select 1 from ${organisationTermsAgreements} where ${q(organisationTermsAgreements.organisationId)} = ${q(organisations.id)} and ${q(organisationTermsAgreements.userId)} = ${userId ?? 0})`,
});

/** The same as one JSON field of a statement over the organisation `organisationId` (SQL, e.g. a column of the statement): `organisationTermsOf` reads it back. */
export const organisationTermsField = (organisationId: SQL, userId: SQL) => {
  const { slug, written, agreed } = organisationTermsFields(userId);
  return sql<unknown>`(select json_build_object('slug', ${q(slug)}, 'written', ${written}, 'agreed', ${agreed}) from ${organisations} where ${q(organisations.id)} = ${organisationId})`;
};

/** What `organisationTermsField` read, for the user `userId` (null: anonymous). */
export const organisationTermsOf = (raw: unknown, userId: number | null): OrganisationTerms | null =>
  raw === null || raw === undefined ? null : toOrganisationTerms(fromJson(raw as { slug: string; written: boolean; agreed: boolean } | string), userId);

export const toOrganisationTerms = (row: { slug: string; written: boolean; agreed: boolean }, userId: number | null): OrganisationTerms => ({ ...row, signedIn: userId !== null });

/**
 * Whether an organisation has written terms of use and whether the user has agreed to them
 * (§A11.7, §A13), in one statement; null when the organisation does not exist.
 */
export async function loadOrganisationTerms(db: DbOrTx, organisationId: number, userId: number | null): Promise<OrganisationTerms | null> {
  const [row] = await db.select(organisationTermsFields(userId)).from(organisations).where(eq(organisations.id, organisationId));
  return row ? toOrganisationTerms(row, userId) : null;
}

/** The organisations whose terms of use the user agreed to, by name (the account's agreements page). */
export async function loadTermsAgreements(db: DbOrTx, userId: number): Promise<{ organisationId: number; slug: string; name: string; created: Date }[]> {
  return db
    .select({ organisationId: organisations.id, slug: organisations.slug, name: organisations.name, created: organisationTermsAgreements.created })
    .from(organisationTermsAgreements)
    .innerJoin(organisations, eq(organisations.id, organisationTermsAgreements.organisationId))
    .where(eq(organisationTermsAgreements.userId, userId))
    .orderBy(asc(organisations.name), asc(organisations.id));
}

/** The name and logo that head the HTML part of e-mails about the organisation (mail/html.ts). */
export async function organisationBrand(db: DbOrTx, slug: string, origin: string): Promise<MailBrand> {
  const [row] = await db.select({ name: organisations.name, logo: organisations.logo }).from(organisations).where(eq(organisations.slug, slug));
  if (!row) return PLATFORM_BRAND;
  return { name: row.name, logoUrl: row.logo ? `${origin}/media/${row.logo}` : null };
}
