import type { DbOrTx } from '../../db/client.js';
import { newsletters } from '../../db/schema/index.js';
import { queueMail } from '../../mail/outbox.js';
import { stripTags } from '../../text/html.js';
import type { NewsletterInput } from './rules.js';
import { newsletterReceivers } from './queries.js';

/** Relative links and images of the body made absolute, so that they work in a mail program (§B18.3). */
export const absoluteLinks = (html: string, origin: string) => html.replace(/\b(src|href)="\/(?!\/)/g, `$1="${origin}/`);

/** A newsletter's plain-text part: the body's text, a paragraph per block. */
const plainText = (html: string) =>
  stripTags(html.replace(/<\/(p|h\d|li|div)>|<br\s*\/?>/gi, '\n'))
    .replace(/\n{3,}/g, '\n\n')
    .trim();

/**
 * Stores a newsletter and queues one e-mail per receiver in the same transaction (§B18); the
 * delivery sends them afterwards, and the newsletter list counts how many have gone out.
 */
export async function sendNewsletter(tx: DbOrTx, organisationId: number, creatorId: number, input: NewsletterInput, origin: string): Promise<{ id: number; receivers: number }> {
  const receivers = await newsletterReceivers(tx, input.projectId);
  const [row] = await tx
    .insert(newsletters)
    .values({ organisationId, creatorId, projectId: input.projectId, senderName: input.senderName, senderEmail: input.senderEmail, subject: input.subject, body: input.body, receivers: receivers.length })
    .returning({ id: newsletters.id });
  const html = absoluteLinks(input.body, origin);
  const newsletter = { id: row.id, senderName: input.senderName, replyTo: input.senderEmail };
  for (const receiver of receivers) {
    await queueMail(tx, { to: receiver.email, subject: input.subject, body: plainText(input.body), html, kind: 'newsletter', newsletter });
  }
  return { id: row.id, receivers: receivers.length };
}
