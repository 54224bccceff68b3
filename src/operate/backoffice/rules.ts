/** The longest user search of the back-office. */
export const USER_SEARCH_MAX_LENGTH = 200;
