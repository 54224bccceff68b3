import type { Config } from '../../config.js';
import type { Db } from '../../db/client.js';
import { absoluteUrl } from '../../http/urls.js';
import { isLang } from '../../i18n/index.js';
import type { NotificationFooter } from '../../mail/delivery.js';
import { isNotificationKind, notificationFooter } from '../../mail/notices.js';
import { findAccountByEmail } from '../../core/users/services.js';
import { NOTIFICATION_SETTINGS_PATH, notificationsOffPath } from '../../core/users/urls.js';

/**
 * The footer mail delivery adds to every notification e-mail (issue 37, item 4): the receiver's
 * one-click link for this kind (List-Unsubscribe, RFC 8058) and the settings' address, in her
 * language. Other mails (account, invitations, newsletters with their own link) get none.
 */
export const notificationFooters =
  (config: Pick<Config, 'secretKey' | 'baseUrl'>, db: Db) =>
  async (recipient: string, kind: string): Promise<NotificationFooter | null> => {
    if (!isNotificationKind(kind)) return null;
    const account = await findAccountByEmail(db, recipient);
    if (!account) return null;
    const unsubscribeUrl = absoluteUrl(config.baseUrl, notificationsOffPath(config.secretKey, account.id, kind));
    const footer = notificationFooter(isLang(account.language) ? account.language : 'de', kind, { settingsUrl: absoluteUrl(config.baseUrl, NOTIFICATION_SETTINGS_PATH), unsubscribeUrl });
    return { unsubscribeUrl, ...footer };
  };
