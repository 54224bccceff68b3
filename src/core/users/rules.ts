import { isSameOriginPath } from '../../http/urls.js';

/** Where login, signup confirmation and social login lead when no (safe) `next` says otherwise. */
export const AFTER_LOGIN = '/userdashboard/overview/';

/** Does a login or signup started from this page (the header's links) come back to it? Not from the accounts pages themselves, nor to a path `safeNext` would refuse. */
export const returnsAfterLogin = (path: string) => !path.startsWith('/accounts/') && isSameOriginPath(path);

/** Usernames: letters, digits, spaces and @ . + - _, not starting with a space or sign, 5 to 60 characters. */
export const USERNAME_PATTERN = /^[\p{L}\p{N}_][\p{L}\p{N}_ .@+-]*$/u;
export const USERNAME_MAX_LENGTH = 60;
/** adhocracy+'s minimum (issue 36.8); an account keeps a shorter name it had before (docs/decisions.md). */
export const USERNAME_MIN_LENGTH = 5;
/** E-mail addresses (RFC 5321) and the profile's biography. */
export const EMAIL_MAX_LENGTH = 254;
const EMAIL_PATTERN = /^[^@\s<>]+@[^@\s<>]+\.[^@\s<>]+$/;
export const BIO_MAX_LENGTH = 255;

/** The profile's links (adhocracy+'s homepage, Twitter and Facebook handles), shown on the public profile. */
export const PROFILE_LINK_MAX_LENGTH = { homepage: 200, handle: 100 } as const;
const HANDLE_PATTERN = /^[\w.-]+$/;

/** Why the profile's links are refused, per form field, as English catalogue keys; empty when they are fine (each may be empty). */
export function profileLinkErrors(links: { homepage: string; twitter_handle: string; facebook_handle: string }): Record<string, string> {
  const errors: Record<string, string> = {};
  if (links.homepage && (links.homepage.length > PROFILE_LINK_MAX_LENGTH.homepage || !/^https?:\/\/[^\s<>"]+$/i.test(links.homepage))) errors.homepage = 'Enter a valid URL.';
  for (const field of ['twitter_handle', 'facebook_handle'] as const) {
    const handle = links[field];
    if (handle && (handle.length > PROFILE_LINK_MAX_LENGTH.handle || !HANDLE_PATTERN.test(handle))) errors[field] = 'Enter the name only: letters, digits, dots, hyphens and underscores.';
  }
  return errors;
}

/**
 * Why a (trimmed, non-empty) username is refused, as an English catalogue key; null when it is
 * valid. `current` is the account's name now: kept unchanged, a name from before the minimum
 * length stays valid. Uniqueness is the services' check.
 */
export function usernameError(username: string, current?: string): string | null {
  if (username.length > USERNAME_MAX_LENGTH || !USERNAME_PATTERN.test(username)) {
    return 'Enter a valid username. This value may contain only letters, digits, spaces and @/./+/-/_ characters.';
  }
  if ([...username].length < USERNAME_MIN_LENGTH && username !== current) return 'Ensure this value has at least 5 characters.';
  return null;
}

/** Is a (trimmed, non-empty) e-mail address one that signup, settings, password reset and createsuperuser accept? */
export const isValidEmail = (email: string) => email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);

/** The back-office (§D) is for platform operators: superusers only (the page header links it for them). */
export const canUseBackoffice = (user: { isSuperuser: boolean } | null) => Boolean(user?.isSuperuser);
/** The platform texts the sign-up form asks to accept: the terms of use and the data protection notice, those written (issue 22.3: never an empty text). */
export type ConsentText = 'terms' | 'privacy';
export const signupConsentTexts = (unwritten: readonly string[]): ConsentText[] => (['terms', 'privacy'] as const).filter((key) => !unwritten.includes(key));

/** Where a guest turns into an account (issue 34.4), and where a visitor becomes a guest (`?next=` the form they came from). */
export const GUEST_CONVERT_PATH = '/accounts/guest/convert/';
export const GUEST_PATH = '/accounts/guest/';
