import { isLang, type Lang } from '../../i18n/index.js';
import { projectGroup } from '../dashboard/rules.js';

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

/** The start page's status filter (in the URL as `status`) and the tile group it selects. */
export const PROJECT_STATUS_FILTERS = { running: 'active', upcoming: 'future', finished: 'past' } as const;
export type ProjectStatusFilter = keyof typeof PROJECT_STATUS_FILTERS;

/** The start page's filter, as the URL carries it ('' = all). */
export interface ProjectFilter {
  search: string;
  topic: string;
  organisation: string;
  status: ProjectStatusFilter | '';
}

export const NO_PROJECT_FILTER: ProjectFilter = { search: '', topic: '', organisation: '', status: '' };

export const isFiltered = (filter: ProjectFilter) => Object.values(filter).some(Boolean);

const words = (text: string) => text.normalize('NFKC').toLowerCase().split(/\s+/).filter(Boolean);

/**
 * Whether a listed project matches the start page's filter: every word of the search in its name,
 * description or organisation; one of its topics; its organisation; its participation status.
 */
export function projectMatches(
  project: { name: string; description: string; organisationName: string; organisationSlug: string; topics: string[]; isDraft: boolean; start: Date | null; end: Date | null },
  filter: ProjectFilter,
  now: Date,
): boolean {
  if (filter.organisation && project.organisationSlug !== filter.organisation) return false;
  if (filter.topic && !project.topics.includes(filter.topic)) return false;
  if (filter.status && projectGroup(project, now) !== PROJECT_STATUS_FILTERS[filter.status]) return false;
  const haystack = `${project.name} ${project.description} ${project.organisationName}`.normalize('NFKC').toLowerCase();
  return words(filter.search).every((word) => haystack.includes(word));
}

/**
 * The language of what the platform writes into an organisation's content (blueprint phase names,
 * "Copy of …"): the organisation's, not that of the initiator who clicked (issue 22, item 15).
 */
export const organisationLanguage = (organisation: { language: string }): Lang => (isLang(organisation.language) ? organisation.language : 'de');
