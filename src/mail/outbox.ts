import { and, eq, isNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '../db/client.js';
import { outbox } from '../db/schema/index.js';
import { type MailBrand, mailHtml } from './html.js';

interface MailMessage {
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
    html: message.html ?? mailHtml(message.subject, message.body, message.brand),
    kind: message.kind,
    unsubscribeUrl: message.unsubscribeUrl ?? null,
    ...(newsletter ? { newsletterId: newsletter.id, senderName: newsletter.senderName, replyTo: newsletter.replyTo } : {}),
  });
}

/** How long a digest mail collects before it goes out. */
const DIGEST_WINDOW_MS = 10 * 60 * 1000;

/**
 * Queues a digest mail: while a mail of the same kind to the same recipient is still waiting (not
 * claimed by delivery, which sets sent_at), `entry` is appended to it; otherwise a new one waits
 * DIGEST_WINDOW_MS for more (issue 21, finding 9: one mail per window, not one per event). A mail
 * claimed meanwhile no longer matches the update, so nothing is appended to a sent mail.
 */
export async function queueDigestMail(db: DbOrTx, message: MailMessage & { entry: string }): Promise<void> {
  if (!message.to) return;
  const appended = await db
    .update(outbox)
    .set({ body: sql`${outbox.body} || ${`\n\n---\n\n${message.entry}`}` })
    .where(and(eq(outbox.recipient, message.to), eq(outbox.kind, message.kind), isNull(outbox.sentAt)))
    .returning({ id: outbox.id });
  if (appended.length) return;
  await db.insert(outbox).values({
    recipient: message.to,
    subject: message.subject,
    body: message.body,
    kind: message.kind,
    nextAttemptAt: new Date(Date.now() + DIGEST_WINDOW_MS),
  });
}
