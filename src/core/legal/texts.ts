/** The platform's legal pages (editable by superusers) and an organisation's legal texts (§B3.2). */
export const PLATFORM_PAGES = {
  imprint: 'Imprint',
  privacy: 'Data protection',
  terms: 'Terms of use',
  netiquette: 'Netiquette',
} as const;
export type PlatformPageKey = keyof typeof PLATFORM_PAGES;
export const PLATFORM_PAGE_KEYS = Object.keys(PLATFORM_PAGES) as PlatformPageKey[];
// Own keys only: "constructor" or "__proto__" from a URL must not count (found by the fuzz run of issue 21).
export const isPlatformPageKey = (key: string): key is PlatformPageKey => Object.hasOwn(PLATFORM_PAGES, key);
export const platformPagePath = (key: PlatformPageKey) => `/pages/${key}/`;
/** Where a superuser writes a platform page (the back-office). */
export const platformPageEditPath = (key: PlatformPageKey) => `/backoffice/pages/${key}/`;
/** The platform texts a project cannot go live without, and citizens are asked to accept (issue 22.3). */
export const REQUIRED_PLATFORM_PAGES = ['imprint', 'privacy', 'terms'] as const satisfies readonly PlatformPageKey[];

/** An organisation's legal texts: address segment → column and title (participation-facts §A2). */
export const ORGANISATION_TEXTS = {
  imprint: { column: 'imprint', title: 'Imprint' },
  'terms-of-use': { column: 'termsOfUse', title: 'Terms of use' },
  'data-protection': { column: 'dataProtection', title: 'Data protection' },
  netiquette: { column: 'netiquette', title: 'Netiquette' },
} as const;
export type OrganisationTextKey = keyof typeof ORGANISATION_TEXTS;
export const ORGANISATION_TEXT_KEYS = Object.keys(ORGANISATION_TEXTS) as OrganisationTextKey[];
export const organisationTextPath = (org: string, key: OrganisationTextKey) => `/${org}/${key}/`;

/** Which of an organisation's legal texts are written (only those are linked). */
export const writtenTexts = (organisation: Record<(typeof ORGANISATION_TEXTS)[OrganisationTextKey]['column'], string>): OrganisationTextKey[] =>
  ORGANISATION_TEXT_KEYS.filter((key) => organisation[ORGANISATION_TEXTS[key].column].trim() !== '');

/** A content page's address (a+ CMS pages; their slugs never take a legal page's key). */
export const contentPagePath = (slug: string) => `/pages/${slug}/`;
/** The contact form. */
export const CONTACT_PATH = '/contact/';
