import { isLang, type Lang } from '../../i18n/index.js';

/** What the rules need to know about an organisation and the user looking at it. */
export interface OrganisationContext {
  organisationId: number;
  user: { id: number; isSuperuser: boolean } | null;
  roles: { initiator: boolean; member: boolean };
}

/** Open the organisation's dashboard, create projects, change its settings: superuser or initiator of THIS organisation (§B1). */
export const canManageOrganisation = (c: OrganisationContext) => Boolean(c.user && (c.user.isSuperuser || c.roles.initiator));

/** The longest organisation name. */
export const ORGANISATION_NAME_MAX_LENGTH = 512;

/** Why an organisation name (trimmed) is refused, as an English catalogue key; null when it is fine. */
export const organisationNameError = (name: string): string | null =>
  !name ? 'This field is required.' : name.length > ORGANISATION_NAME_MAX_LENGTH ? `Ensure this field has no more than ${ORGANISATION_NAME_MAX_LENGTH} characters.` : null;

/** An organisation's terms of use as a content form sees them (§A11.7, §A13). */
export interface OrganisationTerms {
  slug: string;
  /** The organisation has written terms of use (an empty text asks nobody to agree). */
  written: boolean;
  /** The user has agreed to them once; then no form asks again. */
  agreed: boolean;
  signedIn: boolean;
}

/** The idea, comment and reply forms ask a signed-in user to agree to the organisation's terms until they have. */
export const organisationTermsAsked = (terms: OrganisationTerms | null): terms is OrganisationTerms => Boolean(terms && terms.signedIn && terms.written && !terms.agreed);

export const ORGANISATION_TERMS_REQUIRED = "Please agree to the organisation's terms of use.";

/** Why a posted form is refused for the terms (the box not ticked while asked), as a catalogue key; null when it may go on. */
export const organisationTermsError = (terms: OrganisationTerms | null, ticked: boolean): string | null =>
  organisationTermsAsked(terms) && !ticked ? ORGANISATION_TERMS_REQUIRED : null;

/**
 * A user's agreement to an organisation's terms, given with a form (a comment, a reply, an idea, an
 * edit, a ballot) whose tick was checked before (`organisationTermsError`). The command of the form
 * records it, once per (user, organisation), when the form asked (issue 33.5).
 */
export interface TermsAgreement {
  userId: number;
  organisationId: number;
  /** The terms as the form showed them (loadOrganisationTerms). */
  terms: OrganisationTerms | null;
}

/** The organisation whose terms an agreement records (the form asked for them), or null: nothing to record. */
export const agreedOrganisation = (agreement: TermsAgreement | undefined): number | null => (agreement && organisationTermsAsked(agreement.terms) ? agreement.organisationId : null);

/** Who acts, and where the site lives (for links in e-mails). */
export interface Actor {
  id: number;
  username: string;
  origin: string;
}
/**
 * The language of what the platform writes into an organisation's content (blueprint phase names,
 * "Copy of …"): the organisation's, not that of the initiator who clicked (issue 22, item 15).
 */
export const organisationLanguage = (organisation: { language: string }): Lang => (isLang(organisation.language) ? organisation.language : 'de');
