import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db, Tx } from '../../db/client.js';
import { newsletters, organisations, outbox, projects, users } from '../../db/schema/index.js';
import { qualified as q } from '../../db/sql.js';
import { isLang, t } from '../../i18n/index.js';
import { queueMail } from '../../mail/outbox.js';
import { newsletterListPath } from '../../web/paths.js';
import { escapeHtml, plainTextOf } from '../../text/html.js';
import { unsubscribePath } from '../../core/users/urls.js';
import type { NewsletterInput } from './rules.js';
import { newsletterDeliveries, newsletterReceivers, pendingMail } from './queries.js';

/** Relative links and images of the body made absolute, so that they work in a mail program (§B18.3). */
const absoluteLinks = (html: string, origin: string) => html.replace(/\b(src|href)="\/(?!\/)/g, `$1="${origin}/`);


/**
 * Stores a newsletter and queues one e-mail per receiver in the same transaction (§B18); the
 * delivery sends them afterwards, and the newsletter list counts how many have gone out.
 */
export async function sendNewsletter(tx: Tx, organisation: { id: number; name: string }, creatorId: number, input: NewsletterInput, links: { origin: string; secretKey: string }): Promise<{ id: number; receivers: number }> {
  const { origin } = links;
  const organisationId = organisation.id;
  const receivers = await newsletterReceivers(tx, input.projectId, organisationId);
  const [row] = await tx
    .insert(newsletters)
    .values({ organisationId, creatorId, projectId: input.projectId, senderName: input.senderName, senderEmail: input.senderEmail, subject: input.subject, body: input.body, receivers: receivers.length })
    .returning({ id: newsletters.id });
  const html = absoluteLinks(input.body, origin);
  const newsletter = { id: row.id, senderName: input.senderName, replyTo: input.senderEmail };
  for (const receiver of receivers) {
    // Each mail carries the receiver's own unsubscribe link, in the text and as List-Unsubscribe (RFC 8058).
    const unsubscribeUrl = `${origin}${unsubscribePath(links.secretKey, receiver.id, organisationId)}`;
    const lang = isLang(receiver.language) ? receiver.language : 'de';
    const footer = t(lang, UNSUBSCRIBE, { organisation: organisation.name });
    await queueMail(tx, {
      to: receiver.email,
      subject: input.subject,
      body: `${plainTextOf(input.body)}\n\n--\n${footer}: ${unsubscribeUrl}`,
      html: `${html}<hr><p><a href="${escapeHtml(unsubscribeUrl)}">${escapeHtml(footer)}</a></p>`,
      kind: 'newsletter',
      newsletter,
      unsubscribeUrl,
    });
  }
  // Nobody to send to: the report ("0 of 0") goes out at once.
  await reportNewsletterDelivery(tx, row.id, origin);
  return { id: row.id, receivers: receivers.length };
}

/**
 * The delivery report (§B18.3 "n of m mails sent"), once every mail of the newsletter was sent or
 * given up: claimed by setting `reported_at` in one statement (so two delivering instances send it
 * once), then queued to the newsletter's sender in their language. The reference reports to the
 * site's admins; we tell the initiator who sent it (E8: delivery reporting), the one who can act.
 */
async function reportNewsletterDelivery(tx: Tx, newsletterId: number, origin: string): Promise<boolean> {
  const pending = sql`exists (select 1 from ${outbox} where ${q(outbox.newsletterId)} = ${q(newsletters.id)} and ${pendingMail})`;
  const [claimed] = await tx
    .update(newsletters)
    .set({ reportedAt: sql`now()` })
    .where(and(eq(newsletters.id, newsletterId), isNull(newsletters.reportedAt), sql`not ${pending}`))
    .returning({ subject: newsletters.subject, receivers: newsletters.receivers, creatorId: newsletters.creatorId, projectId: newsletters.projectId, organisationId: newsletters.organisationId });
  if (!claimed?.creatorId) return false;
  const [sender] = await tx
    .select({ username: users.username, email: users.email, language: users.language, isActive: users.isActive, orgSlug: organisations.slug, project: projects.name })
    .from(users)
    .innerJoin(organisations, eq(organisations.id, claimed.organisationId))
    .leftJoin(projects, eq(projects.id, sql`${claimed.projectId}`))
    .where(eq(users.id, claimed.creatorId));
  if (!sender?.isActive || !sender.email) return false;
  const sent = (await newsletterDeliveries(tx, [newsletterId])).get(newsletterId)?.sent ?? 0;
  const lang = isLang(sender.language) ? sender.language : 'de';
  const vars = { name: sender.username, subject: claimed.subject, project: sender.project ?? '', sent, total: claimed.receivers, url: `${origin}${newsletterListPath(sender.orgSlug)}` };
  await queueMail(tx, { to: sender.email, subject: t(lang, REPORT.subject, vars), body: t(lang, REPORT.body, vars), kind: 'newsletter_report' });
  return true;
}

/** The mail delivery's hook (app.ts): after a batch, report each of its newsletters that is done. */
export async function reportNewsletterDeliveries(db: Db, newsletterIds: number[], origin: string): Promise<void> {
  for (const id of newsletterIds) await db.transaction((tx) => reportNewsletterDelivery(tx, id, origin));
}

const UNSUBSCRIBE = 'Unsubscribe from the newsletters of %(organisation)s';

const REPORT = {
  subject: 'Delivery report: %(subject)s',
  body: 'Hello %(name)s,\n\nyour newsletter "%(subject)s" to the followers of the project "%(project)s" has gone out: %(sent)s of %(total)s e-mails were sent.\n\nYour newsletters: %(url)s',
};
