import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { fillQuestion, issueQuestion } from '../http/challenge.js';
import { KeptAnswers } from '../http/kept-answers.js';
import type { Bell } from '../http/auth.js';
import { itemRefs, loadItemCommentCounts } from '../db/comment-counts.js';
import { type Lang, tn } from '../i18n/index.js';
import type { KeptCounts, PageBasics, PageContext } from './context.js';
import { keptSiteFrame } from './site-links.js';
import { loadSiteFrame } from '../core/legal/content.js';
import { bellCount } from './layout.js';
import { renderPage, sendHtml } from './render.js';

/** Stands for the visitor's form token in a kept page; each answer gets the visitor's own token in its place. */
const CSRF_PLACEHOLDER = `csrf${randomBytes(18).toString('hex')}`;

/**
 * Stands for the viewer's bell in a kept page (its unread count and live position change without the
 * page's version changing); each answer gets the viewer's own bell in its place.
 */
const BELL_PLACEHOLDER: Bell = { unread: -1 - randomBytes(4).readUInt32BE(0), livePosition: `bell${randomBytes(18).toString('hex')}` };

/** The viewer's bell in place of the placeholder's (web/layout.tsx NotificationBell renders both alike). */
function fillBell(html: string, bell: Bell | undefined): string {
  if (!bell) return html;
  return html
    .replaceAll(`data-unread="${BELL_PLACEHOLDER.unread}"`, `data-unread="${bell.unread}"`)
    .replaceAll(`>${bellCount(BELL_PLACEHOLDER.unread)}<`, `>${bellCount(bell.unread)}<`)
    .replaceAll(BELL_PLACEHOLDER.livePosition, bell.livePosition);
}

/** Stands for an item's comment count in a kept page: followed by its ref (`kind:id`) and `_`. */
const COUNT_PLACEHOLDER = `count${randomBytes(18).toString('hex')}`;
const COUNT_MARKER = new RegExp(`${COUNT_PLACEHOLDER}([a-z]+:\\d+)_`, 'g');

const commentsText = (lang: Lang, count: number) => tn(lang, '%(count)s comment', '%(count)s comments', count);

/**
 * An item's comment figure ("5 comments") as a page shows it: in a page rendered for keeping with its
 * counts filled in at sending (`KeptPageVersion`), a marker the sending replaces with the figure read
 * for that request; else the figure itself. `ref` names the item: `kind:id` (`idea:12`).
 */
export const commentCountText = (page: PageContext, ref: string, count: number): string => page.keptCounts?.marker(ref, count) ?? commentsText(page.lang, count);

/**
 * The version of a page that fills its items' comment counts in at sending, as its first statement
 * read it (db/versions.ts `countedPageVersionFields`, db/comment-counts.ts `itemCommentCountsField`).
 */
interface KeptPageVersion {
  /** The page's version without the comments on its items. */
  pageVersion: string;
  /** The sum of the comments on its items, for a page that shows more of them than their figures. */
  threadVersion: string;
  /** The comment counts of the refs `keptCountRefs` named, by ref (null: none). */
  counts: Record<string, number> | string | null;
}

/** What a kept page's rendering noted: the refs of its count markers, and whether it depends on the comments beyond them. */
interface CountsNote {
  refs: string;
  comments: boolean;
}

const kept = new WeakMap<object, KeptAnswers<CountsNote>>();

/** A kept page's key: its address, language and viewer (their account as loaded, without the bell). */
function keyOf(request: FastifyRequest, page: PageBasics): string {
  const { bell: _, ...account } = page.user ?? { bell: undefined };
  return `${request.url}\u0001${page.lang}\u0001${page.user ? JSON.stringify(account) : ''}`;
}

/**
 * The refs of the counts the page kept for this request shows (a text for the page's first
 * statement: `itemCommentCountsField`), so that the statement that reads the version reads them too.
 */
export const keptCountRefs = (request: FastifyRequest, page: PageBasics): string => (page.message ? '' : (keptPages(request.server.ctx).noteOf(keyOf(request, page))?.refs ?? ''));

/**
 * Sends a page kept in this process, or renders and keeps it. A page is kept under its version
 * (`pageVersionField` of db/versions.ts, read with what the page loads before it decides; null: the
 * page is not kept) and the whole second (pages say "3 days remaining"); its frame (footer and menu
 * links, platform settings: web/site-links.ts) under the site's part of that version, so a change
 * of them on any instance shows on the next page. It depends on its address
 * (path and query), its language and who is looking: anonymous visitors share it; a signed-in user's
 * page is kept for that user, with their account as loaded (staff places included), and is never
 * sent to anyone else. The visitor's form token, their bell (unread notifications and live
 * position), and a fresh no-script spam question where the page asks one (http/challenge.ts
 * QUESTION_PLACEHOLDER), are put in at sending time. With a `KeptPageVersion` the page is kept
 * without its items' comments, and their figures (`commentCountText`) are put in at sending too;
 * a page whose rendering said it depends on the comments beyond their figures is kept per comment
 * as well. A page that shows a
 * message left by the previous request is rendered for this request alone. Overlapping requests for
 * one page share one rendering; at most 8 M characters of pages are kept per process, the oldest go
 * first.
 */
export async function sendKeptPage(
  request: FastifyRequest,
  reply: FastifyReply,
  basics: PageBasics,
  version: string | KeptPageVersion | null,
  render: (page: PageContext) => Promise<VNode>,
): Promise<FastifyReply> {
  const fresh = () => issueQuestion(request.server.ctx.config.secretKey);
  const { db } = request.server.ctx;
  const pageVersion = version === null || typeof version === 'string' ? version : version.pageVersion;
  // Read only when the page is rendered: a kept page's version says whether its frame moved.
  const framed = async (page: PageBasics): Promise<PageContext> => ({ ...page, ...(await (pageVersion === null ? loadSiteFrame(db) : keptSiteFrame(db, pageVersion))) });
  if (basics.message || version === null) return sendHtml(reply, fillQuestion(renderPage(await render(await framed(basics))), fresh));
  // The bell is no part of the key: it is put in at sending, as the form token is.
  const bell = basics.user?.bell;
  const key = keyOf(request, basics);
  const user = basics.user && bell ? { ...basics.user, bell: BELL_PLACEHOLDER } : basics.user;
  const pages = keptPages(request.server.ctx);
  const filled = (body: string) => fillQuestion(fillBell(body.replaceAll(CSRF_PLACEHOLDER, basics.csrf), bell), fresh);
  if (typeof version === 'string') {
    const { body } = await pages.get(key, version, new Date(), async () => renderPage(await render(await framed({ ...basics, user, csrf: CSRF_PLACEHOLDER }))));
    return sendHtml(reply, filled(body ?? ''));
  }
  // The counts this request's own rendering read, and its note (the answer is this request's when it carries that note).
  const rendered = new Map<string, number>();
  let own: CountsNote | undefined;
  const compute = async () => {
    rendered.clear();
    let comments = false;
    const keptCounts: KeptCounts = {
      marker: (ref, count) => (rendered.set(ref, count), `${COUNT_PLACEHOLDER}${ref}_`),
      dependOnComments: () => void (comments = true),
    };
    const body = renderPage(await render(await framed({ ...basics, user, csrf: CSRF_PLACEHOLDER, keptCounts })));
    own = { refs: itemRefs(rendered.keys()), comments };
    return { body, note: own };
  };
  // A page that shows more of the comments than their figures is kept per comment too; a key's first rendering tells.
  const withComments = `${version.pageVersion}~${version.threadVersion}`;
  const dependent = pages.noteOf(key)?.comments === true;
  let answer = await pages.get(key, dependent ? withComments : version.pageVersion, new Date(), compute);
  if (answer.note?.comments && !dependent) answer = await pages.get(key, withComments, new Date(), compute);
  return sendHtml(reply, filled(await fillCounts(request, basics.lang, answer.body ?? '', version.counts, answer.note === own ? rendered : null)));
}

/**
 * The kept page with its count markers replaced by the figures read for this request: those its
 * first statement read, else those of its own rendering, else (a page another request rendered,
 * with items the first statement did not know) read now in one statement.
 */
async function fillCounts(request: FastifyRequest, lang: Lang, body: string, read: KeptPageVersion['counts'], rendered: Map<string, number> | null): Promise<string> {
  if (!body.includes(COUNT_PLACEHOLDER)) return body;
  const counts = new Map(Object.entries(typeof read === 'string' ? (JSON.parse(read) as Record<string, number>) : (read ?? {})));
  for (const [ref, count] of rendered ?? []) if (!counts.has(ref)) counts.set(ref, count);
  const missing = [...body.matchAll(COUNT_MARKER)].map(([, ref]) => ref).filter((ref) => !counts.has(ref));
  if (missing.length) for (const [ref, count] of Object.entries(await loadItemCommentCounts(request.server.ctx.db, missing))) counts.set(ref, count);
  // The figure goes into the HTML as text: escaped as preact escapes a text.
  const html = (text: string) => text.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  return body.replace(COUNT_MARKER, (_, ref: string) => html(commentsText(lang, Number(counts.get(ref) ?? 0))));
}

function keptPages(ctx: FastifyInstance['ctx']): KeptAnswers<CountsNote> {
  let pages = kept.get(ctx);
  if (!pages) kept.set(ctx, (pages = ctx.memory.keep(new KeptAnswers<CountsNote>(8_000_000))));
  return pages;
}
