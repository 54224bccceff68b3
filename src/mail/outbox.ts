import type { DbOrTx } from '../db/client.js';
import { outbox } from '../db/schema/index.js';

export interface MailMessage {
  to: string;
  subject: string;
  body: string;
  html?: string | null;
  /** What the mail is about, e.g. "comment_on_content"; lets tests and operators find it. */
  kind: string;
  /** A newsletter's mails: its id (delivery count), sender name and reply-to address. */
  newsletter?: { id: number; senderName: string; replyTo: string };
  /** One-click unsubscribe address, sent as List-Unsubscribe with List-Unsubscribe-Post (RFC 8058). */
  unsubscribeUrl?: string;
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
    html: message.html ?? null,
    kind: message.kind,
    unsubscribeUrl: message.unsubscribeUrl ?? null,
    ...(newsletter ? { newsletterId: newsletter.id, senderName: newsletter.senderName, replyTo: newsletter.replyTo } : {}),
  });
}
