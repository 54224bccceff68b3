import { and, eq, gt } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { follows, systemNotices } from '../../db/schema/index.js';
import { formatDateTime } from '../../i18n/dates.js';
import { t } from '../../i18n/index.js';
import { loadRecipients } from '../../mail/notices.js';
import { queueMail } from '../../mail/outbox.js';
import { recordAction } from '../../core/actions/services.js';
import { claimSystemNotice } from '../../core/actions/system.js';
import { recordNotifications } from '../../core/notifications/services.js';
import { projectViewers } from '../../core/projects/context.js';
import { eventsStartingSoon, offlineEventPath } from './queries.js';
import { EVENT_SOON_HOURS } from './rules.js';

/** a+'s "event soon" e-mail (OfflineEventReminder) to a project's followers (and their in-app notification); German in i18n/de-events.ts. */
const EVENT_SOON_MAIL = {
  subject: 'Event in project %(project)s',
  body: 'Hello %(name)s,\n\nthe event "%(event)s" of the project "%(project)s" takes place on %(date)s. More about it: %(url)s\n\nYou get this e-mail because you follow the project. To stop these e-mails, unfollow it on the project page or turn notifications off in your account settings.',
} as const;

type Due = Awaited<ReturnType<typeof eventsStartingSoon>>[number];

async function mailFollowers(tx: Tx, event: Due, options: { origin: string; timeZone: string }): Promise<number> {
  const followers = await tx.select({ id: follows.creatorId }).from(follows).where(and(eq(follows.projectId, event.projectId), eq(follows.enabled, true)));
  // Only followers who may still see the project, and who want these mails.
  const viewers = await projectViewers(tx, event.projectId, followers.map((f) => f.id));
  const recipients = await loadRecipients(tx, [...viewers], 'event_soon');
  const path = offlineEventPath(event.orgSlug, event.slug);
  await recordNotifications(tx, { kind: 'event_soon', recipientIds: [...viewers], actorId: null, projectId: event.projectId, context: { project: event.projectName, event: event.name }, url: path });
  for (const r of recipients) {
    const vars = { name: r.username, event: event.name, project: event.projectName, date: formatDateTime(event.date, r.lang, options.timeZone), url: `${options.origin}${path}` };
    await queueMail(tx, { to: r.email, subject: t(r.lang, EVENT_SOON_MAIL.subject, vars), body: t(r.lang, EVENT_SOON_MAIL.body, vars), kind: 'event_soon' });
  }
  return recipients.length;
}

/**
 * "Event soon" (a+ `send_upcoming_event_notifications` and `create_offlineevent_system_actions`):
 * for each event of a published project that starts within EVENT_SOON_HOURS, once, a "start" action
 * at the event's date (the activity stream) and the e-mail to the project's followers. The notice is
 * claimed by its unique system_notices row in the transaction that sends it, so it goes out once
 * however many instances run this; an event moved by more than the window is announced again.
 */
export async function sendEventSoonNotices(db: Db, options: { origin: string; timeZone: string; now?: Date }): Promise<{ events: number; mails: number }> {
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
      counts.mails += await mailFollowers(tx, event, options);
    });
  }
  return counts;
}
