import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { fillQuestion, issueQuestion } from '../http/challenge.js';
import { KeptAnswers } from '../http/kept-answers.js';
import type { Bell } from '../http/auth.js';
import type { PageBasics, PageContext } from './context.js';
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

const kept = new WeakMap<object, KeptAnswers>();

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
 * QUESTION_PLACEHOLDER), are put in at sending time. A page that shows a
 * message left by the previous request is rendered for this request alone. Overlapping requests for
 * one page share one rendering; at most 8 M characters of pages are kept per process, the oldest go
 * first.
 */
export async function sendKeptPage(
  request: FastifyRequest,
  reply: FastifyReply,
  basics: PageBasics,
  version: string | null,
  render: (page: PageContext) => Promise<VNode>,
): Promise<FastifyReply> {
  const fresh = () => issueQuestion(request.server.ctx.config.secretKey);
  const { db } = request.server.ctx;
  // Read only when the page is rendered: a kept page's version says whether its frame moved.
  const framed = async (page: PageBasics): Promise<PageContext> => ({ ...page, ...(await (version === null ? loadSiteFrame(db) : keptSiteFrame(db, version))) });
  if (basics.message || version === null) return sendHtml(reply, fillQuestion(renderPage(await render(await framed(basics))), fresh));
  // The bell is no part of the key: it is put in at sending, as the form token is.
  const { bell, ...account } = basics.user ?? { bell: undefined };
  const key = `${request.url}\u0001${basics.lang}\u0001${basics.user ? JSON.stringify(account) : ''}`;
  const user = basics.user && bell ? { ...basics.user, bell: BELL_PLACEHOLDER } : basics.user;
  const { body } = await keptPages(request.server.ctx).get(key, version, new Date(), async () => renderPage(await render(await framed({ ...basics, user, csrf: CSRF_PLACEHOLDER }))));
  return sendHtml(reply, fillQuestion(fillBell((body ?? '').replaceAll(CSRF_PLACEHOLDER, basics.csrf), bell), fresh));
}

function keptPages(owner: object): KeptAnswers {
  let pages = kept.get(owner);
  if (!pages) kept.set(owner, (pages = new KeptAnswers(8_000_000)));
  return pages;
}
