import { formatDate, formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import type { AuthUser } from '../../http/auth.js';
import type { PageLinks } from '../../http/pagination.js';
import type { PageContext } from '../../web/context.js';
import { CsrfField, Notice } from '../../web/layout.js';
import { Pager } from '../../web/pager.js';
import { NOTIFICATIONS_PATH } from '../../web/paths.js';
import { DashboardFrame, type Sidebar } from './views.js';

/** A notification as the centre shows it: its text in the reader's language, and where it leads. */
interface NotificationItem {
  id: number;
  text: string;
  /** The page that opens it (marks it read, then leads to its place), or null when it leads nowhere. */
  openUrl: string | null;
  read: boolean;
  created: Date;
}

interface NotificationsData {
  items: NotificationItem[];
  unreadOnly: boolean;
  unread: number;
  pager: PageLinks;
}

export const notificationOpenPath = (id: number) => `${NOTIFICATIONS_PATH}${id}/`;
const notificationReadPath = (id: number) => `${NOTIFICATIONS_PATH}${id}/read/`;
export const NOTIFICATIONS_READ_ALL_PATH = `${NOTIFICATIONS_PATH}read_all/`;

/** `/userdashboard/notifications/`: the notification centre (adhocracy+'s), newest first, unread marked. */
export function NotificationsPage({ page, sidebar, data }: { page: PageContext & { user: AuthUser }; sidebar: Sidebar; data: NotificationsData }) {
  const { lang, timeZone } = page;
  const title = t(lang, 'Notifications');
  return (
    <DashboardFrame page={page} sidebar={sidebar} title={title} tab="notifications">
      <h1>{title}</h1>
      <nav aria-label={t(lang, 'Show')}>
        <ul class="filter-links">
          <li>
            <a href={NOTIFICATIONS_PATH} aria-current={data.unreadOnly ? undefined : 'page'}>
              {t(lang, 'All')}
            </a>
          </li>
          <li>
            <a href={`${NOTIFICATIONS_PATH}?unread=1`} aria-current={data.unreadOnly ? 'page' : undefined}>
              {t(lang, 'Unread (%(count)s)', { count: data.unread })}
            </a>
          </li>
        </ul>
      </nav>
      {data.unread > 0 && (
        <form method="post" action={NOTIFICATIONS_READ_ALL_PATH}>
          <CsrfField page={page} />
          <button type="submit">{t(lang, 'Mark all as read')}</button>
        </form>
      )}
      {data.items.length ? (
        <ul class="notification-list">
          {data.items.map((item) => (
            <li class={item.read ? 'notification' : 'notification unread'}>
              <p>
                {!item.read && <span class="badge">{t(lang, 'New')}</span>} {item.openUrl ? <a href={item.openUrl}>{item.text}</a> : item.text}
              </p>
              <time dateTime={item.created.toISOString()} title={formatDateTime(item.created, lang, timeZone)}>
                {formatDate(item.created, lang, timeZone)}
              </time>
              {!item.read && (
                <form method="post" action={notificationReadPath(item.id)} class="inline-form">
                  <CsrfField page={page} />
                  <button type="submit" class="link-button">
                    {t(lang, 'Mark as read')}<span class="visually-hidden">: {item.text}</span>
                  </button>
                </form>
              )}
            </li>
          ))}
        </ul>
      ) : (
        <Notice>
          <p>{data.unreadOnly ? t(lang, 'You have no unread notifications.') : t(lang, 'You have no notifications yet.')}</p>
        </Notice>
      )}
      <Pager lang={lang} pager={data.pager} />
      <p>
        <a href="/account/notifications/">{t(lang, 'Choose which notifications you get')}</a>
      </p>
    </DashboardFrame>
  );
}
