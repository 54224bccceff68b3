import type { DbOrTx } from '../db/client.js';
import { siteVersionOf } from '../db/versions.js';
import { loadSiteFrame, type PlatformSettings, type SiteLink } from '../core/legal/content.js';

/**
 * What every page's frame shows of the back-office's writing: the footer's and menu's links to the
 * content pages and the platform's operator with its links (footer, sharing tags).
 */
interface SiteFrame {
  links: SiteLink[];
  platform: PlatformSettings;
}

const kept = new WeakMap<object, { version: string; frame: Promise<SiteFrame> }>();

/**
 * The frame of a kept page (web/page-keeping.ts), at least as new as the page's version: kept per
 * process under the site's part of that version (db/versions.ts `siteVersionOf`, project 0's rows of
 * the pages' change log, which every write to the content pages or the platform settings adds to,
 * on whichever instance), so that a kept page costs no statement for it while nothing changed, and
 * the first page after a change, on every instance, reads it again. Read after the version, the
 * frame is never older than the version it is kept under.
 */
export function keptSiteFrame(db: DbOrTx, pageVersion: string): Promise<SiteFrame> {
  const version = siteVersionOf(pageVersion);
  const entry = kept.get(db);
  if (entry?.version === version) return entry.frame;
  const frame = loadSiteFrame(db).catch((error: unknown) => {
    if (kept.get(db)?.frame === frame) kept.delete(db);
    throw error;
  });
  kept.set(db, { version, frame });
  return frame;
}

/** Drops the frame kept for `db` (http/process-memory.ts: the database was replaced under the app). */
export const forgetSiteFrame = (db: DbOrTx) => kept.delete(db);
