import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { VNode } from 'preact';
import { fillQuestion, issueQuestion } from '../http/challenge.js';
import { KeptAnswers } from '../http/kept-answers.js';
import type { PageContext } from './context.js';
import { renderPage, sendHtml } from './render.js';

/** Stands for the visitor's form token in a kept page; each answer gets the visitor's own token in its place. */
const CSRF_PLACEHOLDER = `csrf${randomBytes(18).toString('hex')}`;

const kept = new WeakMap<object, KeptAnswers>();

/**
 * Sends a page kept in this process, or renders and keeps it. A page is kept under its version
 * (`pageVersionField` of db/versions.ts, read with what the page loads before it decides; null: the
 * page is not kept) and the whole second (pages say "3 days remaining"). It depends on its address
 * (path and query), its language and who is looking: anonymous visitors share it; a signed-in user's
 * page is kept for that user, with their account as loaded (staff places included), and is never
 * sent to anyone else. The visitor's form token, and a fresh no-script spam question where the page
 * asks one (http/challenge.ts QUESTION_PLACEHOLDER), are put in at sending time. A page that shows a
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
  const key = `${request.url}\u0001${page.lang}\u0001${page.user ? JSON.stringify(page.user) : ''}`;
  const { body } = await keptPages(request.server.ctx).get(key, version, new Date(), async () => renderPage(await render({ ...page, csrf: CSRF_PLACEHOLDER })));
  return sendHtml(reply, fillQuestion((body ?? '').replaceAll(CSRF_PLACEHOLDER, page.csrf), fresh));
}

function keptPages(owner: object): KeptAnswers {
  let pages = kept.get(owner);
  if (!pages) kept.set(owner, (pages = new KeptAnswers(8_000_000)));
  return pages;
}
