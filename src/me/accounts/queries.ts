import { and, asc, eq, inArray, or } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { follows, newsletterOptouts, notificationInappOptouts, notificationOptouts, organisations, projects, users } from '../../db/schema/index.js';
import { NOTIFICATION_KINDS, type NotificationKind } from '../../mail/notices.js';

export interface MailSettings {
  newsletters: boolean;
  /** The organisations whose newsletters can reach the user (a followed project) or that the user unsubscribed from. */
  organisations: { id: number; name: string; wanted: boolean }[];
  /** Each kind: by e-mail (`wanted`) and in the notification centre (`inApp`). */
  notifications: { kind: NotificationKind; label: string; wanted: boolean; inApp: boolean }[];
}

/** What `/account/notifications/` shows, in five statements. */
export async function loadMailSettings(db: DbOrTx, userId: number): Promise<MailSettings> {
  const [user] = await db.select({ newsletters: users.getNewsletters, notifications: users.getNotifications }).from(users).where(eq(users.id, userId));
  const optedOut = await db.select({ organisationId: newsletterOptouts.organisationId }).from(newsletterOptouts).where(eq(newsletterOptouts.userId, userId));
  const optedOutIds = optedOut.map((row) => row.organisationId);
  const followed = db
    .selectDistinct({ id: projects.organisationId })
    .from(follows)
    .innerJoin(projects, eq(projects.id, follows.projectId))
    .where(and(eq(follows.creatorId, userId), eq(follows.enabled, true)));
  const orgs = await db
    .select({ id: organisations.id, name: organisations.name })
    .from(organisations)
    .where(optedOutIds.length ? or(inArray(organisations.id, optedOutIds), inArray(organisations.id, followed)) : inArray(organisations.id, followed))
    .orderBy(asc(organisations.name));
  const kindsOff = new Set((await db.select({ kind: notificationOptouts.kind }).from(notificationOptouts).where(eq(notificationOptouts.userId, userId))).map((row) => row.kind));
  const inAppOff = new Set((await db.select({ kind: notificationInappOptouts.kind }).from(notificationInappOptouts).where(eq(notificationInappOptouts.userId, userId))).map((row) => row.kind));
  const notificationsOn = user?.notifications ?? true;
  return {
    newsletters: user?.newsletters ?? false,
    organisations: orgs.map((org) => ({ ...org, wanted: !optedOutIds.includes(org.id) })),
    notifications: (Object.keys(NOTIFICATION_KINDS) as NotificationKind[]).map((kind) => ({ kind, label: NOTIFICATION_KINDS[kind], wanted: notificationsOn && !kindsOff.has(kind), inApp: !inAppOff.has(kind) })),
  };
}

/** The organisation an unsubscribe link names; null when it is gone. */
export async function organisationName(db: DbOrTx, organisationId: number): Promise<string | null> {
  const [row] = await db.select({ name: organisations.name }).from(organisations).where(eq(organisations.id, organisationId));
  return row?.name ?? null;
}
