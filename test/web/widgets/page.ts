import type { FastifyInstance } from 'fastify';
import { readFileSync } from 'node:fs';
import type { Fixture } from '../../../src/cli/fixture-schema.js';
import { contentTypeId } from '../../../src/core/contenttypes/registry.js';
import { type AuthUser, currentUser } from '../../../src/http/auth.js';
import { ensureCsrfToken, pageVisitor } from '../../../src/http/session.js';
import { basicWorldWith, daysFromNow, load } from '../../fixtures.js';
import { createTestApp, type TestApp } from '../../helpers.js';
import { widgetBundle } from './build.js';

/**
 * The world of the widget tests (basicWorld: users admin, initiator, moderator 3, member 4 — a
 * participant —, user 5, other 6 in the public project 1): idea 1 in a phase that allows comments
 * and ratings, poll 1 in a running voting phase (unregistered voters allowed), the live event
 * module 30 with two affiliations.
 */
export const IDEA = 1;
export const POLL_MODULE = 20;
export const EVENT_MODULE = 30;

function widgetWorld(): Fixture {
  const running = { start_date: daysFromNow(-1), end_date: daysFromNow(5) };
  return basicWorldWith({
    modules: [
      { id: 10, slug: 'feedback', project: 1, name: 'Feedback', phases: [{ type: 'a4_candy_ideas:collect_feedback', ...running }] },
      { id: POLL_MODULE, slug: 'poll', project: 1, name: 'Poll', description: 'Tell us', blueprint_type: 'PO', phases: [{ type: 'a4polls:voting', name: 'Voting', description: 'Vote', ...running }] },
      { id: EVENT_MODULE, slug: 'town-hall', project: 1, name: 'Town hall', blueprint_type: 'IE', phases: [{ type: 'a4_candy_interactive_events:issue', name: 'Issue phase', description: 'Ask', ...running }] },
    ],
    ideas: [{ id: IDEA, module: 10, creator: 6, name: 'More benches', description: 'Along the river' }],
    comments: [{ id: 1, creator: 6, target: { type: 'idea', id: IDEA }, comment: 'Wooden benches last longer' }],
    live_questions: [{ id: 1, module: EVENT_MODULE, text: 'Will there be shade?', affiliation: 12 }],
    polls: [{ id: 1, module: POLL_MODULE, creator: 2, allow_unregistered_users: true }],
    questions: [{ id: 1, poll: 1, label: 'Which colour should the benches have?' }],
    choices: [
      { id: 1, question: 1, label: 'Green' },
      { id: 2, question: 1, label: 'Blue' },
    ],
    affiliations: [
      { id: 11, module: EVENT_MODULE, name: 'Residents' },
      { id: 12, module: EVENT_MODULE, name: 'Press' },
    ],
  });
}

/** A data attribute's JSON as Django's format_html writes it. */
const attribute = (value: unknown) => JSON.stringify(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The mount points as a4's and a+'s template tags write them, for the user the page is for. */
const MOUNTS: Record<string, (user: AuthUser | null) => string> = {
  idea: (user) => {
    const ct = contentTypeId('idea');
    const ratings = { contentType: ct, objectId: IDEA, authenticatedAs: user?.username ?? null, positiveRatings: 0, negativeRatings: 0, userRating: null, userRatingId: null, isReadOnly: false, style: 'ideas' };
    const report = { contentType: ct, objectId: IDEA, modalName: `report_for_${ct}_${IDEA}_modal` };
    const comments = { subjectType: ct, subjectId: IDEA, anchoredCommentId: '', withCategories: false, useModeratorMarked: false, noControlBar: false };
    return `<h1>More benches</h1>
<span data-a4-widget="follows" data-attributes="${attribute({ project: 'project', authenticatedAs: user?.username ?? null })}"></span>
<div data-a4-widget="ratings" data-attributes="${attribute(ratings)}"></div>
<span id="${report.modalName}" data-a4-widget="reports" data-attributes="${attribute(report)}" class="">Report</span>
<div data-a4-widget="comment_async" data-attributes="${attribute(comments)}"></div>`;
  },
  poll: () => {
    // a4's react_polls tag with a+'s extra attributes; the site key only has to be there (the stand-in ignores it).
    const poll = { pollId: 1, captchaUrl: '', prosopoSiteKey: 'allmende-altcha', captchaEnabled: true, captchaType: 'prosopo', manualLink: '' };
    return `<h1>Poll</h1><div data-a4-widget="polls" data-attributes="${attribute(poll)}"></div>`;
  },
  event: (user) => {
    const moderator = user !== null && [1, 2, 3].includes(user.id);
    const event = {
      information: 'Ask the council',
      questions_api_url: `/api/modules/${EVENT_MODULE}/interactiveevents/livequestions/`,
      likes_api_url: '/api/livequestions/LIVEQUESTIONID/likes/',
      present_url: '/org/interactiveevents/present/module/town-hall/',
      isModerator: moderator,
      categories: ['Residents', 'Press'],
      category_dict: { 11: 'Residents', 12: 'Press' },
      hasLikingPermission: true,
      hasAskQuestionsPermission: true,
      privatePolicyLabel: 'I confirm that I have read and accepted the {}terms of use{} and the {}data protection policy{}.',
      termsOfUseUrl: '/info/terms-of-use/',
      dataProtectionPolicyUrl: '/info/data-protection/',
    };
    return `<h1>Town hall</h1><div data-aplus-widget="questions" data-attributes="${attribute(event)}"></div>`;
  },
};

/** The widget test page, on the test app: `/widget-test/<idea|poll|event>/`; sets the CSRF cookie as a+'s pages do, and the event page opens the visitor's session as Allmende's does. */
function widgetPages(bundle: string) {
  return (app: FastifyInstance) => {
    const script = readFileSync(bundle);
    app.get('/widget-test/widgets.js', async (_request, reply) => reply.type('text/javascript; charset=utf-8').send(script));
    app.get('/widget-test/:page/', async (request, reply) => {
      const mount = MOUNTS[(request.params as { page: string }).page];
      if (!mount) return reply.code(404).type('text/plain').send('Not found');
      ensureCsrfToken(request, reply);
      // The event page gives the visitor identity that anonymous likes need (docs/decisions.md, issue 36 item 3; issue 40).
      if (mount === MOUNTS.event) pageVisitor(request).issue(reply);
      const body = mount(await currentUser(request));
      const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Widgets</title><script src="/widget-test/widgets.js" defer></script></head><body><main>${body}</main></body></html>`;
      return reply.type('text/html; charset=utf-8').send(html);
    });
  };
}

/** The test app with the widget pages, loaded with the world. */
export async function widgetApp(): Promise<TestApp> {
  const bundle = await widgetBundle();
  const t = await createTestApp({}, { routes: widgetPages(bundle) });
  await load(t.db, widgetWorld());
  return t;
}
