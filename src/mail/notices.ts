import { and, eq, inArray, notExists, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { notificationOptouts, organisations, projects, users } from '../db/schema/index.js';
import { type MailBrand, PLATFORM_BRAND } from './html.js';
import { qualified as q } from '../db/sql.js';
import { isLang, type Lang, t } from '../i18n/index.js';
import { escapeHtml } from '../text/html.js';
import { queueDigestMail, queueMail } from './outbox.js';

/** What a notice needs from the request that caused it: where the site lives, for links. */
export interface NoticeContext {
  origin: string;
}

interface Recipient {
  id: number;
  username: string;
  email: string;
  lang: Lang;
}

/**
 * Every kind of notification e-mail with the label of its switch in the account settings
 * (`/account/notifications/`): a user can turn each one off (notification_optouts). Invitations,
 * welcome and account e-mails are no notifications and always go out.
 */
export const NOTIFICATION_KINDS = {
  comment_on_content: 'Someone comments on my contribution',
  reply_to_comment: 'Someone replies to my comment',
  idea_feedback: 'The moderation gives feedback on my idea or proposal',
  comment_feedback: 'The moderation gives feedback on my comment',
  comment_blocked: 'The moderation blocks my comment',
  phase_started: 'A phase starts in a project I follow',
  phase_ending: 'A phase ends soon in a project I follow',
  event_soon: 'An event is coming up in a project I follow',
  event_added: 'An event is added to a project I follow',
  event_update: 'An event of a project I follow is moved',
  event_cancelled: 'An event of a project I follow is cancelled',
  report_to_moderators: 'A contribution is reported in a project I moderate',
  new_project: 'A new project is created in my organisation',
  project_deleted: 'A project of my organisation is deleted',
  result_linked: 'My contribution becomes part of a result',
  result_status: 'A result I follow changes its status or is completed',
} as const;

export type NotificationKind = keyof typeof NOTIFICATION_KINDS;

export const isNotificationKind = (kind: string): kind is NotificationKind => Object.hasOwn(NOTIFICATION_KINDS, kind);

/**
 * The users to notify of the kind, in their own language. Left out: users who turned notifications
 * off (all, or this kind), are deactivated, or have not confirmed their address (a new address gets
 * mail once it is confirmed).
 */
export async function loadRecipients(db: DbOrTx, ids: number[], kind: NotificationKind): Promise<Recipient[]> {
  if (!ids.length) return [];
  const optedOut = db
    .select({ userId: notificationOptouts.userId })
    .from(notificationOptouts)
    .where(and(sql`${q(notificationOptouts.userId)} = ${q(users.id)}`, eq(notificationOptouts.kind, kind)));
  const rows = await db
    .select({ id: users.id, username: users.username, email: users.email, language: users.language, getNotifications: users.getNotifications, isActive: users.isActive, emailVerified: users.emailVerified })
    .from(users)
    .where(and(inArray(users.id, [...new Set(ids)]), notExists(optedOut)));
  return rows
    .filter((r) => r.getNotifications && r.isActive && r.emailVerified && r.email)
    .map((r) => ({ id: r.id, username: r.username, email: r.email, lang: isLang(r.language) ? r.language : 'de' }));
}

/**
 * The name and logo of the organisation a project belongs to, for the HTML part of mails about it
 * (issue 36.11); the platform's without a project. `origin` makes the logo's address absolute.
 */
export async function projectBrand(db: DbOrTx, projectId: number | null, origin: string | null): Promise<MailBrand> {
  if (projectId === null) return PLATFORM_BRAND;
  const [row] = await db
    .select({ name: organisations.name, logo: organisations.logo })
    .from(projects)
    .innerJoin(organisations, eq(organisations.id, projects.organisationId))
    .where(eq(projects.id, projectId));
  if (!row) return PLATFORM_BRAND;
  return { name: row.name, logoUrl: row.logo && origin ? `${origin}/media/${row.logo}` : null };
}

export async function projectName(db: DbOrTx, projectId: number | null): Promise<string> {
  if (projectId === null) return '';
  const [row] = await db.select({ name: projects.name }).from(projects).where(eq(projects.id, projectId));
  return row?.name ?? '';
}

export type Texts = { subject: string; body: string };

/** The notices the platform sends; texts are English catalogue keys with German in i18n/de.ts. */
export const NOTICES = {
  comment_on_content: {
    subject: 'Reaction to your contribution in project %(project)s',
    body: 'Hello %(name)s,\n\n%(actor)s commented on your contribution in the project "%(project)s":\n\n%(text)s\n\nView the comment: %(url)s',
  },
  reply_to_comment: {
    subject: 'New reply to your comment in project %(project)s',
    body: 'Hello %(name)s,\n\n%(actor)s replied to your comment in the project "%(project)s":\n\n%(text)s\n\nView the reply: %(url)s',
  },
  comment_blocked: {
    subject: 'Your comment was blocked',
    body: 'Hello %(name)s,\n\nthe moderation of the project "%(project)s" has blocked your comment because it breaks the discussion rules. It is no longer shown in the discussion.\n\nYour comment: %(text)s\n\nThe discussion rules (netiquette): %(netiquette)s\n\nThe discussion: %(url)s',
  },
  comment_feedback: {
    subject: 'Feedback from the moderation on your comment',
    body: 'Hello %(name)s,\n\nthe moderation of the project "%(project)s" has given feedback on your comment:\n\n%(text)s\n\nView the comment: %(url)s',
  },
  idea_feedback: {
    subject: 'Feedback from the moderation on your idea',
    body: 'Hello %(name)s,\n\nthe moderation of the project "%(project)s" has given your idea "%(idea)s" the status "%(status)s":\n\n%(text)s\n\nView the idea: %(url)s',
  },
  report_to_moderators: {
    subject: 'A contribution was reported in project %(project)s',
    body: 'Hello %(name)s,\n\na contribution in the project "%(project)s" was reported with this message:\n\n%(text)s\n\nView the reported contribution: %(url)s',
  },
} satisfies Record<string, Texts>;

/**
 * Notices that go out as a digest (mail/outbox.ts queueDigestMail): a later one within the window
 * is appended to the waiting mail as this entry (issue 21, finding 9: reports, not one mail each).
 */
const DIGEST_ENTRIES: Partial<Record<keyof typeof NOTICES, string>> = {
  report_to_moderators: 'Another contribution in the project "%(project)s" was reported with this message:\n\n%(text)s\n\nView the reported contribution: %(url)s',
};

type NoticeKind = keyof typeof NOTICES;

export interface Notice {
  kind: NoticeKind;
  /** Who should get it; the actor is always left out (nobody is told about their own action). */
  recipientIds: number[];
  actorId: number | null;
  /** `status` is a catalogue key, translated for each recipient; `netiquette` is the discussion rules' address (comment_blocked, §C4). */
  vars: { project: string; actor?: string; text: string; url: string; idea?: string; status?: string; netiquette?: string };
  /** Whose name and logo head the HTML part (the project's organisation); the platform's when left out. */
  brand?: MailBrand;
  /** The kind's texts in other words (catalogue keys): a proposal's feedback does not speak of an idea (issue 37.7). */
  texts?: Texts;
}

/** Queues a notice for each recipient, in the recipient's language, in the caller's transaction. */
export async function queueNotice(db: DbOrTx, notice: Notice): Promise<void> {
  const recipients = await loadRecipients(db, notice.recipientIds.filter((id) => id !== notice.actorId), notice.kind);
  const texts = notice.texts ?? NOTICES[notice.kind];
  for (const recipient of recipients) {
    const vars = { actor: '', ...notice.vars, status: notice.vars.status ? t(recipient.lang, notice.vars.status) : '', name: recipient.username };
    const mail = { to: recipient.email, subject: t(recipient.lang, texts.subject, vars), body: t(recipient.lang, texts.body, vars), kind: notice.kind, brand: notice.brand };
    const entry = DIGEST_ENTRIES[notice.kind];
    if (entry) await queueDigestMail(db, { ...mail, entry: t(recipient.lang, entry, vars) });
    else await queueMail(db, mail);
  }
}

/** The footer of a notification e-mail (issue 37, item 4): why it came, the settings, and one click that stops this kind. */
export function notificationFooter(lang: Lang, kind: NotificationKind, links: { settingsUrl: string; unsubscribeUrl: string }) {
  const vars = { kind: t(lang, NOTIFICATION_KINDS[kind]), settings: links.settingsUrl, unsubscribe: links.unsubscribeUrl };
  const why = t(lang, 'You get this e-mail because of your notification settings ("%(kind)s").', vars);
  const settings = t(lang, 'Choose which e-mails you get');
  const off = t(lang, 'Stop e-mails of this kind');
  const link = (href: string, text: string) => `<a href="${escapeHtml(href)}">${escapeHtml(text)}</a>`;
  return {
    text: `${why}\n${settings}: ${links.settingsUrl}\n${off}: ${links.unsubscribeUrl}`,
    html: `<hr><p style="margin:0;font-size:13px;color:#555">${escapeHtml(why)}<br>${link(links.settingsUrl, settings)} · ${link(links.unsubscribeUrl, off)}</p>`,
  };
}
