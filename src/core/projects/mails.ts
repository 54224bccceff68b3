import { and, eq, inArray } from 'drizzle-orm';
import type { DbOrTx } from '../../db/client.js';
import { type InviteRole, users } from '../../db/schema/index.js';
import { isLang, type Lang, t } from '../../i18n/index.js';
import { isNotificationKind, loadRecipients } from '../../mail/notices.js';
import type { MailBrand } from '../../mail/html.js';
import { queueMail } from '../../mail/outbox.js';

/**
 * The e-mails about projects and roles (§C10–C14), sent from the dashboard and the back-office;
 * English catalogue keys, German in i18n/de-dashboard.ts.
 */
const DASHBOARD_MAILS = {
  new_project: {
    subject: 'New project %(project)s on Allmende',
    body: 'Hello %(name)s,\n\nthe new project "%(project)s" was created for %(organisation)s by %(actor)s. It is a draft until it is published.\n\nEdit it in the dashboard: %(url)s',
  },
  project_deleted: {
    subject: 'Deletion of project %(project)s',
    body: 'Hello %(name)s,\n\nthe project "%(project)s" of %(organisation)s was deleted by %(actor)s, with all its modules and contributions.',
  },
  invite_participant: {
    subject: 'Invitation to the project %(project)s',
    body: 'Hello,\n\n%(actor)s invites you to take part in the project "%(project)s" of %(organisation)s, which is open only to invited people.\n\nAccept the invitation (log in or register first with this e-mail address): %(url)s',
  },
  invite_moderator: {
    subject: 'Invitation to moderate the project %(project)s',
    body: 'Hello,\n\n%(actor)s invites you to moderate the project "%(project)s" of %(organisation)s.\n\nAccept the invitation (log in or register first with this e-mail address): %(url)s',
  },
  initiator_appointed: {
    subject: 'You are now an initiator of %(organisation)s',
    body: 'Hello %(name)s,\n\n%(actor)s has made you an initiator of %(organisation)s. You can now create, publish and manage its projects in the dashboard: %(url)s',
  },
  moderator_appointed: {
    subject: 'You now moderate the project %(project)s',
    body: 'Hello %(name)s,\n\nyou now moderate the project "%(project)s" of %(organisation)s. New comments and reports wait for you in your moderation queue: %(url)s',
  },
  welcome_participant: {
    subject: 'Welcome to the project %(project)s',
    body: 'Hello %(name)s,\n\nyou can now take part in the project "%(project)s" of %(organisation)s.\n\nGo to the project: %(url)s',
  },
} as const;

type MailKind = keyof typeof DASHBOARD_MAILS;
/** What the texts say, and whose name and logo head the HTML part (organisations/queries.organisationBrand). */
type Vars = { project: string; organisation: string; actor: string; url: string; brand: MailBrand };

function render(kind: MailKind, lang: Lang, { brand: _brand, ...vars }: Vars & { name: string }) {
  const texts = DASHBOARD_MAILS[kind];
  return { subject: t(lang, texts.subject, vars), body: t(lang, texts.body, vars), kind };
}

/** To users, in their language; `notifications` leaves out those who turned notifications off (§C). */
export async function mailUsers(db: DbOrTx, kind: MailKind, userIds: number[], vars: Vars, options: { notifications: boolean }): Promise<void> {
  const recipients = options.notifications && isNotificationKind(kind) ? await loadRecipients(db, userIds, kind) : await loadAll(db, userIds);
  for (const r of recipients) await queueMail(db, { to: r.email, brand: vars.brand, ...render(kind, r.lang, { ...vars, name: r.username }) });
}

/** Active users with an address, whatever their notification setting. */
async function loadAll(db: DbOrTx, ids: number[]) {
  if (!ids.length) return [];
  const rows = await db.select({ username: users.username, email: users.email, language: users.language }).from(users).where(and(inArray(users.id, ids), eq(users.isActive, true)));
  return rows.map((r) => ({ ...r, lang: isLang(r.language) ? r.language : ('de' as Lang) }));
}

/** An invitation to an address, in its user's language or else the organisation's (§C12, §C13). */
export async function mailInvite(db: DbOrTx, role: InviteRole, to: string, lang: Lang, vars: Vars): Promise<void> {
  await queueMail(db, { to, brand: vars.brand, ...render(role === 'moderator' ? 'invite_moderator' : 'invite_participant', lang, { ...vars, name: '' }) });
}
