import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { Tx } from '../../db/client.js';
import { notificationInappOptouts, notifications, users } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';
import { publishLive, publishLiveEach } from '../../http/live.js';
import type { NotificationKind } from '../../mail/notices.js';
import { NOTIFICATION_MESSAGES, notificationsTopic } from './kinds.js';

/** The live event that tells a user's pages their notifications changed; they read the count anew. */
const NOTIFICATIONS_EVENT = 'notifications';

interface NotificationRecord {
  kind: NotificationKind;
  /** Who it is for; the actor is left out (nobody is told about their own action). */
  recipientIds: number[];
  actorId: number | null;
  projectId: number | null;
  /** The message's places (kinds.ts): project, actor, idea, status (a catalogue key), phase, organisation. */
  context: Record<string, string>;
  /** Where it leads: a path on this site or an absolute address on it (its path is kept); '' for nowhere. */
  url: string;
  /** The kind's message in other words (a catalogue key with the same places); NOTIFICATION_MESSAGES' when left out. */
  message?: string;
}

/** The path of an address on this site ('' for anything else): a notification links only within the site. */
export function sitePath(url: string): string {
  if (url.startsWith('/') && !url.startsWith('//')) return url;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? `${parsed.pathname}${parsed.search}${parsed.hash}` : '';
  } catch {
    return '';
  }
}

/**
 * Records an in-app notification for each recipient who wants this kind in the app (active users
 * without an in-app opt-out), in the caller's transaction: the same event that queues the e-mail
 * records it, and both or neither are kept. Each recipient's pages hear of it over the live channel
 * once the transaction commits. Returns how many were recorded.
 */
export async function recordNotifications(tx: Tx, record: NotificationRecord): Promise<number> {
  const ids = [...new Set(record.recipientIds)].filter((id) => id !== record.actorId);
  if (!ids.length) return 0;
  const optedOut = tx
    .select({ userId: notificationInappOptouts.userId })
    .from(notificationInappOptouts)
    .where(and(sql`${q(notificationInappOptouts.userId)} = ${q(users.id)}`, eq(notificationInappOptouts.kind, record.kind)));
  const recipients = await tx
    .select({ id: users.id })
    .from(users)
    .where(and(inArray(users.id, ids), eq(users.isActive, true), notExists(optedOut)));
  if (!recipients.length) return 0;
  const message = record.message ?? NOTIFICATION_MESSAGES[record.kind];
  const targetUrl = sitePath(record.url);
  await tx.insert(notifications).values(recipients.map((r) => ({ recipientId: r.id, kind: record.kind, message, context: record.context, targetUrl, projectId: record.projectId })));
  await publishLiveEach(
    tx,
    recipients.map((r) => ({ topic: notificationsTopic(r.id), event: NOTIFICATIONS_EVENT, data: {} })),
  );
  return recipients.length;
}

/** Marks one of the user's notifications read; false when it is not theirs or was read already. */
export async function markNotificationRead(tx: Tx, userId: number, notificationId: number): Promise<boolean> {
  const rows = await tx
    .update(notifications)
    .set({ read: true, readAt: new Date() })
    .where(and(eq(notifications.id, notificationId), eq(notifications.recipientId, userId), eq(notifications.read, false)))
    .returning({ id: notifications.id });
  if (rows.length) await publishLive(tx, notificationsTopic(userId), NOTIFICATIONS_EVENT, {});
  return rows.length > 0;
}

/** Marks every unread notification of the user read; returns how many. */
export async function markAllNotificationsRead(tx: Tx, userId: number): Promise<number> {
  const rows = await tx
    .update(notifications)
    .set({ read: true, readAt: new Date() })
    .where(and(eq(notifications.recipientId, userId), eq(notifications.read, false)))
    .returning({ id: notifications.id });
  if (rows.length) await publishLive(tx, notificationsTopic(userId), NOTIFICATIONS_EVENT, {});
  return rows.length;
}
