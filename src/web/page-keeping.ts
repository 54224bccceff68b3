import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { fillQuestion, issueQuestion } from '../http/challenge.js';
import { type KeptAnswer, KeptAnswers } from '../http/kept-answers.js';
import type { Bell } from '../http/auth.js';
import { FIGURE_CODES, loadKeptFigures } from '../core/modules/figures.js';
import { moduleTypeOf } from '../core/modules/registry.js';
import { type Lang, t, tn } from '../i18n/index.js';
import type { KeptCounts, KeptViewer, PageBasics, PageContext } from './context.js';
import { keptSiteFrame } from './site-links.js';
import { loadSiteFrame } from '../core/legal/content.js';
import { bellCount } from './layout.js';
import { escapeHtml } from '../text/html.js';
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

/**
 * Stands for a figure in a kept page: followed by its ref (`c/idea:12`, core/modules/figures.ts), then,
 * for a figure said in words of its own, `~` and the name of those words (`i/module:5~IE`: the words of
 * the module type IE), and `_`.
 */
const COUNT_PLACEHOLDER = `count${randomBytes(18).toString('hex')}`;
const WORDING = '[A-Za-z0-9]+';
const COUNT_MARKER = new RegExp(`${COUNT_PLACEHOLDER}([${FIGURE_CODES}]/[a-z]+:\\d+)(?:~(${WORDING}))?_`, 'g');
const A_WORDING = new RegExp(`^${WORDING}$`);

/** How a figure is said: in the page's language, with the words its marker names where it has its own. */
type Saying = (lang: Lang, count: number, wording?: string) => string;

/** What a module type's tiles count, in the type's own words ("12 ideas", "4 questions", "3 ballots"); `type` its blueprint type. */
const tileCountText: Saying = (lang, count, type) => {
  const words = type === undefined ? undefined : moduleTypeOf(type)?.tileCount;
  return words ? tn(lang, words.one[lang], words.many[lang], count) : String(count);
};

/**
 * The figures a page fills in at sending and how each is said, by the letter their refs begin with
 * (core/modules/figures.ts `FIGURE_CODES`: the letter says what is counted too).
 */
const FIGURES = {
  items: { code: 'i', text: tileCountText },
  comments: { code: 'c', text: (lang: Lang, count: number) => tn(lang, '%(count)s comment', '%(count)s comments', count) },
  commentsOrNone: { code: 'e', text: (lang: Lang, count: number) => (count ? tn(lang, '%(count)s comment', '%(count)s comments', count) : t(lang, 'No comments yet')) },
  contributions: { code: 'k', text: (lang: Lang, count: number) => tn(lang, '%(count)s contribution', '%(count)s contributions', count) },
  commentNumber: { code: 'n', text: (_: Lang, count: number) => String(count) },
  agrees: { code: 'a', text: (lang: Lang, count: number) => tn(lang, '%(count)s agrees', '%(count)s agree', count) },
  disagrees: { code: 'd', text: (lang: Lang, count: number) => tn(lang, '%(count)s disagrees', '%(count)s disagree', count) },
  participants: { code: 'p', text: (lang: Lang, count: number) => tn(lang, '%(count)s participant', '%(count)s participants', count) },
} as const satisfies Record<string, { code: string; text: Saying }>;
type Figure = keyof typeof FIGURES;
const byCode = new Map<string, Saying>(Object.values(FIGURES).map((figure) => [figure.code, figure.text]));

/**
 * A figure as a page shows it ("5 comments", "2 agree", a module tile's "3 participants" and "12
 * ideas"; a figure whose text is part of a sentence, `commentNumber`, is the number alone): in a page
 * rendered for keeping with its figures filled in at sending (`KeptPageVersion`), a marker the sending
 * replaces with the figure read for that request; else the figure itself. `of` names the item or the
 * module: `kind:id` (`idea:12`, `module:3`); `wording` the words of a figure said in words of its own
 * (`items`: the module's blueprint type, whose `tileCount` says it), carried in the marker.
 */
export function figureText(page: PageContext, figure: Figure, of: string, count: number, wording?: string): string {
  if (wording !== undefined && !A_WORDING.test(wording)) throw new Error(`a figure's wording is letters and digits: ${wording}`);
  return page.keptCounts?.marker(`${FIGURES[figure].code}/${of}`, count, wording) ?? FIGURES[figure].text(page.lang, count, wording);
}

/** An item's comment figure ("5 comments"): `figureText`'s. */
export const commentCountText = (page: PageContext, of: string, count: number): string => figureText(page, 'comments', of, count);

/** Stands for a viewer's value in a kept page: followed by its ref (`likes/12`, `live-position`) and `_`. */
const VIEWER_PLACEHOLDER = `viewer${randomBytes(18).toString('hex')}`;
const VIEWER_MARKER = new RegExp(`${VIEWER_PLACEHOLDER}([a-z-]+(?:/\\d{1,9})?)_`, 'g');

/**
 * A value of a page that is no part of its version (the event page's likes, whether this visitor
 * liked, where its live stream starts): in a page rendered for keeping, a marker the sending replaces
 * with the value read for that request (`ViewerValues`), never kept; else the value. `ref` is
 * `<name>` or `<name>/<id>` (lowercase letters and dashes, digits).
 */
export const viewerValue = (page: PageContext, ref: string, value: string): string => page.keptViewer?.marker(ref, value) ?? value;

/** The values a kept page fills in for each request (`viewerValue`): those its first statement read, and how to read the others. */
interface ViewerValues {
  read: Record<string, string>;
  /** Reads values of refs the first statement did not know of (a page another request rendered meanwhile): one statement. */
  load: (refs: string[]) => Promise<Record<string, string>>;
}

/** The refs of the viewer's values the page kept for this request names: its first statement reads them (`ViewerValues.read`). */
export function keptViewerRefs(request: FastifyRequest, page: PageBasics): string[] {
  return page.message ? [] : (keptPages(request.server.ctx).noteOf(keyOf(request, page))?.viewer ?? []);
}

/**
 * The kept page with its viewer's markers replaced by the values read for this request (`value`),
 * in one pass; the values of refs it does not know (a page another request rendered meanwhile) are
 * read then, in one statement, and put into a second pass.
 */
async function fillViewer(body: string, value: (ref: string) => string | undefined, viewer: ViewerValues | undefined): Promise<string> {
  if (!viewer || !body.includes(VIEWER_PLACEHOLDER)) return body;
  const missing = new Set<string>();
  const filled = body.replace(VIEWER_MARKER, (marker: string, ref: string) => {
    const known = value(ref);
    if (known === undefined) missing.add(ref);
    return known === undefined ? marker : escapeHtml(known);
  });
  if (!missing.size) return filled;
  const loaded = await viewer.load([...missing]);
  return filled.replace(VIEWER_MARKER, (_, ref: string) => escapeHtml(loaded[ref] ?? ''));
}

/** The version of a page that fills its figures in at sending, as its first statement read it (db/versions.ts `countedPageVersionFields`). */
interface KeptPageVersion {
  /** The page's version without the comments and ratings on its items. */
  pageVersion: string;
  /** The sum of the comments and ratings on its items: its figures may have moved when it did; a page that shows more of them than their figures is kept under it too. */
  threadVersion: string;
}

/** Figures by ref, as read at `at` (`<pageVersion>~<threadVersion>`). */
interface HeldFigures {
  at: string;
  values: Map<string, number>;
}

/**
 * What a kept page's rendering noted: whether it depends on the comments and ratings beyond their
 * figures, and the figures this process last read for it.
 */
interface CountsNote {
  comments: boolean;
  held?: HeldFigures;
  /** The refs of its viewer's values (`viewerValue`). */
  viewer?: string[];
}

const kept = new WeakMap<object, KeptAnswers<CountsNote>>();

/** A kept page's key: its address, language and viewer (their account as loaded, without the bell). */
function keyOf(request: FastifyRequest, page: PageBasics): string {
  const { bell: _, ...account } = page.user ?? { bell: undefined };
  return `${request.url}\u0001${page.lang}\u0001${page.user ? JSON.stringify(account) : ''}`;
}

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
 * without its items' comments and ratings, and its figures (`figureText`: items' comments and
 * ratings, module tiles' items, comments and participants) are put in at sending too, read in a
 * statement of their own when they changed since this process last read them (the requests for
 * the page that overlap share it), else those it holds; a
 * page whose rendering said it depends on the comments beyond their figures is kept per comment
 * as well. With `viewer`, the values that are the viewer's own or change without the page's version
 * (`viewerValue`: the event page's likes and live position) are put in at sending, those the page's
 * first statement read for this request (the kept page's note names their refs: `keptViewerRefs`),
 * else those this request's own rendering read, else read now. A page that shows a
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
  viewer?: ViewerValues,
): Promise<FastifyReply> {
  const fresh = () => issueQuestion(request.server.ctx.config.secretKey);
  const { db } = request.server.ctx;
  // The viewer's values this request's own rendering read (the answer is this request's when it carries `own`).
  const shown = new Map<string, string>();
  const keptViewer: KeptViewer | undefined = viewer && { marker: (ref, value) => (shown.set(ref, value), `${VIEWER_PLACEHOLDER}${ref}_`) };
  const viewerNote = (note: Omit<CountsNote, 'viewer'>): CountsNote => (viewer ? { ...note, viewer: [...shown.keys()] } : note);
  // Those the first statement read first, then (an answer this request rendered) those its rendering read.
  const viewerFilled = (answer: KeptAnswer<CountsNote>, own: CountsNote | undefined) =>
    fillViewer(answer.body ?? '', (ref) => (viewer && Object.hasOwn(viewer.read, ref) ? viewer.read[ref] : answer.note === own ? shown.get(ref) : undefined), viewer);
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
    let own: CountsNote | undefined;
    const answer = await pages.get(key, version, new Date(), async () => {
      shown.clear();
      const body = renderPage(await render(await framed({ ...basics, user, csrf: CSRF_PLACEHOLDER, keptViewer })));
      own = viewerNote({ comments: false });
      return { body, note: own };
    });
    return sendHtml(reply, filled(await viewerFilled(answer, own)));
  }
  const at = `${version.pageVersion}~${version.threadVersion}`;
  // The figures this request's own rendering read, and its note (the answer is this request's when it carries that note).
  const rendered = new Map<string, number>();
  let own: CountsNote | undefined;
  const compute = async () => {
    rendered.clear();
    shown.clear();
    let comments = false;
    const keptCounts: KeptCounts = {
      marker: (ref, count, wording) => (rendered.set(ref, count), `${COUNT_PLACEHOLDER}${ref}${wording === undefined ? '' : `~${wording}`}_`),
      dependOnComments: () => void (comments = true),
    };
    const body = renderPage(await render(await framed({ ...basics, user, csrf: CSRF_PLACEHOLDER, keptCounts, keptViewer })));
    own = viewerNote({ comments });
    return { body, note: own };
  };
  const held = pages.noteOf(key)?.held;
  // A page that shows more of the comments than their figures is kept per comment too; a key's first rendering tells.
  const dependent = pages.noteOf(key)?.comments === true;
  let answer = await pages.get(key, dependent ? at : version.pageVersion, new Date(), compute);
  if (answer.note?.comments && !dependent) answer = await pages.get(key, at, new Date(), compute);
  // The figures of this version: those this request's rendering read, and those this process holds for it.
  const figures = new Map([...(answer.note === own ? rendered : []), ...(held?.at === at ? held.values : [])]);
  const filledIn = await fillFigures(request, basics.lang, `${key}\u0001${at}`, await viewerFilled(answer, own), figures);
  if (answer.note && figures.size) answer.note.held = { at, values: figures };
  return sendHtml(reply, filled(filledIn));
}

/**
 * The kept page with its figures' markers replaced by the figures of its version (`figures`: those
 * this process held for it, or its own rendering read), and those still missing (the version moved
 * since the process read them, or a page another request rendered) read now in one statement,
 * which the requests for the same page and version (`version`: its key and version) that overlap
 * share (http/shared-reads.ts); the ones read are added to `figures`.
 */
async function fillFigures(request: FastifyRequest, lang: Lang, version: string, body: string, figures: Map<string, number>): Promise<string> {
  if (!body.includes(COUNT_PLACEHOLDER)) return body;
  const missing = [...new Set([...body.matchAll(COUNT_MARKER)].map(([, ref]) => ref))].filter((ref) => !figures.has(ref));
  const { db, reads } = request.server.ctx;
  if (missing.length) for (const [ref, count] of Object.entries(await reads.load(`figures\u0001${version}\u0001${missing.join(' ')}`, () => loadKeptFigures(db, missing)))) figures.set(ref, Number(count));
  return body.replace(COUNT_MARKER, (_, ref: string, wording: string | undefined) => escapeHtml((byCode.get(ref.slice(0, 1)) ?? FIGURES.comments.text)(lang, Number(figures.get(ref) ?? 0), wording)));
}

function keptPages(ctx: FastifyInstance['ctx']): KeptAnswers<CountsNote> {
  let pages = kept.get(ctx);
  if (!pages) kept.set(ctx, (pages = ctx.memory.keep(new KeptAnswers<CountsNote>(8_000_000))));
  return pages;
}
