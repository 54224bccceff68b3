import { and, eq, notInArray } from 'drizzle-orm';
import type { Lang } from '../../i18n/index.js';
import type { Tx } from '../../db/client.js';
import { organisations, organisationTermsAgreements, organisationTranslations } from '../../db/schema/index.js';
import { agreedOrganisation, type TermsAgreement } from './rules.js';

export interface SettingsInput {
  title: string;
  imageCopyright: string;
  url: string;
  twitterHandle: string;
  facebookHandle: string;
  instagramHandle: string;
  language: Lang;
  translations: { language: Lang; description: string; slogan: string; information: string }[];
}

export interface LegalInput {
  imprint: string;
  termsOfUse: string;
  dataProtection: string;
  netiquette: string;
}

/** Saves the settings form (§B3.1): fields, images (media paths, undefined = unchanged) and the texts per language. */
export async function updateOrganisationSettings(tx: Tx, organisationId: number, input: SettingsInput, images: { logo?: string | null; image?: string | null }): Promise<void> {
  const { translations, ...fields } = input;
  await tx.update(organisations).set({ ...fields, ...images }).where(eq(organisations.id, organisationId));
  for (const tr of translations) {
    await tx
      .insert(organisationTranslations)
      .values({ organisationId, ...tr })
      .onConflictDoUpdate({ target: [organisationTranslations.organisationId, organisationTranslations.language], set: { description: tr.description, slogan: tr.slogan, information: tr.information } });
  }
}

export async function updateOrganisationLegal(tx: Tx, organisationId: number, input: LegalInput): Promise<void> {
  await tx.update(organisations).set(input).where(eq(organisations.id, organisationId));
}

/**
 * Records that the user agreed to the organisation's terms of use, when the form asked and the box
 * was ticked (checked before with `organisationTermsError`); once per (user, organisation). Called
 * by the commands of the forms that ask (issue 33.5), never by a handler.
 */
export async function recordTermsAgreement(tx: Tx, agreement: TermsAgreement | undefined): Promise<void> {
  const organisationId = agreedOrganisation(agreement);
  if (organisationId === null || !agreement) return;
  await tx.insert(organisationTermsAgreements).values({ userId: agreement.userId, organisationId }).onConflictDoNothing();
}

/** Withdraws the user's agreements to the terms of every organisation but `keep`: their forms ask again. */
export async function withdrawTermsAgreements(tx: Tx, userId: number, keep: number[]): Promise<void> {
  await tx.delete(organisationTermsAgreements).where(and(eq(organisationTermsAgreements.userId, userId), keep.length ? notInArray(organisationTermsAgreements.organisationId, keep) : undefined));
}
