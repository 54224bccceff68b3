/** The back-office (§D) is for platform operators: superusers only. */
export const canUseBackoffice = (user: { isSuperuser: boolean } | null) => Boolean(user?.isSuperuser);
