import { eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { organisations, organisationTranslations } from '../../db/schema/index.js';
import type { LegalInput, SettingsInput } from './settings.js';

/** Saves the settings form (§B3.1): fields, images (media paths, undefined = unchanged) and the texts per language. */
export async function updateOrganisationSettings(tx: DbOrTx, organisationId: number, input: SettingsInput, images: { logo?: string | null; image?: string | null }): Promise<void> {
  const { translations, ...fields } = input;
  await tx.update(organisations).set({ ...fields, ...images }).where(eq(organisations.id, organisationId));
  for (const tr of translations) {
    await tx
      .insert(organisationTranslations)
      .values({ organisationId, ...tr })
      .onConflictDoUpdate({ target: [organisationTranslations.organisationId, organisationTranslations.language], set: { description: tr.description, slogan: tr.slogan, information: tr.information } });
  }
}

export async function updateOrganisationLegal(tx: DbOrTx, organisationId: number, input: LegalInput): Promise<void> {
  await tx.update(organisations).set(input).where(eq(organisations.id, organisationId));
}
