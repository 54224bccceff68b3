import type { FastifyInstance } from 'fastify';
import { join } from 'node:path';
import type { Config } from '../config.js';
import type { Database, Db } from '../db/client.js';
import { purgeExpiredSessions } from '../http/session.js';
import { compactPageChanges, vacuumPageChanges } from '../db/versions.js';
import { registerMailDelivery } from '../mail/delivery.js';
import { scheduleSystemNotices, SYSTEM_NOTICES_INTERVAL_MS } from '../core/actions/system.js';
import { sendEventSoonNotices } from '../features/offlineevents/notices.js';
import { compactProjectInsights } from '../core/insights/services.js';
import { reportNewsletterDeliveries } from '../manage/newsletters/services.js';
import { notificationFooters } from '../me/accounts/notification-links.js';
import { deleteExpiredGuests } from '../core/users/guests.js';

/** How often expired browser sessions are deleted. */
export const SESSION_PURGE_INTERVAL_MS = 60 * 60 * 1000;

/** How often guests who never registered and stayed inactive for GUEST_EXPIRY_DAYS are deleted. */
export const GUEST_EXPIRY_INTERVAL_MS = 60 * 60 * 1000;

/** How often each project day's statistics rows are merged into one (reads sum them either way). */
export const INSIGHTS_COMPACT_INTERVAL_MS = 10 * 60 * 1000;

/** How often the pages' change log's rows are moved into its sums (each page's version reads the rows not moved yet). */
export const PAGE_CHANGES_COMPACT_INTERVAL_MS = 2 * 1000;

/** How often the change log's tables are vacuumed (their rows live for seconds). */
export const PAGE_CHANGES_VACUUM_INTERVAL_MS = 60 * 1000;

/** SMTP when SMTP_URL is set; in development without it, files under DATA_DIR/mail and the console; else only the outbox. */
function mailDeliveryOptions(config: Config, db: Db) {
  const afterNewsletterBatch = (ids: number[]) => reportNewsletterDeliveries(db, ids, config.baseUrl);
  const notificationFooter = notificationFooters(config, db);
  if (config.smtpUrl) return { db, smtpUrl: config.smtpUrl, from: config.mailFrom, afterNewsletterBatch, notificationFooter };
  if (config.env === 'development' && config.dataDir) return { db, mailDir: join(config.dataDir, 'mail'), from: config.mailFrom, afterNewsletterBatch, notificationFooter };
  return null;
}

/** Runs `work` every `intervalMs`, one run at a time, until the app closes; a failed run is logged. */
function every(app: FastifyInstance, name: string, intervalMs: number, work: () => Promise<unknown>): void {
  let running: Promise<unknown> | null = null;
  const timer = setInterval(() => {
    running ??= work()
      .catch((error: unknown) => app.log.error({ err: error }, `${name} failed`))
      .finally(() => {
        running = null;
      });
  }, intervalMs);
  timer.unref();
  app.addHook('onClose', async () => {
    clearInterval(timer);
    await running;
  });
}

/**
 * The background work of one process, in one place: mail delivery (kicked after writes), the
 * system notices (phase ends, §D; offline events soon), the purge of expired browser sessions and of
 * expired guests, and the merging of the projects' statistics rows and of the pages' change log
 * (the latter every few seconds, on the connections whose statements tests do not count).
 */
export function startBackgroundWork(app: FastifyInstance, config: Config, database: Database): void {
  const { db } = database;
  registerMailDelivery(app, mailDeliveryOptions(config, db));
  const notices = scheduleSystemNotices(db, { origin: config.baseUrl, timeZone: config.timeZone }, (error) => app.log.error({ err: error }, 'system notices failed'));
  app.addHook('onClose', async () => notices.stop());
  every(app, 'event soon notices', SYSTEM_NOTICES_INTERVAL_MS, () => sendEventSoonNotices(db, { origin: config.baseUrl, timeZone: config.timeZone }));
  every(app, 'session purge', SESSION_PURGE_INTERVAL_MS, () => purgeExpiredSessions(db));
  every(app, 'expired guests', GUEST_EXPIRY_INTERVAL_MS, async () => {
    const { files } = await deleteExpiredGuests(db, config.guestExpiryDays);
    await app.ctx.media.remove(...files);
  });
  every(app, 'statistics compaction', INSIGHTS_COMPACT_INTERVAL_MS, () => db.transaction((tx) => compactProjectInsights(tx)));
  every(app, 'page changes compaction', PAGE_CHANGES_COMPACT_INTERVAL_MS, () => compactPageChanges(database.uncounted));
  every(app, 'page changes vacuum', PAGE_CHANGES_VACUUM_INTERVAL_MS, () => vacuumPageChanges(database.uncounted));
}
