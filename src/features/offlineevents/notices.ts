import { and, eq, gt } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { follows, systemNotices } from '../../db/schema/index.js';
import { formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { loadRecipients, type NotificationKind } from '../../mail/notices.js';
import { queueMail } from '../../mail/outbox.js';
import { recordAction } from '../../core/actions/services.js';
import { claimSystemNotice } from '../../core/actions/system.js';
import { recordNotifications } from '../../core/notifications/services.js';
import { projectViewers } from '../../core/projects/context.js';
import { projectPath } from '../../core/urls.js';
import { eventForNotice, eventsStartingSoon, offlineEventPath } from './queries.js';
import { EVENT_SOON_HOURS } from './rules.js';

/** Where the site lives and its time zone: the links and the event's date in the e-mails. */
export interface EventNoticeOptions {
  origin: string;
  timeZone: string;
}

/**
 * The e-mails a project's followers get about its events (a+ 2026's OfflineEventReminder,
 * OfflineEventCreated, OfflineEventUpdate and OfflineEventDeleted, with their notification types);
 * German in i18n/de-events.ts. The delivery adds the settings and the one-click unsubscribe.
 */
const EVENT_MAILS = {
  event_soon: {
    subject: 'Event in project %(project)s',
    body: 'Hello %(name)s,\n\nthe event "%(event)s" of the project "%(project)s" takes place on %(date)s. More about it: %(url)s',
  },
  event_added: {
    subject: 'Event added to project %(project)s',
    body: 'Hello %(name)s,\n\nthe event "%(event)s" was added to the project "%(project)s". It takes place on %(date)s. More about it: %(url)s',
  },
  event_update: {
    subject: 'Event %(event)s in project %(project)s moved',
    body: 'Hello %(name)s,\n\nthe event "%(event)s" of the project "%(project)s" now takes place on %(date)s. More about it: %(url)s',
  },
  event_cancelled: {
    subject: 'Event %(event)s in project %(project)s cancelled',
    body: 'Hello %(name)s,\n\nthe event "%(event)s" of the project "%(project)s" on %(date)s has been cancelled. The project: %(url)s',
  },
} satisfies Partial<Record<NotificationKind, { subject: string; body: string }>>;

type EventNoticeKind = keyof typeof EVENT_MAILS;

/** An event as a notice names it. */
interface NoticeEvent {
  id: number;
  slug: string;
  name: string;
  date: Date;
  projectId: number;
  projectName: string;
  projectSlug: string;
  orgSlug: string;
}

/**
 * Tells the project's followers who may still see the project about its event, in the app and by
 * e-mail (each as their settings say), in the caller's transaction; the actor is left out. A
 * cancelled event's notice leads to the project, the others to the event's page.
 */
async function tellFollowers(tx: Tx, kind: EventNoticeKind, event: NoticeEvent, actorId: number | null, options: EventNoticeOptions): Promise<number> {
  const followers = await tx.select({ id: follows.creatorId }).from(follows).where(and(eq(follows.projectId, event.projectId), eq(follows.enabled, true)));
  const viewers = [...(await projectViewers(tx, event.projectId, followers.map((f) => f.id)))].filter((id) => id !== actorId);
  if (!viewers.length) return 0;
  const path = kind === 'event_cancelled' ? projectPath(event.orgSlug, event.projectSlug) : offlineEventPath(event.orgSlug, event.slug);
  await recordNotifications(tx, { kind, recipientIds: viewers, actorId, projectId: event.projectId, context: { project: event.projectName, event: event.name }, url: path });
  const recipients = await loadRecipients(tx, viewers, kind);
  for (const r of recipients) {
    const vars = { name: r.username, event: event.name, project: event.projectName, date: formatDateTime(event.date, r.lang, options.timeZone), url: `${options.origin}${path}` };
    await queueMail(tx, { to: r.email, subject: t(r.lang, EVENT_MAILS[kind].subject, vars), body: t(r.lang, EVENT_MAILS[kind].body, vars), kind });
  }
  return recipients.length;
}

/**
 * A+'s notices of a change to an event (added, moved to another date, cancelled), for a project that
 * is no draft; the dashboard's pages send them, never loaddata or the import. Call it after an add
 * or a change and before a deletion, in the same transaction.
 */
export async function sendEventChangeNotice(tx: Tx, kind: Exclude<EventNoticeKind, 'event_soon'>, eventId: number, actorId: number, options: EventNoticeOptions): Promise<void> {
  const event = await eventForNotice(tx, eventId);
  if (event && !event.isDraft) await tellFollowers(tx, kind, event, actorId, options);
}

/**
 * "Event soon" (a+ `send_upcoming_event_notifications` and `create_offlineevent_system_actions`):
 * for each event of a published project that starts within EVENT_SOON_HOURS, once, a "start" action
 * at the event's date (the activity stream) and the e-mail to the project's followers. The notice is
 * claimed by its unique system_notices row in the transaction that sends it, so it goes out once
 * however many instances run this; an event moved by more than the window is announced again.
 */
export async function sendEventSoonNotices(db: Db, options: EventNoticeOptions & { now?: Date }): Promise<{ events: number; mails: number }> {
  const now = options.now ?? new Date();
  const counts = { events: 0, mails: 0 };
  for (const event of await eventsStartingSoon(db, now)) {
    await db.transaction(async (tx) => {
      const [announced] = await tx
        .select({ id: systemNotices.id })
        .from(systemNotices)
        .where(and(eq(systemNotices.kind, 'event_soon'), eq(systemNotices.objectId, event.id), gt(systemNotices.at, new Date(event.date.getTime() - EVENT_SOON_HOURS * 3600 * 1000))));
      if (announced || !(await claimSystemNotice(tx, 'event_soon', event.id, event.date))) return;
      await recordAction(tx, { actorId: null, verb: 'start', obj: { type: 'offlineevent', id: event.id }, target: { type: 'project', id: event.projectId }, projectId: event.projectId, timestamp: event.date });
      counts.events++;
      counts.mails += await tellFollowers(tx, 'event_soon', event, null, options);
    });
  }
  return counts;
}
