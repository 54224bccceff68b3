import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { fillQuestion, issueQuestion } from '../http/challenge.js';
import { KeptAnswers } from '../http/kept-answers.js';
import type { Bell } from '../http/auth.js';
import type { PageContext } from './context.js';
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
 * page is not kept) and the whole second (pages say "3 days remaining"). It depends on its address
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
  page: PageContext,
  version: string | null,
  render: (page: PageContext) => Promise<VNode>,
): Promise<FastifyReply> {
  const fresh = () => issueQuestion(request.server.ctx.config.secretKey);
  if (page.message || version === null) return sendHtml(reply, fillQuestion(renderPage(await render(page)), fresh));
  // The bell is no part of the key: it is put in at sending, as the form token is.
  const { bell, ...account } = page.user ?? { bell: undefined };
  const key = `${request.url}\u0001${page.lang}\u0001${page.user ? JSON.stringify(account) : ''}`;
  const user = page.user && bell ? { ...page.user, bell: BELL_PLACEHOLDER } : page.user;
  const { body } = await keptPages(request.server.ctx).get(key, version, new Date(), async () => renderPage(await render({ ...page, user, csrf: CSRF_PLACEHOLDER })));
  return sendHtml(reply, fillQuestion(fillBell((body ?? '').replaceAll(CSRF_PLACEHOLDER, page.csrf), bell), fresh));
}

function keptPages(ctx: FastifyInstance['ctx']): KeptAnswers {
  let pages = kept.get(ctx);
  if (!pages) kept.set(ctx, (pages = ctx.memory.keep(new KeptAnswers(8_000_000))));
  return pages;
}
