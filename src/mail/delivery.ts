import { and, asc, eq, inArray, isNull, lt, lte, or, sql } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import nodemailer from 'nodemailer';
import type { Db } from '../db/client.js';
import { outbox } from '../db/schema/index.js';

/**
 * How this install delivers e-mail: by SMTP (SMTP_URL), into files (development with a data folder), or not at all — a trial
 * install records them in the outbox, where the operator reads them and their links in the back-office (E-mails).
 */
type MailDeliveryMode = 'smtp' | 'files' | 'outbox';
export const mailDeliveryMode = (config: { smtpUrl: string | null; env: string; dataDir: string }): MailDeliveryMode =>
  config.smtpUrl ? 'smtp' : config.env === 'development' && config.dataDir ? 'files' : 'outbox';

interface MailDeliveryOptions {
  db: Db;
  /** Send by SMTP (smtp:// or smtps://) … */
  smtpUrl?: string | null;
  /** … or (development) write each mail as <id>.eml into this folder and print it instead. */
  mailDir?: string | null;
  /** Where the printed mails go (default: the console). */
  print?: (text: string) => void;
  from: string;
  /** How often to look for queued mail besides the kicks after requests. */
  intervalMs?: number;
  batchSize?: number;
  onError?: (error: unknown) => void;
  /**
   * For a notification e-mail (mail/notices.ts NOTIFICATION_KINDS) to an account: its footer (the
   * settings' address and a one-click link that turns this kind off, RFC 8058) in the receiver's
   * language; null leaves the mail as it is. Added when the mail goes out, and kept in the outbox.
   */
  notificationFooter?: (recipient: string, kind: string) => Promise<NotificationFooter | null>;
  /** After each batch: the newsletters it had mails of (sent or failed), e.g. for their delivery reports. */
  afterNewsletterBatch?: (newsletterIds: number[]) => Promise<void>;
}

export interface NotificationFooter {
  unsubscribeUrl: string;
  text: string;
  html: string;
}

type ClaimedMail = { id: number; body: string; html: string | null; unsubscribeUrl: string | null; recipient: string; kind: string };

/** The mail with its notification footer, stored in its outbox row as it is sent. */
async function withFooter<M extends ClaimedMail>(db: Db, mail: M, footerOf: MailDeliveryOptions['notificationFooter']): Promise<M> {
  const footer = mail.unsubscribeUrl || !footerOf ? null : await footerOf(mail.recipient, mail.kind);
  if (!footer) return mail;
  const end = '</div></div></body></html>';
  const html = mail.html === null ? null : mail.html.endsWith(end) ? `${mail.html.slice(0, -end.length)}${footer.html}${end}` : `${mail.html}${footer.html}`;
  const decorated = { ...mail, body: `${mail.body}\n\n--\n${footer.text}`, html, unsubscribeUrl: footer.unsubscribeUrl };
  await db.update(outbox).set({ body: decorated.body, html, unsubscribeUrl: footer.unsubscribeUrl }).where(eq(outbox.id, mail.id));
  return decorated;
}

interface MailDelivery {
  /** Starts a delivery round unless one is running (then it runs once more afterwards). Never throws. */
  kick(): void;
  /** Resolves when no delivery round is running. */
  idle(): Promise<void>;
  close(): Promise<void>;
}

/** How often a mail is tried before it is given up (the outbox command shows it with its error). */
export const MAX_ATTEMPTS = 5;

/** A refusal (SMTP 5xx) will not change by trying again; anything else (4xx, no connection) may. */
const isPermanent = (error: unknown) => {
  const code = (error as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500;
};

/** Where a development mail goes: a file named after its outbox id. */
export const mailFile = (mailDir: string, id: number) => join(mailDir, `${String(id).padStart(6, '0')}.eml`);

/**
 * Sends the outbox by SMTP (or, in development, into files under mailDir and onto the console). Rows are claimed atomically (sent_at set in the same statement that
 * picks them, skipping rows another instance has locked), so that several instances never send a
 * mail twice. A failed send records its error and clears sent_at; a temporary failure is tried
 * again after 2, 4, 8, … minutes, up to MAX_ATTEMPTS; a permanent refusal is not retried.
 */
export function createMailDelivery(options: MailDeliveryOptions): MailDelivery {
  const { db, from } = options;
  const batchSize = options.batchSize ?? 20;
  const { mailDir } = options;
  // A mail with its own sender name (a newsletter) still comes from the platform's address.
  const fromAddress = /<([^>]+)>/.exec(from)?.[1] ?? from;
  const transport = options.smtpUrl ? nodemailer.createTransport(options.smtpUrl) : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  const print = options.print ?? ((text: string) => console.log(text));
  if (mailDir) mkdirSync(mailDir, { recursive: true });
  let running: Promise<void> | null = null;
  let again = false;
  let closed = false;

  const claim = () =>
    db
      .update(outbox)
      .set({ sentAt: sql`now()` })
      .where(
        inArray(
          outbox.id,
          db
            .select({ id: outbox.id })
            .from(outbox)
            .where(
              and(
                isNull(outbox.sentAt),
                lt(outbox.attempts, MAX_ATTEMPTS),
                or(isNull(outbox.nextAttemptAt), lte(outbox.nextAttemptAt, sql`now()`)),
              ),
            )
            .orderBy(asc(outbox.id))
            .limit(batchSize)
            .for('update', { skipLocked: true }),
        ),
      )
      .returning({ id: outbox.id, recipient: outbox.recipient, subject: outbox.subject, body: outbox.body, html: outbox.html, kind: outbox.kind, senderName: outbox.senderName, replyTo: outbox.replyTo, newsletterId: outbox.newsletterId, unsubscribeUrl: outbox.unsubscribeUrl });

  const round = async () => {
    for (let batch = await claim(); batch.length && !closed; batch = await claim()) {
      for (const claimed of batch) {
        let mail = claimed;
        try {
          mail = await withFooter(db, claimed, options.notificationFooter);
          const info = await transport.sendMail({
            from: mail.senderName ? { name: mail.senderName, address: fromAddress } : from,
            ...(mail.replyTo ? { replyTo: mail.replyTo } : {}),
            to: mail.recipient,
            subject: mail.subject,
            text: mail.body,
            ...(mail.html ? { html: mail.html } : {}),
            ...(mail.unsubscribeUrl ? { headers: { 'List-Unsubscribe': `<${mail.unsubscribeUrl}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } } : {}),
          });
          if (mailDir && !options.smtpUrl) {
            const file = mailFile(mailDir, mail.id);
            writeFileSync(file, (info as { message: Buffer }).message);
            print(`--- Mail #${mail.id} [${mail.kind}] (${file})\nTo: ${mail.recipient}\nSubject: ${mail.subject}\n\n${mail.body}\n---`);
          }
        } catch (error) {
          const message = error instanceof Error ? error.message : String(error);
          await db
            .update(outbox)
            .set({
              sentAt: null,
              error: message.slice(0, 1000),
              attempts: isPermanent(error) ? MAX_ATTEMPTS : sql`${outbox.attempts} + 1`,
              nextAttemptAt: sql`now() + make_interval(mins => power(2, ${outbox.attempts} + 1)::int)`,
            })
            .where(eq(outbox.id, mail.id));
        }
      }
      const newsletterIds = [...new Set(batch.flatMap((mail) => (mail.newsletterId === null ? [] : [mail.newsletterId])))];
      if (newsletterIds.length && options.afterNewsletterBatch) await options.afterNewsletterBatch(newsletterIds);
    }
  };

  const kick = () => {
    if (closed) return;
    if (running) {
      again = true;
      return;
    }
    running = (async () => {
      do {
        again = false;
        await round().catch((error: unknown) => options.onError?.(error));
      } while (again && !closed);
    })().finally(() => {
      running = null;
    });
  };

  const timer = setInterval(kick, options.intervalMs ?? 60_000);
  timer.unref();

  return {
    kick,
    idle: async () => {
      while (running) await running;
    },
    async close() {
      clearInterval(timer);
      closed = true;
      while (running) await running;
      transport.close();
    },
  };
}

/**
 * With SMTP_URL set (or, in development, a mail folder): deliver after every write request and on
 * an interval; stop with the app.
 */
export function registerMailDelivery(app: FastifyInstance, options: MailDeliveryOptions | null): MailDelivery | null {
  if (!options) return null;
  const delivery = createMailDelivery({ ...options, onError: options.onError ?? ((error) => app.log.error({ err: error }, 'mail delivery failed')) });
  // Only writes queue mail; reads need not look. A write's notices may come after its answer (http/after-answer.ts): the kick waits for them.
  app.addHook('onResponse', async (request) => {
    if (request.method !== 'GET' && request.method !== 'HEAD' && request.method !== 'OPTIONS') void app.sideWorkOf(request).then(() => delivery.kick());
  });
  app.addHook('onClose', async () => delivery.close());
  return delivery;
}
