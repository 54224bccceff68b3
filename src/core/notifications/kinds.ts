import type { NotificationKind } from '../../mail/notices.js';
import { type Lang, t } from '../../i18n/index.js';

/**
 * What the notification centre says for each kind (English catalogue keys, German in
 * i18n/de-notifications.ts). The places are filled from the notification's context when it is
 * shown, in the reader's language; `status` is itself a catalogue key. No contribution's text is
 * copied here: a comment that is later deleted leaves nothing behind in others' notifications.
 */
export const NOTIFICATION_MESSAGES: Record<NotificationKind, string> = {
  comment_on_content: '%(actor)s commented on your contribution in the project "%(project)s".',
  reply_to_comment: '%(actor)s replied to your comment in the project "%(project)s".',
  idea_feedback: 'The moderation of the project "%(project)s" gave your idea "%(idea)s" feedback.',
  comment_feedback: 'The moderation of the project "%(project)s" gave feedback on your comment.',
  comment_blocked: 'The moderation of the project "%(project)s" blocked your comment.',
  phase_started: 'The phase "%(phase)s" of the project "%(project)s" has started.',
  phase_ending: 'The phase "%(phase)s" of the project "%(project)s" ends soon.',
  event_soon: 'The event "%(event)s" of the project "%(project)s" takes place soon.',
  event_added: 'The event "%(event)s" was added to the project "%(project)s".',
  event_update: 'The event "%(event)s" of the project "%(project)s" has moved to another date.',
  event_cancelled: 'The event "%(event)s" of the project "%(project)s" has been cancelled.',
  report_to_moderators: 'A contribution in the project "%(project)s" was reported.',
  new_project: 'The new project "%(project)s" was created for %(organisation)s by %(actor)s.',
  project_deleted: 'The project "%(project)s" of %(organisation)s was deleted by %(actor)s.',
  result_linked: 'A contribution in the project "%(project)s" became part of the result "%(result)s".',
  result_status: 'The result "%(result)s" of the project "%(project)s" is now "%(status)s" (%(progress)s %).',
};

/** The live channel's topic of one user's notifications (the bell's count on every page). */
export const notificationsTopic = (userId: number) => `notifications:${userId}`;

/** A notification's text in the reader's language: its message with the places filled from its context. */
export function notificationText(lang: Lang, notification: { message: string; context: Record<string, string> }): string {
  const { context } = notification;
  return t(lang, notification.message, { ...context, status: context.status ? t(lang, context.status) : '' });
}
