import type { DbOrTx } from '../db/client.js';
import { loadSiteLinks, type SiteLink } from '../core/legal/content.js';

/**
 * The footer's and menu's links to the content pages, kept per process so that a page costs no
 * statement for them: read again after SITE_LINKS_SECONDS, and at once in the process that changes
 * a content page (`forgetSiteLinks`). Another instance shows a change within that time.
 */
const SITE_LINKS_SECONDS = 30;

const kept = new WeakMap<object, { at: number; links: Promise<SiteLink[]> }>();

export function siteLinks(db: DbOrTx): Promise<SiteLink[]> {
  const now = Date.now();
  const entry = kept.get(db);
  if (entry && now - entry.at < SITE_LINKS_SECONDS * 1000) return entry.links;
  const links = loadSiteLinks(db).catch((error: unknown) => {
    kept.delete(db);
    throw error;
  });
  kept.set(db, { at: now, links });
  return links;
}

/** After a write to the content pages: the next page reads the links again. */
export const forgetSiteLinks = (db: DbOrTx) => kept.delete(db);
