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
