import { Type } from 'typebox';
import type { Lang } from '../../i18n/index.js';
import { notificationText } from '../../core/notifications/kinds.js';
import type { NotificationRow } from '../../core/notifications/queries.js';

export const NotificationSchema = Type.Object({
  id: Type.Integer(),
  notification_type: Type.String({ description: 'The kind (mail/notices.ts NOTIFICATION_KINDS), as in adhocracy+' }),
  message: Type.String({ description: "The text in the request's language" }),
  message_template: Type.String({ description: 'The English text with %(name)s places, filled from context' }),
  context: Type.Record(Type.String(), Type.String()),
  target_url: Type.Union([Type.String(), Type.Null()], { description: 'Where it leads on this site (absolute), or null' }),
  read: Type.Boolean(),
  read_at: Type.Union([Type.String(), Type.Null()]),
  created: Type.String(),
});

/** A notification as the API answers it (close to adhocracy+'s Notification). */
export const serializeNotification = (row: NotificationRow, lang: Lang, absolute: (path: string) => string) => ({
  id: row.id,
  notification_type: row.kind,
  message: notificationText(lang, row),
  message_template: row.message,
  context: row.context,
  target_url: row.targetUrl ? absolute(row.targetUrl) : null,
  read: row.read,
  read_at: row.readAt ? row.readAt.toISOString() : null,
  created: row.created.toISOString(),
});
