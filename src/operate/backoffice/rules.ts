/** The back-office (§D) is for platform operators: superusers only. */
/** The longest user search of the back-office. */
export const USER_SEARCH_MAX_LENGTH = 200;

export const canUseBackoffice = (user: { isSuperuser: boolean } | null) => Boolean(user?.isSuperuser);
