import type { Config } from '../../config.js';
import { absoluteUrl, withNext } from '../../http/urls.js';
import { AFTER_LOGIN } from './rules.js';
import { type Account, confirmationState, resetState } from './services.js';
import { signLink } from './link-tokens.js';

/** An accounts page (login, signup, confirmation) that keeps the way back to `next`, a path `safeNext` already checked. */
export const keepingNext = (path: string, next: string) => (next === AFTER_LOGIN ? path : withNext(path, next));

/**
 * The one place the links mailed to an account are built (signup, a changed address, a forgotten
 * password): absolute URLs on BASE_URL; the confirmation link leads on to `next` (a path `safeNext`
 * checked), e.g. the invitation the user signed up from.
 */
export function accountLinks(config: Pick<Config, 'secretKey' | 'baseUrl'>, next = AFTER_LOGIN) {
  const { secretKey, baseUrl } = config;
  return {
    confirm: (a: Pick<Account, 'id' | 'email' | 'emailVerified' | 'pendingEmail'>) =>
      absoluteUrl(baseUrl, keepingNext(`/accounts/confirm-email/${signLink(secretKey, 'confirm-email', a.id, confirmationState(a))}/`, next)),
    reset: (a: Pick<Account, 'id' | 'email' | 'password' | 'isActive'>) => absoluteUrl(baseUrl, `/accounts/password/reset/key/${signLink(secretKey, 'reset-password', a.id, resetState(a))}/`),
  };
}

/** The path of a newsletter's unsubscribe link: one organisation's newsletters, for one user, no login needed. */
export const unsubscribePath = (secretKey: string, userId: number, organisationId: number) => `/accounts/unsubscribe/${signLink(secretKey, 'unsubscribe', userId, String(organisationId))}/`;

/** The path of a notification e-mail's one-click link (RFC 8058): turns that kind of notification off for one user, no login needed. */
export const notificationsOffPath = (secretKey: string, userId: number, kind: string) => `/accounts/notifications-off/${signLink(secretKey, 'notifications-off', userId, kind)}/`;

/** Where every notification e-mail's footer leads: the switches of each kind. */
export const NOTIFICATION_SETTINGS_PATH = '/account/notifications/';
