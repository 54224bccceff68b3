import { and, count, desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { notifications } from '../../db/schema/index.js';

export interface NotificationRow {
  id: number;
  recipientId: number;
  kind: string;
  message: string;
  context: Record<string, string>;
  targetUrl: string;
  read: boolean;
  readAt: Date | null;
  created: Date;
}

const columns = {
  id: notifications.id,
  recipientId: notifications.recipientId,
  kind: notifications.kind,
  message: notifications.message,
  context: notifications.context,
  targetUrl: notifications.targetUrl,
  read: notifications.read,
  readAt: notifications.readAt,
  created: notifications.created,
};

/** One notification, whoever it belongs to (the caller asks rules.ts whether the user may see it). */
export async function loadNotification(db: DbOrTx, id: number): Promise<NotificationRow | null> {
  const [row] = await db.select(columns).from(notifications).where(eq(notifications.id, id));
  return row ?? null;
}

/** A page of the user's notifications, newest first, and how many there are (two statements). */
export async function loadNotifications(db: DbOrTx, userId: number, options: { page: number; size: number; unreadOnly?: boolean }): Promise<{ rows: NotificationRow[]; count: number }> {
  const where = and(eq(notifications.recipientId, userId), options.unreadOnly ? eq(notifications.read, false) : undefined);
  const rows = await db
    .select(columns)
    .from(notifications)
    .where(where)
    .orderBy(desc(notifications.created), desc(notifications.id))
    .limit(options.size)
    .offset((options.page - 1) * options.size);
  const [total] = await db.select({ n: count() }).from(notifications).where(where);
  return { rows, count: total?.n ?? 0 };
}

/** How many of the user's notifications are unread (the bell). */
export async function unreadNotificationCount(db: DbOrTx, userId: number): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.recipientId, userId), eq(notifications.read, false)));
  return row?.n ?? 0;
}
