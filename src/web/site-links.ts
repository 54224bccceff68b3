import type { DbOrTx } from '../db/client.js';
import { loadSiteFrame, type PlatformSettings, type SiteLink } from '../core/legal/content.js';

/**
 * What every page's frame shows of the back-office's writing: the footer's and menu's links to the
 * content pages and the platform's operator with its links (footer, sharing tags). Kept per process
 * so that a page costs no statement for them: read again after SITE_LINKS_SECONDS, and at once in the
 * process that changes them (`forgetSiteLinks`). Another instance shows a change within that time.
 */
const SITE_LINKS_SECONDS = 30;

interface SiteFrame {
  links: SiteLink[];
  platform: PlatformSettings;
}

const kept = new WeakMap<object, { at: number; frame: Promise<SiteFrame> }>();

export function siteFrame(db: DbOrTx): Promise<SiteFrame> {
  const now = Date.now();
  const entry = kept.get(db);
  if (entry && now - entry.at < SITE_LINKS_SECONDS * 1000) return entry.frame;
  const frame = loadSiteFrame(db).catch((error: unknown) => {
      kept.delete(db);
      throw error;
    });
  kept.set(db, { at: now, frame });
  return frame;
}

/** After a write to the content pages or the platform settings: the next page reads them again. */
export const forgetSiteLinks = (db: DbOrTx) => kept.delete(db);
