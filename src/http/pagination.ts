import { Type } from 'typebox';
import { notFound } from './errors.js';

/**
 * Page numbers of every paginated list (API and pages). A `page` parameter is taken as text, so that
 * whatever is not a page (a word, 0, a negative or a 20-digit number) answers DRF's 404
 * "Invalid page." instead of reaching the database as an offset out of range (finding F12).
 */
const MAX_PAGE = 1_000_000;

/** The schema of a `page` query parameter. */
export const PageParam = Type.Optional(Type.String({ maxLength: 40, description: `Page number, 1 to ${MAX_PAGE}; anything else is 404 "Invalid page."` }));

/** The page number a `page` parameter names (absent: 1); 404 "Invalid page." for anything else. */
export function pageNumber(raw: string | undefined): number {
  if (raw === undefined) return 1;
  const number = /^\d{1,7}$/.test(raw) ? Number(raw) : 0;
  if (number < 1 || number > MAX_PAGE) throw notFound('Invalid page.');
  return number;
}

/** A page number past the end of a list (page 1 always exists, even empty). */
const pastTheEnd = (page: number, size: number, count: number) => page > 1 && (page - 1) * size >= count;

/** 404 "Invalid page." past the end of a list of `count` items. */
export function checkPageInRange(page: number, size: number, count: number): void {
  if (pastTheEnd(page, size, count)) throw notFound('Invalid page.');
}

/** `url` (a path with its query, or an absolute URL) with `page` set, every other parameter kept; page 1 drops it. */
function withPage(url: string, page: number): string {
  const parsed = new URL(url, 'http://relative.invalid');
  if (page === 1) parsed.searchParams.delete('page');
  else parsed.searchParams.set('page', String(page));
  return parsed.origin === 'http://relative.invalid' ? `${parsed.pathname}${parsed.search}` : parsed.toString();
}

export interface PageLinks {
  previous: string | null;
  next: string | null;
}

/**
 * Links to the pages before and after `page` of a list of `count` items (null where there is none),
 * built from the current request's URL (relative for pages, absolute for the API's next/previous).
 */
export function pageLinks(url: string, page: number, size: number, count: number): PageLinks {
  return { previous: page > 1 ? withPage(url, page - 1) : null, next: page * size < count ? withPage(url, page + 1) : null };
}
