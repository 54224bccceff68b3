/** What the rules need to know about an organisation and the user looking at it. */
export interface OrganisationContext {
  organisationId: number;
  user: { id: number; isSuperuser: boolean } | null;
  roles: { initiator: boolean; member: boolean };
}

/** Open the organisation's dashboard, create projects, change its settings: superuser or initiator of THIS organisation (§B1). */
export const canManageOrganisation = (c: OrganisationContext) => Boolean(c.user && (c.user.isSuperuser || c.roles.initiator));
