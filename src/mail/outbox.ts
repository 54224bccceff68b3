import type { DbOrTx } from '../db/client.js';
import { outbox } from '../db/schema/index.js';
import { type MailBrand, mailHtml } from './html.js';

export interface MailMessage {
  to: string;
  subject: string;
  body: string;
  /** The HTML part; without one it is made from the text under `brand` (mail/html.ts). */
  html?: string | null;
  /** Whose name and logo head the HTML part: the organisation the mail is about; the platform's by default. */
  brand?: MailBrand;
  /** What the mail is about, e.g. "comment_on_content"; lets tests and operators find it. */
  kind: string;
  /** A newsletter's mails: its id (delivery count), sender name and reply-to address. */
  newsletter?: { id: number; senderName: string; replyTo: string };
}

/**
 * Queues an e-mail in the outbox, inside the caller's transaction, so that a notice exists exactly
 * when the change it tells of was stored. Delivery (SMTP) happens later and never blocks a request.
 */
export async function queueMail(db: DbOrTx, message: MailMessage): Promise<void> {
  if (!message.to) return;
  const { newsletter } = message;
  await db.insert(outbox).values({
    recipient: message.to,
    subject: message.subject,
    body: message.body,
    html: message.html ?? mailHtml(message.subject, message.body, message.brand),
    kind: message.kind,
    ...(newsletter ? { newsletterId: newsletter.id, senderName: newsletter.senderName, replyTo: newsletter.replyTo } : {}),
  });
}
